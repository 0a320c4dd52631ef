"""The league schedule and the match seating: the guarantees of ``leagues.schedule``."""

import ast
import datetime
import pathlib
import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues import schedule
from leagues.schedule import ScheduleError, double_round_robin, match_dates, match_seating

TEAM_COUNTS = range(3, 17)


def patterns(days, teams):
    """Per team a string over the matchdays: H home, A away, - bye, . nothing."""
    result = dict.fromkeys(teams, "")
    for day in days:
        playing = Counter()
        for fixture in day.fixtures:
            result[fixture.home] += "H"
            result[fixture.away] += "A"
            playing[fixture.home] += 1
            playing[fixture.away] += 1
        for team in teams:
            if team == day.bye:
                result[team] += "-"
            elif not playing[team]:
                result[team] += "."
    return result


def test_the_module_is_pure_python():
    source = pathlib.Path(schedule.__file__).read_text()
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert not any(name.split(".")[0] == "django" for name in imported)


@pytest.mark.parametrize("n", TEAM_COUNTS)
def test_every_pair_meets_twice_once_at_each_home(n):
    teams = [f"team {i}" for i in range(n)]
    days = double_round_robin(teams)
    venues = Counter((f.home, f.away) for day in days for f in day.fixtures)
    assert set(venues) == {(a, b) for a in teams for b in teams if a != b}
    assert set(venues.values()) == {1}
    assert len(days) == (2 * (n - 1) if n % 2 == 0 else 2 * n)


@pytest.mark.parametrize("n", TEAM_COUNTS)
def test_no_team_plays_twice_on_one_matchday(n):
    for day in double_round_robin(list(range(n))):
        playing = [t for f in day.fixtures for t in (f.home, f.away)]
        assert len(playing) == len(set(playing))
        assert day.bye not in playing
        # Everybody plays except the team with the bye.
        assert len(playing) + (day.bye is not None) == n


@pytest.mark.parametrize("n", TEAM_COUNTS)
def test_home_and_away_are_balanced_over_the_season_and_in_each_half(n):
    teams = list(range(n))
    days = double_round_robin(teams)
    half = len(days) // 2
    for pattern in patterns(days, teams).values():
        assert pattern.count("H") == pattern.count("A") == n - 1
        for part in (pattern[:half], pattern[half:]):
            assert abs(part.count("H") - part.count("A")) <= 1
        # No long runs at home or away.
        assert max(len(run) for run in re.findall("H+|A+", pattern.replace("-", ""))) <= 3


@pytest.mark.parametrize("n", TEAM_COUNTS)
def test_breaks_are_the_minimum_in_each_half(n):
    teams = list(range(n))
    days = double_round_robin(teams)
    half = len(days) // 2
    breaks = 0
    for pattern in patterns(days, teams).values():
        played = pattern[:half].replace("-", "")
        breaks += sum(1 for a, b in zip(played, played[1:], strict=False) if a == b)
    assert breaks == (n - 2 if n % 2 == 0 else 0)


@pytest.mark.parametrize("n", TEAM_COUNTS)
def test_byes_are_spread(n):
    teams = list(range(n))
    days = double_round_robin(teams)
    byes = [day.bye for day in days]
    if n % 2 == 0:
        assert byes == [None] * len(days)
        return
    half = len(days) // 2
    assert None not in byes
    for team in teams:
        rounds = [i for i, bye in enumerate(byes) if bye == team]
        # One bye in each half, a whole half apart: never two in a row.
        assert len(rounds) == 2
        assert rounds[0] < half <= rounds[1]
        assert rounds[1] - rounds[0] == half


@given(n=st.integers(min_value=2, max_value=24), data=st.data())
def test_any_team_keys_any_order(n, data):
    teams = data.draw(st.permutations([f"T{i}" for i in range(n)]))
    days = double_round_robin(teams)
    venues = Counter((f.home, f.away) for day in days for f in day.fixtures)
    assert len(venues) == n * (n - 1)
    assert [day.number for day in days] == list(range(1, len(days) + 1))


def test_too_few_or_repeated_teams_are_refused():
    with pytest.raises(ScheduleError) as info:
        double_round_robin(["alone"])
    assert info.value.code == "too_few_teams"
    with pytest.raises(ScheduleError) as info:
        double_round_robin(["a", "a", "b"])
    assert info.value.code == "duplicate_team"


def test_dates_every_interval_skipping_holidays():
    start = datetime.date(2026, 9, 15)
    christmas = datetime.date(2026, 12, 22)
    dates = match_dates(start, 16, interval_days=7, skip=[christmas])
    assert dates[0] == start
    assert christmas not in dates
    assert len(dates) == 16 == len(set(dates))
    gaps = [(b - a).days for a, b in zip(dates, dates[1:], strict=False)]
    assert set(gaps) == {7, 14}
    # No two matchdays in one calendar week.
    assert len({d.isocalendar()[:2] for d in dates}) == len(dates)


def test_dates_closer_than_a_week_are_refused():
    with pytest.raises(ScheduleError) as info:
        match_dates(datetime.date(2026, 9, 15), 4, interval_days=3)
    assert info.value.code == "interval_too_short"


@pytest.mark.parametrize("tables", range(1, 9))
@pytest.mark.parametrize("games", range(1, 5))
def test_seating_balances_wij_and_zij(tables, games):
    slots = match_seating(tables, games)
    assert len(slots) == tables * games
    for game in range(1, games + 1):
        in_game = [s for s in slots if s.game == game]
        # Every pair of both teams plays once per game, at its own table.
        assert sorted(s.home_pair for s in in_game) == list(range(1, tables + 1))
        assert sorted(s.away_pair for s in in_game) == list(range(1, tables + 1))
        assert sorted(s.table for s in in_game) == list(range(1, tables + 1))
        # Across the tables the home team sits as wij and as zij.
        wij = sum(1 for s in in_game if s.home_side == "A")
        assert abs(wij - (tables - wij)) <= 1
    for pair in range(1, tables + 1):
        home = [s.home_side for s in slots if s.home_pair == pair]
        away = [s.away_side for s in slots if s.away_pair == pair]
        for sides in (home, away):
            assert abs(sides.count("A") - sides.count("B")) <= 1
            # Every pair changes sides from one game to the next.
            assert all(a != b for a, b in zip(sides, sides[1:], strict=False))


def test_four_tables_two_games_the_away_pairs_move_on():
    slots = match_seating(4, 2)
    assert [(s.game, s.table, s.home_pair, s.away_pair, s.home_side) for s in slots] == [
        (1, 1, 1, 1, "A"),
        (1, 2, 2, 2, "B"),
        (1, 3, 3, 3, "A"),
        (1, 4, 4, 4, "B"),
        (2, 1, 1, 3, "B"),
        (2, 2, 2, 4, "A"),
        (2, 3, 3, 1, "B"),
        (2, 4, 4, 2, "A"),
    ]


def test_two_tables_one_game_each_team_is_wij_once_and_zij_once():
    slots = match_seating(2, 1)
    assert [(s.table, s.home_pair, s.away_pair, s.home_side) for s in slots] == [
        (1, 1, 1, "A"),
        (2, 2, 2, "B"),
    ]
