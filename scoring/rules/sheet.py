"""The paper score sheet's notation (tellijst): how a hand is written in a row, and read back.

The one home of the notation: the printed and filled sheets write a row with
:func:`write_row`; the director's grid and the hand log (export and import) write
a roem column with :func:`write_roem` and read it with :func:`read_roem`; the
marks are :func:`marks` and :func:`read_marks`. Every reader is the inverse of
the writer, so a row typed as the sheet writes it is the hand it was.

A row has three cells per team, wij then zij: card points | roem | mark.

Marks (:class:`MarkStyle`, the club's choice: clubs write a pit in one of four ways)
    ``PIT_TEAM`` (the default): M in the pit team's column when the playing team
    took every trick, TP (tegenpit) when the defenders did. ``MARSEN``: a tally
    mark I in the pit team's marsen column, whoever played. ``OTHER_P`` and
    ``OTHER_M``: a P (or an M) in the other team's column, the team that took no
    trick. V marks the team that reneged in every style. Each style reads back
    alone, as the row also says who played. A reader also takes today's M / TP
    where that cannot mean anything else: TP always, and M in the playing team's
    column unless the style writes M in the other column (then an M is the style's).

The roem column holds what a team banks beyond its card points
    A made hand: the team's roem. A pit (mars): 162 | 100 + roem | M in the
    playing team's column, the pit bonus (``Ruleset.pit_bonus``) and the roem in
    one number, as clubs write "162 + 100". The defenders' pit (tegenpit): the
    same with TP. Verzaken: the team that reneged 0 | | V, the other team 162 |
    the roem of the hand + the penalty (``Ruleset.verzaken_bonus``). So the
    cells of a team add up to what it banks, and the sheet's subtotals add up.
Nat
    The playing team writes ``nat`` (0 card points) and the roem it keeps (none
    unless ``NatRoem.KEPT_BY_EACH``); the defenders write 162 | the roem they
    bank. The card points the nat team took are not on the sheet: read back,
    the row is the hand with 0 card points for the nat team, which every rule
    set scores the same (it is nat, and the defenders bank the same).
Reading a roem column that carries a bonus
    The pit team's column and, after verzaken, the other team's column hold the
    bonus plus the roem: :func:`read_roem` takes the bonus off. Blank is the
    bonus alone, and so is 0. A number below the bonus is refused (``code="sheet_bonus"``):
    the sheet never writes it, and it could be the roem alone or a mistake.
    So ``162 | 100 | M`` is a pit without roem (262), ``162 | 120 | M`` a pit
    with 20 roem (282), and ``162 | 20 | M`` is refused.
Declared roem (``RoemRule.DECLARED``)
    The roem column is what counted, beside what each team declared
    (``50+20+stuk``); a reader takes the declarations, never a total.

>>> from scoring.rules import get_ruleset, score_hand
>>> rotterdam = get_ruleset("rotterdam")
>>> pit = score_hand(rotterdam, playing="A", points=(162, 0), pit="A")
>>> result_row(pit)
SheetRow(points=PerTeam(a=162, b=0), roem=PerTeam(a=100, b=0), marks=PerTeam(a='M', b=''), nat=None)
>>> read_row(rotterdam, playing="A", points=(162, 0), roem=(100, None), marks=("M", "")).scores
PerTeam(a=262, b=0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .hands import HandResult, InvalidHand, all_points, complete_points, score_hand
from .rulesets import Choice, Ruleset
from .teams import PerTeam, Team, parse_team

__all__ = [
    "MARK_PIT",
    "MARK_TEGENPIT",
    "MARK_VERZAAKT",
    "MarkStyle",
    "NAT",
    "SheetRow",
    "column_bonus",
    "marks",
    "read_marks",
    "read_points",
    "read_roem",
    "read_row",
    "result_row",
    "write_roem",
    "write_row",
]

#: The playing team's pit (mars).
MARK_PIT = "M"
#: The defenders' pit (tegenpit).
MARK_TEGENPIT = "TP"
#: The team that reneged (verzaakt).
MARK_VERZAAKT = "V"
#: A mars as a tally in the pit team's marsen column (:attr:`MarkStyle.MARSEN`).
MARK_TALLY = "I"
#: A pit written in the other team's column (:attr:`MarkStyle.OTHER_P`).
MARK_OTHER_P = "P"


class MarkStyle(Choice):
    """How a club's score sheet marks a pit (a club setting; every style writes V
    for the team that reneged)."""

    #: M in the pit team's column for the playing team's pit, TP for the defenders'.
    PIT_TEAM = "pit_team"
    #: A tally mark I in the pit team's marsen column.
    MARSEN = "marsen"
    #: P in the other team's column (the team that took no trick).
    OTHER_P = "other_p"
    #: M in the other team's column.
    OTHER_M = "other_m"

    @property
    def in_other_column(self) -> bool:
        """Whether the mark goes in the column of the team that took no trick."""
        return self in (MarkStyle.OTHER_P, MarkStyle.OTHER_M)

    def pit_mark(self, *, pit: Team, playing: Team | None) -> tuple[Team, str]:
        """(the column, the letter) this style writes for ``pit``'s pit."""
        if self is MarkStyle.MARSEN:
            return pit, MARK_TALLY
        if self is MarkStyle.OTHER_P:
            return pit.other, MARK_OTHER_P
        if self is MarkStyle.OTHER_M:
            return pit.other, MARK_PIT
        return pit, MARK_PIT if pit is playing else MARK_TEGENPIT

    def read_pit(self, mark: str, *, team: Team, playing: Team) -> Team | None:
        """The pit team a ``mark`` in ``team``'s column stands for, or None: this
        style's mark, else today's (:attr:`PIT_TEAM`) where it is unambiguous."""
        if self is MarkStyle.MARSEN and mark in (MARK_TALLY, "|"):
            return team
        if self.in_other_column and mark == self.pit_mark(pit=team, playing=playing)[1]:
            return team.other  # OTHER_M's M is always the style's, never today's
        if mark == (MARK_PIT if team is playing else MARK_TEGENPIT):
            return team
        return None


#: What a nat team writes in its card-points column (it stands for 0).
NAT = "nat"


class SheetRow(NamedTuple):
    """One hand as the sheet writes it: per team its card points, roem column and
    mark; ``nat`` is the nat team (whose card points are written ``nat``) or None."""

    points: PerTeam
    roem: PerTeam
    marks: PerTeam
    nat: Team | None


def _team(value: object) -> Team | None:
    return parse_team(value) if value else None


def marks(
    *,
    playing: object,
    pit: object = None,
    verzaakt: object = None,
    style: MarkStyle | str = MarkStyle.PIT_TEAM,
) -> PerTeam:
    """The mark of each team in ``style``: the pit's (:meth:`MarkStyle.pit_mark`),
    V for the team that reneged, else empty.

    >>> marks(playing="A", pit="B")
    PerTeam(a='', b='TP')
    >>> marks(playing="A", pit="B", style=MarkStyle.OTHER_P)
    PerTeam(a='P', b='')
    """
    pit_team, offender, player = _team(pit), _team(verzaakt), _team(playing)
    column, letter = (
        MarkStyle(style).pit_mark(pit=pit_team, playing=player) if pit_team else (None, "")
    )

    def mark(team: Team) -> str:
        if column is team:
            return letter
        return MARK_VERZAAKT if offender is team else ""

    return PerTeam(mark(Team.A), mark(Team.B))


def read_marks(
    *,
    playing: object,
    marks: Sequence[str],
    style: MarkStyle | str = MarkStyle.PIT_TEAM,
) -> tuple[Team | None, Team | None]:
    """(pit, verzaakt) from the two marks: the inverse of :func:`marks` in ``style``,
    which also reads today's M / TP where unambiguous (:meth:`MarkStyle.read_pit`).

    Raises :class:`InvalidHand` (``code="sheet_mark"``, ``params`` ``team``,
    ``value`` and ``style``) for a mark the style never writes (M in the
    defenders' column under ``PIT_TEAM``, TP in the playing team's), two pits, or
    two V.

    >>> read_marks(playing="A", marks=("", "TP"))
    (Team.B, None)
    >>> read_marks(playing="A", marks=("P", ""), style=MarkStyle.OTHER_P)
    (Team.B, None)
    """
    player, style = parse_team(playing), MarkStyle(style)
    pit = verzaakt = None
    for team, written in zip((Team.A, Team.B), marks, strict=True):
        mark = (written or "").strip().upper()
        if not mark:
            continue
        if mark == MARK_VERZAAKT and verzaakt is None:
            verzaakt = team
            continue
        read = style.read_pit(mark, team=team, playing=player)
        if read is None or pit is not None:
            raise InvalidHand(
                f"team {team} cannot have the mark {written!r} on a {style.value} sheet",
                field="pit",
                code="sheet_mark",
                params={"team": str(team), "value": written, "style": style.value},
            )
        pit = read
    return pit, verzaakt


def column_bonus(ruleset: Ruleset, team: Team | str, *, pit: object, verzaakt: object) -> int:
    """The bonus ``team``'s roem column carries besides the roem: the pit bonus for
    the pit team, the verzaken penalty for the other team of a renege, else 0."""
    team = parse_team(team)
    if _team(pit) is team:
        return ruleset.pit_bonus
    offender = _team(verzaakt)
    if offender is not None and offender is not team and ruleset.verzaken_rule.ends_hand:
        return ruleset.verzaken_bonus
    return 0


def write_roem(
    ruleset: Ruleset, team: Team | str, roem: int, *, pit: object, verzaakt: object
) -> int:
    """``team``'s roem column for the roem it holds (entered, not banked): the roem
    plus the bonus its column carries (:func:`column_bonus`).

    >>> from scoring.rules import get_ruleset
    >>> write_roem(get_ruleset("rotterdam"), "A", 20, pit="A", verzaakt=None)
    120
    """
    return (roem or 0) + column_bonus(ruleset, team, pit=pit, verzaakt=verzaakt)


def read_roem(
    ruleset: Ruleset, team: Team | str, column: int | None, *, pit: object, verzaakt: object
) -> int:
    """The roem ``team`` holds, from its roem column: the inverse of :func:`write_roem`.

    Blank (None) or 0 is no roem (and a column with a bonus: the bonus alone; the
    sheet never writes 0 there, so it has no other reading). A number below the
    bonus is refused: :class:`InvalidHand` with ``code="sheet_bonus"``
    and ``params`` ``team``, ``value``, ``bonus`` and ``kind`` (``"pit"`` or
    ``"verzaken"``).

    >>> from scoring.rules import get_ruleset
    >>> rotterdam = get_ruleset("rotterdam")
    >>> read_roem(rotterdam, "A", 100, pit="A", verzaakt=None)
    0
    >>> try:
    ...     read_roem(rotterdam, "A", 20, pit="A", verzaakt=None)
    ... except InvalidHand as exc:
    ...     print(exc)
    the roem column of team A's pit is 100 (the pit bonus) plus the roem, not 20
    """
    bonus = column_bonus(ruleset, team, pit=pit, verzaakt=verzaakt)
    if not column:
        return 0
    if column < bonus:
        team = parse_team(team)
        kind = "pit" if _team(pit) is team else "verzaken"
        what = "the pit bonus" if kind == "pit" else "the verzaken penalty"
        raise InvalidHand(
            f"the roem column of team {team}'s {kind} is {bonus} ({what}) plus the roem, "
            f"not {column}",
            field="roem",
            code="sheet_bonus",
            params={"team": str(team), "value": column, "bonus": bonus, "kind": kind},
        )
    return column - bonus


def read_points(cell: int | str | None, *, team: Team | str, playing: object) -> int | None:
    """A card-points cell: a number, ``nat`` (0) or blank (None). Only the playing
    team can be nat: ``nat`` in the defenders' column raises :class:`InvalidHand`
    (``code="sheet_nat"``)."""
    if not isinstance(cell, str):
        return cell
    text = cell.strip()
    if not text:
        return None
    if text.lower() != NAT:
        return int(text)
    if parse_team(team) is not parse_team(playing):
        raise InvalidHand(
            f"team {team} did not play, so it cannot be nat",
            field="points",
            code="sheet_nat",
            params={"team": str(parse_team(team))},
        )
    return 0


def write_row(
    *,
    playing: Team | str,
    points: Sequence[int],
    scores: Sequence[int],
    pit: object = None,
    verzaakt: object = None,
    nat: bool = False,
    style: MarkStyle | str = MarkStyle.PIT_TEAM,
) -> SheetRow:
    """The row the sheet writes for a scored hand (a :class:`HandResult`'s or a
    stored hand's values): the cells of each team add up to what it banks (the
    card points as entered; nat 0 and 162), the marks by :func:`marks` in ``style``."""
    player = parse_team(playing)
    points = all_points(player.other) if nat else PerTeam(*points)
    return SheetRow(
        points=points,
        roem=PerTeam(scores[0] - points[0], scores[1] - points[1]),
        marks=marks(playing=player, pit=pit, verzaakt=verzaakt, style=style),
        nat=player if nat else None,
    )


def result_row(result: HandResult, *, style: MarkStyle | str = MarkStyle.PIT_TEAM) -> SheetRow:
    """:func:`write_row` for a hand the core scored."""
    return write_row(
        playing=result.playing,
        points=result.points,
        scores=result.scores,
        pit=result.pit,
        verzaakt=result.verzaakt,
        nat=result.nat,
        style=style,
    )


def read_row(
    ruleset: Ruleset,
    *,
    playing: Team | str,
    points: Sequence[int | str | None],
    roem: Sequence[int | None] = (None, None),
    marks: Sequence[str] = ("", ""),
    declared: Sequence[str] = ("", ""),
    style: MarkStyle | str = MarkStyle.PIT_TEAM,
) -> HandResult:
    """The hand a sheet row writes, scored: the inverse of :func:`write_row`.

    ``points`` are the card-points cells (a number, ``nat`` or blank: one blank
    cell is 162 minus the other, both blank after verzaken or beside a pit is
    0 | 162); ``roem`` the roem columns (read by :func:`read_roem`); ``marks`` as
    ``style`` writes them, V or blank (:func:`read_marks`); ``declared`` what each
    team declared under declared roem (then the roem columns are what counted and
    are not read).
    """
    pit, verzaakt = read_marks(playing=playing, marks=marks, style=style)
    pa = read_points(points[0], team=Team.A, playing=playing)
    pb = read_points(points[1], team=Team.B, playing=playing)
    owner = verzaakt.other if verzaakt is not None else pit
    written = complete_points(pa, pb, owner=owner)
    if any(declared):
        entered: tuple = tuple(declared)
    else:
        entered = (
            read_roem(ruleset, Team.A, roem[0], pit=pit, verzaakt=verzaakt),
            read_roem(ruleset, Team.B, roem[1], pit=pit, verzaakt=verzaakt),
        )
    return score_hand(
        ruleset,
        playing=playing,
        points=written,
        roem=entered,
        pit=pit,
        verzaakt=verzaakt,
    )
