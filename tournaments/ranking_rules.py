"""How a competition ranks its players: the words of its ranking settings.

Pure Python, no Django: the competition model builds its choices from these
enums and ``scoring.results.ranking`` applies them. The values are what the database
and the tie-break lists store.
"""

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["AverageUnit", "Basis", "PrizeRule", "Side", "SideRanking", "TieBreak"]


class Basis(StrEnum):
    """What the standings compare first."""

    TOTAL = "total"
    """The total of the counted evenings."""
    AVERAGE = "average"
    """Points per game over the counted evenings."""
    MARSEN = "marsen"
    """The marsen of the counted evenings: a side ranking (most marsen), never a
    competition's main ranking (:data:`MAIN_BASES`)."""


#: The bases a competition's main standings can rank by.
MAIN_BASES = (Basis.TOTAL, Basis.AVERAGE)


class AverageUnit(StrEnum):
    """What the average (gemiddelde) divides the points by: the standings' average
    column, the average basis and the average tie-break all use it."""

    GAME = "game"
    """Points per game (per boompje): rounds played, sat out or absence-scored."""
    EVENING = "evening"
    """Points per evening counted (per avond)."""


class PrizeRule(StrEnum):
    """Which places of an evening win a prize, besides the poedelprijs (the lowest)."""

    WINNER = "winner"
    FIRST_N = "first_n"
    PER_FOUR = "per_four"
    FORMULE_VAN_4 = "formule_van_4"


class TieBreak(StrEnum):
    """A way to split equal scores, applied in the club's order."""

    MARSEN = "marsen"
    FEWER_NAT = "fewer_nat"
    ROEM = "roem"
    AVERAGE = "average"
    HEAD_TO_HEAD = "head_to_head"


class Side(StrEnum):
    """A ranking a season can show beside its main standings; the kind fixes its
    basis (:data:`SIDE_BASES`), the club sets its best N and minimum."""

    POINTS = "points"
    """The puntenkampioen: the most total points."""
    MARSEN = "marsen"
    """The most marsen."""


#: What each side ranking compares first.
SIDE_BASES = {Side.POINTS: Basis.TOTAL, Side.MARSEN: Basis.MARSEN}


@dataclass(frozen=True, slots=True)
class SideRanking:
    """One side ranking's definition, as ``Competition.side_rankings`` stores it
    (``{"kind": "points", "best_of": 6, "min_attendance": 4}``): a player's best
    ``best_of`` counting evenings (``None``: every one), ranked from
    ``min_attendance`` evenings played (0: no minimum)."""

    kind: Side
    best_of: int | None = None
    min_attendance: int = 0

    @property
    def basis(self) -> Basis:
        return SIDE_BASES[self.kind]

    @classmethod
    def from_json(cls, value) -> "SideRanking":
        """A stored definition; a bare kind (``"points"``, as stored before side
        rankings had their own best N and minimum, and as an old club archive brings
        it) is every counting evening, no minimum."""
        if isinstance(value, str):
            return cls(kind=Side(value))
        return cls(
            kind=Side(value["kind"]),
            best_of=value.get("best_of") or None,
            min_attendance=value.get("min_attendance") or 0,
        )

    def to_json(self) -> dict:
        return {
            "kind": str(self.kind),
            "best_of": self.best_of,
            "min_attendance": self.min_attendance,
        }
