"""Tricks: winner, card points, roem, and the legal cards under each play rule.

The worked examples are seed 003's "Examples - How Tricks Play Out" (trumps are
hearts); the obligations are docs/rules.md's "Legal play", which decides where the
seeds disagree.
"""

import itertools

import pytest

from scoring.rules import (
    CARDS,
    Card,
    InvalidCard,
    PlayRule,
    RoemKind,
    Suit,
    Team,
    describe_roem,
    get_ruleset,
    legal_cards,
    score_trick,
    trick_points,
    trick_roem,
    trick_roem_detail,
    trick_winner,
)
from tests.scoring.legal_positions import ISSUE_POSITIONS, LEGAL

ROTTERDAM = get_ruleset("rotterdam")
AMSTERDAM = get_ruleset("amsterdam")
TRUMP_HIGH_TO_LOW = "J9ATKQ87"
PLAIN_HIGH_TO_LOW = "ATKQJ987"


def cards(text):
    return tuple(Card(c) for c in text.split())


# --- Seed 003, examples 1-4 -------------------------------------------------------------------


def test_example_1_following_suit_the_ace_takes_the_trick_worth_25():
    # West leads 10♠, you A♠, North 7♠, East K♠; trumps hearts.
    trick = ["TS", "AS", "7S", "KS"]
    assert trick_winner(trick, "H") == 1
    assert trick_points(trick, "H") == 25
    assert legal_cards("AS KH 7D", ["TS"], "H", ROTTERDAM) == cards("AS")


@pytest.mark.parametrize("ruleset", [ROTTERDAM, AMSTERDAM])
def test_example_2_void_in_the_led_suit_you_must_trump_and_a_low_trump_wins(ruleset):
    # West leads A♦; you hold no diamonds and must trump; your 8♥ beats the A♦.
    assert legal_cards("8H 7C KS", ["AD"], "H", ruleset) == cards("8H")
    assert trick_winner(["AD", "8H"], "H") == 1
    assert trick_winner(["AD", "8H", "TD", "KD"], "H") == 1


@pytest.mark.parametrize("ruleset", [ROTTERDAM, AMSTERDAM])
def test_example_3_you_must_overtrump_east_and_either_higher_trump_will_do(ruleset):
    # West K♦, North (partner) 7♦, East trumps with 8♥; you hold Q♥ J♥, no diamonds.
    trick = ["KD", "7D", "8H"]
    assert set(legal_cards("QH JH 7H AC", trick, "H", ruleset)) == set(cards("QH JH"))
    assert trick_winner([*trick, "JH"], "H") == 3


def test_example_4_partner_winning_amsterdam_lets_you_discard():
    # West Q♣, North (partner) A♣ winning, East 9♣; you have no clubs but trumps.
    trick = ["QC", "AC", "9C"]
    assert legal_cards("7H JH 8D KS", trick, "H", AMSTERDAM) == cards("7H JH 8D KS")


def test_example_4_under_rotterdam_the_partner_exception_does_not_apply_you_must_trump():
    # Seed 000's FAQ: "Do I have to trump when my partner is already winning? Yes."
    trick = ["QC", "AC", "9C"]
    assert legal_cards("7H JH 8D KS", trick, "H", ROTTERDAM) == cards("7H JH")


# --- Trick winner ------------------------------------------------------------------------------


@pytest.mark.parametrize(("higher", "lower"), list(itertools.combinations(TRUMP_HIGH_TO_LOW, 2)))
def test_trump_order_is_j_9_a_10_k_q_8_7(higher, lower):
    assert trick_winner([lower + "H", higher + "H"], "H") == 1
    assert trick_winner([higher + "H", lower + "H"], "H") == 0


@pytest.mark.parametrize(("higher", "lower"), list(itertools.combinations(PLAIN_HIGH_TO_LOW, 2)))
def test_plain_order_is_a_10_k_q_j_9_8_7(higher, lower):
    assert trick_winner([lower + "S", higher + "S"], "H") == 1
    assert trick_winner([higher + "S", lower + "S"], "H") == 0


def test_the_lowest_trump_beats_the_highest_plain_card():
    assert trick_winner(["AS", "TS", "7H", "KS"], "H") == 2


def test_a_card_of_another_suit_never_wins_without_trumps():
    assert trick_winner(["7C", "AD", "AS", "TD"], "H") == 0


def test_the_highest_of_several_trumps_wins():
    assert trick_winner(["AC", "9H", "JH", "AH"], "H") == 2


def test_a_trick_accepts_codes_cards_ints_a_string_and_suit_spellings():
    trick = ["TS", "AS", "7S", "KS"]
    for form in (trick, cards("TS AS 7S KS"), [int(Card(c)) for c in trick], "TS AS 7S KS"):
        for trump in ("H", "h", Suit.HEARTS, 2, "♥"):
            assert score_trick(form, trump) == (1, 25, 0)
            assert trick_winner(form, trump) == 1
    assert trick_winner(iter(trick), "H") == 1


@pytest.mark.parametrize(
    ("trick", "message"),
    [
        ([], "one to four"),
        (["7C", "8C", "9C", "TC", "JC"], "one to four"),
        (["7C", "7c"], "twice"),
        (["7C", "XX"], "not a card"),
    ],
)
def test_a_malformed_trick_raises_invalid_card(trick, message):
    with pytest.raises(InvalidCard, match=message):
        trick_winner(trick, "H")


def test_score_trick_needs_exactly_four_cards():
    with pytest.raises(InvalidCard, match="four cards"):
        score_trick(["7C", "8C", "9C"], "H")
    with pytest.raises(InvalidCard, match="twice"):
        score_trick(["7C", "8C", "9C", "7C"], "H")
    with pytest.raises(InvalidCard, match="not a suit"):
        score_trick(["7C", "8C", "9C", "TC"], "X")


# --- Card points -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "trump", "points"),
    [
        ("JH 9H AH TH", "H", 55),  # 20 + 14 + 11 + 10
        ("JS 9S AS TS", "H", 23),  # 2 + 0 + 11 + 10
        ("KH QH 8H 7H", "H", 7),
        ("7C 8C 9C 7D", "H", 0),
    ],
)
def test_trick_points_add_the_card_values(trick, trump, points):
    assert trick_points(trick, trump) == points


@pytest.mark.parametrize("trump", list(Suit))
def test_eight_tricks_hold_152_points_the_last_trick_10_is_not_a_trick_point(trump):
    deck = list(CARDS)
    tricks = [deck[i : i + 4] for i in range(0, 32, 4)]
    assert sum(trick_points(t, trump) for t in tricks) == 152


# --- Roem --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "trump", "roem", "described"),
    [
        ("7C 8C 9C AD", "H", 20, "run of three ♣ 7-8-9"),
        ("9H TH JH 7C", "H", 20, "run of three ♥ 9-10-J"),  # trump 9-10-J is a run
        ("TC 7C 9C 8C", "H", 50, "run of four ♣ 7-8-9-10"),
        ("7C 8C 9C JC", "H", 20, "run of three ♣ 7-8-9"),
        ("7C 8C TC JC", "H", 0, ""),  # a gap is no run
        ("7C 8D 9C TS", "H", 0, ""),  # runs are in one suit
        ("KH QH 7C 8D", "H", 20, "stuk"),
        ("KH QH 7C 8D", "S", 0, ""),  # K+Q of a plain suit
        ("QH KH AH 7C", "H", 40, "run of three ♥ Q-K-A + stuk"),
        ("JH QH KH AH", "H", 70, "run of four ♥ J-Q-K-A + stuk"),
        ("TH JH QH KH", "H", 70, "run of four ♥ 10-J-Q-K + stuk"),
        ("QC KC AC 7D", "H", 20, "run of three ♣ Q-K-A"),
        ("8H 9H TH JH", "H", 50, "run of four ♥ 8-9-10-J"),
        ("AC AD AH AS", "H", 100, "four aces"),
        ("TC TD TH TS", "H", 100, "four tens"),
        ("KC KD KH KS", "H", 100, "four kings"),
        ("QC QD QH QS", "H", 100, "four queens"),
        ("JC JD JH JS", "H", 200, "four jacks"),
        ("9C 9D 9H 9S", "H", 0, ""),
        ("8C 8D 8H 8S", "H", 0, ""),
        ("7C 7D 7H 7S", "H", 0, ""),
    ],
)
def test_roem_in_a_trick(trick, trump, roem, described):
    assert trick_roem(trick, trump) == roem
    detail = trick_roem_detail(trick, trump)
    assert sum(item.points for item in detail) == roem
    assert describe_roem(detail) == described
    assert score_trick(trick, trump).roem == roem


def test_roem_detail_names_kinds_and_cards_and_its_repr_pastes_back():
    (run, stuk) = trick_roem_detail("AH QH 7C KH", "H")
    assert run.kind is RoemKind.RUN_OF_THREE and run.cards == cards("QH KH AH")
    assert stuk.kind is RoemKind.STUK and stuk.points == 20
    from scoring.rules import Roem  # noqa: F401 - used by eval

    assert eval(repr(run)) == run  # noqa: S307


def test_roem_made_with_the_losers_cards_goes_to_the_trick_winner():
    # Seed 000 FAQ: your queen completes a run with two enemy cards; they win it.
    # West (team B) leads A♣, North 7♣, East (B) K♣, South (you, A) Q♣; trumps hearts.
    leader = 3  # West
    trick = ["AC", "7C", "KC", "QC"]
    winner_seat = (leader + trick_winner(trick, "H")) % 4
    assert Team.of_seat(winner_seat) is Team.B
    assert trick_roem(trick, "H") == 20


# --- Legal cards -------------------------------------------------------------------------------

# The table of positions is shared with the trick checker's JavaScript agreement test.


@pytest.mark.parametrize(("rule", "hand", "trick", "expected", "code"), LEGAL)
def test_legal_cards(rule, hand, trick, expected, code):
    assert legal_cards(hand, trick.split(), "H", rule) == cards(expected)
    preset = ROTTERDAM if rule is PlayRule.ROTTERDAM else AMSTERDAM
    assert legal_cards(cards(hand), cards(trick), Suit.HEARTS, preset) == cards(expected)


@pytest.mark.parametrize(("rule", "hand", "trick", "trump", "expected", "code"), ISSUE_POSITIONS)
def test_legal_cards_with_their_own_trump(rule, hand, trick, trump, expected, code):
    assert legal_cards(hand.split(), trick.split(), trump, rule) == cards(expected)


def test_amsterdam_no_undertrump_over_the_partners_trump_while_holding_a_higher_one():
    # Issue 15: clubs trumps, partner trumped the A♦ with 8♣; 7♣ would undertrump.
    assert legal_cards(["7C", "KC"], ["AD", "8C", "KD"], "C", AMSTERDAM) == cards("KC")
    # Every card a lower trump: the undertrump is then the only play.
    assert legal_cards(["7C"], ["AD", "8C", "KD"], "C", AMSTERDAM) == cards("7C")


def test_legal_cards_keep_the_order_of_the_hand():
    assert legal_cards(["QH", "7D", "7H"], ["AC"], "H", "rotterdam") == cards("QH 7H")
    assert legal_cards(["7H", "7D", "QH"], ["AC"], "H", "rotterdam") == cards("7H QH")


@pytest.mark.parametrize(
    ("hand", "trick", "ruleset", "message"),
    [
        ("7H 8H", "7H", ROTTERDAM, "both in the hand and in the trick"),
        ("7H 7H", "AC", ROTTERDAM, "twice in the hand"),
        ("", "AC", ROTTERDAM, "empty hand"),
        ("7H", "AC KC QC JC", ROTTERDAM, "complete"),
        ("7H", "AC AC", ROTTERDAM, "twice"),
        ("7H ZZ", "AC", ROTTERDAM, "not a card"),
    ],
)
def test_impossible_positions_raise_invalid_card(hand, trick, ruleset, message):
    with pytest.raises(InvalidCard, match=message):
        legal_cards(hand.split(), trick.split(), "H", ruleset)


def test_legal_cards_refuses_an_unknown_play_rule():
    with pytest.raises(ValueError, match="play rule"):
        legal_cards(["7H"], [], "H", "utrecht")
