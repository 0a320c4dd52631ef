"""Teams and seats.

Four seats clockwise: 0 North, 1 East, 2 South, 3 West. Partners sit opposite:
team A (North/South, the *wij* column of a paper score sheet) holds seats 0 and 2,
team B (East/West, *zij*) seats 1 and 3. The player left of the dealer (the next
seat clockwise) is the *forehand*: first to speak and, always, first to lead.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import NamedTuple

__all__ = ["PerTeam", "Seat", "Team", "forehand_of", "parse_team"]


class Team(StrEnum):
    """Team A (North/South, *wij*) or team B (East/West, *zij*).

    A ``StrEnum``: ``Team.A == "A"``, so code that compares with ``"A"`` keeps working.
    """

    A = "A"
    B = "B"

    @property
    def other(self) -> Team:
        return Team.B if self is Team.A else Team.A

    @property
    def index(self) -> int:
        """0 for A, 1 for B: the position in a :class:`PerTeam` pair."""
        return 0 if self is Team.A else 1

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.NORTH, Seat.SOUTH) if self is Team.A else (Seat.EAST, Seat.WEST)

    @property
    def column(self) -> str:
        """The score-sheet column: ``"wij"`` for A, ``"zij"`` for B."""
        return "wij" if self is Team.A else "zij"

    @classmethod
    def of_seat(cls, seat: int) -> Team:
        """The team of seat 0..3 (even seats are A)."""
        return cls.B if seat & 1 else cls.A

    def __repr__(self) -> str:
        return f"Team.{self.name}"


class Seat(IntEnum):
    """A seat at the table, clockwise from North."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def team(self) -> Team:
        return Team.of_seat(self)

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def next(self) -> Seat:
        """The seat on this seat's left: the next to play, clockwise."""
        return Seat((self + 1) % 4)

    @property
    def opponents(self) -> tuple[Seat, Seat]:
        """The two seats of the other team, North or South first."""
        return (Seat(self ^ 1), Seat(self ^ 3))

    @property
    def letter(self) -> str:
        """``"N"``, ``"E"``, ``"S"`` or ``"W"``: how a seat is written and stored."""
        return "NESW"[self]

    @classmethod
    def from_letter(cls, letter: str) -> Seat:
        """The seat written ``letter`` (``"N"``, ``"E"``, ``"S"`` or ``"W"``)."""
        index = "NESW".find(letter) if len(letter) == 1 else -1
        if index < 0:
            raise ValueError(f"not a seat: {letter!r}; write N, E, S or W")
        return cls(index)

    def __repr__(self) -> str:
        return f"Seat.{self.name}"


def forehand_of(dealer: int) -> Seat:
    """The forehand: the seat left of (after) ``dealer``."""
    return Seat((dealer + 1) % 4)


class PerTeam(NamedTuple):
    """A value for each team: ``PerTeam(a=..., b=...)``; a plain ``(a, b)`` tuple too."""

    a: int
    b: int

    def of(self, team: Team | str) -> int:
        """The value of ``team``."""
        return self[0] if team == "A" else self[1]

    def swapped(self) -> PerTeam:
        """The pair with A and B exchanged."""
        return PerTeam(self[1], self[0])

    def __repr__(self) -> str:
        return f"PerTeam(a={self[0]!r}, b={self[1]!r})"


_TEAM_PARSE: dict[object, Team] = {
    "A": Team.A,
    "B": Team.B,
    "a": Team.A,
    "b": Team.B,
}


def parse_team(team: object) -> Team | None:
    """The :class:`Team` for ``"A"``/``"B"`` (either case) or a Team; None otherwise."""
    try:
        return _TEAM_PARSE.get(team)  # type: ignore[arg-type]
    except TypeError:
        return None
