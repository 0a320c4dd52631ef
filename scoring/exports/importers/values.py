"""What the results import reads and plans: the rows of a file, the games and
evenings they make, the preview and the result; plain values, no database.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date

from django.utils.translation import ngettext

from clubs.models import Member
from common.tabular import Problem
from common.text import name_key
from scoring import rules
from tournaments.models import Competition, Evening

MAX_PROBLEMS = 500


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand as read from the file, checked and scored."""

    row: int
    date: date
    round: int
    table: int
    hand: int
    names: tuple[str, str, str, str]  # north, south, east, west as written
    playing: str
    trump: str
    points_a: int
    points_b: int
    roem_a: int
    roem_b: int
    pit: str
    score_a: int
    score_b: int
    nat: bool
    # Declared roem: what each team declared (written form); roem_a/roem_b count.
    declared_a: str = ""
    declared_b: str = ""
    verzaakt: str = ""

    @property
    def game_key(self):
        return (self.date, self.round, self.table)

    def inputs(self):
        return (
            self.hand,
            self.playing,
            self.trump,
            self.points_a,
            self.points_b,
            self.roem_a,
            self.roem_b,
            self.declared_a,
            self.declared_b,
            self.pit,
            self.verzaakt,
        )


@dataclass(frozen=True, slots=True)
class SitoutEntry:
    row: int
    date: date
    round: int
    name: str
    points: int
    marsen: int = 0


@dataclass(frozen=True, slots=True)
class TotalEntry:
    """One row of a sheet of totals: a player's evening, or round with ``round``."""

    row: int
    date: date
    round: int | None
    name: str
    points: int
    marsen: int = 0


@dataclass(frozen=True)
class NearName:
    """A name of the file that is not a member but close to members' names: the
    wedstrijdleider says whether it is one of them or a new member."""

    name: str
    row: int
    column: str
    members: tuple  # ((member id, name), ...)
    #: Names on earlier rows, not members, to be added as new members: ((answer, name), ...).
    others: tuple = ()

    @property
    def field(self):
        return "near-" + _name_hash(self.name)

    @property
    def names(self):
        """The names it may be: the members', then the file's."""
        return [name for _pk, name in self.members] + [name for _value, name in self.others]


def _name_hash(name):
    return hashlib.sha256(name_key(name).encode()).hexdigest()[:16]


def _same_as(name):
    """The answer that a close name is ``name``, a new player of the same file."""
    return "same-" + _name_hash(name)


@dataclass
class GamePlan:
    date: date
    round: int
    table: int
    names: tuple[str, str, str, str]  # north, south, east, west
    hands: list[HandEntry]
    result: rules.GameResult | None = None

    @property
    def first_row(self):
        return min(hand.row for hand in self.hands)


@dataclass
class EveningPlan:
    date: date
    games: list[GamePlan] = field(default_factory=list)
    sitouts: list[SitoutEntry] = field(default_factory=list)
    totals: list[TotalEntry] = field(default_factory=list)
    existing: Evening | None = None  # a planned evening without rounds, to fill

    @property
    def rounds(self):
        return sorted(
            {g.round for g in self.games}
            | {s.round for s in self.sitouts}
            | {t.round for t in self.totals if t.round is not None}
        )

    @property
    def players(self):
        return len({name_key(t.name) for t in self.totals})

    @property
    def hand_count(self):
        return sum(len(game.hands) for game in self.games)


@dataclass
class ResultsPreview:
    """What importing a file would do; ``problems`` empty means it can be applied."""

    filename: str
    columns: dict[str, str] = field(default_factory=dict)  # key -> the file's title
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    evenings: list[EveningPlan] = field(default_factory=list)  # to add
    skipped: list[date] = field(default_factory=list)  # already imported
    new_members: list[str] = field(default_factory=list)
    #: Unknown names close to members' names, each asked on the preview.
    near: list[NearName] = field(default_factory=list)
    #: "hands" (a hand log) or "totals" (a sheet of evening totals per player).
    kind: str = "hands"
    rows: int = 0
    more_problems: int = 0
    first_date: date | None = None
    last_date: date | None = None
    _members: dict = field(default_factory=dict, repr=False)  # name key -> member id
    #: Close names not answered yet (the preview): name key -> the members it may be.
    _pending: dict = field(default_factory=dict, repr=False)
    #: A new name answered as another new name of the file: name key -> that name's key.
    _aliases: dict = field(default_factory=dict, repr=False)
    _places: dict = field(default_factory=dict, repr=False)  # TotalEntry -> its place

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def can_apply(self) -> bool:
        return self.ok and bool(self.evenings)

    @property
    def games(self) -> int:
        return sum(len(evening.games) for evening in self.evenings)

    @property
    def hands(self) -> int:
        return sum(evening.hand_count for evening in self.evenings)

    @property
    def sitouts(self) -> int:
        return sum(len(evening.sitouts) for evening in self.evenings)

    @property
    def totals(self) -> int:
        return sum(len(evening.totals) for evening in self.evenings)

    def add(self, problem: Problem):
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        else:
            self.more_problems += 1

    def finish(self):
        self.problems.sort(key=lambda p: (p.row is not None, p.row or 0))
        if self.more_problems:
            self.problems.append(
                Problem(
                    ngettext(
                        "… and %(count)s more problem.",
                        "… and %(count)s more problems.",
                        self.more_problems,
                    )
                    % {"count": self.more_problems}
                )
            )
        return self


@dataclass(frozen=True)
class ImportResult:
    competition: Competition
    evenings: list[Evening]
    games: int
    hands: int
    sitouts: int
    new_members: list[Member]
    skipped: list[date]
    totals: int = 0
