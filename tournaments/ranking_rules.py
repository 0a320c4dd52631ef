"""How a competition ranks its players: the words of its ranking settings.

Pure Python, no Django: the competition model builds its choices from these
enums and ``scoring.ranking`` applies them. The values are what the database
and the tie-break lists store.
"""

from enum import StrEnum

__all__ = ["Basis", "TieBreak"]


class Basis(StrEnum):
    """What the standings compare first."""

    TOTAL = "total"
    """The total of the counted evenings."""
    AVERAGE = "average"
    """Points per game over the counted evenings."""


class TieBreak(StrEnum):
    """A way to split equal scores, applied in the club's order."""

    MARSEN = "marsen"
    FEWER_NAT = "fewer_nat"
    ROEM = "roem"
    AVERAGE = "average"
    HEAD_TO_HEAD = "head_to_head"
