"""Benchmark of the loting: ``python -m bench.draw [--runs N]``.

For each size it draws whole evenings with :func:`tournaments.draw.evening_draw`
(seeds 0..N-1) and, in the same run, a baseline: a plain random shuffle cut into
tables of four. It prints the median time per evening, the ratio to the baseline
and the repeats (partner/opponent/meeting) of each, summed over the runs. Pure
Python, no Django; bounded (a few seconds with the default 7 runs).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bench.record import record
from tournaments.draw import DrawHistory, RoundDraw, TableDraw, evening_draw, repeat_counts

SIZES = [(120, 6), (40, 6), (24, 6), (16, 3)]


def shuffle_evening(players: list[int], rounds: int, seed: int) -> list[RoundDraw[int]]:
    """The baseline: each round a random shuffle in tables of four, the rest sit out."""
    rng = random.Random(seed)
    draws = []
    for _ in range(rounds):
        order = players[:]
        rng.shuffle(order)
        seated = len(order) - len(order) % 4
        tables = tuple(
            TableDraw(k // 4 + 1, (order[k], order[k + 1], order[k + 2], order[k + 3]))
            for k in range(0, seated, 4)
        )
        draws.append(RoundDraw(tables=tables, sitouts=tuple(sorted(order[seated:]))))
    return draws


def measure(
    draw: Callable[[list[int], int, int], list[RoundDraw[int]]], n: int, rounds: int, runs: int
) -> tuple[float, tuple[int, int, int]]:
    """Median seconds per evening and the repeats summed over the runs."""
    players = list(range(1, n + 1))
    times, totals = [], [0, 0, 0]
    for seed in range(runs):
        start = time.perf_counter()
        evening = draw(players, rounds, seed)
        times.append(time.perf_counter() - start)
        counts = repeat_counts(evening)
        totals[0] += counts.partner_repeats
        totals[1] += counts.opponent_repeats
        totals[2] += counts.meeting_repeats
    return statistics.median(times), (totals[0], totals[1], totals[2])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="evenings per size (default 7)")
    runs = parser.parse_args(argv).runs

    def drawn(players: list[int], rounds: int, seed: int) -> list[RoundDraw[int]]:
        return evening_draw(players, rounds, seed=seed)

    print(f"loting benchmark: median of {runs} evenings; repeats partner/opponent/meeting")
    print(
        f"{'players':>7} {'rounds':>6} {'draw ms':>9} {'shuffle ms':>10} {'ratio':>7}  "
        f"{'draw repeats':>14}  {'shuffle repeats':>15}"
    )
    for n, rounds in SIZES:
        draw_time, draw_repeats = measure(drawn, n, rounds, runs)
        base_time, base_repeats = measure(shuffle_evening, n, rounds, runs)
        print(
            f"{n:>7} {rounds:>6} {draw_time * 1000:>9.1f} {base_time * 1000:>10.2f} "
            f"{draw_time / base_time:>6.0f}x  {'/'.join(map(str, draw_repeats)):>14}  "
            f"{'/'.join(map(str, base_repeats)):>15}"
        )
        record(
            "draw",
            f"evening of {n} players, {rounds} rounds ({'/'.join(map(str, draw_repeats))} repeats)",
            draw_time * 1000,
            "ms",
            baseline=base_time * 1000,
            baseline_name="random shuffle draw",
            lower_is_better=True,
        )
    total, drawn, shuffled = season_spread()
    print(
        f"season: 40 players, 5 evenings of 5 rounds played; of the {total} partnerships of"
        f" evening 6, {drawn} repeat a season partner (shuffle: {shuffled})"
    )


def season_spread(n: int = 40, evenings: int = 5, rounds: int = 5) -> tuple[int, int, int]:
    """After ``evenings`` of a season, one more evening: (its partnerships, of them
    with a season partner by the draw, by the shuffle)."""
    players = list(range(1, n + 1))
    history: DrawHistory[int] = DrawHistory()
    for night in range(evenings):
        drawn = evening_draw(players, rounds, seed=1000 + night, history=history.new_evening())
        history = DrawHistory.from_rounds(drawn, season=history)

    def known(evening: list[RoundDraw[int]]) -> int:
        return sum(
            history.season_partners.get(pair, 0) > 0
            for draw in evening
            for table in draw.tables
            for pair in table.partnerships()
        )

    drawn = evening_draw(players, rounds, seed=1, history=history.new_evening())
    total = sum(len(table.partnerships()) for draw in drawn for table in draw.tables)
    return total, known(drawn), known(shuffle_evening(players, rounds, seed=1))


if __name__ == "__main__":
    main()
