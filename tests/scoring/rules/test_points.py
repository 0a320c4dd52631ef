"""The 162 invariant as the core completes a written pair of card points: one blank
side is 162 minus the other (``other_points``), both blank belong to the team that
has them all (``all_points``: the pit team, the other team after verzaken)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import (
    HAND_TOTAL,
    InvalidHand,
    PerTeam,
    Team,
    all_points,
    complete_points,
    get_ruleset,
    other_points,
    score_hand,
    sheet,
)


@given(st.integers(min_value=0, max_value=HAND_TOTAL))
def test_other_points_and_points_make_the_hand_total(points):
    assert points + other_points(points) == HAND_TOTAL
    assert other_points(other_points(points)) == points


@pytest.mark.parametrize(
    ("team", "expected"),
    [(Team.A, PerTeam(162, 0)), ("B", PerTeam(0, 162)), ("a", PerTeam(162, 0))],
)
def test_all_points_gives_the_team_all_162(team, expected):
    assert all_points(team) == expected


@pytest.mark.parametrize("team", ["wij", "C", None])
def test_all_points_refuses_an_unknown_team(team):
    with pytest.raises(InvalidHand) as caught:
        all_points(team)
    assert caught.value.code == "unknown_team"


@pytest.mark.parametrize(
    ("a", "b", "owner", "expected"),
    [
        (90, None, None, PerTeam(90, 72)),
        (None, 72, None, PerTeam(90, 72)),
        (0, None, None, PerTeam(0, 162)),
        (None, None, Team.B, PerTeam(0, 162)),
        (None, None, "A", PerTeam(162, 0)),
        (90, None, Team.B, PerTeam(90, 72)),  # a written side wins over the owner
        (100, 100, None, PerTeam(100, 100)),  # both written: score_hand checks the sum
    ],
)
def test_complete_points_fills_the_blank_side(a, b, owner, expected):
    assert complete_points(a, b, owner=owner) == expected


def test_complete_points_without_an_owner_leaves_both_blank():
    assert complete_points(None, None) is None


def test_a_completed_pit_row_scores_as_a_pit():
    points = complete_points(None, None, owner=Team.A)
    result = score_hand("rotterdam", playing="A", points=points, roem=(0, 0), pit="A")
    assert result.scores == PerTeam(262, 0)


def test_the_sheet_reads_a_blank_side_as_162_minus_the_other():
    row = sheet.read_row(get_ruleset("rotterdam"), playing="A", points=(90, None))
    assert row.points == PerTeam(90, 72)


def test_the_sheet_reads_two_blank_sides_beside_a_pit_as_all_points():
    row = sheet.read_row(
        get_ruleset("rotterdam"), playing="B", points=(None, None), marks=("", "M")
    )
    assert row.points == all_points(Team.B)
    assert row.pit is Team.B
