"""The speelschema of a league: who meets whom on which date, and who sits where.

Plain Python, no Django: ``leagues.services`` reads a division's
teams, calls :func:`double_round_robin` and :func:`match_dates`, and stores
the result; it calls :func:`match_seating` to seat a match's tables. Every
function here is a pure function of its inputs.

Words
-----
- **team** (*team*, *viertal*): a club's team in a league; here any hashable key.
- **matchday** (*speelronde*): one date of the schedule; every team plays at
  most one match on it. Matchdays are numbered from 1.
- **home / away** (*thuis / uit*): the home team hosts the match.
- **bye** (*vrije ronde*): with an odd number of teams, one team has no match
  on a matchday.
- **wij / zij**: the two columns of a score sheet; seats N and S are *wij*
  (team ``"A"``), E and W *zij* (team ``"B"``).

The double round robin (:func:`double_round_robin`)
-----------------------------------------------------
The circle method with de Werra's orientation. With ``n`` teams (one dummy
"bye" team added when ``n`` is odd, so ``m`` is even) team ``m - 1`` stays
fixed and the other ``c = m - 1`` sit on a circle. On matchday ``k`` (0-based,
``0 <= k < c``) the fixed team meets team ``k`` (at home on even ``k``), and for
``i = 1 .. m/2 - 1`` team ``k + i`` meets team ``k - i`` (mod ``c``), at home when
``i`` is odd. That is the first half: ``c`` matchdays in which every pair meets
once. The second half repeats it with home and away swapped.

Guarantees (``tests/leagues/test_schedule.py`` checks each for 3 to
16 teams, and the pairings for any order of 2 to 24):

- every pair of teams meets exactly twice, once at each one's home;
- on every matchday each team plays at most once;
- each team has as many home as away matches over the season, and within each
  half ``|home - away| <= 1`` (0 when ``n`` is odd);
- with an even ``n`` there is no bye; with an odd ``n`` there is exactly one
  bye per matchday, and each team has one bye in each half, ``n`` matchdays
  apart (they are spread: never on two matchdays in a row);
- in each half, the number of *breaks* (two home or two away matches in a row)
  is ``n - 2`` for even ``n`` (the minimum, de Werra) and 0 for odd ``n``
  (byes not counted); over the season no team plays more than three home or
  three away matches in a row.

Dates (:func:`match_dates`)
---------------------------
Matchday ``k`` is ``start + k * interval`` days, skipping listed dates (a skipped
date moves the rest of the schedule one interval on). The interval is at least
7 days, so no two matchdays fall in one calendar week: no team plays twice in
a week.

Seating a match (:func:`match_seating`)
---------------------------------------
A match is played at ``T`` tables, ``G`` games (boompjes) at each. Each team
brings ``T`` pairs, numbered 1..T (the captain's line-up). Home pair ``t`` keeps
table ``t``; in game ``r`` (1..G) it sits *wij* (N/S) when ``t + r`` is even,
otherwise *zij* (E/W), and the away pair opposite sits at the other side. The
away pairs move on among the tables of their own parity (odd tables 1, 3, 5,
...; even tables 2, 4, ...), one place per game: in game ``r`` table ``t`` gets the
away pair ``r - 1`` places further in that list (cyclically). Hence:

- in every game the home team sits *wij* at ``ceil(T/2)`` or ``floor(T/2)``
  tables and the away team at the others: across the tables each team sits as
  wij and as zij (equally often when ``T`` is even);
- every pair, home or away, changes sides from one game to the next (a pair
  stays on tables of one parity, so ``t + r`` changes parity each game): over a
  match each pair sits as often wij as zij, give or take one (exactly when ``G``
  is even);
- with two tables the pairs meet the same opponents in every game, sides
  swapped; with more tables an away pair meets up to ``ceil(T/2)`` different
  home pairs.
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "Fixture",
    "Matchday",
    "ScheduleError",
    "SeatingSlot",
    "double_round_robin",
    "match_dates",
    "match_seating",
    "MIN_INTERVAL_DAYS",
]

MIN_INTERVAL_DAYS = 7


class ScheduleError(ValueError):
    """The input cannot be scheduled (too few teams, a bad interval); ``code`` says why."""

    def __init__(self, message, *, code):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Fixture:
    """One match: ``home`` hosts ``away``."""

    home: Hashable
    away: Hashable


@dataclass(frozen=True, slots=True)
class Matchday:
    """One matchday (1-based ``number``): its matches and the team with a bye, if any."""

    number: int
    fixtures: tuple[Fixture, ...]
    bye: Hashable | None = None


def _first_half(m):
    """Index pairs (home, away) per matchday for ``m`` (even) slots; slot ``m - 1`` fixed."""
    c = m - 1
    days = []
    for k in range(c):
        pairs = [(c, k) if k % 2 == 0 else (k, c)]
        for i in range(1, m // 2):
            a, b = (k + i) % c, (k - i) % c
            pairs.append((a, b) if i % 2 == 1 else (b, a))
        days.append(pairs)
    return days


def double_round_robin(teams: Sequence[Hashable]) -> list[Matchday]:
    """Every team meets every other team home and away; ``2 * (n - 1)`` matchdays for
    an even ``n``, ``2 * n`` for an odd ``n``. The order of ``teams`` fixes who gets
    which slot (shuffle it first for a random schedule)."""
    teams = list(teams)
    if len(teams) < 2:
        raise ScheduleError("A schedule needs at least two teams.", code="too_few_teams")
    if len(set(teams)) != len(teams):
        raise ScheduleError("Each team once.", code="duplicate_team")
    slots: list[Hashable | None] = teams + ([None] if len(teams) % 2 else [])
    first = _first_half(len(slots))
    days = []
    for half in (0, 1):
        for pairs in first:
            fixtures, bye = [], None
            for h, a in pairs:
                home, away = (slots[h], slots[a]) if half == 0 else (slots[a], slots[h])
                if home is None or away is None:
                    bye = away if home is None else home
                    continue
                fixtures.append(Fixture(home=home, away=away))
            days.append(Matchday(number=len(days) + 1, fixtures=tuple(fixtures), bye=bye))
    return days


def match_dates(
    start: datetime.date,
    count: int,
    *,
    interval_days: int = 7,
    skip: Iterable[datetime.date] = (),
) -> list[datetime.date]:
    """The dates of ``count`` matchdays: every ``interval_days`` from ``start``, minus ``skip``."""
    if interval_days < MIN_INTERVAL_DAYS:
        raise ScheduleError(
            "Matchdays are at least a week apart, so no team plays twice in a week.",
            code="interval_too_short",
        )
    skip = set(skip)
    dates, day = [], start
    while len(dates) < count:
        if day not in skip:
            dates.append(day)
        day += datetime.timedelta(days=interval_days)
    return dates


@dataclass(frozen=True, slots=True)
class SeatingSlot:
    """Game ``game`` (1..G) at table ``table`` (1..T): which pairs, and the home team's side.

    ``home_side`` is ``"A"`` (wij, N/S) or ``"B"`` (zij, E/W); the away pair sits at
    the other side.
    """

    game: int
    table: int
    home_pair: int
    away_pair: int
    home_side: str

    @property
    def away_side(self):
        return "B" if self.home_side == "A" else "A"


def match_seating(tables: int, games: int) -> list[SeatingSlot]:
    """Where each pair of both teams sits, game by game and table by table."""
    if tables < 1 or games < 1:
        raise ScheduleError("A match has at least one table and one game.", code="no_tables")
    slots = []
    for game in range(1, games + 1):
        for table in range(1, tables + 1):
            same_parity = list(range(2 - table % 2, tables + 1, 2))
            index = same_parity.index(table)
            slots.append(
                SeatingSlot(
                    game=game,
                    table=table,
                    home_pair=table,
                    away_pair=same_parity[(index + game - 1) % len(same_parity)],
                    home_side="A" if (table + game) % 2 == 0 else "B",
                )
            )
    return slots
