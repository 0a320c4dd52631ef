"""The league table rules, with worked examples a league secretary can redo by hand."""

import ast
import pathlib
from fractions import Fraction

import pytest

from leagues import table as league_table
from leagues.table import (
    DivisionStanding,
    LineTie,
    MatchResult,
    Outcome,
    Scoring,
    club_ranking,
    promotion_relegation,
    score_match,
)
from leagues.table import (
    league_table as rank,
)

FIXED = Scoring()  # total points decide; 2 / 1 / 0; head-to-head, difference, points for


def test_the_module_is_pure_python():
    source = pathlib.Path(league_table.__file__).read_text()
    tree = ast.parse(source)
    modules = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    assert not [m for m in modules if m and m.startswith("django")]


def test_total_points_decide_the_match():
    # Table 1: home 3000 - 2500; table 2: home 2400 - 2600. 5400 - 5100.
    outcome = score_match([(3000, 2500), (2400, 2600)], FIXED)
    assert outcome.outcome is Outcome.HOME
    assert (outcome.home_points, outcome.away_points) == (5400, 5100)
    assert (outcome.home_game_points, outcome.away_game_points) == (2, 2)
    assert (outcome.home_match_points, outcome.away_match_points) == (2, 0)


def test_game_points_decide_the_match_per_table():
    tables = Scoring(win_by="tables")
    # One table each: a draw on game points, whatever the totals.
    outcome = score_match([(3000, 2500), (2400, 2600)], tables)
    assert outcome.outcome is Outcome.DRAW
    assert (outcome.home_match_points, outcome.away_match_points) == (1, 1)
    # A tied table is one game point each: 1 + 2 against 1 + 0.
    outcome = score_match([(2000, 2000), (2600, 2400)], tables)
    assert (outcome.home_game_points, outcome.away_game_points) == (3, 1)
    assert outcome.outcome is Outcome.HOME


def test_equal_totals_are_a_draw():
    outcome = score_match([(2500, 2400), (2400, 2500)], FIXED)
    assert outcome.outcome is Outcome.DRAW
    assert outcome.home_match_points == outcome.away_match_points == 1


def test_proportional_points_split_the_shared_points_exactly():
    shared = Scoring(points_rule="proportional", shared=10)
    outcome = score_match([(3000, 2500), (2400, 2600)], shared)
    # 10 * 5400 / 10500 = 36/7, the rest to the other team.
    assert outcome.home_match_points == Fraction(36, 7)
    assert outcome.away_match_points == Fraction(34, 7)
    # With game points deciding: 2 : 2 is 5 : 5.
    by_tables = Scoring(points_rule="proportional", shared=10, win_by="tables")
    assert score_match([(3000, 2500), (2400, 2600)], by_tables).home_match_points == 5


def test_proportional_points_of_nothing_and_negative_scores():
    shared = Scoring(points_rule="proportional", shared=6)
    assert score_match([(0, 0)], shared).home_match_points == 3
    # A director's minus points cannot make a share negative.
    outcome = score_match([(-100, 500)], shared)
    assert (outcome.home_match_points, outcome.away_match_points) == (0, 6)


def test_each_tie_break_once():
    with pytest.raises(ValueError):
        Scoring(tie_breaks=("wins", "wins"))


def m(home, away, *games):
    return MatchResult(home=home, away=away, games=tuple(games))


def table(rows):
    return [(row.team, row.place, row.played, row.won, row.drawn, row.lost) for row in rows]


def test_head_to_head_splits_teams_equal_on_match_points():
    results = [
        # A and B both win 2 of 3; B beat A, but A has the bigger difference.
        m("A", "B", (2000, 2100)),
        m("A", "C", (3000, 1000)),
        m("A", "D", (3000, 1000)),
        m("B", "C", (2100, 2000)),
        m("D", "B", (2100, 2000)),
        m("C", "D", (1500, 1400)),
    ]
    rows = rank("ABCD", results, FIXED)
    # A: 4 mp (beat C and D), B: 4 (beat A and C), C: 2 (beat D), D: 2 (beat B).
    by_team = {r.team: r for r in rows}
    assert by_team["A"].match_points == by_team["B"].match_points == 4
    # Head-to-head first: B beat A.
    assert [r.team for r in rows][:2] == ["B", "A"]
    # C and D: C beat D head-to-head.
    assert [r.team for r in rows][2:] == ["C", "D"]
    # Point difference first: A (+3900) above B.
    difference_first = Scoring(tie_breaks=("point_difference", "head_to_head"))
    assert [r.team for r in rank("ABCD", results, difference_first)][:2] == ["A", "B"]


def test_head_to_head_is_taken_within_the_group_still_equal():
    # A, B, C all 4 match points in a cycle plus wins over D; the cycle is equal on
    # head-to-head, so point difference decides among the three.
    results = [
        m("A", "B", (2010, 2000)),
        m("B", "C", (2010, 2000)),
        m("C", "A", (2010, 2000)),
        m("A", "D", (2500, 2000)),
        m("B", "D", (2300, 2000)),
        m("C", "D", (2100, 2000)),
    ]
    rows = rank("ABCD", results, FIXED)
    assert [(r.team, r.place, r.shared) for r in rows] == [
        ("A", 1, False),
        ("B", 2, False),
        ("C", 3, False),
        ("D", 4, False),
    ]
    assert [r.point_difference for r in rows] == [500, 300, 100, -900]


def test_teams_equal_on_everything_share_the_place():
    results = [
        m("A", "B", (2000, 2000)),
        m("C", "D", (2500, 2000)),
        m("B", "A", (2000, 2000)),
        m("D", "C", (2000, 2500)),
    ]
    rows = rank("DCBA", results, FIXED)
    assert [(r.team, r.place, r.shared) for r in rows] == [
        ("C", 1, False),
        ("A", 2, True),
        ("B", 2, True),
        ("D", 4, False),
    ]
    assert table(rows)[1] == ("A", 2, 2, 0, 2, 0)


def test_teams_without_matches_are_listed():
    rows = rank(["X", "Y"], [], FIXED)
    assert [(r.team, r.place, r.played, r.match_points) for r in rows] == [
        ("X", 1, 0, 0),
        ("Y", 1, 0, 0),
    ]


def standing(level, places, promote=0, relegate=0):
    rows = []
    for place, team in places:
        row = league_table.TableRow(team=team, place=place)
        rows.append(row)
    return DivisionStanding(level=level, rows=rows, promote=promote, relegate=relegate)


def test_promotion_and_relegation_between_three_divisions():
    divisions = [
        standing(1, [(1, "a1"), (2, "a2"), (3, "a3"), (4, "a4")], promote=1, relegate=1),
        standing(2, [(1, "b1"), (2, "b2"), (3, "b3"), (4, "b4")], promote=1, relegate=2),
        standing(3, [(1, "c1"), (2, "c2"), (3, "c3")], promote=2, relegate=1),
    ]
    levels = promotion_relegation(divisions)
    assert levels == {
        "a1": 1,  # the top division promotes nobody
        "a2": 1,
        "a3": 1,
        "a4": 2,
        "b1": 1,
        "b2": 2,
        "b3": 3,
        "b4": 3,
        "c1": 2,
        "c2": 2,
        "c3": 3,  # the bottom division relegates nobody
    }


def test_a_tie_on_the_line_needs_a_decision():
    divisions = [
        standing(1, [(1, "a1"), (2, "a2"), (3, "a3"), (3, "a4")], relegate=1),
        standing(2, [(1, "b1"), (1, "b2"), (3, "b3")], promote=1),
    ]
    with pytest.raises(LineTie) as info:
        promotion_relegation(divisions)
    assert set(info.value.teams) == {"a3", "a4"}
    assert info.value.line == "relegation"
    with pytest.raises(LineTie) as info:
        promotion_relegation(divisions, lots={"a3": 1, "a4": 2})
    assert set(info.value.teams) == {"b1", "b2"}
    assert info.value.line == "promotion"
    levels = promotion_relegation(divisions, lots={"a3": 2, "a4": 1, "b1": 2, "b2": 1})
    assert levels["a3"] == 2 and levels["a4"] == 1
    assert levels["b2"] == 1 and levels["b1"] == 2


def test_a_tie_away_from_the_lines_needs_nothing():
    divisions = [standing(1, [(1, "a"), (1, "b"), (3, "c")], relegate=1), standing(2, [(1, "d")])]
    assert promotion_relegation(divisions) == {"a": 1, "b": 1, "c": 2, "d": 2}


def test_more_moves_than_teams_is_refused():
    with pytest.raises(ValueError):
        promotion_relegation(
            [standing(1, [(1, "a")], relegate=1), standing(2, [(1, "b")], promote=2)]
        )


def test_clubs_are_ranked_by_their_best_teams_over_the_divisions():
    divisions = [
        standing(1, [(1, "Troef 1"), (2, "Ruiten 1"), (3, "Harten 1")]),
        standing(2, [(1, "Troef 2"), (2, "Harten 2"), (2, "Klaver 1"), (4, "Ruiten 2")]),
    ]
    club_of = {
        "Troef 1": "Troef",
        "Troef 2": "Troef",
        "Ruiten 1": "Ruiten",
        "Ruiten 2": "Ruiten",
        "Harten 1": "Harten",
        "Harten 2": "Harten",
        "Klaver 1": "Klaver",
    }
    rows = club_ranking(divisions, club_of)
    # Overall: Troef 1 (1), Ruiten 1 (2), Harten 1 (3), Troef 2 (4), Harten 2 and
    # Klaver 1 (5), Ruiten 2 (7).
    assert [(r.club, r.place, r.positions) for r in rows] == [
        ("Troef", 1, (1, 4)),
        ("Ruiten", 2, (2, 7)),
        ("Harten", 3, (3, 5)),
        ("Klaver", 4, (5,)),
    ]


def test_clubs_with_the_same_positions_share_the_place():
    divisions = [standing(1, [(1, "x1"), (1, "y1")]), standing(2, [(1, "x2")])]
    rows = club_ranking(divisions, {"x1": "X", "y1": "Y", "x2": "X"})
    # X has one more team at the same best position: X above Y.
    assert [(r.club, r.place, r.shared) for r in rows] == [("X", 1, False), ("Y", 2, False)]
    rows = club_ranking(divisions[:1], {"x1": "X", "y1": "Y"})
    assert [(r.club, r.place, r.shared) for r in rows] == [("X", 1, True), ("Y", 1, True)]
