"""The federation night (``bench/federation.py``) at a tiny size: two clubs, one phone,
one reader, TV board and director, against its own gunicorn and database.

Checks the report, not the timings (the suite runs on shared machines): every endpoint
answered, on the site and on the baseline, with no error; every hand saved is stored;
the Markdown for ``make bench`` names every endpoint. PostgreSQL only (the benchmark
builds its federation there): runs on the PostgreSQL leg of ``make test``.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.federation import ENDPOINTS

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.database]

#: A hand every 5-8 s (compressed 60 times), polls every 0.25 s; a window longer than
#: a phone's longest wait between hands, so every endpoint is asked in it.
TINY = {
    "FED_CLUBS": "2",
    "FED_PLAYERS": "32",
    "FED_HISTORY_EVENINGS": "1",
    "FED_STEPS": "60",
    "FED_COMPRESS": "60",
    "FED_SECONDS": "9",
    "FED_SEAT_SECONDS": "1",
    "FED_WORKERS": "1",
    "FED_THREADS": "2",
    "FED_DEADLINE": "120",
}


def test_a_tiny_federation_night_answers_every_endpoint_without_error(
    tmp_path, postgres_url, postgres_template
):
    out, figures = tmp_path / "federation.json", tmp_path / "bench.jsonl"
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("FED_", "DATABASE"))}
    done = subprocess.run(
        [sys.executable, "-m", "bench.federation"],
        cwd=ROOT,
        env={
            **environment,
            **TINY,
            **postgres_template,
            "FED_DATABASE_URL": postgres_url,
            "FED_JSON": str(out),
            "BENCH_JSON": str(figures),
        },
        capture_output=True,
        text=True,
        timeout=240,
    )
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(out.read_text())
    for phase in ("site", "baseline"):
        (night,) = report["steps"][phase]
        assert night["errors"] == 0, night["error_samples"]
        for kind, row in night["endpoints"].items():
            assert row["count"] > 0 and row["errors"] == 0, (phase, kind, row)
            assert row["cpu_ms"] > 0 and row["queries"] is not None, (phase, kind, row)
    site = report["steps"]["site"][0]["endpoints"]
    assert site["save"]["queries"] > 0 and site["board"]["queries"] > 0
    assert report["phone_saves"] == report["hands_stored"] > 0
    lines = [json.loads(line) for line in figures.read_text().splitlines()]
    (section,) = [line["section"] for line in lines if "section" in line]
    for label in ENDPOINTS.values():
        assert f"| {label} |" in section, label
    assert any(line.get("name", "").startswith("tables served") for line in lines)
