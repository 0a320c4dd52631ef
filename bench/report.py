"""``make bench``: run every benchmark, then one Markdown table of their figures.

Each benchmark's own output is shown as it runs; its figures (each with the
baseline measured in the same run, and the ratio) are gathered into
``var/bench-report.md`` and printed at the end. Ratios say how a figure
compares with its baseline on the same machine at the same time, which
survives a noisy shared machine better than the raw numbers.
"""

import json
import os
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHES = [
    ["-m", "bench.rules"],
    ["-m", "bench.draw"],
    ["-m", "bench.standings"],
    ["-m", "bench.imports"],
    ["-m", "bench.exports"],
    ["-m", "bench.federation"],
]


def number(value):
    if value is None:
        return ""
    return f"{value:,.1f}" if value < 1000 else f"{value:,.0f}"


def main():
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as handle:
        results = Path(handle.name)
    env = {**os.environ, "BENCH_JSON": str(results)}
    failed = []
    for args in BENCHES:
        print(f"\n== {' '.join(args)}", flush=True)
        if subprocess.call([sys.executable, *args], cwd=ROOT, env=env) != 0:
            failed.append(" ".join(args))
    lines = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    results.unlink()
    report = [
        f"# Benchmarks, {datetime.now():%Y-%m-%d %H:%M}",
        "",
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs. Each figure beside a "
        "baseline measured in the same run; ratio = value / baseline (for times lower "
        "is better, for rates higher).",
        "",
        "| benchmark | figure | value | unit | baseline | baseline value | ratio |",
        "|---|---|---:|---|---|---:|---:|",
    ]
    sections = [line["section"] for line in lines if "section" in line]
    for line in lines:
        if "section" in line:
            continue
        ratio = "" if line["ratio"] is None else f"{line['ratio']:.3g}"
        report.append(
            f"| {line['bench']} | {line['name']} | {number(line['value'])} | {line['unit']} "
            f"| {line['baseline_name']} | {number(line['baseline'])} | {ratio} |"
        )
    for section in sections:
        report += ["", section.rstrip("\n")]
    if failed:
        report += ["", "Failed: " + ", ".join(failed)]
    text = "\n".join(report) + "\n"
    out = ROOT / "var" / "bench-report.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text)
    print("\n" + text)
    print(f"written to {out.relative_to(ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
