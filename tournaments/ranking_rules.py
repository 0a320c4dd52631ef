"""How a competition ranks its players: the words of its ranking settings.

Pure Python, no Django: the competition model builds its choices from these
enums and ``scoring.ranking`` applies them. The values are what the database
and the tie-break lists store.
"""

from enum import StrEnum

__all__ = ["Basis", "PrizeRule", "TieBreak"]


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
