"""Scoring one hand under every preset: made, nat, roem, pit; and refusing what no
deal can produce (InvalidHand, with field, code and params for the site)."""

import dataclasses

import pytest

from scoring.rules import (
    STUK,
    HandResult,
    InvalidHand,
    NatRoem,
    Outcome,
    PerTeam,
    Team,
    get_ruleset,
    score_hand,
)

ROTTERDAM = get_ruleset("rotterdam")

# (preset, playing, points, roem, pit, banked scores, nat)
SCORES = {
    # --- Rotterdam (seed 000) and everything that shares its scoring ----------------------
    "test_tied_81_81_is_nat": ("rotterdam", "A", (81, 81), (0, 0), None, (0, 162), True),
    "test_made_hand_banks_each_teams_points": (
        "rotterdam",
        "A",
        (90, 72),
        (0, 0),
        None,
        (90, 72),
        False,
    ),
    "test_made_hand_banks_each_teams_roem": (
        "rotterdam",
        "A",
        (120, 42),
        (20, 50),
        None,
        (140, 92),
        False,
    ),
    "test_defenders_roem_can_make_the_playing_team_nat": (
        "rotterdam",
        "A",
        (85, 77),
        (0, 20),
        None,
        (0, 182),
        True,
    ),
    "test_playing_teams_roem_can_save_it_from_nat": (
        "rotterdam",
        "A",
        (76, 86),
        (20, 0),
        None,
        (96, 86),
        False,
    ),
    "test_equal_points_plus_roem_is_nat": (
        "rotterdam",
        "A",
        (71, 91),
        (20, 0),
        None,
        (0, 182),
        True,
    ),
    "test_nat_gives_the_defenders_162_and_all_roem_of_both_teams": (
        "rotterdam",
        "A",
        (70, 92),
        (20, 20),
        None,
        (0, 202),
        True,
    ),
    "test_last_trick_10_decides_nat_made_with_it": (
        "rotterdam",
        "A",
        (86, 76),
        (0, 0),
        None,
        (86, 76),
        False,
    ),
    "test_last_trick_10_decides_nat_nat_without_it": (
        "rotterdam",
        "A",
        (76, 86),
        (0, 0),
        None,
        (0, 162),
        True,
    ),
    "test_defenders_are_never_nat_and_keep_what_they_score": (
        "rotterdam",
        "A",
        (150, 12),
        (0, 0),
        None,
        (150, 12),
        False,
    ),
    "test_pit_by_the_playing_team_adds_100": (
        "rotterdam",
        "A",
        (162, 0),
        (40, 0),
        "A",
        (302, 0),
        False,
    ),
    "test_pit_by_the_defenders_adds_100_to_their_162_and_roem": (
        "rotterdam",
        "A",
        (0, 162),
        (0, 20),
        "B",
        (0, 282),
        True,
    ),
    "test_162_without_pit_gets_no_bonus": (
        "rotterdam",
        "A",
        (162, 0),
        (0, 0),
        None,
        (162, 0),
        False,
    ),
    "test_team_b_playing_is_scored_the_same_way": (
        "rotterdam",
        "B",
        (81, 81),
        (0, 0),
        None,
        (162, 0),
        True,
    ),
    "test_team_b_playing_made": ("rotterdam", "B", (60, 102), (0, 20), None, (60, 122), False),
    "test_roem_with_zero_card_points_counts": (
        "rotterdam",
        "A",
        (162, 0),
        (0, 20),
        None,
        (162, 20),
        False,
    ),
    "test_amsterdam_scores_like_rotterdam_tie_is_nat": (
        "amsterdam",
        "A",
        (81, 81),
        (0, 0),
        None,
        (0, 162),
        True,
    ),
    "test_amsterdam_scores_like_rotterdam_nat_takes_all_roem": (
        "amsterdam",
        "B",
        (92, 70),
        (20, 20),
        None,
        (202, 0),
        True,
    ),
    "test_single_deal_scores_like_rotterdam": (
        "single-deal",
        "A",
        (100, 62),
        (50, 0),
        None,
        (150, 62),
        False,
    ),
    # --- match-500 (seed 002): card points only decide; all roem to the defenders on nat ---
    "test_match_500_fewer_than_82_card_points_is_nat": (
        "match-500",
        "A",
        (81, 81),
        (0, 0),
        None,
        (0, 162),
        True,
    ),
    "test_match_500_82_card_points_is_made": (
        "match-500",
        "A",
        (82, 80),
        (0, 0),
        None,
        (82, 80),
        False,
    ),
    "test_match_500_roem_does_not_count_for_nat_playing_roem_cannot_save": (
        "match-500",
        "A",
        (81, 81),
        (100, 0),
        None,
        (0, 262),
        True,
    ),
    "test_match_500_roem_does_not_count_for_nat_defenders_roem_cannot_sink": (
        "match-500",
        "A",
        (82, 80),
        (0, 100),
        None,
        (82, 180),
        False,
    ),
    "test_match_500_nat_gives_all_roem_including_the_playing_teams": (
        "match-500",
        "B",
        (92, 70),
        (20, 50),
        None,
        (232, 0),
        True,
    ),
    "test_match_500_pit_adds_100_on_top_of_162": (
        "match-500",
        "A",
        (162, 0),
        (0, 0),
        "A",
        (262, 0),
        False,
    ),
    # --- match-1500 (seed 003): declared roem, no transfer on nat --------------------------
    "test_match_1500_nat_has_no_roem_transfer_each_team_keeps_its_bonuses": (
        "match-1500",
        "A",
        (70, 92),
        ((50,), (STUK,)),
        None,
        (50, 182),
        True,
    ),
    "test_match_1500_not_more_card_points_is_nat": (
        "match-1500",
        "A",
        (81, 81),
        (0, 0),
        None,
        (0, 162),
        True,
    ),
    "test_match_1500_made_banks_points_and_declarations": (
        "match-1500",
        "A",
        (82, 80),
        ((50, 20), ()),
        None,
        (152, 80),
        False,
    ),
    "test_match_1500_roem_does_not_count_for_nat": (
        "match-1500",
        "A",
        (80, 82),
        ((100, 20), ()),
        None,
        (120, 162),
        True,
    ),
    "test_match_1500_pit_adds_100": (
        "match-1500",
        "B",
        (0, 162),
        ((), (20, 100)),
        "B",
        (0, 382),
        False,
    ),
    "test_match_1500_defenders_pit_the_playing_team": (
        "match-1500",
        "A",
        (0, 162),
        (0, 20),
        "B",
        (0, 282),
        True,
    ),
}


@pytest.mark.parametrize(
    ("preset", "playing", "points", "roem", "pit", "scores", "nat"),
    list(SCORES.values()),
    ids=list(SCORES),
)
def test_score_hand(preset, playing, points, roem, pit, scores, nat):
    result = score_hand(get_ruleset(preset), playing=playing, points=points, roem=roem, pit=pit)
    assert result.scores == scores
    assert result.nat is nat and result.made is not nat
    assert result.outcome is (Outcome.NAT if nat else Outcome.MADE)
    assert result.pit == pit
    assert result.playing == playing
    # Swapping teams A and B swaps the result.
    swapped = score_hand(
        get_ruleset(preset),
        playing=Team(playing).other,
        points=points[::-1],
        roem=roem[::-1],
        pit=None if pit is None else Team(pit).other,
    )
    assert swapped == result.swapped()


def test_tied_81_81_is_nat():
    # Seed 000 FAQ: "The playing team must score MORE than the defenders. An exact tie
    # means they failed: nat, zero points, everything to the defenders."
    for preset in ("rotterdam", "amsterdam", "match-500", "match-1500", "single-deal"):
        result = score_hand(get_ruleset(preset), playing="B", points=(81, 81))
        assert result.nat and result.scores == (162, 0)


def test_pit_by_the_defenders_is_nat_for_the_playing_team_and_100_for_them():
    result = score_hand(ROTTERDAM, playing="A", points=(0, 162), pit="B")
    assert result.nat and result.pit is Team.B and result.scores == (0, 262)


def test_nat_roem_can_be_lost_by_the_nat_team_in_a_club_ruleset():
    ruleset = dataclasses.replace(ROTTERDAM, nat_roem=NatRoem.NAT_TEAM_LOSES)
    result = score_hand(ruleset, playing="A", points=(70, 92), roem=(20, 20))
    assert result.scores == (0, 182)


def test_a_club_can_change_the_pit_bonus():
    ruleset = ROTTERDAM.replace(pit_bonus=150)
    assert score_hand(ruleset, playing="A", points=(162, 0), pit="A").scores == (312, 0)


def test_the_result_is_an_immutable_value_with_teams_and_pairs():
    result = score_hand(ROTTERDAM, playing=Team.A, points=[90, 72], roem=[20, 0])
    assert result == HandResult(
        playing=Team.A,
        points=PerTeam(90, 72),
        roem=PerTeam(20, 0),
        pit=None,
        outcome=Outcome.MADE,
        scores=PerTeam(110, 72),
    )
    assert result.scores.a == 110 and result.scores.of("B") == 72
    assert result.defenders is Team.B
    with pytest.raises(AttributeError):
        result.scores = (0, 0)
    assert eval(repr(result)) == result  # noqa: S307


@pytest.mark.parametrize("playing", ["A", "a", Team.A])
def test_teams_are_given_as_letters_or_team_values(playing):
    assert score_hand(ROTTERDAM, playing=playing, points=(100, 62)).playing is Team.A


def test_the_ruleset_may_be_given_by_preset_name():
    assert score_hand("match-500", playing="A", points=(81, 81), roem=(100, 0)).nat


def test_in_trick_roem_may_be_given_per_trick():
    result = score_hand(ROTTERDAM, playing="A", points=(100, 62), roem=((20, 50), [20]))
    assert result.roem == (70, 20)


# --- What no deal can produce -------------------------------------------------------------------

M1500 = get_ruleset("match-1500")

# (ruleset, playing, points, roem, pit, field, code)
INVALID = {
    "unknown_playing_team": (ROTTERDAM, "C", (81, 81), (0, 0), None, "playing", "unknown_team"),
    "no_playing_team": (ROTTERDAM, None, (81, 81), (0, 0), None, "playing", "unknown_team"),
    "playing_team_as_list": (ROTTERDAM, ["A"], (81, 81), (0, 0), None, "playing", "unknown_team"),
    "points_not_162": (ROTTERDAM, "A", (80, 80), (0, 0), None, "points", "points_sum"),
    "points_over_162": (ROTTERDAM, "A", (100, 100), (0, 0), None, "points", "points_sum"),
    "points_negative": (ROTTERDAM, "A", (163, -1), (0, 0), None, "points", "points_negative"),
    "points_float": (ROTTERDAM, "A", (81.0, 81), (0, 0), None, "points", "not_integer"),
    "points_bool": (ROTTERDAM, "A", (True, 161), (0, 0), None, "points", "not_integer"),
    "points_text": (ROTTERDAM, "A", ("81", "81"), (0, 0), None, "points", "not_integer"),
    "points_one_value": (ROTTERDAM, "A", (162,), (0, 0), None, "points", "not_pair"),
    "points_a_string": (ROTTERDAM, "A", "81", (0, 0), None, "points", "not_pair"),
    "points_a_number": (ROTTERDAM, "A", 162, (0, 0), None, "points", "not_pair"),
    "one_card_point": (ROTTERDAM, "A", (1, 161), (0, 0), None, "points", "points_impossible"),
    "161_card_points": (ROTTERDAM, "A", (161, 1), (0, 0), None, "points", "points_impossible"),
    "pit_without_162": (ROTTERDAM, "A", (150, 12), (0, 0), "A", "pit", "pit_without_all_points"),
    "pit_for_the_team_with_0": (ROTTERDAM, "A", (162, 0), (0, 0), "B", "pit",
                                "pit_without_all_points"),
    "pit_unknown_team": (ROTTERDAM, "A", (162, 0), (0, 0), "X", "pit", "unknown_team"),
    "roem_10": (ROTTERDAM, "A", (100, 62), (10, 0), None, "roem", "roem_impossible"),
    "roem_30": (ROTTERDAM, "A", (100, 62), (0, 30), None, "roem", "roem_impossible"),
    "roem_not_a_multiple_of_10": (ROTTERDAM, "A", (100, 62), (25, 0), None, "roem",
                                  "roem_impossible"),
    "roem_negative": (ROTTERDAM, "A", (100, 62), (-20, 0), None, "roem", "roem_negative"),
    "roem_negative_item": (ROTTERDAM, "A", (100, 62), ((50, -20), 0), None, "roem",
                           "roem_negative"),
    "roem_float": (ROTTERDAM, "A", (100, 62), (20.0, 0), None, "roem", "not_integer"),
    "roem_bool": (ROTTERDAM, "A", (100, 62), (True, 0), None, "roem", "not_integer"),
    "roem_one_value": (ROTTERDAM, "A", (100, 62), (20,), None, "roem", "not_pair"),
    "roem_of_one_trick_10": (ROTTERDAM, "A", (100, 62), ((10, 10), 0), None, "roem",
                             "roem_impossible"),
    "roem_530": (ROTTERDAM, "A", (150, 12), (530, 0), None, "roem", "roem_impossible"),
    "roem_660_without_pit": (ROTTERDAM, "A", (160, 2), (660, 0), None, "roem", "roem_too_high"),
    "roem_720_with_pit": (ROTTERDAM, "A", (162, 0), (720, 0), "A", "roem", "roem_too_high"),
    "roem_690_with_pit": (ROTTERDAM, "A", (162, 0), (690, 0), "A", "roem", "roem_impossible"),
    "four_jacks_without_their_26_points": (ROTTERDAM, "A", (20, 142), (200, 0), None, "roem",
                                           "roem_too_high"),
    "60_roem_with_0_card_points": (ROTTERDAM, "A", (0, 162), (60, 0), None, "roem",
                                   "roem_too_high"),
    "roem_for_the_team_that_took_no_trick": (ROTTERDAM, "A", (162, 0), (0, 20), "A", "roem",
                                             "roem_without_tricks"),
    "both_teams_together_too_much": (ROTTERDAM, "A", (81, 81), (400, 400), None, "roem",
                                     "roem_too_high"),
    "650_and_nothing_for_the_eighth_trick": (ROTTERDAM, "A", (152, 10), (650, 0), None, "roem",
                                            "roem_impossible"),
    "both_teams_together_530": (ROTTERDAM, "A", (100, 62), (300, 230), None, "roem",
                                "roem_impossible"),
    "declared_30": (M1500, "A", (100, 62), ((30,), ()), None, "roem", "roem_impossible"),
    "declared_total_230": (M1500, "A", (100, 62), (230, 0), None, "roem", "roem_impossible"),
    "declared_total_270": (M1500, "A", (100, 62), (270, 0), None, "roem", "roem_too_high"),
    "declared_three_runs_of_five": (M1500, "A", (100, 62), ((100, 100, 100), ()), None, "roem",
                                    "roem_too_high"),
    "declared_six_runs_of_three": (M1500, "A", (100, 62), ((20,) * 6, ()), None, "roem",
                                   "roem_impossible"),
    "counted_totals_with_runs_for_both_teams": (M1500, "A", (100, 62), (50, 50), None, "roem",
                                                "roem_conflict"),
    "declared_stuk_for_both_teams": (M1500, "A", (100, 62), ((20, STUK), (20, STUK)), None,
                                     "roem", "roem_conflict"),
    "counted_total_for_the_team_without_a_trick": (M1500, "A", (162, 0), (50, 20), "A",
                                                   "roem", "roem_without_tricks"),
}  # fmt: skip


@pytest.mark.parametrize(
    ("ruleset", "playing", "points", "roem", "pit", "field", "code"),
    list(INVALID.values()),
    ids=list(INVALID),
)
def test_invalid_hand_names_the_field_and_a_stable_code(
    ruleset, playing, points, roem, pit, field, code
):
    with pytest.raises(InvalidHand) as info:
        score_hand(ruleset, playing=playing, points=points, roem=roem, pit=pit)
    error = info.value
    assert isinstance(error, ValueError)
    assert (error.field, error.code) == (field, code)
    assert isinstance(error.params, dict) and error.params
    assert field in str(error)


def test_invalid_hand_messages_read_for_a_scorer():
    with pytest.raises(InvalidHand) as info:
        score_hand(ROTTERDAM, playing="A", points=(80, 80))
    assert str(info.value) == "card points must add up to 162: team A 80 + team B 80 = 160"
    assert info.value.params == {"a": 80, "b": 80, "total": 160, "expected": 162}
    with pytest.raises(InvalidHand) as info:
        score_hand(ROTTERDAM, playing="A", points=(20, 142), roem=(200, 0))
    assert "at least 26 card points" in str(info.value)
    assert info.value.params["limit"] == 26


@pytest.mark.parametrize(
    ("points", "roem", "pit"),
    [
        ((0, 162), (40, 0), None),  # two tricks of 7-8-9 and a zero card
        ((162, 0), (700, 0), "A"),  # the most roem a hand holds
        ((152, 10), (650, 50), None),  # seven tricks of roem; the eighth is a run
        ((26, 136), (200, 0), None),  # four jacks and nothing else
        ((100, 62), (300, 240), None),
    ],
)
def test_extreme_but_possible_roem_is_accepted(points, roem, pit):
    score_hand(ROTTERDAM, playing="A", points=points, roem=roem, pit=pit)


@pytest.mark.parametrize(
    "roem",
    [
        ((50,), (STUK,)),
        ((20, 20), (STUK,)),
        ((100, 20, 50, 50), (STUK,)),
        ((20, 50, 100, STUK), ()),
        ((50,), (50,)),
    ],
)
def test_declared_roem_that_one_team_can_score_is_accepted(roem):
    score_hand(M1500, playing="A", points=(100, 62), roem=roem)
