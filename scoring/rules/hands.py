"""Scoring one hand (spel): what a score-sheet row records and what each team banks.

A row of the tellijst holds who played (named trump), the card points of each
team (they add up to 162), each team's roem, and pit. :func:`score_hand` checks
that row and returns a :class:`HandResult`:

* **made** -- the playing team has strictly more than the defenders (card points +
  roem, or card points only: ``ruleset.nat_basis``); each team banks its card
  points + roem, + ``ruleset.pit_bonus`` for a pit;
* **nat** -- otherwise: the playing team banks nothing, the defenders bank 162 +
  roem as ``ruleset.nat_roem`` says (+ the pit bonus if they took every trick).
  The defenders can never be nat;
* **verzaken** -- a team reneged (``verzaakt``, either the playing team or the
  defenders). As ``ruleset.verzaken_rule`` says: the hand ends there and the
  other team banks 162 + all roem of the hand (both teams' columns) +
  ``ruleset.verzaken_bonus`` (``ALL_ROEM``), or 162 + the bonus and no roem
  (``NO_ROEM``), the offenders 0; its card points are stored as 162 for the
  other team and 0 for the offenders, so the 162 invariant holds; it has no pit
  and is not nat. Under ``PERSONAL`` (the offender pays the bonus personally,
  outside the hand) and ``NONE`` the hand is scored as played.

Rows no deal can produce raise :class:`InvalidHand`, which names the field, gives
a stable ``code`` and the ``params`` of its English message, for the site to
translate.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .cards import HAND_TOTAL, InvalidCard, Suit, parse_suit
from .games import dealer_of_hand
from .roem import (
    DECLARED_ITEM_POINTS,
    DECLARED_MAX,
    DECLARED_TEAM_RUNS,
    DECLARED_TOTAL_READINGS,
    IN_TRICK_MIN_POINTS,
    IN_TRICK_PIT_TOTALS,
    STUK,
    InTrickBounds,
    RoemKind,
    count_declarations,
    in_trick_bounds,
)
from .rulesets import Choice, NatBasis, NatRoem, RoemRule, Ruleset, VerzakenRule, get_ruleset
from .teams import _TEAM_PARSE, PerTeam, Team, forehand_of, parse_team

__all__ = [
    "HandResult",
    "InvalidHand",
    "Outcome",
    "banked_roem",
    "Roefel",
    "all_points",
    "check_declarations",
    "complete_points",
    "check_roefel",
    "format_declarations",
    "other_points",
    "parse_declarations",
    "roefel_of",
    "score_hand",
]


class InvalidHand(ValueError):
    """A hand entry no deal can produce; ``str()`` is an English message for a scorer.

    Machine-readable, for the site to translate:

    ``field``
        ``"playing"``, ``"points"``, ``"roem"``, ``"pit"``, ``"verzaakt"`` or
        ``"trump"`` (the roefel).
    ``code``
        ``"unknown_team"`` (playing or pit is not A or B), ``"not_pair"`` (points or
        roem is not one value per team), ``"not_integer"`` (bools, floats, strings),
        ``"points_negative"``, ``"points_sum"`` (not 162 together),
        ``"points_impossible"`` (1 point: no card is worth 1),
        ``"pit_without_all_points"``, ``"roem_negative"``, ``"roem_impossible"``
        (no set of tricks or declarations makes it, e.g. 10 or 30),
        ``"roem_too_high"`` (more than a hand holds, or than the team's card
        points allow), ``"roem_without_tricks"`` (the other team's pit),
        ``"roem_conflict"`` (declared roem: totals where both teams score runs, or
        two stuks), ``"declaration_unknown"`` (a declaration that is not a run of
        20, 50 or 100 or a stuk, e.g. the text ``"30"`` or ``"x"``),
        ``"declarations_mixed"`` (declarations for one team, a total for the other),
        ``"verzaken_points"`` (a verzaken hand's card points are not 162 for the
        other team and 0 for the offenders), ``"verzaken_with_pit"``,
        ``"roefel_playing"`` and ``"roefel_trump"`` (:func:`check_roefel`).
    ``params``
        The values the message uses: ``team``, ``value``, ``total``, ``limit``, ...
    """

    def __init__(
        self, message: str, *, field: str, code: str, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.params = params or {}

    def __repr__(self) -> str:
        return f"InvalidHand({str(self)!r}, field={self.field!r}, code={self.code!r})"


class Outcome(Choice):
    """How the hand went for the playing team."""

    MADE = "made"
    NAT = "nat"
    #: A team reneged: the hand ended there (:attr:`HandResult.verzaakt` says who).
    VERZAKEN = "verzaken"


class HandResult(NamedTuple):
    """A scored hand: the entry as checked, and what each team banks.

    ``points`` and ``roem`` are the entered card points and roem totals per team
    (declarations summed); ``scores`` is what each team banks for the hand. A
    ``NamedTuple``: immutable and cheap to make (``score_hand`` is a hot path).
    """

    playing: Team
    points: PerTeam
    roem: PerTeam
    pit: Team | None
    outcome: Outcome
    scores: PerTeam

    @property
    def nat(self) -> bool:
        """True when the playing team failed its contract."""
        return self[4] is Outcome.NAT

    @property
    def made(self) -> bool:
        return self[4] is Outcome.MADE

    @property
    def verzaakt(self) -> Team | None:
        """The team that reneged (it banks 0 and has 0 card points), or None."""
        if self[4] is not Outcome.VERZAKEN:
            return None
        return Team.A if self[1][0] == 0 else Team.B

    @property
    def defenders(self) -> Team:
        return self[0].other

    def swapped(self) -> HandResult:
        """The same hand with teams A and B exchanged."""
        return HandResult(
            playing=self.playing.other,
            points=self.points.swapped(),
            roem=self.roem.swapped(),
            pit=None if self.pit is None else self.pit.other,
            outcome=self.outcome,
            scores=self.scores.swapped(),
        )


def other_points(points: int) -> int:
    """The other team's card points when one team has ``points``: 162 minus them
    (the 162 invariant). What a scorer gets for the side left blank.

    >>> other_points(90)
    72
    """
    return HAND_TOTAL - points


def all_points(team: Team | str) -> PerTeam:
    """The card points of a hand in which ``team`` has all 162 and the other team
    0: a pit, the other team's after verzaken, the defenders' beside a nat. A
    ``team`` that is not A or B raises :class:`InvalidHand` (``unknown_team``).

    >>> all_points("B")
    PerTeam(a=0, b=162)
    """
    return PerTeam(HAND_TOTAL, 0) if _team(team, "points") is _A else PerTeam(0, HAND_TOTAL)


def complete_points(
    a: int | None, b: int | None, *, owner: Team | str | None = None
) -> PerTeam | None:
    """The card points of both teams from what was written, one side possibly blank.

    One blank side is :func:`other_points` of the other; both blank is
    :func:`all_points` of ``owner`` (the pit team, or the other team after
    verzaken), or None when nobody owns them (the scorer has to type one). Two
    written sides are returned as they are: whether they add up is
    :func:`score_hand`'s check.

    >>> complete_points(90, None)
    PerTeam(a=90, b=72)
    >>> complete_points(None, None, owner="A")
    PerTeam(a=162, b=0)
    """
    if a is None and b is None:
        return None if owner is None else all_points(owner)
    if a is None:
        return PerTeam(other_points(b), b)  # type: ignore[arg-type]
    if b is None:
        return PerTeam(a, other_points(a))
    return PerTeam(a, b)


def _as_ruleset(ruleset: object) -> Ruleset:
    if isinstance(ruleset, Ruleset):
        return ruleset
    if ruleset is None:
        return get_ruleset()
    if isinstance(ruleset, str):
        return get_ruleset(ruleset)
    raise TypeError(f"expected a Ruleset or a preset name, not {ruleset!r}")


def _team(value: object, field: str) -> Team:
    try:
        team = _TEAM_PARSE.get(value)  # type: ignore[arg-type]
    except TypeError:
        team = None
    if team is None:
        raise InvalidHand(
            f"{field} must be team A (wij, North/South) or team B (zij, East/West), not {value!r}",
            field=field,
            code="unknown_team",
            params={"value": value},
        )
    return team


def _pair(value: object, field: str, what: str) -> tuple[Any, Any]:
    try:
        a, b = value  # type: ignore[misc]
    except (TypeError, ValueError):
        raise InvalidHand(
            f"{what} must be given as two values, one for team A and one for team B, not {value!r}",
            field=field,
            code="not_pair",
            params={"value": value},
        ) from None
    if isinstance(value, str | bytes):
        raise InvalidHand(
            f"{what} must be given as two numbers, not the text {value!r}",
            field=field,
            code="not_pair",
            params={"value": value},
        )
    return a, b


def _integer(value: object, field: str, what: str, team: str) -> int:
    if type(value) is int:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    raise InvalidHand(
        f"{what} of team {team} must be a whole number, not {value!r}",
        field=field,
        code="not_integer",
        params={"team": team, "value": value},
    )


def _check_points(points: object) -> tuple[int, int]:
    a, b = _pair(points, "points", "card points")
    a = _integer(a, "points", "card points", "A")
    b = _integer(b, "points", "card points", "B")
    for team, value in (("A", a), ("B", b)):
        if value < 0:
            raise InvalidHand(
                f"card points of team {team} cannot be negative ({value})",
                field="points",
                code="points_negative",
                params={"team": team, "value": value},
            )
    if a + b != HAND_TOTAL:
        raise InvalidHand(
            f"card points must add up to {HAND_TOTAL}: team A {a} + team B {b} = {a + b}",
            field="points",
            code="points_sum",
            params={"a": a, "b": b, "total": a + b, "expected": HAND_TOTAL},
        )
    for team, value in (("A", a), ("B", b)):
        if value == 1:
            raise InvalidHand(
                f"card points of team {team} cannot be 1: no card is worth 1 point "
                "and the last trick is worth 10",
                field="points",
                code="points_impossible",
                params={"team": team, "value": value},
            )
    return a, b


def _roem_value(value: object, team: str) -> tuple[int, tuple[int, ...] | None]:
    """(total, items or None) of one team's roem entry: an int or a sequence."""
    if type(value) is int:
        items = None
        total = value
    elif isinstance(value, Sequence) and not isinstance(value, str | bytes):
        items = tuple(_integer(v, "roem", "each roem", team) for v in value)
        total = sum(items)
    else:
        items = None
        total = _integer(value, "roem", "roem", team)
    if total < 0 or (items and min(items) < 0):
        raise InvalidHand(
            f"roem of team {team} cannot be negative ({total if items is None else items})",
            field="roem",
            code="roem_negative",
            params={"team": team, "value": total},
        )
    return total, items


def _impossible(team: str, value: int, reason: str) -> InvalidHand:
    return InvalidHand(
        f"roem of team {team} cannot be {value}: {reason}",
        field="roem",
        code="roem_impossible",
        params={"team": team, "value": value},
    )


def _too_high(team: str, value: int, limit: int, reason: str) -> InvalidHand:
    return InvalidHand(
        f"roem of team {team} cannot be {value}: {reason}",
        field="roem",
        code="roem_too_high",
        params={"team": team, "value": value, "limit": limit},
    )


_SUM_REASON = (
    "roem is a sum of 20 (run of three, stuk), 50 (run of four), 100 (four aces, tens, "
    "kings or queens) and 200 (four jacks), so never 10 or 30"
)
_TRICK_ITEMS = frozenset({0, 20, 40, 50, 70, 100, 200})


def _check_in_trick_team(
    team: str,
    total: int,
    items: tuple[int, ...] | None,
    points: int,
    pit: Team | None,
    bounds: InTrickBounds,
) -> None:
    if items is not None:
        for item in items:
            if item not in _TRICK_ITEMS:
                raise _impossible(
                    team,
                    item,
                    "the roem of one trick is 20, 40, 50, 70, 100 or 200",
                )
    if pit is not None and pit != team:
        if total:
            raise InvalidHand(
                f"team {team} took no trick (team {pit} made pit), so it has no roem, not {total}",
                field="roem",
                code="roem_without_tricks",
                params={"team": team, "value": total, "pit": str(pit)},
            )
        return
    if pit == team:
        if total not in bounds.pit_totals:
            if total > bounds.max:
                raise _too_high(
                    team, total, bounds.max, f"one hand holds at most {bounds.max} roem"
                )
            reason = _SUM_REASON if total < 40 or total % 10 else "no set of tricks makes it"
            raise _impossible(team, total, reason)
        return
    need = bounds.min_points.get(total)
    if need is None:
        limit = max(bounds.min_points)
        if total > limit:
            raise _too_high(
                team,
                total,
                limit,
                f"a team without pit holds at most {limit} roem "
                f"({bounds.max} needs all eight tricks)",
            )
        reason = _SUM_REASON if total < 40 or total % 10 else "no set of tricks makes it"
        raise _impossible(team, total, reason)
    if points < need:
        raise InvalidHand(
            f"roem of team {team} cannot be {total} with {points} card points: the tricks "
            f"that make {total} roem hold at least {need} card points",
            field="roem",
            code="roem_too_high",
            params={"team": team, "value": total, "points": points, "limit": need},
        )


def _check_in_trick(
    ra: int,
    rb: int,
    items_a: tuple[int, ...] | None,
    items_b: tuple[int, ...] | None,
    pa: int,
    pb: int,
    pit: Team | None,
    bounds: InTrickBounds,
) -> None:
    _check_in_trick_team("A", ra, items_a, pa, pit, bounds)
    _check_in_trick_team("B", rb, items_b, pb, pit, bounds)
    both = ra + rb
    if pit is None and both not in bounds.pit_totals:
        params = {"a": ra, "b": rb, "value": both, "limit": bounds.max}
        if both > bounds.max:
            raise InvalidHand(
                f"roem of both teams together cannot be {both} (A {ra} + B {rb}): "
                f"one hand holds at most {bounds.max}",
                field="roem",
                code="roem_too_high",
                params=params,
            )
        raise InvalidHand(
            f"roem of both teams together cannot be {both} (A {ra} + B {rb}): "
            "no deal's tricks make it",
            field="roem",
            code="roem_impossible",
            params=params,
        )


def _declared_readings(team: str, total: int) -> frozenset[tuple[bool, bool]]:
    readings = DECLARED_TOTAL_READINGS.get(total)
    if readings is None:
        if total > DECLARED_MAX:
            raise _too_high(
                team,
                total,
                DECLARED_MAX,
                f"one team declares at most {DECLARED_MAX} roem in a hand",
            )
        raise _impossible(
            team,
            total,
            "declared roem is a sum of runs (20, 50, 100) and stuk (20) that one team can hold",
        )
    return readings


def _check_declared(ra: int, rb: int, pit: Team | None) -> None:
    """Declared roem given as totals: the roem that already counts (a stored hand, an
    old import). Only one team can score runs, and only one holds the stuk."""
    readings_a = _declared_readings("A", ra)
    readings_b = _declared_readings("B", rb)
    if pit is not None:
        other, value = (Team.B, rb) if pit is Team.A else (Team.A, ra)
        if value:
            raise InvalidHand(
                f"team {other} took no trick (team {pit} made pit), so it has no roem, not {value}",
                field="roem",
                code="roem_without_tricks",
                params={"team": str(other), "value": value, "pit": str(pit)},
            )
    for runs_a, stuk_a in readings_a:
        for runs_b, stuk_b in readings_b:
            if not (runs_a and runs_b) and not (stuk_a and stuk_b):
                return
    raise InvalidHand(
        f"declared roem of team A ({ra}) and team B ({rb}) cannot both count: only the "
        "team with the highest run scores its runs, and there is one stuk; enter what "
        "each team declared instead",
        field="roem",
        code="roem_conflict",
        params={"a": ra, "b": rb},
    )


# --- Declared roem: what the table declared ------------------------------------------------

#: The words for a stuk in written declarations (any case); a run is its points.
STUK_WORDS = frozenset({"stuk", "s", "st"})
_NOTHING = frozenset({"", "-", "0"})
_DECLARATION_REASON = (
    "a declaration is a run of three (20), of four (50), of five or more (100), or stuk"
)


def parse_declarations(text: str, team: Team | str = "A") -> tuple[int | RoemKind, ...]:
    """One team's declarations from their written form, the one way the site reads them.

    Items are separated by ``+`` (commas and spaces work too); a run is its points,
    20, 50 or 100; a stuk is the word ``stuk`` (or ``s``), in any case. An empty
    text, ``-`` or ``0`` is nothing declared. :func:`format_declarations` writes it back.

    >>> parse_declarations("50+20+stuk")
    (50, 20, RoemKind.STUK)
    >>> parse_declarations(" 100, S ")
    (100, RoemKind.STUK)
    >>> parse_declarations("")
    ()
    """
    team = str(team)
    if not isinstance(text, str):
        raise InvalidHand(
            f"the declarations of team {team} must be a text such as 50+20+stuk, not {text!r}",
            field="roem",
            code="declaration_unknown",
            params={"team": team, "value": text},
        )
    text = text.strip()
    if text in _NOTHING:
        return ()
    items: list[int | RoemKind] = []
    for token in text.replace(",", "+").replace(" ", "+").split("+"):
        if not token:
            continue
        items.append(_declaration_item(token, team))
    return tuple(items)


def _declaration_item(item: object, team: str) -> int | RoemKind:
    """One declaration as the core keeps it: the run's points, or :data:`STUK`."""
    if isinstance(item, str):
        word = item.strip().lower()
        if word in STUK_WORDS:
            return STUK
        if word.isascii() and word.isdigit():
            item = int(word)
        else:
            raise InvalidHand(
                f"team {team} cannot declare {item!r}: {_DECLARATION_REASON}",
                field="roem",
                code="declaration_unknown",
                params={"team": team, "value": item},
            )
    value = _integer(item, "roem", "each declaration", team)
    if value < 0:
        raise InvalidHand(
            f"roem of team {team} cannot be negative ({value})",
            field="roem",
            code="roem_negative",
            params={"team": team, "value": value},
        )
    if value not in DECLARED_ITEM_POINTS:
        raise _impossible(team, value, _DECLARATION_REASON)
    return value


def format_declarations(items: Sequence[int | RoemKind | str]) -> str:
    """The written form of one team's declarations: runs from high to low, then stuk.

    >>> format_declarations((20, STUK, 50))
    '50+20+stuk'
    >>> format_declarations(())
    ''
    """
    runs = sorted((i for i in items if i != STUK), reverse=True)
    stuks = [str(STUK)] * (len(items) - len(runs))
    return "+".join([*map(str, runs), *stuks])


def _declaration_points(items: Sequence[int | RoemKind]) -> int:
    return sum(20 if i == STUK else i for i in items)


def _team_declarations(value: object, team: str) -> tuple[int | RoemKind, ...]:
    if isinstance(value, str):
        items = parse_declarations(value, team)
    elif isinstance(value, Sequence):
        items = tuple(_declaration_item(i, team) for i in value)
    elif value == 0 and type(value) is int:
        items = ()
    else:
        raise InvalidHand(
            f"roem of team {team} must be its declarations, as for the other team, not {value!r}",
            field="roem",
            code="declarations_mixed",
            params={"team": team, "value": value},
        )
    runs = tuple(sorted(i for i in items if i != STUK))
    if len(items) - len(runs) > 1:
        raise _impossible(team, _declaration_points(items), "a hand holds one stuk")
    if runs not in DECLARED_TEAM_RUNS:
        total = _declaration_points(items)
        reason = f"the two players of a team cannot hold the runs {'+'.join(map(str, runs))}"
        if total > DECLARED_MAX:
            raise _too_high(team, total, DECLARED_MAX, reason)
        raise _impossible(team, total, reason)
    return items


def check_declarations(declared: Sequence[object]) -> PerTeam:
    """Both teams' declarations checked, as the core keeps them (runs by points,
    :data:`STUK`): each team's given as a sequence or in the written form.

    Refuses what no deal holds: an item that is not 20, 50, 100 or stuk, runs two
    players cannot hold (at most two each, in eight cards), and a stuk declared
    twice (there is one trump king and queen).

    >>> check_declarations(("50+stuk", [20]))
    PerTeam(a=(50, RoemKind.STUK), b=(20,))
    """
    value_a, value_b = _pair(declared, "roem", "declarations")
    items_a = _team_declarations(value_a, "A")
    items_b = _team_declarations(value_b, "B")
    if STUK in items_a and STUK in items_b:
        raise InvalidHand(
            "both teams cannot declare stuk (roem of trump king and queen): there is one",
            field="roem",
            code="roem_conflict",
            params={"a": format_declarations(items_a), "b": format_declarations(items_b)},
        )
    return _new(PerTeam, (items_a, items_b))


def _declares(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, Sequence) and not isinstance(value, bytes))


def score_hand(
    ruleset: Ruleset | str | None,
    *,
    playing: Team | str,
    points: Sequence[int] | None = None,
    roem: Sequence[int | Sequence[int]] = (0, 0),
    pit: Team | str | None = None,
    verzaakt: Team | str | None = None,
) -> HandResult:
    """Check one hand's entry and score it under ``ruleset``.

    ``playing``
        The team that named trump: ``"A"`` (North/South, wij), ``"B"`` or a Team.
    ``points``
        Card points of A and B, the last-trick 10 included; they add up to 162.
    ``roem``
        Roem of A and B. In-trick roem: totals, or each a sequence of the roem of
        separate tricks. Declared roem (``RoemRule.DECLARED``): per team what it
        declared, a sequence of runs by points (20 a run of three, 50 of four, 100 of
        five or more) and :data:`STUK`, or the written form ``"50+20+stuk"``; the
        core counts them (:func:`count_declarations`: first nothing for a team
        without a trick, so against a pit only the pit team's declarations count;
        then only the single highest run's team scores its runs, a tie to the
        playing team; stuk always counts) and ``HandResult.roem`` is the roem that counts.
        Plain ints under declared roem are that counted roem already (stored hands,
        old imports): checked, not counted again.
    ``pit``
        The team that took all eight tricks (it has all 162 card points), or None.
    ``verzaakt``
        The team that reneged, or None. The hand then ends in verzaken: ``points``
        may be left out (they are 162 for the other team and 0 for the offenders;
        given, they must be that), ``roem`` is all roem of the hand in either
        team's column (all of it goes to the other team), and there is no pit.
        Under declared roem each team's declarations are counted as in a hand
        played out (only the single highest run's team scores its runs, stuk
        always), and all that counts goes to the other team (none of it under
        ``VerzakenRule.NO_ROEM``). Under ``PERSONAL`` and ``NONE`` the hand does not
        end: it is scored from ``points`` and ``roem`` as played.

    Raises :class:`InvalidHand` for an entry no deal can produce. The checks are
    exact for card points (any split but 1-161 can happen) and use the bounds of
    :mod:`scoring.rules.roem` for roem, which never reject a real hand.

    >>> score_hand(get_ruleset("rotterdam"), playing="A", points=(81, 81)).scores
    PerTeam(a=0, b=162)
    >>> score_hand("rotterdam", playing="A", roem=(20, 50), verzaakt="A").scores
    PerTeam(a=0, b=332)
    """
    if type(ruleset) is not Ruleset:
        ruleset = _as_ruleset(ruleset)
    try:
        team = _TEAM_PARSE[playing]
    except (KeyError, TypeError):
        team = _team(playing, "playing")
    if verzaakt is not None:
        if ruleset.verzaken_rule.ends_hand:
            return _score_verzaken(ruleset, team, points, roem, pit, verzaakt)
        _team(verzaakt, "verzaakt")  # the hand counts as played; the team must be known

    # Card points: the fast path for a pair of plain ints, the checks otherwise.
    if (type(points) is tuple or type(points) is PerTeam) and len(points) == 2:
        pa, pb = points
        if type(pa) is not int or type(pb) is not int or pa < 2 or pb < 2 or pa + pb != HAND_TOTAL:
            pa, pb = _check_points(points)
    else:
        pa, pb = _check_points(points)

    pit_team = None
    if pit is not None:
        pit_team = _team(pit, "pit")
        if (pa if pit_team is _A else pb) != HAND_TOTAL:
            have = pa if pit_team is _A else pb
            raise InvalidHand(
                f"pit for team {pit_team} needs all {HAND_TOTAL} card points; "
                f"team {pit_team} has {have}",
                field="pit",
                code="pit_without_all_points",
                params={"team": str(pit_team), "value": have},
            )

    # Roem: the fast path for in-trick totals as plain ints without pit.
    if (
        (type(roem) is tuple or type(roem) is PerTeam)
        and len(roem) == 2
        and type(ra := roem[0]) is int
        and type(rb := roem[1]) is int
        and pit_team is None
        and ruleset.roem_rule is _IN_TRICK
        and not ruleset.low_fours
        and pa >= _MIN_POINTS_GET(ra, 1_000)
        and pb >= _MIN_POINTS_GET(rb, 1_000)
        and ra + rb in IN_TRICK_PIT_TOTALS
    ):
        pass
    else:
        value_a, value_b = _pair(roem, "roem", "roem")
        if ruleset.roem_rule is _DECLARED and (_declares(value_a) or _declares(value_b)):
            counted = count_declarations(check_declarations(roem), team, pit_team)
            ra, rb = _declaration_points(counted[0]), _declaration_points(counted[1])
        else:
            ra, items_a = _roem_value(value_a, "A")
            rb, items_b = _roem_value(value_b, "B")
            if ruleset.roem_rule is _DECLARED:
                _check_declared(ra, rb, pit_team)
            else:
                _check_in_trick(
                    ra, rb, items_a, items_b, pa, pb, pit_team, in_trick_bounds(ruleset.low_fours)
                )

    if team is _A:
        own, other, own_roem, other_roem = pa, pb, ra, rb
    else:
        own, other, own_roem, other_roem = pb, pa, rb, ra
    if ruleset.nat_basis is _POINTS_AND_ROEM:
        nat = own + own_roem <= other + other_roem
    else:
        nat = own <= other

    if not nat:
        sa = pa + ra
        sb = pb + rb
        if pit_team is not None:
            if pit_team is _A:
                sa += ruleset.pit_bonus
            else:
                sb += ruleset.pit_bonus
        outcome = _MADE
    else:
        nat_roem = ruleset.nat_roem
        if nat_roem is _TO_DEFENDERS:
            playing_score, defenders_score = 0, HAND_TOTAL + ra + rb
        elif nat_roem is _KEPT_BY_EACH:
            playing_score, defenders_score = own_roem, HAND_TOTAL + other_roem
        else:
            playing_score, defenders_score = 0, HAND_TOTAL + other_roem
        if pit_team is not None and pit_team is not team:
            defenders_score += ruleset.pit_bonus
        if team is _A:
            sa, sb = playing_score, defenders_score
        else:
            sa, sb = defenders_score, playing_score
        outcome = _NAT

    return _new(
        HandResult,
        (
            team,
            _new(PerTeam, (pa, pb)),
            _new(PerTeam, (ra, rb)),
            pit_team,
            outcome,
            _new(PerTeam, (sa, sb)),
        ),
    )


def _score_verzaken(
    ruleset: Ruleset, team: Team, points: object, roem: object, pit: object, verzaakt: object
) -> HandResult:
    """A hand that ended in verzaken by team ``verzaakt`` (see :func:`score_hand`)."""
    offender = _team(verzaakt, "verzaakt")
    other = offender.other
    if pit is not None:
        raise InvalidHand(
            f"a hand that ends in verzaken (team {offender} reneged) has no pit",
            field="pit",
            code="verzaken_with_pit",
            params={"team": str(offender)},
        )
    expected = all_points(other)
    if points is not None and tuple(_check_points(points)) != expected:
        raise InvalidHand(
            f"team {offender} reneged: the card points are {HAND_TOTAL} for team {other} "
            f"and 0 for team {offender}, not {tuple(points)}",  # type: ignore[arg-type]
            field="points",
            code="verzaken_points",
            params={"team": str(offender), "other": str(other)},
        )
    value_a, value_b = _pair(roem, "roem", "roem")
    if ruleset.roem_rule is _DECLARED and (_declares(value_a) or _declares(value_b)):
        # What each team declared, counted as in a hand played out (the single
        # highest run's team scores its runs, a tie to the playing team; no pit
        # here, so both teams took a trick); all of it goes to the other team.
        counted = count_declarations(check_declarations(roem), team)
        ra, rb = _declaration_points(counted[0]), _declaration_points(counted[1])
    elif ruleset.roem_rule is _DECLARED:
        ra, _ = _roem_value(value_a, "A")
        rb, _ = _roem_value(value_b, "B")
        _check_declared(ra, rb, None)
    else:
        ra, items_a = _roem_value(value_a, "A")
        rb, items_b = _roem_value(value_b, "B")
        # The roem of the tricks played before the renege: together at most what
        # eight tricks hold, whoever took them.
        for name, items in (("A", items_a), ("B", items_b)):
            for item in items or ():
                if item not in _TRICK_ITEMS:
                    raise _impossible(
                        name, item, "the roem of one trick is 20, 40, 50, 70, 100 or 200"
                    )
        bounds = in_trick_bounds(ruleset.low_fours)
        if ra + rb not in bounds.pit_totals:
            if ra + rb > bounds.max:
                raise _too_high(
                    str(other),
                    ra + rb,
                    bounds.max,
                    f"one hand holds at most {bounds.max} roem",
                )
            raise _impossible(str(other), ra + rb, _SUM_REASON)
    banked = HAND_TOTAL + ruleset.verzaken_bonus
    if ruleset.verzaken_rule is VerzakenRule.ALL_ROEM:
        banked += ra + rb
    scores = (0, banked) if offender is _A else (banked, 0)
    return _new(
        HandResult,
        (
            team,
            _new(PerTeam, expected),
            _new(PerTeam, (ra, rb)),
            None,
            Outcome.VERZAKEN,
            _new(PerTeam, scores),
        ),
    )


class Roefel(NamedTuple):
    """Hand 1 of a game under a rule set with the roefel: who plays and what is trump."""

    playing: Team
    trump: Suit


def roefel_of(
    ruleset: Ruleset | str | None, number: int, *, first_dealer: int = 0
) -> Roefel | None:
    """The :class:`Roefel` when hand ``number`` (1-based) is the roefel, else None.

    The roefel is played with clubs as trumps by the forehand's team: the forehand
    is the player left of the dealer of the hand (North deals hand 1 at the site,
    so East is the forehand and team B plays).

    >>> roefel = get_ruleset().replace(roefel=True)
    >>> roefel_of(roefel, 1)
    Roefel(playing=Team.B, trump=Suit.CLUBS)
    >>> roefel_of(roefel, 2) is None, roefel_of("rotterdam", 1) is None
    (True, True)
    """
    if type(ruleset) is not Ruleset:
        ruleset = _as_ruleset(ruleset)
    if not ruleset.is_roefel(number):
        return None
    forehand = forehand_of(dealer_of_hand(number, first_dealer))
    return Roefel(forehand.team, Suit.CLUBS)


def check_roefel(
    ruleset: Ruleset | str | None,
    number: int,
    *,
    playing: Team | str,
    trump: object = None,
    first_dealer: int = 0,
) -> Roefel | None:
    """Refuse hand ``number`` when it is the roefel and another team played or
    another suit was trumps (an empty ``trump`` is fine: it is clubs). Returns the
    :class:`Roefel` (for the caller to store clubs), or None for any other hand."""
    roefel = roefel_of(ruleset, number, first_dealer=first_dealer)
    if roefel is None:
        return None
    if parse_team(playing) is not roefel.playing:
        raise InvalidHand(
            f"hand {number} is the roefel: clubs are trumps and the forehand's team "
            f"(team {roefel.playing}) plays, not {playing!r}",
            field="playing",
            code="roefel_playing",
            params={"team": str(roefel.playing), "number": number},
        )
    if trump not in (None, ""):
        try:
            suit = parse_suit(trump)  # type: ignore[arg-type]
        except (InvalidCard, TypeError, ValueError):
            suit = None
        if suit is not roefel.trump:
            raise InvalidHand(
                f"hand {number} is the roefel: clubs are trumps, not {trump!r}",
                field="trump",
                code="roefel_trump",
                params={"team": str(roefel.playing), "number": number},
            )
    return roefel


def banked_roem(
    ruleset: Ruleset, *, playing: Team | str, nat: bool, roem, verzaakt: Team | str | None = None
) -> PerTeam:
    """The roem each team banked in a hand: the roem that counts for it.

    A made hand: each team its own. Nat: as ``ruleset.nat_roem`` says (all to the
    defenders, each keeps its own, or the nat team's is lost). Verzaken (``verzaakt``
    names the team that reneged, the rule set's verzaken ends the hand): all roem of
    the hand to the other team, or none under ``VerzakenRule.NO_ROEM``.

    >>> banked_roem(get_ruleset("rotterdam"), playing="A", nat=True, roem=(20, 50))
    PerTeam(a=0, b=70)
    >>> banked_roem(get_ruleset("rotterdam"), playing="A", nat=False, roem=(20, 50), verzaakt="B")
    PerTeam(a=70, b=0)
    """
    ra, rb = roem
    if verzaakt and ruleset.verzaken_rule.ends_hand:
        if ruleset.verzaken_rule is VerzakenRule.NO_ROEM:
            return PerTeam(0, 0)
        return PerTeam(0, ra + rb) if parse_team(verzaakt) is Team.A else PerTeam(ra + rb, 0)
    if not nat:
        return PerTeam(ra, rb)
    team = Team(playing) if not isinstance(playing, Team) else playing
    own, other = (ra, rb) if team is Team.A else (rb, ra)
    if ruleset.nat_roem is NatRoem.TO_DEFENDERS:
        own, other = 0, ra + rb
    elif ruleset.nat_roem is NatRoem.NAT_TEAM_LOSES:
        own = 0
    return PerTeam(own, other) if team is Team.A else PerTeam(other, own)


_new = tuple.__new__
# Enum members as module constants: a class attribute lookup on an enum costs more
# than the rest of a hot line.
_A = Team.A
_IN_TRICK = RoemRule.IN_TRICK
_DECLARED = RoemRule.DECLARED
_POINTS_AND_ROEM = NatBasis.POINTS_AND_ROEM
_TO_DEFENDERS = NatRoem.TO_DEFENDERS
_KEPT_BY_EACH = NatRoem.KEPT_BY_EACH
_MADE = Outcome.MADE
_NAT = Outcome.NAT
_MIN_POINTS_GET = IN_TRICK_MIN_POINTS.get
