"""Roem: the combinations, in a trick or declared from a hand, and what a team can hold.

In-trick roem (the default, :attr:`RoemRule.IN_TRICK`): a trick's four cards score

========================================  =====
run of 3 in one suit (natural order)        20
run of 4 in one suit                        50
stuk: trump K + Q in the trick             +20   (so 40 / 70 inside a run of 3 / 4)
four aces, tens, kings or queens           100
four jacks                                 200
four 9s, 8s or 7s                            0   (100 under ``low_fours``)
========================================  =====

Some clubs score four 7s, 8s or 9s as 100 roem too (the rule set's ``low_fours``):
every function and table here that depends on it takes ``low_fours`` or has a
``_LOW_FOURS`` twin, derived the same way (:func:`in_trick_bounds`).

Runs use the natural order 7 8 9 10 J Q K A, whatever the trump (trump 9-10-J is a
run). A trick can hold at most one run, and a four of a kind never comes with a run
or stuk, so a trick's roem is one of 0, 20, 40, 50, 70, 100, 200.

Declared roem (:attr:`RoemRule.DECLARED`, match-1500): each player declares, from
the eight cards dealt, every maximal run of 3 or more in one suit (3 = 20, 4 = 50,
5 or more = 100) and stuk (trump K + Q in one hand, 20). Of the runs, only the team
holding the single highest run (by value) scores its runs; equal highest runs go to
the playing team. Stuk always scores for its holder. A team that takes no trick
scores no roem (here too: the core applies that rule to both kinds).

What one team can bank in one hand
----------------------------------
:func:`score_hand` rejects roem no deal can produce. For in-trick roem a team's
total is a sum over disjoint tricks it took:

* a team without pit (at most seven tricks) holds a total in
  :data:`IN_TRICK_TEAM_TOTALS`: every multiple of 10 from 0 to 650 except 10, 30,
  530, 580, 610 and 630; and the tricks holding it carry at least
  :data:`IN_TRICK_MIN_POINTS` card points (200 roem needs four jacks, 26 points;
  with 0 card points a team holds 0, 20 or 40);
* a team with pit, and both teams together, hold a total in
  :data:`IN_TRICK_PIT_TOTALS`: every multiple of 10 from 0 to 700 except 10, 30,
  530, 630, 650, 670, 680 and 690. 700 is four jacks, aces, kings and queens plus a
  7-8-9-10 run in each suit; 650 fits in seven tricks (so a team without pit can
  hold it) but then the eighth trick is the fourth run: (650, 50) is a real hand,
  (650, 0) is not.

The tables come from :func:`derive_in_trick_min_points` and
:func:`derive_whole_deal_totals`, exhaustive counts over every choice of
four-of-a-kinds, runs and stuk that fits in the deck (each run of three with a
fourth card that does not lengthen it, a stuk without run with two); the tests
re-derive them and build concrete tricks for every total. They are exact for sets
of tricks; they do not prove that every total can also be *played* legally (the
tests play out the highest, 700): a bound that never rejects a real hand.

For declared roem, one player's runs total 0, 20, 40 (3+3), 50, 70 (3+4), 100
(5+ or 4+4) or 120 (3+5); partners hold disjoint cards in four suits, so a team's
runs are any sum of two of those, and stuk adds 20 once per hand:
:data:`DECLARED_TEAM_TOTALS` is every multiple of 10 up to 260 except 10, 30, 230
and 250. Only one team can score runs, the other at most its stuk.

The table enters what each team *declared* (:data:`STUK` and runs by points);
:func:`count_declarations` applies the no-trick rule first and then the highest-run
rule (as :func:`declared_roem` and the simulator do, the order of docs/rules.md,
"When roem counts"): a team that took no trick has no run to compare, so against a
pit only the pit team's declarations count (A pits, A declared 20, B declared 50: A
banks 162 + 100 + 20).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence

from .cards import _POINTS, CARDS, Card, Rank, parse_card
from .rulesets import Choice
from .teams import PerTeam, Team

__all__ = [
    "DECLARED_MAX",
    "DECLARED_TEAM_TOTALS",
    "IN_TRICK_MAX",
    "IN_TRICK_MAX_LOW_FOURS",
    "IN_TRICK_MIN_POINTS",
    "IN_TRICK_MIN_POINTS_LOW_FOURS",
    "IN_TRICK_PIT_TOTALS",
    "IN_TRICK_PIT_TOTALS_LOW_FOURS",
    "IN_TRICK_TEAM_TOTALS",
    "IN_TRICK_TEAM_TOTALS_LOW_FOURS",
    "InTrickBounds",
    "STUK",
    "Roem",
    "RoemKind",
    "count_declarations",
    "declared_roem",
    "derive_in_trick_min_points",
    "derive_whole_deal_totals",
    "describe_roem",
    "hand_declarations",
    "in_trick_bounds",
]


class RoemKind(Choice):
    """A combination that scores roem, with its points as :attr:`points`."""

    RUN_OF_THREE = "run_of_three"
    RUN_OF_FOUR = "run_of_four"
    #: Declared roem only: a run of five or more (a trick has four cards).
    RUN_OF_FIVE_OR_MORE = "run_of_five_or_more"
    STUK = "stuk"
    #: Four aces, tens, kings or queens.
    FOUR_OF_A_KIND = "four_of_a_kind"
    FOUR_JACKS = "four_jacks"

    @property
    def points(self) -> int:
        return _KIND_POINTS[self]


_KIND_POINTS = {
    RoemKind.RUN_OF_THREE: 20,
    RoemKind.RUN_OF_FOUR: 50,
    RoemKind.RUN_OF_FIVE_OR_MORE: 100,
    RoemKind.STUK: 20,
    RoemKind.FOUR_OF_A_KIND: 100,
    RoemKind.FOUR_JACKS: 200,
}
_RUN_KIND = {3: RoemKind.RUN_OF_THREE, 4: RoemKind.RUN_OF_FOUR}
_NUMBER_WORDS = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
_PLURALS = {
    Rank.ACE: "aces",
    Rank.TEN: "tens",
    Rank.KING: "kings",
    Rank.QUEEN: "queens",
    Rank.NINE: "nines",
    Rank.EIGHT: "eights",
    Rank.SEVEN: "sevens",
}


@dataclasses.dataclass(frozen=True, slots=True)
class Roem:
    """One combination: its :class:`RoemKind` and the cards that make it (for a
    run in natural order, low to high). ``str()`` reads like a score sheet note:
    ``"run of three ♥ 9-10-J"``, ``"stuk"``, ``"four jacks"``."""

    kind: RoemKind
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", RoemKind(self.kind))
        object.__setattr__(self, "cards", tuple(map(parse_card, self.cards)))

    @property
    def points(self) -> int:
        return _KIND_POINTS[self.kind]

    def __str__(self) -> str:
        kind = self.kind
        if kind is RoemKind.STUK:
            return "stuk"
        if kind is RoemKind.FOUR_JACKS:
            return "four jacks"
        if kind is RoemKind.FOUR_OF_A_KIND:
            return f"four {_PLURALS[self.cards[0].rank]}"
        ranks = "-".join(c.rank.label for c in self.cards)
        return f"run of {_NUMBER_WORDS[len(self.cards)]} {self.cards[0].suit.symbol} {ranks}"

    def __repr__(self) -> str:
        cards = ", ".join(repr(str(c)) for c in self.cards)
        return f"Roem(RoemKind.{self.kind.name}, ({cards}{',' if len(self.cards) == 1 else ''}))"


def describe_roem(items: Iterable[Roem]) -> str:
    """``"run of three ♥ 9-10-J + stuk"``; an empty string for no roem."""
    return " + ".join(map(str, items))


def _runs_in(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Maximal runs of three or more in one suit among ``cards``, low to high."""
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c >> 3, []).append(c)
    runs = []
    for suit in sorted(by_suit):
        group = sorted(by_suit[suit])
        start = 0
        for i in range(1, len(group) + 1):
            if i == len(group) or group[i] != group[i - 1] + 1:
                if i - start >= 3:
                    runs.append(tuple(CARDS[c] for c in group[start:i]))
                start = i
    return runs


def _stuk_in(cards: Sequence[Card], trump: int) -> tuple[Card, Card] | None:
    king, queen = CARDS[trump * 8 + Rank.KING], CARDS[trump * 8 + Rank.QUEEN]
    return (king, queen) if king in cards and queen in cards else None


def in_trick_roem(
    cards: Sequence[Card], trump: int, *, low_fours: bool = False
) -> tuple[Roem, ...]:
    """The roem in a trick (up to four distinct cards); see :func:`trick_roem_detail`.
    ``low_fours``: four 7s, 8s or 9s are a four of a kind (100) too."""
    items = []
    if len(cards) == 4 and len({c & 7 for c in cards}) == 1:
        rank = cards[0] & 7
        if rank == Rank.JACK:
            items.append(Roem(RoemKind.FOUR_JACKS, tuple(sorted(cards))))
        elif rank >= Rank.TEN or low_fours:
            items.append(Roem(RoemKind.FOUR_OF_A_KIND, tuple(sorted(cards))))
        return tuple(items)
    for run in _runs_in(cards):
        items.append(Roem(_RUN_KIND[len(run)], run))
    stuk = _stuk_in(cards, trump)
    if stuk:
        items.append(Roem(RoemKind.STUK, stuk))
    return tuple(items)


# --- Declared roem -------------------------------------------------------------------------


def hand_declarations(hand: Iterable[Card], trump: int) -> tuple[Roem, ...]:
    """What one player declares from a dealt hand: every maximal run of three or more
    in one suit (3 = 20, 4 = 50, 5+ = 100), then stuk if the hand holds trump K + Q."""
    cards = sorted(hand)
    items = []
    for run in _runs_in(cards):
        kind = _RUN_KIND.get(len(run), RoemKind.RUN_OF_FIVE_OR_MORE)
        items.append(Roem(kind, run))
    stuk = _stuk_in(cards, trump)
    if stuk:
        items.append(Roem(RoemKind.STUK, stuk))
    return tuple(items)


def declared_roem(
    hands: Sequence[Iterable[Card]],
    trump: int,
    playing: Team | str,
    pit: Team | str | None = None,
) -> PerTeam:
    """The declarations that score, per team, from the four dealt hands (seats 0..3).

    "No trick, no roem" comes first: the team that took no trick (the other team
    made ``pit``) scores nothing and has no run to compare. Then both teams' runs are
    compared by their single highest run (by points); only the team holding it
    scores its runs, and equal highest runs go to ``playing``. Stuk scores for its
    holder. Returns ``PerTeam`` of tuples of :class:`Roem`.
    """
    declared = [hand_declarations(h, trump) for h in hands]
    runs = {Team.A: [], Team.B: []}
    stuks = {Team.A: [], Team.B: []}
    for seat, items in enumerate(declared):
        team = Team.of_seat(seat)
        for item in items:
            (stuks if item.kind is RoemKind.STUK else runs)[team].append(item)
    if pit is not None:
        runs[Team(pit).other], stuks[Team(pit).other] = [], []
    best = {team: max((r.points for r in runs[team]), default=0) for team in Team}
    runs[_runs_lose(best[Team.A], best[Team.B], Team(playing))] = []
    return PerTeam(
        tuple(runs[Team.A] + stuks[Team.A]),
        tuple(runs[Team.B] + stuks[Team.B]),
    )


def _runs_lose(best_a: int, best_b: int, playing: Team) -> Team:
    """The team whose runs do not count: not the holder of the single highest run
    (equal highest runs go to ``playing``)."""
    best_playing, best_defenders = (best_a, best_b) if playing is Team.A else (best_b, best_a)
    return playing if best_defenders > best_playing else playing.other


#: A stuk among a team's declarations; the runs are given by their points (20 a run
#: of three, 50 of four, 100 of five or more). Equal to the string ``"stuk"``.
STUK = RoemKind.STUK


def count_declarations(
    declared: Sequence[Sequence[int | RoemKind]], playing: Team | str, pit: Team | str | None = None
) -> PerTeam:
    """The declarations that count, per team, from what each team declared.

    ``declared`` holds per team its runs (by points) and :data:`STUK`, as
    ``score_hand`` takes them once checked. Only the team with the single highest
    run scores its runs (equal highest runs go to ``playing``); stuk always scores
    for its team. "No trick, no roem" comes first: a team that took no trick (the
    other team made ``pit``) scores nothing and has no run to compare, so the pit
    team keeps its runs. The order of each team's items is kept.

    >>> count_declarations(((20, STUK), (50,)), "A")
    PerTeam(a=(RoemKind.STUK,), b=(50,))
    >>> count_declarations(((50,), (50,)), "B")
    PerTeam(a=(), b=(50,))
    >>> count_declarations(((20,), (50,)), "A", pit="A")
    PerTeam(a=(20,), b=())
    """
    a, b = (tuple(items) for items in declared)
    if pit is not None:
        a, b = (a, ()) if Team(pit) is Team.A else ((), b)
    best_a = max((i for i in a if i != STUK), default=0)
    best_b = max((i for i in b if i != STUK), default=0)
    counted = {Team.A: a, Team.B: b}
    if best_a and best_b:
        loser = _runs_lose(best_a, best_b, Team(playing))
        counted[loser] = tuple(i for i in counted[loser] if i == STUK)
    return PerTeam(counted[Team.A], counted[Team.B])


# One player's possible run declarations (points), from run lengths with at most
# 8 cards: [], [3], [4], [5..8], [3,3], [3,4], [3,5], [4,4].
_PLAYER_RUNS: tuple[tuple[int, ...], ...] = (
    (),
    (20,),
    (50,),
    (100,),
    (20, 20),
    (20, 50),
    (20, 100),
    (50, 50),
)


def _declared_team_multisets() -> dict[tuple[int, ...], frozenset[tuple[bool, bool]]]:
    """Every sorted tuple of declaration points one team can score, mapped to the
    ways to read it: (scores runs, holds stuk)."""
    table: dict[tuple[int, ...], set[tuple[bool, bool]]] = {}
    for first, second in itertools.combinations_with_replacement(_PLAYER_RUNS, 2):
        for stuk in (False, True):
            items = tuple(sorted(first + second + ((20,) if stuk else ())))
            table.setdefault(items, set()).add((bool(first or second), stuk))
    return {k: frozenset(v) for k, v in table.items()}


#: Sorted declaration points a team can score -> readings (scores runs, holds stuk).
DECLARED_TEAM_MULTISETS = _declared_team_multisets()
#: Declaration points that a team can score as one item.
DECLARED_ITEM_POINTS = frozenset({20, 50, 100})
#: Sorted run points (no stuk) one team can declare: two players' runs.
DECLARED_TEAM_RUNS: frozenset[tuple[int, ...]] = frozenset(
    tuple(sorted(first + second))
    for first, second in itertools.combinations_with_replacement(_PLAYER_RUNS, 2)
)


def _declared_team_readings() -> dict[int, frozenset[tuple[bool, bool]]]:
    table: dict[int, set[tuple[bool, bool]]] = {}
    for items, readings in DECLARED_TEAM_MULTISETS.items():
        table.setdefault(sum(items), set()).update(readings)
    return {k: frozenset(v) for k, v in table.items()}


#: Total declared roem of one team -> readings (scores runs, holds stuk).
DECLARED_TOTAL_READINGS = _declared_team_readings()
#: Every total of declared roem one team can score in a hand.
DECLARED_TEAM_TOTALS: frozenset[int] = frozenset(DECLARED_TOTAL_READINGS)
DECLARED_MAX = max(DECLARED_TEAM_TOTALS)


# --- In-trick bounds -----------------------------------------------------------------------

#: Fewest card points in the tricks that hold a team's in-trick roem, per total
#: that a team without pit (at most seven tricks) can take; the keys are
#: :data:`IN_TRICK_TEAM_TOTALS`. :func:`derive_in_trick_min_points` recounts it.
IN_TRICK_MIN_POINTS: dict[int, int] = {
    0: 0, 20: 0, 40: 0, 50: 10, 60: 2, 70: 10, 80: 13, 90: 10, 100: 12, 110: 21, 120: 12,
    130: 30, 140: 12, 150: 22, 160: 14, 170: 22, 180: 34, 190: 22, 200: 26, 210: 42,
    220: 26, 230: 60, 240: 26, 250: 36, 260: 28, 270: 36, 280: 39, 290: 36, 300: 38,
    310: 47, 320: 38, 330: 56, 340: 38, 350: 48, 360: 40, 370: 48, 380: 60, 390: 48,
    400: 54, 410: 68, 420: 54, 430: 111, 440: 54, 450: 64, 460: 56, 470: 64, 480: 76,
    490: 64, 500: 74, 510: 84, 520: 74, 540: 92, 550: 84, 560: 96, 570: 100, 590: 108,
    600: 108, 620: 118, 640: 138, 650: 128,
}  # fmt: skip

#: Every in-trick roem total a team that took at most seven tricks can hold: the
#: multiples of 10 from 0 to 650 except 10, 30, 530, 580, 610 and 630.
IN_TRICK_TEAM_TOTALS: frozenset[int] = frozenset(IN_TRICK_MIN_POINTS)

#: Every in-trick roem total all eight tricks of a deal can hold together: what a
#: team with pit holds, and what both teams' roem adds up to. The multiples of 10
#: from 0 to 700 except 10, 30, 530, 630, 650, 670, 680 and 690
#: (:func:`derive_whole_deal_totals` recounts it).
IN_TRICK_PIT_TOTALS: frozenset[int] = frozenset(range(0, 701, 10)) - {
    10,
    30,
    530,
    630,
    650,
    670,
    680,
    690,
}

#: Highest in-trick roem of one hand: a pit with four jacks, aces, kings and queens
#: and a 7-8-9-10 run in every suit.
IN_TRICK_MAX = 700

#: :data:`IN_TRICK_MIN_POINTS` where four 7s, 8s or 9s are 100 roem too (``low_fours``);
#: ``derive_in_trick_min_points(low_fours=True)`` recounts it.
IN_TRICK_MIN_POINTS_LOW_FOURS: dict[int, int] = {
    0: 0, 20: 0, 40: 0, 50: 10, 60: 2, 70: 10, 80: 13, 90: 10, 100: 0, 110: 21, 120: 7,
    130: 30, 140: 12, 150: 12, 160: 14, 170: 19, 180: 34, 190: 22, 200: 0, 210: 37, 220: 7,
    230: 47, 240: 16, 250: 15, 260: 25, 270: 22, 280: 34, 290: 31, 300: 12, 310: 40,
    320: 21, 330: 51, 340: 30, 350: 31, 360: 39, 370: 40, 380: 48, 390: 48, 400: 26,
    410: 58, 420: 33, 430: 69, 440: 44, 450: 61, 460: 56, 470: 64, 480: 76, 490: 64,
    500: 38, 510: 84, 520: 47, 540: 58, 550: 84, 560: 76, 570: 100, 580: 94, 590: 108,
    600: 52, 620: 87, 640: 98, 650: 128, 660: 116, 700: 68, 720: 131, 800: 108,
}  # fmt: skip

#: :data:`IN_TRICK_TEAM_TOTALS` under ``low_fours``.
IN_TRICK_TEAM_TOTALS_LOW_FOURS: frozenset[int] = frozenset(IN_TRICK_MIN_POINTS_LOW_FOURS)

#: :data:`IN_TRICK_PIT_TOTALS` under ``low_fours``: the multiples of 10 from 0 to
#: 900 except 10, 30, 630, 650, 670, 690, 710 and 730 to 890: 800 fits in seven
#: tricks, but the eighth is then the last four of a kind (``derive_whole_deal_totals(
#: low_fours=True)`` recounts it).
IN_TRICK_PIT_TOTALS_LOW_FOURS: frozenset[int] = frozenset(range(0, 901, 10)) - {
    10,
    30,
    630,
    650,
    670,
    690,
    710,
    *range(730, 891, 10),
}

#: :data:`IN_TRICK_MAX` under ``low_fours``: a pit with all eight fours of a kind.
IN_TRICK_MAX_LOW_FOURS = 900


@dataclasses.dataclass(frozen=True, slots=True)
class InTrickBounds:
    """The in-trick roem tables of one rule set (see the module's text)."""

    min_points: dict[int, int]
    team_totals: frozenset[int]
    pit_totals: frozenset[int]
    max: int


_BOUNDS = InTrickBounds(
    IN_TRICK_MIN_POINTS, IN_TRICK_TEAM_TOTALS, IN_TRICK_PIT_TOTALS, IN_TRICK_MAX
)
_BOUNDS_LOW_FOURS = InTrickBounds(
    IN_TRICK_MIN_POINTS_LOW_FOURS,
    IN_TRICK_TEAM_TOTALS_LOW_FOURS,
    IN_TRICK_PIT_TOTALS_LOW_FOURS,
    IN_TRICK_MAX_LOW_FOURS,
)


def in_trick_bounds(low_fours: bool = False) -> InTrickBounds:
    """The in-trick tables for the standard rule, or where four 7s, 8s or 9s are 100."""
    return _BOUNDS_LOW_FOURS if low_fours else _BOUNDS


def roem_points(cards: Sequence[int], trump: int, low_fours: bool = False) -> int:
    """In-trick roem of up to four distinct card ints: the sum of
    :func:`in_trick_roem`'s items, without building them (the fast path)."""
    if len(cards) == 4:
        rank = cards[0] & 7
        if cards[1] & 7 == rank and cards[2] & 7 == rank and cards[3] & 7 == rank:
            return (_QUAD_POINTS_LOW_FOURS if low_fours else _QUAD_POINTS)[rank]
    total = 0
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c >> 3, []).append(c & 7)
    for ranks in by_suit.values():
        if len(ranks) >= 3:
            ranks.sort()
            run = longest = 1
            for low, high in itertools.pairwise(ranks):
                run = run + 1 if high == low + 1 else 1
                longest = max(longest, run)
            total += _RUN_POINTS.get(longest, 0)
    trumps = by_suit.get(trump)
    if trumps and Rank.QUEEN in trumps and Rank.KING in trumps:
        total += 20
    return total


_QUAD_POINTS = (0, 0, 0, 100, 200, 100, 100, 100)  # by rank 7 8 9 10 J Q K A
_QUAD_POINTS_LOW_FOURS = (100, 100, 100, 100, 200, 100, 100, 100)
_RUN_POINTS = {3: 20, 4: 50}


# --- Deriving the in-trick tables ----------------------------------------------------------

_QUAD_ROEM = {Rank.TEN: 100, Rank.JACK: 200, Rank.QUEEN: 100, Rank.KING: 100, Rank.ACE: 100}
_QUAD_ROEM_LOW_FOURS = {**_QUAD_ROEM, Rank.SEVEN: 100, Rank.EIGHT: 100, Rank.NINE: 100}
_TRUMP = 0  # clubs, without loss of generality: the suits are symmetric
_Core = tuple[tuple[int, ...], int, int]  # (cards, extra cards needed, roem)


def derive_in_trick_min_points(*, low_fours: bool = False) -> dict[int, int]:
    """Recount :data:`IN_TRICK_MIN_POINTS` from the rules: for every roem total a team
    can take in at most seven tricks, the fewest card points of the tricks (~50 ms).

    Every roem trick has a *core*: a four of a kind (100, jacks 200), a run of four
    (50, +20 with trump K-Q inside), a run of three (20, +20 with trump K-Q inside)
    plus one *extra* card, or trump K-Q alone (stuk 20) plus two extra cards. An
    extra card must leave the core's roem alone: not the card next to a run of three
    in its suit, not the trump J or A beside a lone stuk. The count tries every set
    of four-of-a-kind ranks, then every set of disjoint run cores per suit, and keeps
    those whose cores and extras fit in 28 cards. The extras come from the other
    32 - used cards, at least 4 more than needed, and a core (or any group of cores)
    rules out at most two cards, so by Hall's theorem they can always be assigned:
    counting cards is exact. Card points: the cores' own, plus 0 for extras while
    the 11 zero-point cards (7s, 8s, plain 9s) outside the cores last and at least 2
    each after that -- a lower bound, as every extra is some card of the deck.
    ``low_fours``: four 7s, 8s or 9s are 100 too (:data:`IN_TRICK_MIN_POINTS_LOW_FOURS`).
    """
    best: dict[int, int] = {}
    for (roem, need, _used, zeros), points in _count_core_sets(28, low_fours).items():
        points += 2 * max(0, need - (_ZERO_CARDS - zeros))
        if points < best.get(roem, 1_000):
            best[roem] = points
    return dict(sorted(best.items()))


def derive_whole_deal_totals(*, low_fours: bool = False) -> frozenset[int]:
    """Recount :data:`IN_TRICK_PIT_TOTALS`: the roem all eight tricks of a deal can hold
    together -- a pit team's roem, or both teams' roem added up (about a second).

    As :func:`derive_in_trick_min_points`, but all 32 cards lie in the tricks, so the
    cards the roem tricks leave must make tricks without roem. With 8 or more cards
    left that is a matter of dealing them out (the tests build every total); with 4
    or 0 left, each core set with a total not yet found is checked card by card:
    extras matched to cores (Kuhn's algorithm) and the 4 leftover cards a trick
    without roem. That rules out 650 and 670: the cards left force a fourth run.
    ``low_fours``: four 7s, 8s or 9s are 100 too (:data:`IN_TRICK_PIT_TOTALS_LOW_FOURS`).
    """
    quad_roem = _QUAD_ROEM_LOW_FOURS if low_fours else _QUAD_ROEM
    counted = _count_core_sets(32, low_fours)
    found = {roem for (roem, need, used, _), _ in counted.items() if 32 - used - need >= 8}
    open_totals = {roem for roem, _, _, _ in counted} - found
    for quads, per_suit in _quad_choices(quad_roem):
        quad_cores = [(tuple(s * 8 + r for s in range(4)), 0, quad_roem[r]) for r in quads]
        for cores in _nearly_full_core_sets(quad_cores, per_suit, open_totals):
            roem = sum(r for _, _, r in cores)
            if roem in open_totals and _fits_whole_deal(cores, low_fours):
                found.add(roem)
                open_totals.discard(roem)
    return frozenset(found)


_ZERO_CARDS = sum(1 for c in range(32) if _POINTS[_TRUMP][c] == 0)


def _quad_choices(quad_roem):
    """(four-of-a-kind ranks, the run core sets of each suit) for every choice."""
    for k in range(len(quad_roem) + 1):
        for quads in itertools.combinations(sorted(quad_roem), k):
            free_ranks = frozenset(range(8)) - set(quads)
            yield quads, [_suit_core_sets(free_ranks, suit) for suit in range(4)]


def _count_core_sets(room: int, low_fours: bool) -> dict[tuple[int, int, int, int], int]:
    """(roem, extras needed, core cards, zero-point core cards) -> fewest core points,
    over every core set whose cores and extras fit in ``room`` cards."""
    points = _POINTS[_TRUMP]
    quad_roem = _QUAD_ROEM_LOW_FOURS if low_fours else _QUAD_ROEM
    out: dict[tuple[int, int, int, int], int] = {}
    for quads, per_suit in _quad_choices(quad_roem):
        states = {
            (sum(quad_roem[r] for r in quads), 0, 4 * len(quads), 0): sum(
                points[s * 8 + r] for r in quads for s in range(4)
            )
        }
        for options in per_suit:
            summary: dict[tuple[int, int, int, int], int] = {}
            for cores in options:
                key = (
                    sum(roem for _, _, roem in cores),
                    sum(need for _, need, _ in cores),
                    sum(len(cards) for cards, _, _ in cores),
                    sum(points[c] == 0 for cards, _, _ in cores for c in cards),
                )
                pts = sum(points[c] for cards, _, _ in cores for c in cards)
                if pts < summary.get(key, 1_000):
                    summary[key] = pts
            merged: dict[tuple[int, int, int, int], int] = {}
            for (roem, need, used, zeros), pts in states.items():
                for (roem2, need2, used2, zeros2), pts2 in summary.items():
                    if used + used2 + need + need2 <= room:
                        key = (roem + roem2, need + need2, used + used2, zeros + zeros2)
                        if pts + pts2 < merged.get(key, 1_000):
                            merged[key] = pts + pts2
            states = merged
        for key, pts in states.items():
            if pts < out.get(key, 1_000):
                out[key] = pts
    return out


def _suit_core_sets(free_ranks: frozenset[int], suit: int) -> list[list[_Core]]:
    """Every set of disjoint run cores (and a lone stuk) in one suit."""
    out: list[list[_Core]] = []
    queen, king = int(Rank.QUEEN), int(Rank.KING)

    def extend(start: int, cores: list[_Core], taken: frozenset[int]) -> None:
        out.append(cores)
        if suit == _TRUMP and {queen, king} <= free_ranks - taken:
            out.append([*cores, ((suit * 8 + queen, suit * 8 + king), 2, 20)])
        for low in range(start, 8):
            for length in (3, 4):
                ranks = frozenset(range(low, low + length))
                if low + length > 8 or not ranks <= free_ranks:
                    continue
                roem = 20 if length == 3 else 50
                if suit == _TRUMP and {queen, king} <= ranks:
                    roem += 20
                core = (tuple(suit * 8 + r for r in sorted(ranks)), 4 - length, roem)
                extend(low + length, [*cores, core], taken | ranks)

    extend(0, [], frozenset())
    return out


def _nearly_full_core_sets(
    quad_cores: list[_Core], per_suit: list[list[list[_Core]]], totals: set[int]
):
    """Core sets whose cores and extras take 28 or 32 cards, with a roem in ``totals``."""
    sizes = [[sum(len(c) + n for c, n, _ in cores) for cores in options] for options in per_suit]
    roems = [[sum(r for _, _, r in cores) for cores in options] for options in per_suit]
    most = [sum(max(s) for s in sizes[i:]) for i in range(4)] + [0]
    start = sum(len(c) for c, _, _ in quad_cores)
    start_roem = sum(r for _, _, r in quad_cores)

    def walk(suit: int, cards: int, roem: int, picks: tuple[int, ...]):
        if suit == 4:
            if cards in (28, 32) and roem in totals:
                yield quad_cores + [c for i, p in enumerate(picks) for c in per_suit[i][p]]
            return
        if cards + most[suit] < 28:
            return
        for p, (size, more) in enumerate(zip(sizes[suit], roems[suit], strict=True)):
            if cards + size <= 32:
                yield from walk(suit + 1, cards + size, roem + more, (*picks, p))

    if totals:
        yield from walk(0, start, start_roem, ())


def _fits_whole_deal(cores: list[_Core], low_fours: bool) -> bool:
    """Whether every core gets its extras from the cards the cores leave, the 4 (or 0)
    cards then left over making a trick without roem."""
    used = {c for cards, _, _ in cores for c in cards}
    free = [c for c in range(32) if c not in used]
    slots: list[frozenset[int]] = []  # the cards each extra may not be
    for cards, need, _ in cores:
        if len(cards) == 2:  # lone stuk: not the trump J or A
            ruled_out = frozenset({_TRUMP * 8 + Rank.JACK, _TRUMP * 8 + Rank.ACE})
        else:  # run of three: not the cards next to it
            low, high = cards[0], cards[-1]
            ruled_out = frozenset(
                ([low - 1] if low & 7 else []) + ([high + 1] if high & 7 != 7 else [])
            )
        slots.extend([ruled_out] * need)
    spare = len(free) - len(slots)
    leftovers = [()] if spare == 0 else itertools.combinations(free, spare)
    for leftover in leftovers:
        if leftover and roem_points(leftover, _TRUMP, low_fours):
            continue
        rest = [c for c in free if c not in leftover]
        if _perfect_matching(slots, rest):
            return True
    return False


def _perfect_matching(slots: list[frozenset[int]], cards: list[int]) -> bool:
    """Kuhn's algorithm: can every slot take its own card, avoiding its ruled-out set?"""
    owner: dict[int, int] = {}

    def place(slot: int, seen: set[int]) -> bool:
        for card in cards:
            if card in slots[slot] or card in seen:
                continue
            seen.add(card)
            if card not in owner or place(owner[card], seen):
                owner[card] = slot
                return True
        return False

    return all(place(slot, set()) for slot in range(len(slots)))
