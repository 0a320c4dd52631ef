"""Ending a game: a boompje of 16 hands, a match to 500 or 1500, a single deal."""

import pytest

from scoring.rules import (
    InvalidGame,
    Seat,
    Team,
    dealer_of_hand,
    game_state,
    get_ruleset,
    score_game,
    score_hand,
)

ROTTERDAM = get_ruleset("rotterdam")


def test_a_boompje_is_complete_after_16_hands_and_the_higher_total_wins():
    hands = [(100, 62)] * 16
    game = score_game(ROTTERDAM, hands)
    assert game.complete and not game.accepts_more_hands
    assert game.totals == (1600, 992)
    assert game.winner == "A" and game.winner is Team.A
    assert game.hands_played == 16 and game.hands_needed == 0 and game.next_hand is None


def test_a_boompje_after_15_hands_needs_one_more():
    game = score_game(ROTTERDAM, [(100, 62)] * 15)
    assert not game.complete and game.accepts_more_hands
    assert game.winner is None and game.leader is Team.A
    assert game.hands_needed == 1 and game.next_hand == 16


def test_a_tie_after_16_hands_plays_extra_hands_until_it_breaks():
    level = [(100, 62), (62, 100)] * 8
    game = score_game(ROTTERDAM, level)
    assert not game.complete and game.hands_needed == 1 and game.totals.a == game.totals.b
    still_level = score_game(ROTTERDAM, [*level, (81, 81)])
    assert not still_level.complete  # hand 17 left it level: 81 + 81 both sides
    broken = score_game(ROTTERDAM, [*level, (81, 81), (0, 162)])
    assert broken.complete and broken.winner == "B" and broken.hands_played == 18


def test_a_hand_after_the_end_is_refused():
    with pytest.raises(InvalidGame) as info:
        score_game(ROTTERDAM, [(100, 62)] * 17)
    assert info.value.code == "hand_after_end"
    assert info.value.params["hand"] == 17
    assert isinstance(info.value, ValueError)


def test_clubs_playing_12_hands_end_after_12():
    twelve = ROTTERDAM.replace(hands_per_game=12)
    assert not score_game(twelve, [(100, 62)] * 11).complete
    assert score_game(twelve, [(100, 62)] * 12).complete


def test_score_game_takes_scored_hands():
    hand = score_hand(ROTTERDAM, playing="A", points=(81, 81))
    game = score_game(ROTTERDAM, [hand] * 3)
    assert game.totals == (0, 486)


def test_something_that_is_not_a_hand_is_refused():
    with pytest.raises(InvalidGame) as info:
        score_game(ROTTERDAM, [(100, 62), "162-0"])
    assert info.value.code == "not_a_hand" and info.value.params == {"hand": 2}


# (preset, hands, complete, winner)
TARGET_GAMES = {
    "test_match_500_ends_when_a_team_reaches_500": (
        "match-500", [(262, 0), (262, 0)], True, "A"),
    "test_match_500_499_is_not_enough": ("match-500", [(262, 0), (237, 0)], False, None),
    "test_match_500_exactly_500_ends_it": ("match-500", [(262, 0), (238, 0)], True, "A"),
    "test_match_500_both_pass_the_higher_wins": (
        "match-500", [(400, 400), (100, 162)], True, "B"),
    "test_match_500_both_pass_level_plays_on": (
        "match-500", [(300, 300), (300, 300)], False, None),
    "test_match_500_level_then_broken": (
        "match-500", [(300, 300), (300, 300), (0, 162)], True, "B"),
    "test_match_1500_ends_at_1500": ("match-1500", [(262, 0)] * 6, True, "A"),
    "test_match_1500_is_not_over_at_500": ("match-1500", [(262, 0)] * 2, False, None),
    "test_single_deal_is_one_hand": ("single-deal", [(100, 62)], True, "A"),
    "test_single_deal_level_is_a_draw": ("single-deal", [(81, 81)], True, None),
}  # fmt: skip


@pytest.mark.parametrize(
    ("preset", "hands", "complete", "winner"), list(TARGET_GAMES.values()), ids=list(TARGET_GAMES)
)
def test_game_end(preset, hands, complete, winner):
    game = score_game(get_ruleset(preset), hands)
    assert game.complete is complete
    assert game.winner == winner
    assert game.hands_needed == (0 if complete else 1)
    assert game.drawn is (complete and winner is None)
    assert game_state(preset, totals=game.totals, hands_played=len(hands)) == game


def test_a_game_without_hands_accepts_the_first():
    for preset in ("rotterdam", "match-500", "single-deal"):
        game = score_game(preset, [])
        assert game.accepts_more_hands and game.next_hand == 1 and game.totals == (0, 0)


def test_each_player_deals_four_times_in_a_boompje_clockwise():
    dealers = [dealer_of_hand(n) for n in range(1, 17)]
    assert dealers[:5] == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH]
    assert all(dealers.count(seat) == 4 for seat in Seat)
    assert dealer_of_hand(1, first_dealer=Seat.WEST) is Seat.WEST
