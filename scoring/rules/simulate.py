"""A deal simulator: shuffle, deal, name trump, play eight legal tricks.

:func:`simulate_deal` plays one random deal under a rule set and returns a
:class:`Deal` with everything a score sheet would record (who played, card
points, roem, pit) and the tricks behind it. It feeds the demo data and the
property tests, so it is built for speed on the int tables of
:mod:`scoring.rules.cards`, and every card is chosen at random among the cards
:func:`legal_cards` allows.

Trump: starting with the forehand (left of the dealer), a player names the suit
of a *good hand* -- three or more cards of it worth 45 or more on the scale trump
card points + 5 per card (J-9-x is 49, J-A-x-x 51) -- or passes; when all four
pass, the forced chooser of the rule set (forehand or dealer) names their longest
suit, the stronger one on a tie. Under the roefel (rule set says so and the
caller asks for hand 1) clubs are trumps and the forehand's team plays. The
forehand always leads the first trick.
"""

from __future__ import annotations

import dataclasses
import random

from .cards import _POINTS, _STRENGTH, CARDS, LAST_TRICK_BONUS, Card, Suit
from .hands import HandResult, score_hand
from .roem import STUK, Roem, RoemKind, declared_roem
from .rulesets import Chooser, PlayRule, RoemRule, Ruleset, get_ruleset
from .teams import PerTeam, Seat, Team, forehand_of
from .tricks import _ROEM_CACHE, Trick, _roem_of, legal_mask

__all__ = ["Deal", "simulate_deal"]

_SEATS = tuple(Seat)
_SUITS = tuple(Suit)
_TEAM_OF_SEAT = (Team.A, Team.B, Team.A, Team.B)

#: Trump card points by natural rank 7 8 9 10 J Q K A, for the bidding heuristic.
_TRUMP_VALUE = (0, 0, 14, 10, 20, 3, 4, 11)
_GOOD_TRUMP = 45
_AMSTERDAM = PlayRule.AMSTERDAM
_IN_TRICK = RoemRule.IN_TRICK
_CARDS = CARDS
_NO_DECLARATIONS = PerTeam((), ())  # type: ignore[arg-type]


@dataclasses.dataclass(frozen=True, slots=True)
class Deal:
    """One simulated deal (spel) and its outcome.

    ``hands`` are the four dealt hands by seat (0 North, 1 East, 2 South, 3 West;
    team A is North/South), each sorted. ``chooser`` named ``trump`` for the
    ``playing`` team; ``forced`` says all four passed first. ``tricks`` are the
    eight tricks in order. ``points`` include the last-trick 10 and add up to 162;
    ``roem`` is each team's roem (in-trick, or the declarations in
    ``declarations`` for declared-roem rule sets); ``pit`` the team that took all
    eight tricks. :meth:`score` scores it.
    """

    ruleset: Ruleset
    dealer: Seat
    hands: tuple[tuple[Card, ...], ...]
    trump: Suit
    chooser: Seat
    playing: Team
    forced: bool
    roefel: bool
    tricks: tuple[Trick, ...]
    points: PerTeam
    roem: PerTeam
    declarations: PerTeam  # of tuple[Roem, ...]; empty for in-trick roem
    pit: Team | None

    @property
    def forehand(self) -> Seat:
        return forehand_of(self.dealer)

    def roem_entry(self) -> tuple[int | tuple[int, ...], int | tuple[int, ...]]:
        """The roem as a scorer enters it: totals, or for declared roem each team's
        declarations that count (runs by points, :data:`STUK`)."""
        if self.ruleset.roem_rule is RoemRule.DECLARED:
            a, b = self.declarations
            return tuple(map(_entry, a)), tuple(map(_entry, b))
        return self.roem

    def score(self) -> HandResult:
        """The hand scored with :func:`score_hand` under the deal's rule set."""
        return score_hand(
            self.ruleset,
            playing=self.playing,
            points=self.points,
            roem=self.roem_entry(),
            pit=self.pit,
        )


def _entry(item: Roem) -> int | RoemKind:
    return STUK if item.kind is RoemKind.STUK else item.points


def _suit_value(hand: list[int], suit: int) -> tuple[int, int]:
    """(count, trump value + 5 per card) of ``suit`` in ``hand``."""
    count = value = 0
    for c in hand:
        if c >> 3 == suit:
            count += 1
            value += _TRUMP_VALUE[c & 7] + 5
    return count, value


def _choose_trump(
    hands: list[list[int]],
    forehand: int,
    dealer: int,
    chooser_rule: Chooser,
    forced_play: bool = False,
) -> tuple[int, int, bool]:
    """(trump suit, seat that named it, forced) by the heuristic in the module doc;
    under ``forced_play`` nobody passes: the chooser always names trump."""
    for i in range(0 if forced_play else 4):
        seat = (forehand + i) % 4
        best_suit, best_value = -1, 0
        for suit in range(4):
            count, value = _suit_value(hands[seat], suit)
            if count >= 3 and value >= _GOOD_TRUMP and value > best_value:
                best_suit, best_value = suit, value
        if best_suit >= 0:
            return best_suit, seat, False
    seat = forehand if chooser_rule is Chooser.FOREHAND else dealer
    suit = max(range(4), key=lambda s: _suit_value(hands[seat], s))
    return suit, seat, True


def simulate_deal(
    ruleset: Ruleset | str | None = None,
    *,
    rng: random.Random | None = None,
    seed: int | None = None,
    dealer: int = 0,
    hand_number: int | None = None,
) -> Deal:
    """Play one random legal deal under ``ruleset`` (default Rotterdam).

    ``rng`` is a ``random.Random`` to draw from (reuse one for a stream of deals);
    otherwise ``seed`` seeds a fresh one (None: unpredictable). ``dealer`` is the
    dealer's seat (0 North .. 3 West). Pass ``hand_number=1`` to play the roefel
    when the rule set has one (clubs trump, the forehand's team plays).

    >>> deal = simulate_deal(seed=1)
    >>> sum(deal.points)
    162
    """
    if not isinstance(ruleset, Ruleset):
        ruleset = get_ruleset(ruleset or "rotterdam")
    if rng is None:
        rng = random.Random(seed)
    if not 0 <= dealer <= 3:
        raise ValueError(f"dealer must be a seat 0..3, not {dealer!r}")
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sorted(deck[8 * s : 8 * s + 8]) for s in range(4)]
    forehand = (dealer + 1) % 4

    roefel = hand_number is not None and ruleset.is_roefel(hand_number)
    if roefel:
        trump, chooser, forced = int(Suit.CLUBS), forehand, False
    else:
        trump, chooser, forced = _choose_trump(
            hands, forehand, dealer, ruleset.all_pass_chooser, ruleset.forced_play
        )
    playing = _TEAM_OF_SEAT[chooser]

    amsterdam = ruleset.play_rule is _AMSTERDAM
    in_trick = ruleset.roem_rule is _IN_TRICK
    low_fours = ruleset.low_fours
    random_float = rng.random
    held = [list(hand) for hand in hands]
    masks = [sum(1 << c for c in hand) for hand in hands]
    points_table = _POINTS[trump]
    tricks = []
    team_points = [0, 0]
    team_roem = [0, 0]
    team_tricks = [0, 0]
    leader = forehand
    for number in range(8):
        played: list[int] = []
        seat = leader
        for _ in range(4):
            hand = held[seat]
            mask = masks[seat]
            legal = legal_mask(mask, played, trump, amsterdam)
            options = hand if legal == mask else [c for c in hand if legal >> c & 1]
            card = options[int(random_float() * len(options))]
            hand.remove(card)
            masks[seat] = mask ^ (1 << card)
            played.append(card)
            seat = (seat + 1) & 3
        a, b, c, d = played
        strength = _STRENGTH[(trump << 2) | (a >> 3)]
        win, best = 0, strength[a]
        for i in 1, 2, 3:
            if strength[played[i]] > best:
                win, best = i, strength[played[i]]
        winner = (leader + win) & 3
        points = points_table[a] + points_table[b] + points_table[c] + points_table[d]
        if number == 7:
            points += LAST_TRICK_BONUS
        roem = 0
        if in_trick:
            trick_mask = (1 << a) | (1 << b) | (1 << c) | (1 << d)
            roem = _ROEM_CACHE.get((trick_mask << 2) | trump | (low_fours << 34))
            if roem is None:
                roem = _roem_of(trick_mask, (a, b, c, d), trump, low_fours)
        team = winner & 1
        team_points[team] += points
        team_roem[team] += roem
        team_tricks[team] += 1
        tricks.append((leader, (_CARDS[a], _CARDS[b], _CARDS[c], _CARDS[d]), winner, points, roem))
        leader = winner

    pit = Team.A if team_tricks[0] == 8 else Team.B if team_tricks[1] == 8 else None
    declarations = _NO_DECLARATIONS
    if not in_trick:
        # "No trick, no roem" first: against a pit only the pit team's runs compare.
        declarations = declared_roem(hands, trump, playing, pit)
        team_roem = [sum(d.points for d in declarations[t]) for t in (0, 1)]

    return Deal(
        ruleset=ruleset,
        dealer=_SEATS[dealer],
        hands=tuple(tuple(CARDS[c] for c in hand) for hand in hands),
        trump=_SUITS[trump],
        chooser=_SEATS[chooser],
        playing=playing,
        forced=forced,
        roefel=roefel,
        tricks=tuple(
            Trick(_SEATS[leader], cards, _SEATS[winner], points, roem)
            for leader, cards, winner, points, roem in tricks
        ),
        points=PerTeam(*team_points),
        roem=PerTeam(*team_roem),
        declarations=declarations,
        pit=pit,
    )
