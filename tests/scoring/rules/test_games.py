"""Ending a game: a boompje of 16 hands, a match to 500 or 1500, a single deal."""

import pytest

from scoring.rules import (
    GameCounts,
    InvalidGame,
    PerTeam,
    Seat,
    Team,
    count_game,
    dealer_of_hand,
    game_roem,
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


# --- What a game counts beside its totals (count_game) -------------------------------------


def stored(playing, *, pit="", nat=False, roem=(0, 0), verzaakt=""):
    """A hand as the site stores it (the fields :class:`ScoredHand` names)."""
    from types import SimpleNamespace

    return SimpleNamespace(
        playing=playing, pit=pit, nat=nat, roem_a=roem[0], roem_b=roem[1], verzaakt=verzaakt
    )


@pytest.mark.parametrize(
    "hand, counted",
    [
        (stored("A", pit="A"), {"marsen_a": 1}),
        (stored("B", pit="B"), {"marsen_b": 1}),
        (stored("A", pit="B", nat=True), {"tegenpit_b": 1, "nat_a": 1}),
        (stored("B", nat=True), {"nat_b": 1}),
        (stored("A", verzaakt="B", roem=(20, 0)), {"verzaken_b": 1, "roem_a": 20}),
        (stored("A", roem=(20, 50)), {"roem_a": 20, "roem_b": 50}),
        (stored("A", nat=True, roem=(20, 50)), {"nat_a": 1, "roem_b": 70}),
    ],
)
def test_a_hand_counts_its_pit_as_mars_or_tegenpit_and_nat_verzaken_and_roem(hand, counted):
    columns = count_game(get_ruleset("rotterdam"), [hand]).by_column()
    names = [
        f"{kind}_{team}"
        for kind in ("marsen", "tegenpit", "nat", "verzaken", "roem")
        for team in "ab"
    ]
    assert list(columns) == names
    assert columns == {name: counted.get(name, 0) for name in names}


def test_a_games_counts_add_up_its_hands_and_its_roem_is_what_the_teams_banked():
    ruleset = get_ruleset("rotterdam")
    hands = [
        stored("A", pit="A", roem=(100, 0)),
        stored("A", pit="A"),
        stored("B", pit="A", nat=True, roem=(0, 20)),
        stored("B", verzaakt="B", roem=(0, 50)),
    ]
    counts = count_game(ruleset, hands)
    assert counts == GameCounts(
        marsen=PerTeam(2, 0),
        tegenpit=PerTeam(1, 0),
        nat=PerTeam(0, 1),
        verzaken=PerTeam(0, 1),
        roem=PerTeam(170, 0),
    )
    assert counts.roem == game_roem(ruleset, hands)
    assert count_game(ruleset, []) == GameCounts(*[PerTeam(0, 0)] * 5)
