"""Tricks (slagen): who wins one, what it is worth, which cards may be played.

A trick is given as its cards in play order, the leader's first: any iterable of
card codes (``["TS", "AS", "7S", "KS"]``), :class:`Card` objects or card ints, or a
string of codes (``"TS AS 7S KS"``). ``trump`` is a :class:`Suit`, ``"H"`` and so on.

* :func:`trick_winner` -- the index (0 = leader) of the card that takes the trick:
  the highest trump (J 9 A 10 K Q 8 7), else the highest card of the led suit
  (A 10 K Q J 9 8 7). For fewer than four cards: the card winning so far.
* :func:`trick_points` -- the card points in the trick. It never includes the 10
  for the last trick: that belongs to the hand, not to four cards; the simulator
  and the hand totals add it.
* :func:`trick_roem`, :func:`trick_roem_detail` -- in-trick roem (see
  :mod:`scoring.rules.roem`), as a number or as the combinations behind it.
* :func:`score_trick` -- all three at once, the fast path.
* :func:`legal_cards` -- the cards of a hand that may be played to a trick;
  :func:`legal_mask` is its unchecked fast path on card masks.

Speed: cards are ints, so the per-trump tables in :mod:`scoring.rules.cards`
answer in a lookup; roem depends only on the set of four cards and the trump and
is cached by that 32-bit set. Passing :class:`Card` objects or ints skips parsing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from itertools import compress
from typing import NamedTuple

from .cards import (
    _BIT,
    _HIGHER_TRUMPS,
    _INDEX,
    _PARSE,
    _POINTS,
    _STRENGTH,
    _SUIT_MASK,
    _SUIT_PARSE,
    CARDS,
    Card,
    InvalidCard,
    Suit,
    parse_card,
    parse_suit,
)
from .roem import Roem, in_trick_roem, roem_points
from .rulesets import PlayRule, Ruleset
from .teams import Seat, Team

__all__ = [
    "Trick",
    "TrickScore",
    "legal_cards",
    "legal_mask",
    "score_trick",
    "trick_points",
    "trick_roem",
    "trick_roem_detail",
    "trick_winner",
]

CardLike = Card | str | int
SuitLike = Suit | str | int


class TrickScore(NamedTuple):
    """What one trick yields: ``winner`` (index into the trick, 0 = leader), its card
    ``points`` (never the last-trick 10) and its in-trick ``roem``."""

    winner: int
    points: int
    roem: int


@dataclasses.dataclass(frozen=True, slots=True)
class Trick:
    """A trick as played: the ``leader``'s seat, the four ``cards`` in play order,
    the ``winner``'s seat, its card ``points`` (the last trick's include the 10) and
    the in-trick ``roem`` for the winner's team (0 when the rule set declares roem)."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat
    points: int
    roem: int

    @property
    def team(self) -> Team:
        """The team that took the trick."""
        return Team.of_seat(self.winner)

    def card_of(self, seat: int) -> Card:
        """The card ``seat`` played."""
        return self.cards[(seat - self.leader) % 4]

    def seat_of(self, index: int) -> Seat:
        """The seat that played ``cards[index]``."""
        return Seat((self.leader + index) % 4)

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))


# --- Parsing ---------------------------------------------------------------------------------


def _suit(trump: SuitLike) -> int:
    try:
        return _SUIT_PARSE[trump]
    except (KeyError, TypeError):
        return parse_suit(trump)  # raises with a message


def _trick(trick: Iterable[CardLike] | str, *, least: int = 1) -> tuple[Card, ...]:
    """The cards of ``trick`` as Cards, checked: ``least`` to four, no card twice."""
    return tuple(_CARDS[c] for c in _trick_ints(trick, least=least)[0])


def _trick_ints(trick: Iterable[CardLike] | str, *, least: int = 1) -> tuple[tuple[int, ...], int]:
    """(plain card ints, card mask) of ``trick``, checked like :func:`_trick`."""
    if type(trick) is not tuple and type(trick) is not list:
        trick = trick.replace(",", " ").split() if isinstance(trick, str) else tuple(trick)
    try:
        cards = tuple(map(_INDEX.__getitem__, trick))
        mask = sum(map(_BIT.__getitem__, trick))
    except (KeyError, TypeError):
        for card in trick:
            parse_card(card)  # raises with a message
        raise
    if not least <= len(cards) <= 4:
        need = "one to four cards" if least else "at most three cards already played"
        raise InvalidCard(f"a trick has {need}, not {len(cards)}")
    if mask.bit_count() != len(cards):
        text = " ".join(str(_CARDS[c]) for c in cards)
        raise InvalidCard(f"a card appears twice in the trick {text}")
    return cards, mask


# --- Winner, points, roem ------------------------------------------------------------------

_ROEM_CACHE: dict[int, int] = {}


def _roem_of(mask: int, cards: tuple[int, ...], trump: int, low_fours: bool = False) -> int:
    """In-trick roem of ``cards`` (whose set is ``mask``), cached by set and trump
    (and ``low_fours``: four 7s, 8s or 9s are 100 too, a bit above the set)."""
    key = (mask << 2) | trump | (low_fours << 34)
    roem = _ROEM_CACHE.get(key)
    if roem is None:
        roem = _ROEM_CACHE[key] = roem_points(cards, trump, low_fours)
    return roem


def _winner(cards: tuple[int, ...], trump: int) -> int:
    strength = _STRENGTH[(trump << 2) | (cards[0] >> 3)]
    best = strength[cards[0]]
    win = 0
    for i in range(1, len(cards)):
        s = strength[cards[i]]
        if s > best:
            best = s
            win = i
    return win


def trick_winner(trick: Iterable[CardLike] | str, trump: SuitLike) -> int:
    """Index into ``trick`` (0 = the leader) of the card that takes it, or that is
    winning so far when fewer than four cards have been played.

    >>> trick_winner(["TS", "AS", "7S", "KS"], "H")
    1
    """
    return _winner(_trick_ints(trick)[0], _suit(trump))


def trick_points(trick: Iterable[CardLike] | str, trump: SuitLike) -> int:
    """Card points in the trick; never the 10 for the last trick (the hand adds it).

    >>> trick_points("TS AS 7S KS", "H")
    25
    """
    return sum(map(_POINTS[_suit(trump)].__getitem__, _trick_ints(trick)[0]))


def trick_roem(trick: Iterable[CardLike] | str, trump: SuitLike, *, low_fours: bool = False) -> int:
    """The in-trick roem the cards make, for whichever team takes the trick;
    ``low_fours`` (the rule set's field): four 7s, 8s or 9s are 100 too.

    >>> trick_roem("9H TH JH 7C", "H")
    20
    >>> trick_roem("7H 7C 7D 7S", "H"), trick_roem("7H 7C 7D 7S", "H", low_fours=True)
    (0, 100)
    """
    cards, mask = _trick_ints(trick)
    return _roem_of(mask, cards, _suit(trump), low_fours)


def trick_roem_detail(
    trick: Iterable[CardLike] | str, trump: SuitLike, *, low_fours: bool = False
) -> tuple[Roem, ...]:
    """The combinations behind :func:`trick_roem`, as :class:`Roem` items (kind,
    points, cards); ``describe_roem`` turns them into ``"run of three ♥ Q-K-A + stuk"``.
    """
    return in_trick_roem(_trick(trick), _suit(trump), low_fours=low_fours)


def score_trick(
    trick: Iterable[CardLike] | str, trump: SuitLike, *, low_fours: bool = False
) -> TrickScore:
    """Winner index, card points and roem of a full trick of four cards, in one call.

    The fast path: with :class:`Card` objects or ints it does a handful of table
    lookups and, after the first time a set of four cards is seen, one dict lookup
    for the roem.

    >>> score_trick(["KH", "QH", "AH", "7S"], "H")
    TrickScore(winner=2, points=18, roem=40)
    """
    try:
        a, b, c, d = trick
    except (TypeError, ValueError):
        cards = _trick(trick)
        if len(cards) != 4:
            raise InvalidCard(f"score_trick needs four cards, not {len(cards)}") from None
        a, b, c, d = cards
    try:
        a = _INDEX[a]
        b = _INDEX[b]
        c = _INDEX[c]
        d = _INDEX[d]
    except (KeyError, TypeError):
        a, b, c, d = map(int, _trick((a, b, c, d)))
    try:
        t = _SUIT_PARSE[trump]
    except (KeyError, TypeError):
        t = _suit(trump)
    mask = (1 << a) | (1 << b) | (1 << c) | (1 << d)
    if mask.bit_count() != 4:
        raise InvalidCard(
            "a card appears twice in the trick " + " ".join(str(_CARDS[x]) for x in (a, b, c, d))
        )
    strength = _STRENGTH[(t << 2) | (a >> 3)]
    win = 0
    best = strength[a]
    s = strength[b]
    if s > best:
        best = s
        win = 1
    s = strength[c]
    if s > best:
        best = s
        win = 2
    if strength[d] > best:
        win = 3
    points = _POINTS[t]
    roem = _ROEM_CACHE.get((mask << 2) | t | (low_fours << 34))
    if roem is None:
        roem = _roem_of(mask, (a, b, c, d), t, low_fours)
    return _new_trick_score(TrickScore, (win, points[a] + points[b] + points[c] + points[d], roem))


_new_trick_score = tuple.__new__


# --- Legal play ------------------------------------------------------------------------------


def legal_mask(hand: int, trick: Sequence[int], trump: int, amsterdam: bool) -> int:
    """The unchecked fast path of :func:`legal_cards`, on ints: the legal cards of
    ``hand`` (a card mask, ``1 << card`` per card, not empty) on ``trick`` (0..3 card
    ints in play order, not in the hand) when ``trump`` (0..3) is trumps, under the
    Amsterdam rule if ``amsterdam`` else Rotterdam, as a card mask. docs/rules.md,
    "Legal play", rule by rule. The simulator plays through it.

    >>> legal_mask(0b11 << 16, [8], 2, False)  # 7H 8H on the 7D: trump
    196608
    """
    if not trick:
        return hand
    led = trick[0] >> 3
    follow = hand & _SUIT_MASK[led]
    strength = _STRENGTH[(trump << 2) | led]
    best = trick[0]
    win = 0
    for i in range(1, len(trick)):
        if strength[trick[i]] > strength[best]:
            best = trick[i]
            win = i
    if led == trump:
        # Trump led: follow, beating the highest trump (even the partner's) if able.
        if follow:
            return follow & _HIGHER_TRUMPS[best] or follow
        return hand
    if follow:
        return follow
    trumps = hand & _SUIT_MASK[trump]
    if not trumps:
        return hand  # void, no trumps: anything
    trumped = best >> 3 == trump
    over = trumps & _HIGHER_TRUMPS[best] if trumped else trumps
    if not amsterdam:
        # Rotterdam: trump, overtrump when able, else undertrump.
        return over or trumps
    others = hand & ~_SUIT_MASK[trump]
    if win == len(trick) - 2:
        # Amsterdam, partner winning: anything; over a partner's trump, no
        # undertrump while holding anything else (a non-trump or a higher trump).
        if trumped:
            return others | over or hand
        return hand
    # Amsterdam, opponent winning: trump and overtrump when able, else discard a
    # non-trump; undertrump only with nothing but trumps.
    return over or others or hand


def _play_rule(rule: Ruleset | PlayRule | str) -> PlayRule:
    if isinstance(rule, Ruleset):
        return rule.play_rule
    try:
        return PlayRule(rule)
    except ValueError:
        raise ValueError(
            f"{rule!r} is not a rule set or play rule; use a Ruleset, 'rotterdam' or 'amsterdam'"
        ) from None


def legal_cards(
    hand: Iterable[CardLike] | str,
    trick: Iterable[CardLike] | str,
    trump: SuitLike,
    ruleset: Ruleset | PlayRule | str,
) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played on ``trick`` (the cards already
    played, leader first; empty when leading), in the order of ``hand``.

    The player to move sits ``len(trick)`` places after the leader, so the partner
    is the card at ``len(trick) - 2``. Follow suit if you can; when trump is led,
    beat the highest trump in the trick if able. Void in the led suit and holding
    trump, the rule set's play rule decides (:class:`PlayRule`; a PlayRule or its
    name also works in place of the rule set):

    * Rotterdam: you must trump, even when your partner wins the trick, and
      overtrump the highest trump so far when able; if you cannot, you still play
      a trump (an undertrump is then forced).
    * Amsterdam: partner winning, you may play anything, except that over a
      partner's trump you may not undertrump while you hold anything else, a
      non-trump or a higher trump: an undertrump is legal only when every card
      you hold is a lower trump. Opponent winning, you must trump and overtrump
      when able; if you cannot overtrump, you discard a non-trump (undertrump
      only holding nothing but trumps).

    Void with no trumps: anything.

    >>> legal_cards(["7H", "8D"], ["QC", "AC", "9C"], "H", "rotterdam")
    (Card('7H'),)
    >>> legal_cards(["7H", "8D"], ["QC", "AC", "9C"], "H", "amsterdam")
    (Card('7H'), Card('8D'))
    >>> legal_cards(["7C", "KC"], ["AD", "8C", "KD"], "C", "amsterdam")
    (Card('KC'),)
    """
    if type(hand) is not tuple and type(hand) is not list:
        hand = hand.replace(",", " ").split() if isinstance(hand, str) else tuple(hand)
    if type(trick) is not tuple and type(trick) is not list:
        trick = _trick(trick, least=0)
    try:
        bits = list(map(_BIT.__getitem__, hand))
        played = tuple(map(_INDEX.__getitem__, trick))
    except (KeyError, TypeError):
        tuple(map(parse_card, hand))
        _trick(trick, least=0)
        raise  # not reached: one of the two raised
    hand_mask = sum(bits)
    trick_mask = 0
    for c in played:
        trick_mask |= 1 << c
    if (
        hand_mask.bit_count() != len(bits)
        or trick_mask.bit_count() != len(played)
        or hand_mask & trick_mask
        or not bits
        or len(played) > 3
    ):
        _trick(played, least=0)
        if len(played) > 3:
            raise InvalidCard("a trick of four cards is complete; nobody plays to it")
        if not bits:
            raise InvalidCard("an empty hand has no card to play")
        if hand_mask.bit_count() != len(bits):
            raise InvalidCard("a card appears twice in the hand")
        both = " ".join(str(CARDS[c]) for c in played if hand_mask >> c & 1)
        raise InvalidCard(f"card {both} is both in the hand and in the trick")
    if type(ruleset) is Ruleset:
        amsterdam = ruleset.play_rule is _AMSTERDAM
    else:
        amsterdam = _play_rule(ruleset) is _AMSTERDAM
    try:
        t = _SUIT_PARSE[trump]
    except (KeyError, TypeError):
        t = _suit(trump)
    legal = legal_mask(hand_mask, played, t, amsterdam)
    if legal == hand_mask:
        return tuple(map(_PARSE.__getitem__, hand))
    return tuple(compress(map(_PARSE.__getitem__, hand), map(legal.__and__, bits)))


_AMSTERDAM = PlayRule.AMSTERDAM
_CARDS = CARDS
