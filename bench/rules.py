"""Benchmark of the rules core: ``python -m bench.rules [--seconds 1.5]``.

Prints the machine and Python on top, then for each hot path the operations per
CPU second on one core:

* ``score_hand`` calls (a mix of made, nat, roem and pit hands, all checked);
* trick evaluations -- winner + card points + roem -- with :func:`score_trick`,
  and with the three separate public calls;
* :func:`legal_cards` queries on positions taken from simulated deals, and the same
  through its unchecked fast path :func:`legal_mask`;
* whole simulated deals (:func:`simulate_deal`), in-trick and declared roem.

Machines are shared and noisy, so the same run also measures a *baseline*: a
plain Python loop calling a four-argument function that adds its arguments.
Every figure is printed as a ratio to it too (operations per baseline call; a
slower machine lowers both). Where it makes sense a *naive reference*
implementation -- card strings parsed every time, ``str.index`` for the orders,
sorting for runs, no checks -- is measured on the same inputs and the speedup
printed. Each measurement runs about ``--seconds`` (default 1; best of five
slices, taken in turns with its baseline and reference). The
goals on one core: 400,000 trick evaluations and 300,000 ``score_hand`` calls per
second.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence

from bench.record import record
from scoring.rules.cards import CARDS, HAND_TOTAL, Card, Suit
from scoring.rules.hands import score_hand
from scoring.rules.rulesets import get_ruleset
from scoring.rules.simulate import simulate_deal
from scoring.rules.tricks import (
    legal_cards,
    legal_mask,
    score_trick,
    trick_points,
    trick_roem,
    trick_winner,
)

__all__ = ["main", "measure", "naive_legal_cards", "naive_score_hand", "naive_trick"]

_SUITS = tuple(Suit)
GOALS = {"trick evaluation": 400_000, "score_hand": 300_000}


# --- Naive references: strings every time, no tables, no checks. --------------------------

_TRUMP_ORDER = "78QKTA9J"
_PLAIN_ORDER = "789JQKTA"
_NATURAL = "789TJQKA"
_TRUMP_VALUE = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
_PLAIN_VALUE = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def _split(card: str) -> tuple[str, str]:
    rank, suit = card[:-1].upper(), card[-1].upper()
    return ("T" if rank == "10" else rank), suit


def naive_trick(trick: Sequence[str], trump: str) -> tuple[int, int, int]:
    """(winner index, card points, roem) of four card strings, the slow obvious way."""
    cards = [_split(c) for c in trick]
    led = cards[0][1]

    def power(card: tuple[str, str]) -> int:
        rank, suit = card
        if suit == trump:
            return 100 + _TRUMP_ORDER.index(rank)
        if suit == led:
            return _PLAIN_ORDER.index(rank)
        return -1

    winner = max(range(len(cards)), key=lambda i: power(cards[i]))
    points = sum((_TRUMP_VALUE if s == trump else _PLAIN_VALUE)[r] for r, s in cards)
    roem = 0
    ranks = {r for r, _ in cards}
    if len(cards) == 4 and len(ranks) == 1:
        roem = {"J": 200, "A": 100, "T": 100, "K": 100, "Q": 100}.get(cards[0][0], 0)
    else:
        for suit in "CDHS":
            positions = sorted(_NATURAL.index(r) for r, s in cards if s == suit)
            longest = run = 1 if positions else 0
            for low, high in zip(positions, positions[1:], strict=False):
                run = run + 1 if high == low + 1 else 1
                longest = max(longest, run)
            roem += {3: 20, 4: 50}.get(longest, 0)
        if ("K", trump) in cards and ("Q", trump) in cards:
            roem += 20
    return winner, points, roem


def naive_legal_cards(
    hand: Sequence[str], trick: Sequence[str], trump: str, amsterdam: bool = False
) -> list[str]:
    """Legal cards on card strings, the slow obvious way (Rotterdam, or Amsterdam)."""
    if not trick:
        return list(hand)
    led = trick[0][-1]
    follow = [c for c in hand if c[-1] == led]
    in_trick = [_TRUMP_ORDER.index(_split(c)[0]) for c in trick if c[-1] == trump]
    if led == trump:
        if not follow:
            return list(hand)
        higher = [c for c in follow if _TRUMP_ORDER.index(_split(c)[0]) > max(in_trick)]
        return higher or follow
    if follow:
        return follow
    trumps = [c for c in hand if c[-1] == trump]
    if not trumps:
        return list(hand)
    over = [c for c in trumps if not in_trick or _TRUMP_ORDER.index(_split(c)[0]) > max(in_trick)]
    if not amsterdam:
        return over or trumps
    others = [c for c in hand if c[-1] != trump]
    winner = naive_trick(trick, trump)[0]
    if winner == len(trick) - 2:  # the partner is winning
        if trick[winner][-1] == trump and others:
            return others + over
        return list(hand)
    return over or others or list(hand)


def naive_score_hand(playing: str, points: Sequence[int], roem: Sequence[int], pit) -> tuple:
    """Rotterdam scoring with no checks at all: the least work a scorer can do."""
    own = 0 if playing == "A" else 1
    other = 1 - own
    if points[own] + roem[own] > points[other] + roem[other]:
        scores = [points[0] + roem[0], points[1] + roem[1]]
        if pit is not None:
            scores[0 if pit == "A" else 1] += 100
    else:
        scores = [0, 0]
        scores[other] = HAND_TOTAL + roem[0] + roem[1] + (100 if pit is not None else 0)
    return tuple(scores)


# --- Measuring -----------------------------------------------------------------------------


#: Wall-clock and CPU seconds spent inside :func:`measure`, for the load report.
_SPENT = {"wall": 0.0, "cpu": 0.0}


def measure(batches: Sequence[tuple[Callable[[], object], int]], seconds: float) -> list[float]:
    """Operations per CPU second of each ``(batch, operations per batch)``.

    The batches run in turns, five slices each of about ``seconds / 5`` of CPU time
    per batch, and each gets its best slice: a measurement and its baseline see the
    same machine load. Time is this process's CPU time (``time.process_time``), so
    other processes sharing the core slow the run down but hardly change the rates;
    the baseline ratio corrects for the rest (cache pressure, clock changes).
    """
    best = [0.0] * len(batches)
    for batch, _ops in batches:
        batch()  # warm caches
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(5):
        for i, (batch, ops) in enumerate(batches):
            done = 0
            start = time.process_time()
            deadline = start + seconds / 5
            while True:
                batch()
                done += ops
                now = time.process_time()
                if now >= deadline:
                    break
            best[i] = max(best[i], done / (now - start))
    _SPENT["wall"] += time.perf_counter() - wall_start
    _SPENT["cpu"] += time.process_time() - cpu_start
    return best


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown cpu"


def _positions(
    rng: random.Random, deals: int
) -> list[tuple[tuple[Card, ...], tuple[Card, ...], int]]:
    """(hand, trick so far, trump) before every card of ``deals`` simulated deals."""
    out = []
    for _ in range(deals):
        deal = simulate_deal(rng=rng)
        held = [set(h) for h in deal.hands]
        for trick in deal.tricks:
            for i, card in enumerate(trick.cards):
                seat = trick.seat_of(i)
                out.append((tuple(sorted(held[seat])), trick.cards[:i], deal.trump))
                held[seat].discard(card)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rules", description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    args = parser.parse_args(argv)
    seconds = args.seconds
    rng = random.Random(2024)

    print("Klaverjas rules core benchmark (one core)")
    print(f"machine : {platform.platform()} ({os.cpu_count()} CPUs)")
    print(f"cpu     : {_cpu_model()}")
    impl = platform.python_implementation()
    print(f"python  : {impl} {platform.python_version()} ({sys.executable})")

    def add(a: int, b: int, c: int, d: int) -> int:
        return a + b + c + d

    numbers = [(i, i + 1, i + 2, i + 3) for i in range(1000)]

    def baseline_batch() -> None:
        for a, b, c, d in numbers:
            add(a, b, c, d)

    base = (baseline_batch, len(numbers))
    (baseline,) = measure([base], seconds)
    print(f"baseline: plain Python loop calling f(a, b, c, d) = a+b+c+d: {baseline:,.0f} calls/s")
    print("          (measured again beside each row; 'x baseline' uses that figure)")
    print()
    header = (
        f"{'measurement':<48}{'per second':>12}{'x baseline':>12}{'naive ref/s':>13}"
        f"{'vs naive':>10}"
    )
    print(header)
    print("-" * len(header))
    results: dict[str, float] = {}

    def row(
        name: str,
        batch: Callable[[], object],
        ops: int,
        naive: tuple[Callable[[], object], int] | None = None,
    ) -> None:
        rates = measure([(batch, ops), base] + ([naive] if naive else []), seconds)
        rate, baseline_here = rates[0], rates[1]
        naive_text = f"{rates[2]:>13,.0f}{rate / rates[2]:>9.1f}x" if naive else ""
        print(f"{name:<48}{rate:>12,.0f}{rate / baseline_here:>12.4f}{naive_text}", flush=True)
        results[name] = rate
        record(
            "rules core",
            name,
            rate,
            "per CPU second",
            baseline=baseline_here,
            baseline_name="plain Python 4-argument call",
        )

    # score_hand: a mix of entries as a club evening produces them.
    rotterdam = get_ruleset("rotterdam")
    entries = []
    for _ in range(1000):
        deal = simulate_deal(rotterdam, rng=rng)
        entries.append((str(deal.playing), tuple(deal.points), tuple(deal.roem), deal.pit))

    def hands_batch() -> None:
        for playing, points, roem, pit in entries:
            score_hand(rotterdam, playing=playing, points=points, roem=roem, pit=pit)

    def naive_hands_batch() -> None:
        for playing, points, roem, pit in entries:
            naive_score_hand(playing, points, roem, pit)

    row(
        "score_hand (checked, rotterdam)",
        hands_batch,
        len(entries),
        (naive_hands_batch, len(entries)),
    )

    # Tricks: random full tricks, as Card objects (fast path) and as strings (naive).
    tricks = []
    for _ in range(2000):
        cards = rng.sample(CARDS, 4)
        tricks.append((tuple(cards), _SUITS[rng.randrange(4)]))
    string_tricks = [([str(c) for c in cards], str(trump)) for cards, trump in tricks]

    def tricks_batch() -> None:
        for cards, trump in tricks:
            score_trick(cards, trump)

    def three_calls_batch() -> None:
        for cards, trump in tricks:
            trick_winner(cards, trump)
            trick_points(cards, trump)
            trick_roem(cards, trump)

    def naive_tricks_batch() -> None:
        for cards, trump in string_tricks:
            naive_trick(cards, trump)

    naive_tricks = (naive_tricks_batch, len(tricks))
    row("trick evaluation (score_trick, Card objects)", tricks_batch, len(tricks), naive_tricks)
    row("trick evaluation (3 public calls)", three_calls_batch, len(tricks), naive_tricks)

    # Legal cards: every position of some simulated deals.
    positions = _positions(rng, 60)
    string_positions = [
        ([str(c) for c in hand], [str(c) for c in trick], str(trump))
        for hand, trick, trump in positions
    ]

    def legal_batch() -> None:
        for hand, trick, trump in positions:
            legal_cards(hand, trick, trump, rotterdam)

    def naive_legal_batch() -> None:
        for hand, trick, trump in string_positions:
            naive_legal_cards(hand, trick, trump)

    row(
        "legal_cards (Card objects, rotterdam, checked)",
        legal_batch,
        len(positions),
        (naive_legal_batch, len(positions)),
    )
    mask_positions = [
        (sum(1 << c for c in hand), tuple(map(int, trick)), int(trump))
        for hand, trick, trump in positions
    ]

    def mask_batch() -> None:
        for hand, trick, trump in mask_positions:
            legal_mask(hand, trick, trump, False)

    row(
        "legal_mask (card masks, unchecked fast path)",
        mask_batch,
        len(positions),
        (naive_legal_batch, len(positions)),
    )

    # Whole deals.
    for name in ("rotterdam", "match-1500"):
        ruleset = get_ruleset(name)

        def deals_batch(ruleset=ruleset) -> None:
            for _ in range(20):
                simulate_deal(ruleset, rng=rng)

        row(f"simulate_deal ({name})", deals_batch, 20)

    print()
    share = _SPENT["cpu"] / _SPENT["wall"] if _SPENT["wall"] else 1.0
    print(f"rates are per CPU second of this process; it got {share:.0%} of a core meanwhile")
    for name, goal in GOALS.items():
        rate = max(v for k, v in results.items() if k.startswith(name))
        verdict = "met" if rate >= goal else "NOT met on this run"
        print(f"goal {goal:,} {name}/s: {verdict} ({rate:,.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
