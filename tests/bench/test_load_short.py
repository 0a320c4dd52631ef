"""The load test's short form: 8 tables of 6 hands against gunicorn, nothing lost.

Runs ``bench/load.py`` as ``make load`` does, smaller: its own server
(gunicorn, 127.0.0.1), its own data folder and database, then checks its
report. On SQLite; the PostgreSQL leg plays the same evening through PgBouncer
and through Django's pool instead (``tests/bench/test_pooling.py``). Latency is reported, not
asserted: the suite runs on shared machines.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 90

pytestmark = [pytest.mark.slow, pytest.mark.database]


@pytest.fixture
def backend_args():
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        pytest.skip(
            "the PostgreSQL leg plays its evenings under load through PgBouncer and through "
            "Django's pool (tests/bench/test_pooling.py)"
        )
    return ["--backends", "sqlite"]


def play_under_load(tmp_path, *backend_args, tables, hands, env=None):
    """Run ``bench/load.py`` with ``tables`` tables of ``hands`` hands (and ``env`` added
    to its environment); its report, checked: no error, nothing lost or doubled, every
    hand saved and every game confirmed."""
    out = tmp_path / "load.json"
    command = [
        sys.executable,
        str(ROOT / "bench" / "load.py"),
        *("--tables", str(tables), "--hands", str(hands), "--think", "0.2"),
        *("--reader-think", "0.5", "--deadline", str(DEADLINE), "--json", str(out)),
        *backend_args,
    ]
    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "BENCH_JSON")}
    done = subprocess.run(
        command,
        cwd=ROOT,
        env={**environment, **(env or {})},
        capture_output=True,
        text=True,
        timeout=DEADLINE + 150,
    )
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    (report,) = json.loads(out.read_text())
    assert report["errors"] == 0, report["error_samples"]
    assert (report["lost"], report["doubled"], report["problems"]) == (0, 0, [])
    assert report["hands_planned"] == report["hands_stored"] == tables * hands
    saves = report["pages"]["hand save (POST)"]
    assert saves["count"] == tables * hands and saves["errors"] == 0
    assert report["pages"]["confirm (POST)"]["count"] == tables
    return report


def test_short_evening_under_load_loses_and_doubles_nothing(
    tmp_path, backend_args, sqlite_template
):
    play_under_load(tmp_path, *backend_args, tables=8, hands=6, env=sqlite_template)
