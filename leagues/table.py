"""The league table (*competitiestand*): match results in, ranked teams out.

Plain Python, no Django: ``leagues.selectors`` reads each match's
games (their stored totals plus the team adjustments, such as the 162 + 100 of
verzaken) and hands them to :func:`league_table`; nothing here re-scores a hand.

Words
-----
- **points** (*punten*): a team's score in one game (boompje), its column of
  the score sheet: *wij* for the pair at N/S, *zij* for the pair at E/W.
  A team's match points-for is the sum over all tables and games of the match.
- **game points** (*tafelpunten*): per game (one table, one boompje) 2 for the
  team with more points, 1 each for a tie, 0 for the other.
- **match points** (*wedstrijdpunten*): what a match is worth in the table.

How a match is decided (:class:`WinBy`)
---------------------------------------
``total``: the team with more points over all tables wins; equal is a draw.
``tables``: the team with more game points wins; equal is a draw.

Match points (:class:`PointsRule`)
----------------------------------
``fixed``: ``win`` / ``draw`` / ``loss`` points (e.g. 2 / 1 / 0).
``proportional``: ``shared`` points are split in proportion to the score that
decides the match (points, or game points with ``tables``):
``shared * own / (own + other)``; 0 : 0 splits equally, a negative score counts
as 0. Kept as exact fractions (``Fraction``), so two teams are never told
apart by rounding; pages show two decimals.

Ranking (:func:`league_table`)
------------------------------
Only the matches given count (the selector passes the matches both captains
confirmed). Teams are ordered by match points, then by the league's
tie-breaks in its order (:class:`TieBreak`):

- ``head_to_head``: match points in the matches between the teams still equal,
  computed within that group (a mini-table of just those teams);
- ``point_difference``: points for minus points against;
- ``points_for``: more points for;
- ``game_points``: more game points;
- ``wins``: more matches won.

Each criterion splits the group of still-equal teams; each part goes on with
the next criterion (so head-to-head is always among the teams equal at that
step). Teams equal on everything share the place (1, 2, 2, 4), listed by name.

Promotion and relegation (:func:`promotion_relegation`)
-------------------------------------------------------
Divisions are ordered by level (1 is the top). The first ``promote`` teams of
a division go up to the next division above it, the last ``relegate`` go down
to the next one below; the top division promotes nobody and the bottom one
relegates nobody. Teams sharing a place across one of these lines cannot be
split by the table: the organiser decides (a play-off or lots) and passes the
order as ``lots``; without it :class:`LineTie` is raised.

Club ranking (:func:`club_ranking`)
-----------------------------------
All teams of a season get an overall position: every team of a higher
division ranks above every team of a lower one, and within a division the
place counts (so the second of division 2 with 8 teams in division 1 is 10th).
Clubs are ranked by the sorted list of their teams' overall positions,
compared item by item (their best team first, then their second best, ...);
a club with one more team ranks above a club whose list is equal up to then.
Clubs with the same list share the place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from itertools import groupby

__all__ = [
    "ClubRow",
    "DivisionStanding",
    "LineTie",
    "MatchOutcome",
    "MatchResult",
    "Outcome",
    "PointsRule",
    "Scoring",
    "TableRow",
    "TieBreak",
    "WinBy",
    "club_ranking",
    "league_table",
    "promotion_relegation",
    "score_match",
]


class WinBy(StrEnum):
    TOTAL = "total"
    TABLES = "tables"


class PointsRule(StrEnum):
    FIXED = "fixed"
    PROPORTIONAL = "proportional"


class TieBreak(StrEnum):
    HEAD_TO_HEAD = "head_to_head"
    POINT_DIFFERENCE = "point_difference"
    POINTS_FOR = "points_for"
    GAME_POINTS = "game_points"
    WINS = "wins"


class Outcome(StrEnum):
    HOME = "home"
    AWAY = "away"
    DRAW = "draw"


GAME_WIN, GAME_DRAW = 2, 1


@dataclass(frozen=True, slots=True)
class Scoring:
    """How a league scores matches and ranks teams (the league's settings as values)."""

    win_by: WinBy = WinBy.TOTAL
    points_rule: PointsRule = PointsRule.FIXED
    win: int = 2
    draw: int = 1
    loss: int = 0
    shared: int = 10
    tie_breaks: tuple[TieBreak, ...] = (
        TieBreak.HEAD_TO_HEAD,
        TieBreak.POINT_DIFFERENCE,
        TieBreak.POINTS_FOR,
    )

    def __post_init__(self):
        object.__setattr__(self, "win_by", WinBy(self.win_by))
        object.__setattr__(self, "points_rule", PointsRule(self.points_rule))
        tie_breaks = tuple(TieBreak(t) for t in self.tie_breaks)
        if len(set(tie_breaks)) != len(tie_breaks):
            raise ValueError("Each tie-break once.")
        object.__setattr__(self, "tie_breaks", tie_breaks)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A played match: ``games`` holds (home points, away points) for every game."""

    home: Hashable
    away: Hashable
    games: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    home_points: int
    away_points: int
    home_game_points: int
    away_game_points: int
    outcome: Outcome
    home_match_points: Fraction
    away_match_points: Fraction


def _game_points(a, b):
    if a > b:
        return GAME_WIN, 0
    if a < b:
        return 0, GAME_WIN
    return GAME_DRAW, GAME_DRAW


def _share(total, own, other):
    own, other = max(own, 0), max(other, 0)
    if own + other == 0:
        return Fraction(total, 2)
    return Fraction(total * own, own + other)


def score_match(games: Iterable[tuple[int, int]], scoring: Scoring) -> MatchOutcome:
    """The outcome and match points of one match from its games' points."""
    games = list(games)
    home = sum(a for a, _b in games)
    away = sum(b for _a, b in games)
    gp = [_game_points(a, b) for a, b in games]
    home_gp = sum(a for a, _b in gp)
    away_gp = sum(b for _a, b in gp)
    decider = (home_gp, away_gp) if scoring.win_by is WinBy.TABLES else (home, away)
    if decider[0] > decider[1]:
        outcome = Outcome.HOME
    elif decider[0] < decider[1]:
        outcome = Outcome.AWAY
    else:
        outcome = Outcome.DRAW
    if scoring.points_rule is PointsRule.PROPORTIONAL:
        home_mp = _share(scoring.shared, *decider)
        away_mp = Fraction(scoring.shared) - home_mp
    else:
        fixed = {
            Outcome.HOME: (scoring.win, scoring.loss),
            Outcome.AWAY: (scoring.loss, scoring.win),
            Outcome.DRAW: (scoring.draw, scoring.draw),
        }[outcome]
        home_mp, away_mp = Fraction(fixed[0]), Fraction(fixed[1])
    return MatchOutcome(
        home_points=home,
        away_points=away,
        home_game_points=home_gp,
        away_game_points=away_gp,
        outcome=outcome,
        home_match_points=home_mp,
        away_match_points=away_mp,
    )


@dataclass(slots=True)
class TableRow:
    """One team's line of the league table."""

    team: Hashable
    place: int = 0
    shared: bool = False
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: Fraction = Fraction(0)
    points_for: int = 0
    points_against: int = 0
    game_points_for: int = 0
    game_points_against: int = 0

    @property
    def point_difference(self):
        return self.points_for - self.points_against


def _add(row, outcome, *, home):
    row.played += 1
    if outcome.outcome is Outcome.DRAW:
        row.drawn += 1
    elif (outcome.outcome is Outcome.HOME) == home:
        row.won += 1
    else:
        row.lost += 1
    if home:
        row.match_points += outcome.home_match_points
        row.points_for += outcome.home_points
        row.points_against += outcome.away_points
        row.game_points_for += outcome.home_game_points
        row.game_points_against += outcome.away_game_points
    else:
        row.match_points += outcome.away_match_points
        row.points_for += outcome.away_points
        row.points_against += outcome.home_points
        row.game_points_for += outcome.away_game_points
        row.game_points_against += outcome.home_game_points


def _key_function(criterion, group, outcomes):
    """Bigger is better, for the teams of ``group``."""
    if criterion is TieBreak.HEAD_TO_HEAD:
        members = set(group)
        mini = defaultdict(Fraction)
        for result, outcome in outcomes:
            if result.home in members and result.away in members:
                mini[result.home] += outcome.home_match_points
                mini[result.away] += outcome.away_match_points
        return lambda row: mini[row.team]
    return {
        TieBreak.POINT_DIFFERENCE: lambda row: row.point_difference,
        TieBreak.POINTS_FOR: lambda row: row.points_for,
        TieBreak.GAME_POINTS: lambda row: row.game_points_for,
        TieBreak.WINS: lambda row: row.won,
    }[criterion]


def _split(rows, criteria, outcomes):
    """Groups of rows in ranking order; the rows of one group are equal on everything."""
    if len(rows) == 1 or not criteria:
        return [rows]
    key = _key_function(criteria[0], [row.team for row in rows], outcomes)
    ordered = sorted(rows, key=key, reverse=True)
    groups = []
    for _value, part in groupby(ordered, key=key):
        groups.extend(_split(list(part), criteria[1:], outcomes))
    return groups


def league_table(
    teams: Iterable[Hashable],
    results: Iterable[MatchResult],
    scoring: Scoring,
    *,
    name: Callable[[Hashable], str] = str,
) -> list[TableRow]:
    """The ranked table of ``teams`` from ``results`` (matches of other teams are ignored)."""
    rows = {team: TableRow(team=team) for team in teams}
    outcomes = []
    for result in results:
        if result.home not in rows or result.away not in rows:
            continue
        outcome = score_match(result.games, scoring)
        outcomes.append((result, outcome))
        _add(rows[result.home], outcome, home=True)
        _add(rows[result.away], outcome, home=False)
    by_match_points = sorted(rows.values(), key=lambda row: row.match_points, reverse=True)
    groups = []
    for _points, part in groupby(by_match_points, key=lambda row: row.match_points):
        groups.extend(_split(list(part), scoring.tie_breaks, outcomes))
    table, place = [], 1
    for group in groups:
        for row in sorted(group, key=lambda row: name(row.team)):
            row.place = place
            row.shared = len(group) > 1
            table.append(row)
        place += len(group)
    return table


# --- Promotion and relegation ------------------------------------------------------------


class LineTie(ValueError):
    """Teams share a place across a promotion or relegation line: someone must decide."""

    def __init__(self, level, teams, line):
        super().__init__(f"Division {level}: {sorted(map(str, teams))} tie on the {line} line.")
        self.level = level
        self.teams = tuple(teams)
        self.line = line  # "promotion" or "relegation"


@dataclass(frozen=True, slots=True)
class DivisionStanding:
    """A division's final table with its promotion and relegation counts."""

    level: int
    rows: Sequence[TableRow]
    promote: int = 0
    relegate: int = 0


def _final_order(standing, lots):
    """The rows in order, teams sharing a place ordered by their lot when one is given."""
    return sorted(standing.rows, key=lambda row: (row.place, lots.get(row.team, 0)))


def _check_line(standing, order, cut, lots, line):
    if not 0 < cut < len(order):
        return
    above, below = order[cut - 1], order[cut]
    if above.place != below.place:
        return
    tied = [row.team for row in order if row.place == above.place]
    given = [lots.get(team) for team in tied]
    if None in given or len(set(given)) != len(given):
        raise LineTie(standing.level, tied, line)


def promotion_relegation(
    divisions: Sequence[DivisionStanding], *, lots: Mapping[Hashable, int] | None = None
) -> dict[Hashable, int]:
    """The level each team plays at next season."""
    lots = dict(lots or {})
    ordered = sorted(divisions, key=lambda d: d.level)
    if len({d.level for d in ordered}) != len(ordered):
        raise ValueError("One division per level.")
    moves = {}
    for index, standing in enumerate(ordered):
        order = _final_order(standing, lots)
        count = len(order)
        up = standing.promote if index > 0 else 0
        down = standing.relegate if index < len(ordered) - 1 else 0
        if up + down > count:
            raise ValueError(
                f"Division {standing.level} has {count} teams; {up} cannot go up and {down} down."
            )
        _check_line(standing, order, up, lots, "promotion")
        _check_line(standing, order, count - down, lots, "relegation")
        for position, row in enumerate(order):
            if position < up:
                moves[row.team] = ordered[index - 1].level
            elif position >= count - down:
                moves[row.team] = ordered[index + 1].level
            else:
                moves[row.team] = standing.level
    return moves


# --- Club ranking ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClubRow:
    club: Hashable
    place: int
    shared: bool
    positions: tuple[int, ...] = field(default=())
    teams: tuple[Hashable, ...] = field(default=())


def club_ranking(
    divisions: Sequence[DivisionStanding],
    club_of: Mapping[Hashable, Hashable],
    *,
    name: Callable[[Hashable], str] = str,
) -> list[ClubRow]:
    """Clubs ranked by their teams' overall positions over all divisions."""
    offset = 0
    positions = defaultdict(list)
    for standing in sorted(divisions, key=lambda d: d.level):
        for row in standing.rows:
            positions[club_of[row.team]].append((offset + row.place, row.team))
        offset += len(standing.rows)
    infinity = offset + 1
    longest = max((len(v) for v in positions.values()), default=0)

    def compare_key(club):
        # Padded with "no team", so a longer list with an equal start ranks higher.
        ranks = sorted(p for p, _team in positions[club])
        return tuple(ranks + [infinity] * (longest - len(ranks)))

    clubs = sorted(positions, key=lambda c: (compare_key(c), name(c)))
    table, place = [], 1
    for _k, part in groupby(clubs, key=compare_key):
        part = list(part)
        for club in part:
            entries = sorted(positions[club], key=lambda entry: entry[0])
            table.append(
                ClubRow(
                    club=club,
                    place=place,
                    shared=len(part) > 1,
                    positions=tuple(p for p, _t in entries),
                    teams=tuple(t for _p, t in entries),
                )
            )
        place += len(part)
    return table
