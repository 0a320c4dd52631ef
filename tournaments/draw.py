"""The loting (indeling): who sits where in a round of a club evening.

Plain Python, no Django: a service (e.g. ``tournaments.services.round_draw``) reads the
present players and the history from the database, calls this module and stores
the result. Everything here is a pure function of its inputs and a seed.

Words
-----
- **speelavond, ronde, tafel**: a club evening has rounds; in each round the
  present players sit at tables of four.
- **seats N, E, S, W** (:class:`Seat`): the seat fixes the partner. North and
  South are team A (*wij* on the score sheet), East and West team B (*zij*).
- **loting / indeling**: the draw of players to tables and seats for one round.
  Individual competitions redraw every round (:func:`individual_draw`), pairs
  competitions keep each **koppel** together and move it (:func:`pairs_draw`).
- **uitloter, stilzitten**: a player the draw leaves over *sits out* the round
  (and gets the club's fixed score). Listed in :attr:`RoundDraw.sitouts`.
- **invallen**: a substitute (an *invaller*, not one of the drawn players) plays
  in an empty seat. A table of three has one seat ``None``; the player opposite
  it partners the invaller. :attr:`OddMode.SUBSTITUTE` draws such tables.

What a good draw avoids (one evening)
-------------------------------------
A pair of players *partnered* twice is a **partner repeat**; *opposed* twice, an
**opponent repeat**; at one table twice in any roles, a **meeting repeat**
(:func:`repeat_counts` counts all three over a list of rounds). Over a season the
draw spreads partners: it prefers partners a player has had least often.

The draw minimises, per round, a cost summed over the six pairs at each table,
taken from :class:`DrawHistory` (``p``/``o`` = times partnered/opposed earlier
this evening, ``s`` = times partnered this season)::

    as partners:  W_P * [p > 0] + W_O * p + W_MET * [p + o > 0] + min(s, SEASON_CAP)
    as opponents:                 W_O * o + W_MET * [p + o > 0]

with ``W_MET = 100``, ``SEASON_CAP = 50``, ``W_O = 10_000`` and, per round,
``W_P = W_O * (4 * max p + 8 * max o + 1)`` over the seated pairs: one more repeated
partnership outweighs every other change a swap of two players can make. The order
is thus lexicographic: repeated partnerships, then opposed-again pairs, then
met-again pairs, then the season.

Algorithm (one round)
---------------------
1. *Sit-outs* (sitout mode, ``n % 4`` players): the fair rota. Players are keyed
   by (sit-outs this evening, sit-outs this season); the lowest keys sit out, so
   nobody sits out twice in an evening while a present player has not sat out
   (the evening counts of players present all evening never differ by more than
   one, and over a season the same holds for a steady group). Ties at the cut
   are random: several random tie-breaks (all of them for one table, 12 for two,
   one per restart for more) are drawn and the best resulting round is kept.
2. *Two tables or fewer* (up to 8 seated): every arrangement (at most 315, seats
   up to symmetry) is scored; the key is (repeated partnerships, *lookahead*,
   cost). With two tables the lookahead is 1 if after this round the same seated
   players could no longer be paired without a repeat (so 8 players last 7
   rounds, G3). With one table (4 to 7 present) it is minus the number of rounds,
   up to ``LOOKAHEAD_ROUNDS = 5``, that can still follow without a partner repeat,
   searched over every sit-out set the rota allows and every pairing (memoised).
3. *Three tables or more*: ``RESTARTS = 4`` randomized greedy constructions (fill
   a table seat by seat with the cheapest of a window of the remaining players),
   each followed by local search over swaps of two seats: every seat in conflict
   (a partner or opponent repeat), then every seat that met a table-mate earlier
   in another role, is tried against every other seat and the best improving swap
   is made, until no such seat improves; then ``16 * seats`` random swaps of
   costly seats polish the season spread. If the best restart still repeats a
   partnership, an exact fallback takes a maximum matching (Edmonds' blossom
   algorithm) in the graph of not-yet-partnered seated players as the
   partnerships, groups them into tables and searches again.
4. Each table is turned by a random symmetry of the square (partners stay
   opposite) and the tables are numbered in random order.

All randomness comes from one ``random.Random`` (pass ``seed`` or ``rng``);
players are sorted first, so the draw depends on the set of players, the history
and the seed only. Work is bounded: restarts, swaps and polishing are capped. A
whole evening of 120 players and 6 rounds takes some 30 ms (``python -m
bench.draw``).

Guarantees (proved; ``tests/tournaments/test_draw.py`` checks each)
-----------------------------------------------------------------
Let a round seat ``m`` players at ``T`` tables with ``e`` empty seats, so ``2T - e``
partnerships are needed.

**G1 (fewest repeated partnerships, every round; with tables of three see G5).**
The round repeats exactly
``2T - e - nu`` partnerships, where ``nu`` is the maximum matching (capped at
``2T - e``) of the seated players who have not partnered this evening: fewer is
impossible (the new partnerships form such a matching) and the draw reaches it
(steps 2 and 3: exhaustive, or the maximum matching itself). In particular the
round has no partner repeat whenever the numbers allow one.

**G2 (Dirac).** If no seated player has partnered more than ``m/2 - 1`` of the
other seated players this evening, the round has no partner repeat: the free
graph has minimum degree ``>= m/2``, so (Dirac) a Hamiltonian cycle and a matching
of ``floor(m/2) >= 2T - e`` pairs; apply G1. In round ``k`` everyone has partnered
at most ``k - 1`` players, so **an evening of r rounds has no partner repeat when
r <= m/2 for every round**: with 12 or more seated players, every evening of up to
6 rounds, whatever the sit-outs, late arrivals and leavers.

**G3 (small groups).** The same ``n`` players all evening. *Two full tables*
(``n = 8``): no partner repeat for ``r <= 7 = n - 1`` rounds, which is exact: with
``r > n - 1`` rounds someone needs more partners than there are other players.
Rounds 1-4 follow from G2; after round 4 the free graph is 3-regular on 8
vertices, and every such graph is 3-edge-colourable (checked exhaustively over
all 19355 labelled cubic graphs on 8 vertices), so round 5 has a matching whose
removal leaves even cycles; the lookahead picks one, round 6 takes one of the
cycles' two matchings and round 7 the rest. *One table* (4 to 7 present, sit-outs
by the rota): for ``r <= 6`` rounds there is no partner repeat whenever some
evening of ``r`` rounds that follows the rota has none, because each round keeps
the longest repeat-free continuation (induction on the rounds; the lookahead
sees 5 ahead). That is 3 rounds for 4 players (then forced: 3 pairings exist),
5 for 5 players (6 rounds need 12 partnerships, 5 players have 10 pairs), and 6
for 6 or 7 players (witnessed by the tests). (For ``n >= 12`` and
``m/2 < r <= n - 1``, i.e. 7 rounds or more, a repeat-free evening exists but the
round-by-round draw does not promise it.)

**G4 (no partner or opponent repeat).** Let ``Dp`` and ``Do`` be the largest
numbers of seated players that one seated player has partnered, resp. opposed,
this evening. If ``4T > 4 + 2*Dp + 4*Do + e``, the round has no partner repeat
and no opponent repeat. Proof: let seat ``v`` at table ``A`` be in conflict. A
seat ``s`` at another table is *bad for v* if the player opposite ``s`` partnered
``v`` (each of ``v``'s ``<= Dp`` partners spoils one seat) or a player beside
``s`` opposed ``v`` (each of ``<= Do`` opponents spoils two seats); it is *bad for
A* if its occupant partnered ``v``'s partner or opposed one of ``v``'s opponents
(``<= Dp + 2*Do`` players), or it is empty while ``A`` has an empty seat
(``<= e``). The other tables have ``4T - 4`` seats, so some seat is good; swapping
``v`` into it removes ``v``'s conflicts and creates none, a cost drop of at least
``W_O`` minus at most ``12 * (W_MET + SEASON_CAP) < W_O / 2`` of secondary terms.
The best swap the local search takes for a hot seat therefore also lowers the
conflict cost (a multiple of ``W_O``), which bounds the number of swaps, and the
search stops only when no conflicted seat has an improving swap: none is left.
For an evening with all ``n`` players seated every round (``Dp <= k - 1``,
``Do <= 2(k - 1)`` in round ``k``): **no partner and no opponent repeat over r
rounds when n > 10(r - 1) + 4**, i.e. 16 players for 2 rounds, 28 for 3, 36 for 4,
48 for 5, 56 for 6 (120 players for 12). Below that the search usually still
finds none; ``python -m bench.draw`` prints what it achieves.

Odd numbers (``n`` not a multiple of four)
-----------------------------------------
- :attr:`OddMode.SITOUT`: ``n // 4`` tables, ``n % 4`` uitloters by the rota.
- :attr:`OddMode.SUBSTITUTE`: ``ceil(n / 4)`` tables, ``e = 4T - n`` of them tables of
  three (one ``None`` seat each, never two). When the empty seats outnumber the
  tables (only ``n = 5``: two tables would need three empty seats), or outnumber
  the invallers free to fill them (``substitutes``: 13 present and nobody else
  in the hall), the draw falls back, deterministically, to ``n // 4`` full tables
  and the rest sit out by the rota. :func:`table_plan` says which layout a count
  gets and why.

**The rota of the tables of three.** Who sits at a table of three takes turns
like the sit-out rota: players are keyed by (times at a table of three this
evening, this season; :attr:`DrawHistory.threes_evening` and ``threes_season``)
and the ``3e`` lowest keys fill the tables of three, ties at the cut tried at
random (up to six tables: 12 tie-breaks, up to 40 while each leaves a partner
repeat; more tables: one per restart). The other
players fill the full tables; each part is then seated as above (the two parts
share no table, so their costs add up). Hence:

**R (the rota is fair).** If players ``a`` and ``b`` were present at the same
rounds, their counts at tables of three differ by at most one, this evening and
this season. Proof by induction over the rounds: with ``|c_a - c_b| <= 1`` for both
counts, suppose ``a`` sits at a table of three and ``b`` does not. Then ``key(a) <=
cut < key(b)`` or both are tied at the cut (a strictly lower key is always chosen),
so ``key(a) <= key(b)``. If the evening counts are equal, ``a``'s season count is at
most ``b``'s; if ``a``'s is one lower, ``a`` had at most one more before the evening,
so again its season count is at most ``b``'s. Either way, after the round ``a`` has
at most one more than ``b`` in both counts. A steady group (everyone every round)
is the special case: 11 players over 12 rounds sit there 3 or 4 times each.
Players with equally many rounds at different times cannot be promised this:
evenings differ in how many seats the tables of three have (10 players: 6 of 10
a round, 11 players: 3 of 11).

**G5 (tables of three).** G1 holds for the players the rota chose: the round
repeats exactly the repeated partnerships forced at the full tables (G1 for
those players) plus the tables of three that have no two players who have not
partnered, minimised over the groupings of the chosen players into threes
(exhaustive for up to two tables, a maximum matching otherwise). G2 and G4 hold
for the full tables with their own players (``m - 3e`` seated, no empty seat).
Rounds 1 to 3 have no partner repeat at a table of three: three players who have
all partnered each other need three earlier rounds (a round partners a player
once). From round 4 on a repeat can be forced there (the rota's three partnered
each other in rounds 1-3); the tie-breaks usually avoid it (the tests witness
evenings of 6 rounds without a partner repeat for 7 to 23 players).

Fewer than 4 players is a :class:`DrawError` (code ``too_few_players``); so is a
player listed twice (``duplicate_player``). Late arrivals and leavers need
nothing special: each round takes the players present now and the history, which
may name players who left and may lack players who just arrived. Rounds a late
arrival missed do not count as sit-outs unless the caller adds them to
``sitouts_evening``.

Pairs movements (:func:`pairs_draw`, :class:`Movement`)
-------------------------------------------------------
A pairs competition keeps each koppel together all season; its movement says
whom it meets. :attr:`Movement.ROUND_ROBIN` is the circle method (every pair meets
every other pair once per cycle; see :func:`pairs_draw`). The club movement
(*doorschuiven*) keeps half the pairs at their table:

- Tables are numbered ``1..T``, the pairs (positions) ``1..2T``. In round 1 pairs
  ``2t - 1`` and ``2t`` sit at table ``t``.
- :attr:`Movement.EVEN_STAY`: the even pairs stay; each round every odd pair moves
  up one table, from ``T`` to 1 (wrapping). In round ``r`` table ``t`` holds pair
  ``2t`` and pair ``2s - 1`` with ``s = ((t - r) mod T) + 1``.
  :attr:`Movement.ODD_STAY` is the mirror: odd pairs stay, even pairs move up.
- The staying pair sits North-South (*wij*), the moving pair East-West (*zij*);
  a table keeps its number every round, also when it is empty.
- No two pairs meet twice within ``T`` rounds: a staying pair meets the moving
  pair that started ``r - 1`` tables lower, a different one each round, and two
  staying (or two moving) pairs never meet. Round ``T + 1`` is round 1 again, so
  an evening of more than ``T`` rounds repeats meetings (the arithmetic allows no
  better: a staying pair only ever meets the ``T`` moving pairs).
- An odd number of pairs: ``T = (p + 1) / 2`` tables and the staying place of table
  ``T`` is empty; the moving pair that arrives there sits out (a bye, with the
  sit-out score): each moving pair once per ``T`` rounds. Which pairs move is the
  rota (:func:`movement_positions`): for each evening the ``T`` pairs that have sat
  out least this season move, the one with the fewest sitting out in round 1, the
  next in round 2, and so on (ties: the pairs' numbers); the others stay, by
  number. With at most ``T`` rounds an evening, the season's sit-out counts of the
  pairs never differ by more than one (each evening the pairs with the fewest sit
  out once).
- A pair that leaves keeps its place as an empty slot (``None``): the pair it
  would have met sits out that round, the others keep moving.
- The places are fixed by the pairs of round 1: a pair that comes later does not
  reshuffle them (no round already drawn changes, and no other pair's movement).
  With an odd number of pairs in round 1 the first pair to come late takes the
  empty staying place of table ``T`` (:func:`movement_join`): it meets the moving
  pair that would have sat out there, and the bye is gone. Any other late pair has
  no place in the running movement.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, TypeVar

from scoring.rules.teams import Seat

__all__ = [
    "DrawError",
    "DrawHistory",
    "Movement",
    "OddMode",
    "RepeatCounts",
    "RoundDraw",
    "Seat",
    "TableDraw",
    "TablePlan",
    "evening_draw",
    "individual_draw",
    "movement_join",
    "movement_positions",
    "pairs_draw",
    "repeat_counts",
    "table_plan",
]

P = TypeVar("P", bound=Hashable)

W_OPPONENT = 10_000
"""Cost per earlier opposition of two players put at one table again as opponents."""
W_MET = 100
"""Cost of seating two players together who met earlier this evening (any roles)."""
SEASON_CAP = 50
"""Season partner counts above this weigh as this (keeps the order lexicographic)."""
RESTARTS = 4
"""Greedy constructions per round for three tables or more."""
GREEDY_WINDOW = 48
"""The greedy fills a seat with the cheapest of this many remaining players."""
SITOUT_TRIES = 12
"""Random tie-breaks of the sit-out rota tried for two tables."""
THREES_TRIES = 40
"""Tie-breaks of the rota of the tables of three tried (up to six tables) while the
first SITOUT_TRIES leave a partner repeat or a lookahead problem."""
LOOKAHEAD_ROUNDS = 5
"""One table: rounds searched ahead for a repeat-free continuation."""


class OddMode(StrEnum):
    """What to do with a player count that is not a multiple of four."""

    SITOUT = "sitout"
    """Leave ``n % 4`` players out by the rota (uitloters, stilzitten)."""
    SUBSTITUTE = "substitute"
    """Tables of three with an empty seat for an invaller (sit-outs only for 5)."""


class Movement(StrEnum):
    """How the fixed pairs of a pairs competition meet (see the module docstring)."""

    ROUND_ROBIN = "round_robin"
    """Every pair meets every other pair once (the circle method)."""
    EVEN_STAY = "even_stay"
    """Even pairs stay at their table, odd pairs move up one table each round."""
    ODD_STAY = "odd_stay"
    """The mirror: odd pairs stay, even pairs move up one table each round."""


class DrawError(ValueError):
    """A draw the wedstrijdleider can fix (too few players, a name twice).

    ``code`` is stable for translation; ``params`` holds the message's values.
    """

    TOO_FEW_PLAYERS = "too_few_players"
    DUPLICATE_PLAYER = "duplicate_player"

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


@dataclass(frozen=True)
class TableDraw(Generic[P]):
    """One table of a round: its number and the players in seats N, E, S, W.

    A seat is ``None`` when an invaller (substitute) fills it.
    """

    number: int
    seats: tuple[P | None, P | None, P | None, P | None]

    def __post_init__(self) -> None:
        if len(self.seats) != 4:
            raise ValueError(f"a table has 4 seats, not {len(self.seats)}")

    def __getitem__(self, seat: Seat) -> P | None:
        return self.seats[seat]

    @property
    def players(self) -> tuple[P, ...]:
        """The drawn players at the table, in seat order (no substitute)."""
        return tuple(p for p in self.seats if p is not None)

    @property
    def team_a(self) -> tuple[P | None, P | None]:
        """North and South (wij)."""
        return (self.seats[Seat.NORTH], self.seats[Seat.SOUTH])

    @property
    def team_b(self) -> tuple[P | None, P | None]:
        """East and West (zij)."""
        return (self.seats[Seat.EAST], self.seats[Seat.WEST])

    def partnerships(self) -> tuple[frozenset[P], ...]:
        """The pairs of drawn players who are partners (not with an invaller)."""
        return tuple(frozenset(team) for team in (self.team_a, self.team_b) if None not in team)

    def oppositions(self) -> tuple[frozenset[P], ...]:
        """The pairs of drawn players who are opponents."""
        return tuple(
            frozenset((a, b))
            for a in self.team_a
            for b in self.team_b
            if a is not None
            if b is not None
        )


@dataclass(frozen=True)
class RoundDraw(Generic[P]):
    """The draw of one round: tables in number order and who sits out."""

    tables: tuple[TableDraw[P], ...]
    sitouts: tuple[P, ...] = ()

    @property
    def seated(self) -> tuple[P, ...]:
        return tuple(p for table in self.tables for p in table.players)

    @property
    def empty_seats(self) -> int:
        """Seats for an invaller (substitute)."""
        return sum(table.seats.count(None) for table in self.tables)

    def table_of(self, player: P) -> TableDraw[P] | None:
        """The table a player sits at, or ``None`` if they sit out or are absent."""
        for table in self.tables:
            if player in table.seats:
                return table
        return None


def _counted(counts: Mapping[P, int], keys: Iterable[P]) -> dict[P, int]:
    new = dict(counts)
    for key in keys:
        new[key] = new.get(key, 0) + 1
    return new


@dataclass(frozen=True)
class DrawHistory(Generic[P]):
    """What the draw must know about earlier rounds (read-only mappings).

    ``partners``/``opponents``: pair (a 2-element frozenset) -> times partnered /
    opposed earlier this evening. ``season_partners``: pair -> times partnered this
    season (this evening included). ``sitouts_evening``/``sitouts_season``: player
    -> times sat out. ``threes_evening``/``threes_season``: player -> times seated
    at a table of three. Players absent from the round are ignored; players missing
    from the history count as zero everywhere.
    """

    partners: Mapping[frozenset[P], int] = field(default_factory=dict)
    opponents: Mapping[frozenset[P], int] = field(default_factory=dict)
    season_partners: Mapping[frozenset[P], int] = field(default_factory=dict)
    sitouts_evening: Mapping[P, int] = field(default_factory=dict)
    sitouts_season: Mapping[P, int] = field(default_factory=dict)
    threes_evening: Mapping[P, int] = field(default_factory=dict)
    threes_season: Mapping[P, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("partners", "opponents", "season_partners"):
            pairs: dict[frozenset[P], int] = {}
            for pair, count in getattr(self, name).items():
                key = frozenset(pair)
                pairs[key] = pairs.get(key, 0) + count
            object.__setattr__(self, name, pairs)
        for name in ("sitouts_evening", "sitouts_season", "threes_evening", "threes_season"):
            object.__setattr__(self, name, dict(getattr(self, name)))

    @classmethod
    def from_rounds(
        cls, rounds: Iterable[RoundDraw[P]], *, season: DrawHistory[P] | None = None
    ) -> DrawHistory[P]:
        """The history after ``rounds`` of one evening, on top of ``season``'s counts."""
        history = season.new_evening() if season is not None else cls()
        for round_draw in rounds:
            history = history.extended(round_draw)
        return history

    def extended(self, round_draw: RoundDraw[P]) -> DrawHistory[P]:
        """This history with one more round of the evening (season counts too)."""
        partnered = [pair for table in round_draw.tables for pair in table.partnerships()]
        opposed = [pair for table in round_draw.tables for pair in table.oppositions()]
        threes = [p for table in round_draw.tables if None in table.seats for p in table.players]
        return DrawHistory(
            partners=_counted(self.partners, partnered),
            opponents=_counted(self.opponents, opposed),
            season_partners=_counted(self.season_partners, partnered),
            sitouts_evening=_counted(self.sitouts_evening, round_draw.sitouts),
            sitouts_season=_counted(self.sitouts_season, round_draw.sitouts),
            threes_evening=_counted(self.threes_evening, threes),
            threes_season=_counted(self.threes_season, threes),
        )

    def new_evening(self) -> DrawHistory[P]:
        """The season counts only: the history at the start of the next evening."""
        return DrawHistory(
            season_partners=self.season_partners,
            sitouts_season=self.sitouts_season,
            threes_season=self.threes_season,
        )


@dataclass(frozen=True)
class RepeatCounts:
    """Repeats over an evening: for every pair of players, the times beyond the first.

    ``partner_repeats`` counts partnering again, ``opponent_repeats`` opposing
    again, ``meeting_repeats`` sitting at one table again in any roles.
    """

    partner_repeats: int
    opponent_repeats: int
    meeting_repeats: int


def repeat_counts(rounds: Iterable[RoundDraw[P]]) -> RepeatCounts:
    """Count the partner, opponent and meeting repeats over ``rounds``."""
    history = DrawHistory.from_rounds(rounds)
    met: dict[frozenset[P], int] = dict(history.partners)
    for pair, count in history.opponents.items():
        met[pair] = met.get(pair, 0) + count
    return RepeatCounts(
        partner_repeats=sum(c - 1 for c in history.partners.values() if c > 1),
        opponent_repeats=sum(c - 1 for c in history.opponents.values() if c > 1),
        meeting_repeats=sum(c - 1 for c in met.values() if c > 1),
    )


# --- the draw --------------------------------------------------------------------


def individual_draw(
    players: Sequence[P],
    *,
    history: DrawHistory[P] | None = None,
    seed: int | str | bytes | None = None,
    rng: random.Random | None = None,
    odd_mode: OddMode | str = OddMode.SITOUT,
    substitutes: int | None = None,
) -> RoundDraw[P]:
    """Draw one round of an individual competition for the present ``players``.

    ``history`` is the evening so far (and the season); pass ``seed`` or ``rng``
    for a reproducible draw. ``substitutes`` is how many invallers are free for
    tables of three (``None``: enough); a substitute round that needs more is
    drawn with sit-outs (:func:`table_plan`). See the module docstring for what is
    guaranteed.
    """
    rng = _rng(seed, rng)
    mode = OddMode(odd_mode)
    present = _validated(players)
    history = history if history is not None else DrawHistory()
    plan = table_plan(len(present), mode, substitutes=substitutes)
    tables, empty, sitout_count = plan.tables, plan.empty_seats, plan.sitouts
    if empty:
        return _draw_with_threes(present, history, tables, empty, rng)
    small = tables <= 2
    tries = math.comb(len(present), sitout_count) if tables == 1 else SITOUT_TRIES
    choices = _rota_choices(
        present, sitout_count, _sitout_key(history), rng, tries if small else RESTARTS
    )
    future: _OneTableFuture[P] | None = None
    prepared: dict[tuple[P, ...], tuple[list[P], _Costs]] = {}
    best: tuple[tuple[int, int, int], list[P], _Costs, list[int]] | None = None
    for attempt in range(1 if small else RESTARTS):
        for sitouts in choices if small else [choices[attempt % len(choices)]]:
            if sitouts not in prepared:
                out = set(sitouts)
                seated = [p for p in present if p not in out]
                prepared[sitouts] = (seated, _Costs(seated, history))
            seated, costs = prepared[sitouts]
            if tables == 1:
                if future is None:
                    future = _OneTableFuture(present, history, sitout_count)
                lookahead = future.lookahead(present, seated)
                key, layout = _small_search(costs, tables, 0, rng, lookahead, -LOOKAHEAD_ROUNDS)
            elif small:
                lookahead = _next_round_lookahead(costs, 2 * tables)
                key, layout = _small_search(costs, tables, 0, rng, lookahead, 0)
            else:
                layout = _greedy(costs, tables, 0, rng)
                _improve(costs, layout, rng)
                key = (costs.repeated_partnerships(layout), 0, costs.total(layout))
            if best is None or key < best[0]:
                best = (key, seated, costs, layout)
    assert best is not None
    key, seated, costs, layout = best
    if key[0] > 0 and not small:  # G1: a maximum matching of the free pairs
        layout = _matching_fallback(costs, tables, 0, rng, key, layout)
    out = set(seated)
    return _round_draw(seated, layout, tuple(p for p in present if p not in out), rng)


def _draw_with_threes(
    present: list[P], history: DrawHistory[P], tables: int, empty: int, rng: random.Random
) -> RoundDraw[P]:
    """Substitute mode with ``empty`` tables of three: the rota picks who sits there.

    The ``3 * empty`` players with the lowest (tables of three this evening, this
    season) keys fill the tables of three, the others the full tables; each part is
    seated like a round of its own (the key adds up: the parts share no table).
    """
    choices = _rota_choices(
        present, 3 * empty, _threes_key(history), rng, THREES_TRIES if tables <= 6 else RESTARTS
    )
    best: tuple[tuple[int, ...], list[P], list[int]] | None = None
    for tried, threes in enumerate(choices):
        if tried >= SITOUT_TRIES and best is not None and best[0][:2] == (0, 0):
            break  # a clean round found: more tie-breaks only polish the season spread
        chosen = set(threes)
        full = [p for p in present if p not in chosen]
        key_full, layout_full = _seat_part(full, tables - empty, 0, history, rng)
        key_threes, layout_threes = _seat_part(list(threes), empty, empty, history, rng)
        key = tuple(a + b for a, b in zip(key_full, key_threes, strict=True))
        if best is None or key < best[0]:
            # One index space: the full tables' players, then the threes', then empty.
            offset = len(full)
            layout = layout_full + [x + offset for x in layout_threes]
            best = (key, full + list(threes), layout)
    assert best is not None
    _key, seated, layout = best
    return _round_draw(seated, layout, (), rng)


def _seat_part(
    seated: list[P], tables: int, empty: int, history: DrawHistory[P], rng: random.Random
) -> tuple[tuple[int, int, int], list[int]]:
    """Seat a fixed group at ``tables`` tables (``empty`` of them of three): G1 holds."""
    if not tables:
        return (0, 0, 0), []
    costs = _Costs(seated, history)
    if tables <= 2:
        if tables == 2:
            lookahead = _next_round_lookahead(costs, 2 * tables - empty)
        else:
            lookahead = _no_lookahead
        return _small_search(costs, tables, empty, rng, lookahead, 0)
    layout = _greedy(costs, tables, empty, rng)
    _improve(costs, layout, rng)
    key = (costs.repeated_partnerships(layout), 0, costs.total(layout))
    if key[0] > 0:
        layout = _matching_fallback(costs, tables, empty, rng, key, layout)
        key = (costs.repeated_partnerships(layout), 0, costs.total(layout))
    return key, layout


def _no_lookahead(partnered: frozenset[tuple[int, int]]) -> int:
    return 0


def _matching_fallback(
    costs: _Costs,
    tables: int,
    empty: int,
    rng: random.Random,
    key: tuple[int, int, int],
    layout: list[int],
) -> list[int]:
    """G1: tables built on a maximum matching of the free pairs, if that is better."""
    fallback = _matching_layout(costs, tables, empty, rng)
    _improve(costs, fallback, rng)
    if (costs.repeated_partnerships(fallback), 0, costs.total(fallback)) < key:
        return fallback
    return layout


def evening_draw(
    players: Sequence[P],
    rounds: int,
    *,
    history: DrawHistory[P] | None = None,
    seed: int | str | bytes | None = None,
    rng: random.Random | None = None,
    odd_mode: OddMode | str = OddMode.SITOUT,
    substitutes: int | None = None,
) -> list[RoundDraw[P]]:
    """Draw ``rounds`` rounds for a fixed group, feeding each round into the history."""
    if rounds < 0:
        raise ValueError(f"rounds must be >= 0, not {rounds}")
    rng = _rng(seed, rng)
    history = history if history is not None else DrawHistory()
    draws: list[RoundDraw[P]] = []
    for _ in range(rounds):
        draw = individual_draw(
            players, history=history, rng=rng, odd_mode=odd_mode, substitutes=substitutes
        )
        draws.append(draw)
        history = history.extended(draw)
    return draws


def pairs_draw(
    pairs: Sequence[tuple[P, P] | None],
    *,
    round_number: int,
    movement: Movement | str = Movement.ROUND_ROBIN,
) -> RoundDraw[P]:
    """Round ``round_number`` (from 1) of fixed pairs (koppels) by their ``movement``.

    For the movements that keep half the pairs at their table see the module
    docstring (*Pairs movements*); ``pairs`` are then in position order. The round
    robin uses the circle method: the pairs are numbered in the order given; pair 1 stays at
    table 1 and the others move one place round each round, so with ``p`` pairs
    every two pairs meet exactly once in ``p - 1`` rounds (``p`` even) or ``p``
    rounds (``p`` odd: each round one pair has a bye and sits out, each pair once
    per cycle). Later rounds start the cycle again. A ``None`` entry is an empty
    slot (a pair that left): its opponents have a bye, the others keep their
    schedule. Home (North-South) and away alternate: over a cycle the times a pair sits
    North-South differ by at most 1 between pairs (2 with a bye).
    """
    if round_number < 1:
        raise ValueError(f"round_number counts from 1, not {round_number}")
    movement = Movement(movement)
    real = [pair for pair in pairs if pair is not None]
    for pair in real:
        if len(pair) != 2 or None in pair:
            raise ValueError(f"a pair is two players, not {pair!r}")
    _validated([player for pair in real for player in pair])
    if len(real) < 2:
        raise DrawError(
            DrawError.TOO_FEW_PLAYERS,
            f"A round needs at least 2 pairs (4 players); {len(real)} present.",
            count=2 * len(real),
            pairs=len(real),
        )
    if movement is not Movement.ROUND_ROBIN:
        return _movement_round(list(pairs), round_number, movement)
    slots: list[tuple[P, P] | None] = list(pairs)
    if len(slots) % 2:
        slots.append(None)
    size = len(slots)
    turn = (round_number - 1) % (size - 1)
    others = list(range(1, size))
    order = [0, *others[len(others) - turn :], *others[: len(others) - turn]]
    tables: list[TableDraw[P]] = []
    sitouts: list[P] = []
    for place in range(size // 2):
        home, away = slots[order[place]], slots[order[size - 1 - place]]
        if (turn if place == 0 else place) % 2:
            home, away = away, home
        if home is None or away is None:
            sitouts.extend(home or away or ())
            continue
        tables.append(TableDraw(len(tables) + 1, (home[0], away[0], home[1], away[1])))
    return RoundDraw(tables=tuple(tables), sitouts=tuple(sorted(sitouts)))


def _movement_slots(
    pairs: list[tuple[P, P] | None], movement: Movement
) -> list[tuple[P, P] | None]:
    """Positions 1..2T (list index + 1); an odd count gets the missing stationary
    pair of the last table (T) as an empty slot."""
    if len(pairs) % 2:
        stays_at = len(pairs) if movement is Movement.EVEN_STAY else len(pairs) - 1
        pairs = [*pairs[:stays_at], None, *pairs[stays_at:]]
    return pairs


def _movement_round(
    pairs: list[tuple[P, P] | None], round_number: int, movement: Movement
) -> RoundDraw[P]:
    """One round of a stay-and-move movement; tables keep their numbers 1..T."""
    slots = _movement_slots(pairs, movement)
    tables_count = len(slots) // 2
    shift = (round_number - 1) % tables_count
    stay, move = (1, 0) if movement is Movement.EVEN_STAY else (0, 1)
    tables: list[TableDraw[P]] = []
    sitouts: list[P] = []
    for table in range(tables_count):
        home = slots[2 * table + stay]
        away = slots[2 * ((table - shift) % tables_count) + move]
        if home is None or away is None:
            sitouts.extend(home or away or ())
            continue
        tables.append(TableDraw(table + 1, (home[0], away[0], home[1], away[1])))
    return RoundDraw(tables=tuple(tables), sitouts=tuple(sorted(sitouts)))  # type: ignore[type-var]


def movement_positions(
    pairs: Sequence[tuple[P, P]],
    *,
    sitouts: Mapping[tuple[P, P], int],
    movement: Movement | str,
) -> list[tuple[P, P]]:
    """The pairs in position order for an evening of a stay-and-move movement.

    An even number of pairs keeps the order given (the pairs' numbers). With an odd
    number the moving pairs take turns at the empty last table by the rota: the
    ``T`` pairs with the fewest ``sitouts`` (ties: the order given) move, the one
    with the fewest sits out in round 1, the next in round 2, and so on; the others
    stay, in the order given.
    """
    movement = Movement(movement)
    if movement is Movement.ROUND_ROBIN or len(pairs) % 2 == 0:
        return list(pairs)
    tables_count = (len(pairs) + 1) // 2
    ranked = sorted(range(len(pairs)), key=lambda i: (sitouts.get(pairs[i], 0), i))
    movers = ranked[:tables_count]
    stayers = sorted(ranked[tables_count:])
    stay, move = (1, 0) if movement is Movement.EVEN_STAY else (0, 1)
    slots: list[tuple[P, P] | None] = [None] * (2 * tables_count)
    for k, i in enumerate(movers):  # the k-th mover reaches table T in round k + 1
        slots[2 * (tables_count - 1 - k) + move] = pairs[i]
    for table, i in enumerate(stayers):
        slots[2 * table + stay] = pairs[i]
    return [pair for pair in slots if pair is not None]


def movement_join(
    positions: Sequence[tuple[P, P]],
    pair: tuple[P, P] | None,
    *,
    movement: Movement | str,
) -> list[tuple[P, P]]:
    """The positions with a late ``pair`` in the empty staying place of the last table.

    ``positions`` are the pairs of round 1 in position order (see
    :func:`movement_positions`). Only an odd number of them leaves that place
    empty; with an even number (or no ``pair``) they come back unchanged and the
    pair has no place. Every other pair keeps its position, so every round's
    tables stay as they were but the last table's, where the late pair now meets
    the moving pair that would have had a bye.
    """
    movement = Movement(movement)
    positions = list(positions)
    if pair is None or movement is Movement.ROUND_ROBIN or len(positions) % 2 == 0:
        return positions
    slots = _movement_slots(positions, movement)
    slots[slots.index(None)] = pair
    return slots  # type: ignore[return-value]


# --- helpers ---------------------------------------------------------------------


def _rng(seed: int | str | bytes | None, rng: random.Random | None) -> random.Random:
    if rng is not None and seed is not None:
        raise ValueError("pass seed or rng, not both")
    return rng if rng is not None else random.Random(seed)


def _validated(players: Iterable[P]) -> list[P]:
    seen: set[P] = set()
    for player in players:
        if player is None:
            raise ValueError("None is not a player")
        if player in seen:
            raise DrawError(
                DrawError.DUPLICATE_PLAYER,
                f"Player {player!r} is listed twice.",
                player=player,
            )
        seen.add(player)
    return sorted(seen)  # type: ignore[type-var]


@dataclass(frozen=True)
class TablePlan:
    """How a round of ``n`` present players is laid out: the tables, how many of
    them are tables of three (one empty seat each, for an invaller), who sits out.

    ``fallback`` says why a substitute layout was not taken: ``""`` when it was (or
    was not asked for), :attr:`NO_TABLE_OF_THREE` when the count allows no tables of
    three (5 players: two tables would need three empty seats),
    :attr:`TOO_FEW_SUBSTITUTES` when fewer invallers are free than the empty seats
    need. A fallback is the sit-out layout.
    """

    NO_TABLE_OF_THREE = "no_table_of_three"
    TOO_FEW_SUBSTITUTES = "too_few_substitutes"

    tables: int
    empty_seats: int
    sitouts: int
    fallback: str = ""
    substitutes_needed: int = 0
    """The empty seats the substitute layout would have had (0 without a fallback)."""


def table_plan(n: int, mode: OddMode | str, *, substitutes: int | None = None) -> TablePlan:
    """The layout of a round of ``n`` present players in ``mode``.

    ``substitutes`` is how many invallers are free to take an empty seat (``None``:
    as many as needed). The substitute layout has ``ceil(n / 4)`` tables, ``4T - n``
    of them of three; when that needs more empty seats than there are tables, or
    more invallers than are free, the round is the sit-out layout instead: the
    draw never makes a table of three that nobody can fill.
    """
    if n < 4:
        raise DrawError(
            DrawError.TOO_FEW_PLAYERS,
            f"A round needs at least 4 players; {n} present.",
            count=n,
        )
    sitout = TablePlan(n // 4, 0, n % 4)
    if OddMode(mode) is not OddMode.SUBSTITUTE or not n % 4:
        return sitout
    tables = -(-n // 4)
    empty = 4 * tables - n
    if empty > tables:
        return TablePlan(n // 4, 0, n % 4, TablePlan.NO_TABLE_OF_THREE, empty)
    if substitutes is not None and empty > substitutes:
        return TablePlan(n // 4, 0, n % 4, TablePlan.TOO_FEW_SUBSTITUTES, empty)
    return TablePlan(tables, empty, 0)


def _sitout_key(history: DrawHistory[P]) -> Callable[[P], tuple[int, int]]:
    """The sit-out rota: (sat out this evening, sat out this season)."""
    return lambda p: (history.sitouts_evening.get(p, 0), history.sitouts_season.get(p, 0))


def _threes_key(history: DrawHistory[P]) -> Callable[[P], tuple[int, int]]:
    """The rota of the tables of three: (there this evening, there this season)."""
    return lambda p: (history.threes_evening.get(p, 0), history.threes_season.get(p, 0))


def _rota_choices(
    present: list[P],
    count: int,
    key: Callable[[P], tuple[int, int]],
    rng: random.Random,
    tries: int,
) -> list[tuple[P, ...]]:
    """Sets of ``count`` players a rota allows: the lowest keys, ties tried at random."""
    if count == 0:
        return [()]
    cut = sorted(key(p) for p in present)[count - 1]
    forced = tuple(p for p in present if key(p) < cut)
    tied = [p for p in present if key(p) == cut]
    need = count - len(forced)
    if math.comb(len(tied), need) <= tries:
        combos = list(itertools.combinations(tied, need))
        rng.shuffle(combos)
    else:
        seen: set[tuple[P, ...]] = set()
        combos = []
        while len(combos) < tries:
            combo = tuple(sorted(rng.sample(tied, need)))  # type: ignore[type-var]
            if combo not in seen:
                seen.add(combo)
                combos.append(combo)
    return [forced + combo for combo in combos]


class _Costs:
    """Pair costs for one round over the seated players 0..m-1; index m is empty."""

    def __init__(self, seated: Sequence[P], history: DrawHistory[P]) -> None:
        m = len(seated)
        self.m = m
        index = {p: i for i, p in enumerate(seated)}

        def pairs(counts: Mapping[frozenset[P], int]) -> dict[tuple[int, int], int]:
            found: dict[tuple[int, int], int] = {}
            for pair, count in counts.items():
                if count > 0 and len(pair) == 2:
                    a, b = pair
                    i, j = index.get(a), index.get(b)
                    if i is not None and j is not None:
                        found[(i, j)] = count
            return found

        partners, opponents = pairs(history.partners), pairs(history.opponents)
        max_p, max_o = max(partners.values(), default=0), max(opponents.values(), default=0)
        self.w_partner = W_OPPONENT * (4 * max_p + 8 * max_o + 1)
        self.pc = pc = [[0] * (m + 1) for _ in range(m + 1)]
        self.oc = oc = [[0] * (m + 1) for _ in range(m + 1)]
        for (i, j), count in pairs(history.season_partners).items():
            pc[i][j] = pc[j][i] = min(count, SEASON_CAP)
        for i, j in partners.keys() | opponents.keys():
            for matrix in (pc, oc):
                matrix[i][j] += W_MET
                matrix[j][i] += W_MET
        for (i, j), count in partners.items():
            pc[i][j] += self.w_partner + W_OPPONENT * count
            pc[j][i] += self.w_partner + W_OPPONENT * count
        for (i, j), count in opponents.items():
            oc[i][j] += W_OPPONENT * count
            oc[j][i] += W_OPPONENT * count

    def table(self, layout: list[int], base: int) -> int:
        pc, oc = self.pc, self.oc
        a, b, c, d = layout[base : base + 4]
        return pc[a][c] + pc[b][d] + oc[a][b] + oc[a][d] + oc[c][b] + oc[c][d]

    def total(self, layout: list[int]) -> int:
        return sum(self.table(layout, base) for base in range(0, len(layout), 4))

    def repeated_partnerships(self, layout: list[int]) -> int:
        pc, w = self.pc, self.w_partner
        return sum(
            pc[layout[base + s]][layout[base + s + 2]] >= w
            for base in range(0, len(layout), 4)
            for s in (0, 1)
        )

    def pairing_exists(self, forbidden: set[tuple[int, int]], need: int) -> bool:
        """Whether ``need`` disjoint allowed pairs exist (brute force; small m)."""
        pc, w = self.pc, self.w_partner

        def search(vertices: tuple[int, ...], need: int) -> bool:
            if need == 0:
                return True
            if len(vertices) < 2 * need:
                return False
            v, rest = vertices[0], vertices[1:]
            for k, u in enumerate(rest):
                if (
                    pc[v][u] < w
                    and (v, u) not in forbidden
                    and search(rest[:k] + rest[k + 1 :], need - 1)
                ):
                    return True
            return len(rest) >= 2 * need and search(rest, need)

        return search(tuple(range(self.m)), need)


def _square_layouts(group: list[int]) -> list[tuple[int, int, int, int]]:
    """The three ways to seat four (N, E, S, W): who partners the first."""
    a, b, c, d = group
    return [(a, b, c, d), (a, c, b, d), (a, b, d, c)]


def _next_round_lookahead(costs: _Costs, need: int) -> Callable[[frozenset[tuple[int, int]]], int]:
    """1 if the same seated players could not be paired again without a repeat."""
    return lambda partnered: 0 if costs.pairing_exists(set(partnered), need) else 1


class _OneTableFuture(Generic[P]):
    """For one table (4 to 7 present): how many more rounds can follow without a
    partner repeat, sit-outs by the rota (ties free), searched to LOOKAHEAD_ROUNDS."""

    def __init__(self, present: list[P], history: DrawHistory[P], sitouts: int) -> None:
        index = {p: i for i, p in enumerate(present)}
        self.n, self.sitouts = len(present), sitouts
        used = set()
        for pair, count in history.partners.items():
            ij = sorted(index[p] for p in pair if p in index)
            if count > 0 and len(ij) == 2:
                used.add((ij[0], ij[1]))
        self.used = frozenset(used)
        self.evening = tuple(history.sitouts_evening.get(p, 0) for p in present)
        self.season = tuple(history.sitouts_season.get(p, 0) for p in present)
        self.memo: dict[tuple[object, ...], int] = {}

    def lookahead(
        self, present: list[P], seated: list[P]
    ) -> Callable[[frozenset[tuple[int, int]]], int]:
        """Lookahead key for a round seating ``seated``: minus the rounds that can follow."""
        index = {p: i for i, p in enumerate(present)}
        local = [index[p] for p in seated]
        out = set(range(self.n)) - set(local)
        evening = tuple(c + (i in out) for i, c in enumerate(self.evening))
        season = tuple(c + (i in out) for i, c in enumerate(self.season))

        def key(partnered: frozenset[tuple[int, int]]) -> int:
            pairs = {tuple(sorted((local[a], local[b]))) for a, b in partnered}
            used = self.used | pairs
            return -self._rounds(used, evening, season, LOOKAHEAD_ROUNDS)

        return key

    def _rounds(
        self,
        used: frozenset[tuple[int, int]],
        evening: tuple[int, ...],
        season: tuple[int, ...],
        depth: int,
    ) -> int:
        if depth == 0:
            return 0
        memo_key = (used, evening, season, depth)
        if memo_key in self.memo:
            return self.memo[memo_key]
        best = 0
        keys = [(evening[i], season[i]) for i in range(self.n)]
        cut = sorted(keys)[self.sitouts - 1] if self.sitouts else None
        forced = [i for i in range(self.n) if cut is not None and keys[i] < cut]
        tied = [i for i in range(self.n) if keys[i] == cut]
        for combo in itertools.combinations(tied, self.sitouts - len(forced)):
            out = set(forced) | set(combo)
            seated = [i for i in range(self.n) if i not in out]
            next_evening = tuple(c + (i in out) for i, c in enumerate(evening))
            next_season = tuple(c + (i in out) for i, c in enumerate(season))
            a = seated[0]
            for b in seated[1:]:
                c, d = (x for x in seated[1:] if x != b)
                if (a, b) in used or (c, d) in used:
                    continue
                rounds = 1 + self._rounds(
                    used | {(a, b), (c, d)}, next_evening, next_season, depth - 1
                )
                if rounds > best:
                    best = rounds
                    if best == depth:
                        self.memo[memo_key] = best
                        return best
        self.memo[memo_key] = best
        return best


def _small_search(
    costs: _Costs,
    tables: int,
    empty: int,
    rng: random.Random,
    lookahead: Callable[[frozenset[tuple[int, int]]], int],
    floor: int,
) -> tuple[tuple[int, int, int], list[int]]:
    """Every arrangement of one or two tables; key (repeats, lookahead, cost).

    ``floor`` is the best value ``lookahead`` can return: reaching it stops the scan.
    """
    m = costs.m
    items = list(range(m)) + [m] * empty
    if tables == 1:
        splits = [[items]]
    else:
        splits = []
        first, rest = items[0], items[1:]
        for combo in itertools.combinations(range(7), 3):
            one = [first, *(rest[k] for k in combo)]
            two = [rest[k] for k in range(7) if k not in combo]
            if one.count(m) <= 1 and two.count(m) <= 1:
                splits.append([one, two])
    pc, w = costs.pc, costs.w_partner

    def scored(square: tuple[int, int, int, int]) -> tuple[int, int, frozenset[tuple[int, int]]]:
        teams = ((square[0], square[2]), (square[1], square[3]))
        return (
            costs.table(list(square), 0),
            sum(pc[x][y] >= w for x, y in teams),
            frozenset((min(x, y), max(x, y)) for x, y in teams if m not in (x, y)),
        )

    layouts = [
        squares
        for split in splits
        for squares in itertools.product(
            *([(sq, scored(sq)) for sq in _square_layouts(group)] for group in split)
        )
    ]
    rng.shuffle(layouts)
    scored_layouts = [
        (
            sum(score[1] for _, score in squares),
            sum(score[0] for _, score in squares),
            frozenset().union(*(score[2] for _, score in squares)),
            squares,
        )
        for squares in layouts
    ]
    fewest = min(item[0] for item in scored_layouts)
    candidates = sorted(
        (item for item in scored_layouts if item[0] == fewest), key=lambda item: item[1]
    )
    seen: dict[frozenset[tuple[int, int]], int] = {}
    best: tuple[tuple[int, int, int], list[int]] | None = None
    for repeats, cost, partnered, squares in candidates:  # cheapest first
        if partnered not in seen:
            seen[partnered] = lookahead(partnered)
        key = (repeats, seen[partnered], cost)
        if best is None or key < best[0]:
            best = (key, [seat for square, _ in squares for seat in square])
            if key[1] <= floor:
                break  # no later candidate can beat it
    assert best is not None
    return best


def _greedy(costs: _Costs, tables: int, empty: int, rng: random.Random) -> list[int]:
    """Fill the tables seat by seat with the cheapest of a window of players."""
    m, pc, oc = costs.m, costs.pc, costs.oc
    layout = [m] * (4 * tables)
    short = set(rng.sample(range(tables), empty))
    remaining = list(range(m))
    rng.shuffle(remaining)
    for t in range(tables):
        base = 4 * t
        seats = [0, 1, 2, 3]
        if t in short:
            seats.remove(rng.randrange(4))
        layout[base + seats[0]] = remaining.pop()
        for s in seats[1:]:
            partner, left, right = (
                layout[base + (s ^ 2)],
                layout[base + (s ^ 1)],
                layout[base + (s ^ 3)],
            )
            best_k, best_cost = -1, -1
            for k in range(len(remaining) - 1, max(-1, len(remaining) - 1 - GREEDY_WINDOW), -1):
                x = remaining[k]
                cost = pc[x][partner] + oc[x][left] + oc[x][right]
                if best_k < 0 or cost < best_cost:
                    best_k, best_cost = k, cost
                    if cost == 0:
                        break
            layout[base + s] = remaining.pop(best_k)
    return layout


def _improve(costs: _Costs, layout: list[int], rng: random.Random) -> None:
    """Local search over swaps of two seats (in place); see the module docstring."""
    m, pc, oc = costs.m, costs.pc, costs.oc
    seats = len(layout)
    empties = [layout[base : base + 4].count(m) for base in range(0, seats, 4)]

    def delta(i: int, j: int) -> int | None:
        """Cost change of swapping seats i and j; None if it makes two empty seats."""
        x, y = layout[i], layout[j]
        bi, bj = i & ~3, j & ~3
        if x == y:
            return None
        if bi == bj:
            before = costs.table(layout, bi)
            layout[i], layout[j] = y, x
            after = costs.table(layout, bi)
            layout[i], layout[j] = x, y
            return after - before
        if (x == m and empties[bj >> 2]) or (y == m and empties[bi >> 2]):
            return None
        si, sj = i & 3, j & 3
        pi, ai, ci = layout[bi + (si ^ 2)], layout[bi + (si ^ 1)], layout[bi + (si ^ 3)]
        pj, aj, cj = layout[bj + (sj ^ 2)], layout[bj + (sj ^ 1)], layout[bj + (sj ^ 3)]
        pcx, ocx, pcy, ocy = pc[x], oc[x], pc[y], oc[y]
        return (
            pcy[pi]
            + ocy[ai]
            + ocy[ci]
            + pcx[pj]
            + ocx[aj]
            + ocx[cj]
            - pcx[pi]
            - ocx[ai]
            - ocx[ci]
            - pcy[pj]
            - ocy[aj]
            - ocy[cj]
        )

    def swap(i: int, j: int) -> None:
        x, y = layout[i], layout[j]
        if x == m:
            empties[i >> 2] -= 1
            empties[j >> 2] += 1
        elif y == m:
            empties[j >> 2] -= 1
            empties[i >> 2] += 1
        layout[i], layout[j] = y, x

    def contribution(i: int) -> int:
        x = layout[i]
        if x == m:
            return 0
        b, s = i & ~3, i & 3
        return pc[x][layout[b + (s ^ 2)]] + oc[x][layout[b + (s ^ 1)]] + oc[x][layout[b + (s ^ 3)]]

    def settle(threshold: int, max_swaps: int) -> None:
        """Seats costing >= threshold: best improving swap with any seat, until stable."""
        improved = True
        while improved and max_swaps > 0:
            improved = False
            candidates = [i for i in range(seats) if contribution(i) >= threshold]
            rng.shuffle(candidates)
            for i in candidates:
                if contribution(i) < threshold or max_swaps <= 0:
                    continue
                start = rng.randrange(seats)
                best_delta, best_j = 0, -1
                for k in range(seats):
                    j = (start + k) % seats
                    d = delta(i, j)
                    if d is not None and d < best_delta:
                        best_delta, best_j = d, j
                if best_j >= 0:
                    swap(i, best_j)
                    improved = True
                    max_swaps -= 1

    # Phase 1a: seats in conflict (a repeat). Under G4 every swap lowers the conflict
    # cost, a multiple of W_OPPONENT, so the cap (total // W_OPPONENT) never binds there.
    settle(W_OPPONENT, costs.total(layout) // W_OPPONENT + 1)
    # Phase 1b: seats that met a table-mate earlier in another role.
    settle(W_MET, 2 * seats)
    # Phase 2: random swaps of a seat that costs anything (the season spread).
    costly = [i for i in range(seats) if contribution(i) > 0]
    if not costly:
        return
    random_unit = rng.random
    for _ in range(16 * seats):
        i, j = costly[int(random_unit() * len(costly))], int(random_unit() * seats)
        d = delta(i, j)
        if d is not None and d < 0:
            swap(i, j)


def _maximum_matching(n: int, adj: list[list[int]], match: list[int]) -> list[int]:
    """Edmonds' blossom algorithm: grow ``match`` (-1 = unmatched) to maximum size."""

    def augment_from(root: int) -> bool:
        base = list(range(n))
        parent = [-1] * n
        used = [False] * n
        used[root] = True
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if match[a] < 0:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[match[v]]] = True
                parent[v] = child
                child = match[v]
                v = parent[match[v]]

        while queue:
            v = queue.popleft()
            for to in adj[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] >= 0 and parent[match[to]] >= 0):
                    top = lca(v, to)
                    blossom = [False] * n
                    mark(v, top, to, blossom)
                    mark(to, top, v, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = top
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] < 0:
                    parent[to] = v
                    if match[to] < 0:
                        while to >= 0:  # flip the augmenting path
                            pv = parent[to]
                            nxt = match[pv]
                            match[to], match[pv] = pv, to
                            to = nxt
                        return True
                    used[match[to]] = True
                    queue.append(match[to])
        return False

    for root in range(n):
        if match[root] < 0:
            augment_from(root)
    return match


def _matching_layout(costs: _Costs, tables: int, empty: int, rng: random.Random) -> list[int]:
    """Tables built on a maximum matching of not-yet-partnered players (G1)."""
    m, pc, w = costs.m, costs.pc, costs.w_partner
    adj = [[j for j in range(m) if j != i and pc[i][j] < w] for i in range(m)]
    for row in adj:
        rng.shuffle(row)
    match = [-1] * m
    order = list(range(m))
    rng.shuffle(order)
    for v in order:
        if match[v] < 0:
            for u in adj[v]:
                if match[u] < 0:
                    match[v], match[u] = u, v
                    break
    match = _maximum_matching(m, adj, match)
    need = 2 * tables - empty
    teams = [(i, match[i]) for i in range(m) if match[i] > i]
    rng.shuffle(teams)
    teams = teams[:need]
    used = {x for team in teams for x in team}
    rest = [i for i in range(m) if i not in used]
    rng.shuffle(rest)
    while len(teams) < need:  # forced repeats: as few as the matching allows
        teams.append((rest.pop(), rest.pop()))
    squares = [(a, x, b, m) for (a, b), x in zip(teams[:empty], rest, strict=True)]
    full = teams[empty:]
    squares += [(a, c, b, d) for (a, b), (c, d) in zip(full[::2], full[1::2], strict=True)]
    rng.shuffle(squares)
    return [seat for square in squares for seat in square]


def _round_draw(
    seated: list[P], layout: list[int], sitouts: tuple[P, ...], rng: random.Random
) -> RoundDraw[P]:
    """Players into seats; each table turned by a random symmetry, tables shuffled."""
    names: list[P | None] = [*seated, None]
    squares = []
    for base in range(0, len(layout), 4):
        square = [names[x] for x in layout[base : base + 4]]
        turn = rng.randrange(4)
        square = square[turn:] + square[:turn]
        if rng.random() < 0.5:
            square = [square[0], square[3], square[2], square[1]]
        squares.append(square)
    rng.shuffle(squares)
    tables = tuple(
        TableDraw(number, (sq[0], sq[1], sq[2], sq[3]))
        for number, sq in enumerate(squares, start=1)
    )
    return RoundDraw(tables=tables, sitouts=sitouts)
