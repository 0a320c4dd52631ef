"""Cards, suits, ranks and card points (docs/rules.md, "Cards and card points")."""

import pickle

import pytest

from scoring.rules import (
    CARD_POINTS_TOTAL,
    CARDS,
    HAND_TOTAL,
    LAST_TRICK_BONUS,
    Card,
    InvalidCard,
    Rank,
    Suit,
    card_points,
    parse_card,
    parse_cards,
    parse_suit,
)


@pytest.mark.parametrize(
    "spelling",
    ["JH", "jh", "Jh", "jH", "J♥", Card("JH"), 20, CARDS[20]],
)
def test_every_spelling_of_a_card_gives_the_same_interned_card(spelling):
    assert Card(spelling) is CARDS[20]
    assert parse_card(spelling) is CARDS[20]


@pytest.mark.parametrize("spelling", ["TS", "10S", "10s", "ts", "T♠"])
def test_ten_is_written_t_or_10(spelling):
    assert parse_card(spelling) == Card.from_parts(Suit.SPADES, Rank.TEN)
    assert str(parse_card(spelling)) == "TS"


@pytest.mark.parametrize("bad", ["", "1H", "11H", "JX", "HJ", "J", "JHH", None, 32, -1, 2.5, "♥J"])
def test_a_card_that_cannot_be_read_raises_invalid_card(bad):
    with pytest.raises(InvalidCard, match="not a card"):
        parse_card(bad)
    assert issubclass(InvalidCard, ValueError)


@pytest.mark.parametrize("card", CARDS)
def test_card_repr_can_be_pasted_back_and_str_is_its_code(card):
    assert eval(repr(card)) is card  # noqa: S307 - the point of the test
    assert parse_card(str(card)) is card
    assert f"{card}" == str(card) == card.code
    assert pickle.loads(pickle.dumps(card)) is card


def test_a_card_is_a_small_int_suit_major_in_natural_rank_order():
    assert [int(c) for c in CARDS] == list(range(32))
    assert Card("7C") == 0 and Card("AC") == 7 and Card("7D") == 8 and Card("AS") == 31
    assert Card("9H").suit is Suit.HEARTS and Card("9H").rank is Rank.NINE
    assert Card("TH").label == "10♥"
    assert sorted([Card("AS"), Card("7C"), Card("TC")]) == [Card("7C"), Card("TC"), Card("AS")]


@pytest.mark.parametrize(
    ("spelling", "suit"),
    [("C", Suit.CLUBS), ("d", Suit.DIAMONDS), ("♥", Suit.HEARTS), ("spades", Suit.SPADES),
     (2, Suit.HEARTS), (Suit.CLUBS, Suit.CLUBS), ("Hearts", Suit.HEARTS)],
)  # fmt: skip
def test_suits_are_read_from_letters_symbols_names_and_ints(spelling, suit):
    assert parse_suit(spelling) is suit


@pytest.mark.parametrize("bad", ["X", "", None, 4, "HH"])
def test_an_unknown_suit_raises_invalid_card(bad):
    with pytest.raises(InvalidCard, match="not a suit"):
        parse_suit(bad)


def test_suit_and_rank_print_as_their_letters():
    assert str(Suit.HEARTS) == "H" and f"{Suit.HEARTS}" == "H" and Suit.HEARTS.symbol == "♥"
    assert str(Rank.TEN) == "T" and Rank.TEN.label == "10"
    assert repr(Suit.HEARTS) == "Suit.HEARTS" and repr(Rank.JACK) == "Rank.JACK"


@pytest.mark.parametrize(
    ("rank", "trump_points", "plain_points"),
    [
        ("J", 20, 2),
        ("9", 14, 0),
        ("A", 11, 11),
        ("T", 10, 10),
        ("K", 4, 4),
        ("Q", 3, 3),
        ("8", 0, 0),
        ("7", 0, 0),
    ],
)
def test_card_points_of_trumps_and_plain_cards(rank, trump_points, plain_points):
    assert card_points(rank + "H", "H") == trump_points
    assert card_points(rank + "H", "S") == plain_points
    assert Card(rank + "D").points(Suit.DIAMONDS) == trump_points
    assert Card(rank + "D").is_trump("D") and not Card(rank + "D").is_trump("C")


@pytest.mark.parametrize("trump", list(Suit))
def test_the_32_cards_hold_152_points_and_a_hand_162_with_the_last_trick(trump):
    assert sum(card_points(c, trump) for c in CARDS) == CARD_POINTS_TOTAL == 152
    assert CARD_POINTS_TOTAL + LAST_TRICK_BONUS == HAND_TOTAL == 162


def test_parse_cards_reads_a_string_of_codes_and_refuses_a_card_twice():
    assert parse_cards("JH 9H, AH") == (Card("JH"), Card("9H"), Card("AH"))
    assert parse_cards(["7c", 1]) == (Card("7C"), Card("8C"))
    with pytest.raises(InvalidCard, match="more than once"):
        parse_cards("JH jh")
