"""How a club ranks its players: pure functions over per-evening lines.

No Django here: ``scoring.results.standings`` gathers each player's evenings from the
database (one aggregate query) and hands them to :func:`rank_season` or
:func:`rank_evening`, which apply the competition's settings in this order:

1. keep only the evenings that count (opening nights excluded, the period's dates);
2. keep a player's best N evenings when the club counts "best N of M"
   (by evening total, or by evening average when ranking by average); in a season
   of periods counted twice over (``best_periods``), the best N evenings of each
   period make its period result, and the season keeps the best M period results;
3. the score: the total of the kept evenings, or their average (points per game,
   or per evening: the club's ``average_unit``);
4. players below the minimum attendance are listed under the line, unranked;
5. equal scores are split by the tie-breaks in the club's order (more marsen,
   fewer nat, more roem, better average, head-to-head); players still equal
   share the rank (1, 2, 2, 4), never an arbitrary order.

Worked examples a secretary can redo by hand are in tests/scoring/results/test_ranking.py.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import groupby
from typing import NamedTuple

# The basis and the tie-breaks are competition settings: defined (pure) next to the
# competition model, which builds its choices from them; exported here as well.
from tournaments.ranking_rules import AverageUnit, Basis, PrizeRule, TieBreak

__all__ = [
    "AverageUnit",
    "Basis",
    "EveningLine",
    "PeriodResult",
    "PrizeRule",
    "RankedLine",
    "RankingSettings",
    "TieBreak",
    "prize_keys",
    "prize_places",
    "rank_evening",
    "rank_season",
]


class EveningLine(NamedTuple):
    """One player's (or pair's) evening: what the standings add up.

    ``games`` counts the rounds scored (played, sat out, or absence-scored);
    ``played`` is False for an evening scored only by the absence policy, which
    does not count as attendance. A named tuple: immutable, and four times cheaper
    to make than a frozen dataclass (a season makes one per player-evening).
    """

    evening: Hashable
    points: int
    games: int
    marsen: int = 0
    nat: int = 0
    roem: int = 0
    played: bool = True


@dataclass(frozen=True, slots=True)
class RankingSettings:
    """How the standings count. ``best_of``: a player's best N evenings (of the
    season, or of each period when ``best_periods`` is set); ``best_periods``: the
    season is the sum of a player's best M period results (two-level best-N)."""

    basis: Basis = Basis.TOTAL
    best_of: int | None = None
    min_attendance: int = 0
    tie_breaks: tuple[TieBreak, ...] = ()
    average_unit: AverageUnit = AverageUnit.GAME
    best_periods: int | None = None

    @classmethod
    def of(
        cls,
        *,
        basis="total",
        best_of=None,
        min_attendance=0,
        tie_breaks=(),
        average_unit="game",
        best_periods=None,
    ):
        return cls(
            basis=Basis(basis),
            best_of=best_of or None,
            min_attendance=min_attendance or 0,
            tie_breaks=tuple(TieBreak(t) for t in tie_breaks),
            average_unit=AverageUnit(average_unit),
            best_periods=best_periods or None,
        )


class PeriodResult(NamedTuple):
    """A player's result in one period of a season counted by periods: the total
    of the best N evenings in it; ``counted`` when it is among the best M periods."""

    period: Hashable
    points: int
    games: int
    counted: bool


@dataclass(frozen=True, slots=True)
class RankedLine:
    """A player's line in the standings. ``rank`` is None below the attendance line."""

    key: Hashable
    rank: int | None
    points: int
    games: int
    evenings: int
    average: Fraction
    marsen: int
    nat: int
    roem: int
    counted: tuple[Hashable, ...]
    dropped: tuple[Hashable, ...] = ()
    shared: bool = False
    tie_break: TieBreak | None = None
    lines: tuple[EveningLine, ...] = field(default=(), repr=False)
    basis: Basis = Basis.TOTAL
    #: In a season counted by periods: each period's result, in the season's order.
    periods: tuple[PeriodResult, ...] = ()

    @property
    def score(self):
        """What the ranking compares first: points, points per game, or marsen."""
        if self.basis is Basis.MARSEN:
            return self.marsen
        return self.average if self.basis is Basis.AVERAGE else self.points


def _average(points, games):
    return Fraction(points, games) if games else Fraction(0)


def _counted_average(points, games, evenings, unit):
    """The average of counted evenings: per game, or per evening (``unit``)."""
    return _average(points, evenings if unit is AverageUnit.EVENING else games)


def summarize(key, lines: Sequence[EveningLine], settings: RankingSettings) -> RankedLine:
    """A player's kept evenings and totals, before ranking."""
    lines = tuple(lines)
    # By column (one C-level pass): a season has a line per player-evening.
    evenings, points, games, marsen, nat, roem, played = (
        zip(*lines, strict=True) if lines else ((),) * len(EveningLine._fields)
    )
    kept = range(len(lines))
    dropped = ()
    if settings.best_of is not None and len(lines) > settings.best_of:
        # Best first; among equal evenings the earlier one is kept (stable sort). By
        # position, not by value: two evenings can be equal lines.
        if settings.basis is Basis.MARSEN:
            values = marsen
        elif settings.basis is Basis.AVERAGE and settings.average_unit is AverageUnit.GAME:
            values = list(map(_average, points, games))
        else:  # an evening's average per evening is its total
            values = points
        order = sorted(kept, key=values.__getitem__, reverse=True)
        kept = sorted(order[: settings.best_of])
        dropped = sorted(order[settings.best_of :])
    total_points = sum(map(points.__getitem__, kept))
    total_games = sum(map(games.__getitem__, kept))
    return RankedLine(
        key=key,
        rank=None,
        points=total_points,
        games=total_games,
        evenings=sum(map(bool, played)),
        average=_counted_average(total_points, total_games, len(kept), settings.average_unit),
        marsen=sum(map(marsen.__getitem__, kept)),
        nat=sum(map(nat.__getitem__, kept)),
        roem=sum(map(roem.__getitem__, kept)),
        counted=tuple(map(evenings.__getitem__, kept)),
        dropped=tuple(map(evenings.__getitem__, dropped)),
        lines=lines,
        basis=settings.basis,
    )


def summarize_periods(
    key, lines: Sequence[EveningLine], settings: RankingSettings, period_of: Mapping
) -> RankedLine:
    """A player's season counted by periods: each period's result is the best
    ``best_of`` evenings in it (:func:`summarize`), the season the best
    ``best_periods`` period results (by the basis; among equal ones the earlier
    period). ``period_of``: evening -> its period; an evening outside every period
    does not count (neither counted nor dropped), but it is attendance."""
    lines = tuple(lines)
    by_period: dict = {}
    for line in lines:  # the lines come by date, so the periods in the season's order
        period = period_of.get(line.evening)
        if period is not None:
            by_period.setdefault(period, []).append(line)
    results = [summarize(key, group, settings) for group in by_period.values()]
    order = sorted(range(len(results)), key=lambda i: results[i].score, reverse=True)
    kept = sorted(order[: settings.best_periods])
    counted = [results[i] for i in kept]
    points = sum(r.points for r in counted)
    games = sum(r.games for r in counted)
    evenings = tuple(e for r in counted for e in r.counted)
    in_periods = [line.evening for group in by_period.values() for line in group]
    kept_evenings = set(evenings)
    return RankedLine(
        key=key,
        rank=None,
        points=points,
        games=games,
        evenings=sum(line.played for line in lines),
        average=_counted_average(points, games, len(evenings), settings.average_unit),
        marsen=sum(r.marsen for r in counted),
        nat=sum(r.nat for r in counted),
        roem=sum(r.roem for r in counted),
        counted=evenings,
        dropped=tuple(e for e in in_periods if e not in kept_evenings),
        lines=lines,
        basis=settings.basis,
        periods=tuple(
            PeriodResult(period, r.points, r.games, i in kept)
            for i, (period, r) in enumerate(zip(by_period, results, strict=True))
        ),
    )


HeadToHead = Callable[[Hashable, Hashable], int]
"""``h2h(a, b)``: a's points minus b's points in the games where a and b were
opponents (positive: a did better)."""


def _tie_value(line: RankedLine, tie_break: TieBreak):
    """Larger is better."""
    if tie_break is TieBreak.MARSEN:
        return line.marsen
    if tie_break is TieBreak.FEWER_NAT:
        return -line.nat
    if tie_break is TieBreak.ROEM:
        return line.roem
    if tie_break is TieBreak.AVERAGE:
        return line.average
    raise ValueError(tie_break)


def _split(group: list[RankedLine], breaks: Sequence[TieBreak], h2h: HeadToHead | None):
    """Order a group of equal scores into subgroups by the tie-breaks, best first.

    Returns a list of (subgroup, deciding tie-break or None).
    """
    if len(group) == 1 or not breaks:
        return [(group, None)]
    first, rest = breaks[0], breaks[1:]
    if first is TieBreak.HEAD_TO_HEAD:
        if h2h is None:
            return _split(group, rest, h2h)
        keys = [line.key for line in group]
        value = {
            line.key: sum(h2h(line.key, other) for other in keys if other != line.key)
            for line in group
        }
    else:
        value = {line.key: _tie_value(line, first) for line in group}
    result = []
    for same in _equal_runs(group, key=lambda line: value[line.key]):
        decided = first if len(same) < len(group) else None
        for sub, deeper in _split(same, rest, h2h):
            result.append((sub, deeper or decided))
    return result


def _equal_runs(lines, key):
    """Lines sorted best first by ``key``, cut into runs of equal value."""
    ordered = sorted(lines, key=key, reverse=True)
    return [list(run) for _value, run in groupby(ordered, key=key)]


def rank_lines(
    lines: Iterable[RankedLine],
    settings: RankingSettings,
    *,
    h2h: HeadToHead | None = None,
    name: Callable[[Hashable], str] = str,
) -> list[RankedLine]:
    """Rank summarized lines: ranked players first (1, 2, 2, 4 ...), then the rest.

    Players sharing a rank are listed by ``name`` so the order is stable and
    visibly not a ranking.
    """
    lines = list(lines)
    ranked = [line for line in lines if line.evenings >= settings.min_attendance]
    below = [line for line in lines if line.evenings < settings.min_attendance]
    out: list[RankedLine] = []
    position = 1
    for group in _equal_runs(ranked, key=lambda line: line.score):
        for sub, decided in _split(group, settings.tie_breaks, h2h):
            for line in sorted(sub, key=lambda line: name(line.key)):
                out.append(replace(line, rank=position, shared=len(sub) > 1, tie_break=decided))
            position += len(sub)
    below.sort(key=lambda line: (-line.score, name(line.key)))
    out.extend(replace(line, rank=None) for line in below)
    return out


def rank_season(
    evenings: Mapping[Hashable, Sequence[EveningLine]],
    settings: RankingSettings,
    *,
    h2h: HeadToHead | None = None,
    name: Callable[[Hashable], str] = str,
    period_of: Mapping | None = None,
) -> list[RankedLine]:
    """The season standings from each player's evening lines; counted by periods
    (:func:`summarize_periods`) when the settings have ``best_periods`` and
    ``period_of`` says each evening's period."""
    if settings.best_periods is not None and period_of is not None:
        summarized = (
            summarize_periods(key, lines, settings, period_of) for key, lines in evenings.items()
        )
    else:
        summarized = (summarize(key, lines, settings) for key, lines in evenings.items())
    return rank_lines(
        summarized,
        settings,
        h2h=h2h,
        name=name,
    )


def rank_evening(
    lines: Mapping[Hashable, EveningLine],
    *,
    tie_breaks: Sequence[TieBreak | str] = (),
    h2h: HeadToHead | None = None,
    name: Callable[[Hashable], str] = str,
    basis: Basis | str = Basis.TOTAL,
) -> list[RankedLine]:
    """One evening's result: by total points (or points per game), then the
    competition's tie-breaks.

    Only players who played take a place: a line scored by the absence policy
    alone (``played`` False) is listed below, unranked, so it never takes a
    place, a prize or the poedelprijs.
    """
    settings = RankingSettings.of(basis=basis, min_attendance=1, tie_breaks=tie_breaks)
    return rank_season({key: [line] for key, line in lines.items()}, settings, h2h=h2h, name=name)


def prize_places(rule: PrizeRule | str, players: int, places: int | None = None) -> frozenset[int]:
    """The places (1 = first) that win a prize on an evening of ``players`` ranked
    players, besides the poedelprijs.

    >>> sorted(prize_places("per_four", 13))
    [1, 2, 3]
    >>> sorted(prize_places("formule_van_4", 21))
    [1, 2, 3, 4, 8, 12, 16, 20]
    """
    rule = PrizeRule(rule)
    if players <= 0:
        return frozenset()
    if rule is PrizeRule.FIRST_N:
        wanted = range(1, (places or 1) + 1)
    elif rule is PrizeRule.PER_FOUR:
        wanted = range(1, max(1, players // 4) + 1)
    elif rule is PrizeRule.FORMULE_VAN_4:
        wanted = [1, 2, 3, 4, *range(8, players + 1, 4)]
    else:
        wanted = [1]
    return frozenset(place for place in wanted if place <= players)


def prize_keys(lines: Sequence[RankedLine], places: frozenset[int]) -> set[Hashable]:
    """Who wins a prize: a ranked line whose place is a prize place. Players sharing
    a place share its prize: a group at places 7 and 8 wins when 8 is a prize place."""
    ranked = [line for line in lines if line.rank is not None]
    size: dict[int, int] = {}
    for line in ranked:
        size[line.rank] = size.get(line.rank, 0) + 1
    return {
        line.key
        for line in ranked
        if any(place in places for place in range(line.rank, line.rank + size[line.rank]))
    }
