"""Scoring a game: a boompje of 16 hands, a match to 500 or 1500, one deal.

:func:`score_game` adds up the hands' banked scores and applies the rule set's end
condition after every hand:

* ``GameEnd.HANDS`` -- the game ends after ``hands_per_game`` hands (16 for a
  boompje); equal totals then play one more hand at a time until they differ
  (``TieRule.EXTRA_HANDS``) or end drawn (``TieRule.DRAW``, single-deal).
* ``GameEnd.TARGET`` -- the game ends at the end of the first hand after which a
  team has ``target_score`` or more; if both have, the higher total wins; equal
  totals play on (or end drawn under ``TieRule.DRAW``).

The site asks :attr:`GameResult.accepts_more_hands` before it records a hand, and
:func:`score_game` refuses hands after the end with :class:`InvalidGame`. When the
site stores running totals instead of re-reading the hands, :func:`game_state`
answers the same questions from the totals and the number of hands.

:func:`count_game` counts what a game keeps beside its totals (a
:class:`GameCounts`): marsen, tegenpit, nat, verzaken and the roem each team
banked (:func:`game_roem`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, Protocol

from .rulesets import GameEnd, Ruleset, TieRule, get_ruleset
from .teams import PerTeam, Seat, Team

__all__ = [
    "GameCounts",
    "GameResult",
    "InvalidGame",
    "ScoredHand",
    "count_game",
    "dealer_of_hand",
    "game_roem",
    "game_state",
    "score_game",
]


class InvalidGame(ValueError):
    """Hands that cannot make up a game: ``code`` is ``"hand_after_end"`` (a hand
    after the game was complete) or ``"not_a_hand"``; ``params`` has ``hand`` (the
    1-based number of the offending hand)."""

    def __init__(self, message: str, *, code: str, params: dict[str, Any]) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclasses.dataclass(frozen=True, slots=True)
class GameResult:
    """The state of a game after its hands so far.

    ``totals``
        Banked points of A and B.
    ``hands_played``
        Number of hands scored.
    ``complete``
        The end condition is met; no more hands may be recorded.
    ``winner``
        ``Team.A`` / ``Team.B`` (equal to ``"A"`` / ``"B"``) once complete, None
        before that or for a draw.
    ``hands_needed``
        At least this many more hands before the game can end: 0 when complete, the
        hands left to ``hands_per_game`` (or 1 for a tie that plays on) under
        ``GameEnd.HANDS``, 1 under ``GameEnd.TARGET``.
    """

    totals: PerTeam
    hands_played: int
    complete: bool
    winner: Team | None
    hands_needed: int

    @property
    def accepts_more_hands(self) -> bool:
        """Whether another hand may be recorded (the game is not complete)."""
        return not self.complete

    @property
    def drawn(self) -> bool:
        return self.complete and self.winner is None

    @property
    def next_hand(self) -> int | None:
        """The 1-based number of the next hand, or None when complete."""
        return None if self.complete else self.hands_played + 1

    @property
    def leader(self) -> Team | None:
        """The team ahead now (None when level), complete or not."""
        a, b = self.totals
        return Team.A if a > b else Team.B if b > a else None


def game_state(
    ruleset: Ruleset | str | None, *, totals: Iterable[int], hands_played: int
) -> GameResult:
    """The :class:`GameResult` for running ``totals`` after ``hands_played`` hands,
    assuming no hand was recorded after the end (which :func:`score_game` checks)."""
    if not isinstance(ruleset, Ruleset):
        ruleset = get_ruleset(ruleset or "rotterdam")
    a, b = totals
    tie_plays_on = ruleset.on_tie is TieRule.EXTRA_HANDS
    if ruleset.game_end is GameEnd.HANDS:
        left = ruleset.hands_per_game - hands_played
        if left > 0:
            return GameResult(PerTeam(a, b), hands_played, False, None, left)
        if a == b and tie_plays_on:
            return GameResult(PerTeam(a, b), hands_played, False, None, 1)
    else:
        if max(a, b) < ruleset.target_score or (a == b and tie_plays_on):
            return GameResult(PerTeam(a, b), hands_played, False, None, 1)
    winner = Team.A if a > b else Team.B if b > a else None
    return GameResult(PerTeam(a, b), hands_played, True, winner, 0)


def score_game(ruleset: Ruleset | str | None, hands: Iterable[Any]) -> GameResult:
    """Total the ``hands`` of one game, in order, and apply the end condition.

    Each hand is a :class:`HandResult` (its ``scores`` count) or an ``(a, b)`` pair
    of banked points. Raises :class:`InvalidGame` for a hand after the game was
    complete: the site checks :attr:`GameResult.accepts_more_hands` first.
    """
    if not isinstance(ruleset, Ruleset):
        ruleset = get_ruleset(ruleset or "rotterdam")
    a = b = 0
    state = game_state(ruleset, totals=(0, 0), hands_played=0)
    for number, hand in enumerate(hands, start=1):
        if state.complete:
            raise InvalidGame(
                f"hand {number} comes after the end of the game (complete after "
                f"{state.hands_played} hands, {state.totals.a}-{state.totals.b})",
                code="hand_after_end",
                params={"hand": number, "hands_played": state.hands_played},
            )
        scores = getattr(hand, "scores", hand)
        try:
            da, db = scores
            if type(da) is not int or type(db) is not int:
                raise TypeError
        except (TypeError, ValueError):
            raise InvalidGame(
                f"hand {number} is not a scored hand or a pair of banked points: {hand!r}",
                code="not_a_hand",
                params={"hand": number},
            ) from None
        a += da
        b += db
        state = game_state(ruleset, totals=(a, b), hands_played=number)
    return state


def dealer_of_hand(hand_number: int, first_dealer: int = 0) -> Seat:
    """The dealer of hand ``hand_number`` (1-based): the deal passes clockwise, so in
    a boompje of 16 each player deals four times."""
    return Seat((first_dealer + hand_number - 1) % 4)


class ScoredHand(Protocol):
    """A hand as the site stores it, scored: what :func:`count_game` reads.

    ``playing`` and ``pit`` are ``"A"``/``"B"`` (``pit`` ``""`` without a pit),
    ``nat`` whether the playing team was nat, ``roem_a``/``roem_b`` the roem each
    team had in the hand, ``verzaakt`` the team that reneged (``""``; may be absent).
    """

    playing: str
    pit: str
    nat: bool
    roem_a: int
    roem_b: int


@dataclasses.dataclass(frozen=True, slots=True)
class GameCounts:
    """What a game counts beside its totals, per team (wij, zij).

    ``marsen``
        Pits of the playing team (a *mars*).
    ``tegenpit``
        Pits of the defenders (counted apart, as clubs write it: TP); not a mars.
    ``nat``
        Hands the team played and was nat.
    ``verzaken``
        Hands that ended because the team reneged (neither nat nor pit).
    ``roem``
        The roem the team banked (:func:`game_roem`).
    """

    marsen: PerTeam
    tegenpit: PerTeam
    nat: PerTeam
    verzaken: PerTeam
    roem: PerTeam

    def by_column(self) -> dict[str, int]:
        """The counts as the score sheet's columns, wij ``_a`` and zij ``_b``:
        ``{"marsen_a": 1, "marsen_b": 0, "tegenpit_a": 0, ...}``."""
        return {
            f"{field.name}_{team}": value
            for field in dataclasses.fields(self)
            for team, value in zip("ab", getattr(self, field.name), strict=True)
        }


def game_roem(ruleset: Ruleset, hands: Iterable[ScoredHand]) -> PerTeam:
    """The roem each team banked over ``hands``: what counts for it in the statistics
    (on nat the rule set's ``nat_roem`` says who banks it; after verzaken the other
    team banks all of it, or none under ``VerzakenRule.NO_ROEM``).

    >>> from types import SimpleNamespace as H
    >>> game_roem(get_ruleset("rotterdam"), [H(playing="A", nat=True, roem_a=20, roem_b=0)])
    PerTeam(a=0, b=20)
    """
    from .hands import banked_roem  # hands builds on this module (dealer_of_hand)

    a = b = 0
    for hand in hands:
        banked = banked_roem(
            ruleset,
            playing=hand.playing,
            nat=hand.nat,
            roem=(hand.roem_a, hand.roem_b),
            verzaakt=getattr(hand, "verzaakt", "") or None,
        )
        a += banked.a
        b += banked.b
    return PerTeam(a, b)


def count_game(ruleset: Ruleset, hands: Iterable[ScoredHand]) -> GameCounts:
    """The :class:`GameCounts` of a game's ``hands``: a pit is a mars of the team that
    took it when it played, a tegenpit when it defended; nat counts for the playing
    team; a verzaken for the team that reneged.

    >>> from types import SimpleNamespace as H
    >>> hands = [H(playing="A", pit="A", nat=False, roem_a=20, roem_b=0, verzaakt=""),
    ...          H(playing="A", pit="B", nat=True, roem_a=0, roem_b=0, verzaakt="")]
    >>> count_game(get_ruleset("rotterdam"), hands).by_column()["tegenpit_b"]
    1
    """
    hands = list(hands)
    marsen, tegenpit, nat, verzaken = ([0, 0] for _ in range(4))
    for hand in hands:
        if hand.pit:
            side = Team(hand.pit).index
            (marsen if hand.pit == hand.playing else tegenpit)[side] += 1
        if hand.nat:
            nat[Team(hand.playing).index] += 1
        if getattr(hand, "verzaakt", ""):
            verzaken[Team(hand.verzaakt).index] += 1
    return GameCounts(
        marsen=PerTeam(*marsen),
        tegenpit=PerTeam(*tegenpit),
        nat=PerTeam(*nat),
        verzaken=PerTeam(*verzaken),
        roem=game_roem(ruleset, hands),
    )
