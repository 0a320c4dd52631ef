"""One line per benchmark figure, for ``make bench``'s combined report.

Each benchmark prints for people and, when ``BENCH_JSON`` names a file, also
appends its figures there as JSON lines; ``bench/report.py`` gathers
them into one Markdown table. Django-free, so the rules core's benchmark may
use it.
"""

import json
import os


def record(bench, name, value, unit, *, baseline=None, baseline_name="", lower_is_better=False):
    """Note one figure with the baseline measured beside it in the same run.

    The ratio is always value / baseline, in the figure's own unit: a time of 19x
    its baseline, or a rate of 0.05x a plain loop's.
    """
    path = os.environ.get("BENCH_JSON")
    if not path:
        return
    ratio = value / baseline if baseline else None
    line = {
        "bench": bench,
        "name": name,
        "value": value,
        "unit": unit,
        "baseline": baseline,
        "baseline_name": baseline_name,
        "ratio": ratio,
        "lower_is_better": lower_is_better,
    }
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")


def record_section(markdown):
    """Note a benchmark's own Markdown (a table of its own), printed after the figures."""
    path = os.environ.get("BENCH_JSON")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"section": markdown}) + "\n")
