"""Benchmark of the imports: ``python -m bench.imports`` (part of ``make bench``).

Imports must stay small: a file at the size limit is read streaming, in
bounded memory, and fast enough for a request. This generates files at the
limits, in a throw-away folder:

- results hand logs of 20 MiB, as .csv and as .xlsx: with 20,000 hands, the
  upload page's row limit (``importers.PAGE_LIMITS``), and with 50,000 hands,
  the command's (``importers.LIMITS``); evenings of 3 rounds at 8 tables, and
  two note columns of text that does not compress (an old spreadsheet's
  remarks) to reach the size;
- a member list of 5 MiB (its limit) with 2,000 members (its row limit) and
  an address and remarks, as .csv and .xlsx;
- a member .xlsx of 130,000 rows (4.5 MiB, like the incident's 4.8 MB one
  that took 693 MB and 17 s when it was loaded whole), which the reader now
  refuses at row 2,001.

Each is measured in a fresh Python process (so one run's memory never hides
in another's): the time and CPU time of the import's preview (read, check and
score every row, as the upload page does) and the process's peak resident
size (``ru_maxrss``, Django's own ~80 MB included); in a second run, for the
CSV files and the member lists, the peak of Python's allocations
(``tracemalloc``, which slows openpyxl too much to trace the workbooks).
Beside each, the baseline measured in the same run: the same file read by
openpyxl's read-only iteration alone (values only), or by Python's ``csv``
module alone. The results files are also confirmed (the second request:
preview again, then store every hand in one transaction, rolled back), on
SQLite in the throw-away folder, with the page's limits or the command's.

The bound that matters: peak memory under 150 MB for a 20 MiB file, and each
request within about 20 s (the worker's timeout is 30 s).
"""

import base64
import io
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import date, timedelta
from pathlib import Path

MIB = 1024 * 1024
RESULTS_BYTES = 20 * MIB
MEMBERS_BYTES = 5 * MIB
PAGE_HANDS = 20_000
COMMAND_HANDS = 50_000
MEMBERS = 2_000
INCIDENT_ROWS = 130_000
LIMIT_MB = 150

MEMBER_COLUMNS = [
    "Naam",
    "Lidnummer",
    "E-mail",
    "Telefoon",
    "Actief",
    "Gast",
    "Adres",
    "Opmerking",
    "Notities",
    "Historie",
]


# ---------------------------------------------------------------- files


def _noise(rng, length):
    """Text that compresses about as badly as real remarks do (base32 of random bytes)."""
    return base64.b32encode(rng.randbytes(length)).decode("ascii")[:length].lower()


def hand_rows(note_length, rng, hands):
    players = [f"Speler {n:03d}" for n in range(1, 33)]
    day = date(2020, 1, 6)
    count = 0
    while count < hands:
        for round_number in (1, 2, 3):
            seated = players[round_number:] + players[:round_number]
            for table in range(1, 9):
                names = seated[(table - 1) * 4 : table * 4]
                for hand in range(1, 17):
                    if count == hands:
                        return
                    count += 1
                    a_plays = hand % 2 == 1
                    yield {
                        "date": day.isoformat(),
                        "round": round_number,
                        "table": table,
                        "hand": hand,
                        **dict(zip(("north", "south", "east", "west"), names, strict=True)),
                        "playing": "A" if a_plays else "B",
                        "trump": "H",
                        "points_a": 100 if a_plays else 62,
                        "points_b": 62 if a_plays else 100,
                        "note": _noise(rng, note_length // 2),
                        "remark": _noise(rng, note_length // 2),
                    }
        day += timedelta(days=1)


def member_rows(field_length, rng):
    for number in range(1, MEMBERS + 1):
        yield [
            f"Lid {number:04d} {_noise(rng, 8)}",
            f"{number:05d}",
            f"lid{number}@example.nl",
            f"06{number:08d}",
            "ja",
            "nee",
            *(_noise(rng, field_length) for _field in range(4)),
        ]


def _values(header, row):
    return [row.get(key, "") for key in header] if isinstance(row, dict) else row


def write_csv(path, header, rows, separator):
    import csv

    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle, delimiter=separator, lineterminator="\r\n")
        writer.writerow(header)
        writer.writerows(_values(header, row) for row in rows)


def write_xlsx(path, header, rows):
    from openpyxl import Workbook

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Blad1")
    sheet.append(header)
    for row in rows:
        sheet.append(_values(header, row))
    workbook.save(path)


def fit(path, target, write, note_length):
    """Write the file with notes long enough to come close under ``target`` bytes."""
    for _attempt in range(4):
        write(note_length)
        size = path.stat().st_size
        if 0.93 * target <= size <= target:
            return size
        note_length = max(1, int(note_length * (0.97 * target) / size))
    write(note_length)
    return path.stat().st_size


def hand_columns():
    """The hand log's columns (the machine names) and two of remarks; rows fill some."""
    from scoring.exports.handlog import COLUMNS

    return [*COLUMNS, "note", "remark"]


def make_files(folder: Path):
    files = {}
    columns = hand_columns()
    for hands, where in ((PAGE_HANDS, "page"), (COMMAND_HANDS, "command")):
        label = f"results, {hands:,} hands ({where})"
        path = folder / f"results-{hands}.csv"

        def as_csv(n, path=path, hands=hands):
            write_csv(path, columns, hand_rows(n, random.Random(1), hands), ",")

        start = 875 if hands == PAGE_HANDS else 312  # close to the size at once
        files[f"{label} .csv"] = (path, fit(path, RESULTS_BYTES, as_csv, start), where)
        path = folder / f"results-{hands}.xlsx"

        def as_xlsx(n, path=path, hands=hands):
            write_xlsx(path, columns, hand_rows(n, random.Random(1), hands))

        start = 1470 if hands == PAGE_HANDS else 560
        files[f"{label} .xlsx"] = (path, fit(path, RESULTS_BYTES, as_xlsx, start), where)
    path = folder / "members.csv"
    files["members .csv"] = (
        path,
        fit(
            path,
            MEMBERS_BYTES,
            lambda n: write_csv(path, MEMBER_COLUMNS, member_rows(n, random.Random(2)), ";"),
            580,
        ),
        "page",
    )
    path = folder / "members.xlsx"
    files["members .xlsx"] = (
        path,
        fit(
            path,
            MEMBERS_BYTES,
            lambda n: write_xlsx(path, MEMBER_COLUMNS, member_rows(n, random.Random(2))),
            910,
        ),
        "page",
    )
    path = folder / "incident.xlsx"

    def incident(_n):
        rng = random.Random(3)
        rows = (
            [f"Lid {n}", str(n), f"l{n}@example.nl", _noise(rng, 12), "ja", "nee"]
            for n in range(INCIDENT_ROWS)
        )
        write_xlsx(path, MEMBER_COLUMNS[:6], rows)  # 4.5 MiB

    incident(0)
    files["members .xlsx, 130,000 rows"] = (path, path.stat().st_size, "page")
    return files


# ---------------------------------------------------------------- one measurement (child)


def child(task, path, folder, trace="1"):
    """Run one measurement in this fresh process; print its figures as JSON.

    With ``trace`` "1" the peak of Python's allocations is measured too (and
    the time is then slower: tracemalloc hooks every allocation).
    """
    os.environ["KLAVERJAS_DATA_DIR"] = folder
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    os.environ.pop("DATABASE_URL", None)
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    from django.utils import translation

    translation.activate("nl")
    data = Path(path).read_bytes()
    run = TASKS[task]
    name = Path(path).name
    if trace == "1":
        tracemalloc.start()
    started, cpu = time.perf_counter(), time.process_time()
    outcome = run(data, name)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1] if trace == "1" else 0
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    figures = {"seconds": seconds, "cpu": cpu, "peak_mb": peak / 1e6, "rss_mb": rss}
    print(json.dumps({**figures, **outcome}))


def _openpyxl_alone(data, _name):
    import openpyxl

    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    count = sum(1 for _row in workbook.worksheets[0].iter_rows(values_only=True))
    workbook.close()
    return {"rows": count}


def _csv_alone(data, _name):
    import csv

    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")
    sample = text.readline()
    text.seek(0)
    separator = ";" if sample.count(";") > sample.count(",") else ","
    return {"rows": sum(1 for _row in csv.reader(text, delimiter=separator))}


def _members_preview(data, name):
    from clubs import imports
    from clubs.models import Club

    club = Club.objects.get(slug="bench")
    preview = imports.member_import_preview(club=club, data=data, filename=name)
    return {"rows": len(preview.rows), "problems": [str(p) for p in preview.problems[:2]]}


def _limits(_name):
    """The upload page's limits, or the command's (``BENCH_WHERE``, set by :func:`measure`)."""
    from scoring.exports import importers

    return importers.LIMITS if os.environ.get("BENCH_WHERE") == "command" else importers.PAGE_LIMITS


def _results_preview(data, name):
    from scoring.exports import importers

    preview = importers.results_import_preview(
        club=None,
        competition=None,
        data=data,
        filename=name,
        create_members=True,
        limits=_limits(name),
    )
    return {"rows": preview.hands, "problems": [str(p) for p in preview.problems[:2]]}


def _results_store(data, name):
    from django.db import transaction

    from clubs.models import Club
    from scoring.exports import importers

    with transaction.atomic():
        club = Club.objects.get(slug="bench")
        result = importers.results_import_apply(
            club=club,
            new_competition={"name": "Bench"},
            data=data,
            filename=name,
            create_members=True,
            limits=_limits(name),
        )
        transaction.set_rollback(True)
    return {"rows": result.hands, "problems": []}


TASKS = {
    "openpyxl": _openpyxl_alone,
    "csv": _csv_alone,
    "members": _members_preview,
    "results": _results_preview,
    "store": _results_store,
}


# ---------------------------------------------------------------- the run (parent)


def measure(task, path, folder, *, trace=False, where="page"):
    args = ["--child", task, str(path), folder, "1" if trace else "0"]
    output = subprocess.run(
        [sys.executable, "-m", "bench.imports", *args],
        env={**os.environ, "BENCH_WHERE": where},
        capture_output=True,
        text=True,
        check=False,
    )
    if output.returncode != 0:
        raise RuntimeError(output.stderr[-2000:])
    return json.loads(output.stdout.strip().splitlines()[-1])


def setup(folder):
    """A migrated SQLite database in ``folder`` with the club the imports go into."""
    os.environ["KLAVERJAS_DATA_DIR"] = folder
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    os.environ.pop("DATABASE_URL", None)
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from clubs.models import Club

    Club.objects.get_or_create(slug="bench", defaults={"name": "Bench"})


def main():
    from bench.record import record

    sys.stdout.reconfigure(line_buffering=True)
    started = time.perf_counter()
    folder = tempfile.mkdtemp(prefix="klaverjas-import-bench-")
    setup(folder)
    files = make_files(Path(folder))
    print(f"files made in {time.perf_counter() - started:.0f} s")
    failed = []
    for label, (path, size, where) in files.items():
        kind = "members" if label.startswith("members") else "results"
        base_task = "openpyxl" if path.suffix == ".xlsx" else "csv"
        base_name = "openpyxl read-only alone" if base_task == "openpyxl" else "csv module alone"
        bench = f"import {label} ({size / MIB:.1f} MiB)"
        baseline = measure(base_task, path, folder)
        ours = measure(kind, path, folder, where=where)
        # tracemalloc slows openpyxl several times over: Python's own peak is
        # traced for the CSV files and the member lists, the process peak for all.
        traced = kind == "members" or path.suffix == ".csv"
        peak = measure(kind, path, folder, trace=True, where=where)["peak_mb"] if traced else 0
        print(
            f"{bench}: preview {ours['seconds']:.1f} s ({ours['cpu']:.1f} s CPU), "
            f"process peak {ours['rss_mb']:.0f} MB"
            + (f" (Python's own {peak:.0f} MB)" if traced else "")
            + ", "
            f"{ours['rows']} rows read; {base_name}: {baseline['seconds']:.1f} s "
            f"({baseline['cpu']:.1f} s CPU), process peak {baseline['rss_mb']:.0f} MB"
        )
        if ours["problems"]:
            print("  report:", " | ".join(ours["problems"]))
        lower = {"lower_is_better": True, "baseline_name": base_name}
        record(bench, "preview time", ours["seconds"], "s", baseline=baseline["seconds"], **lower)
        record(bench, "preview CPU time", ours["cpu"], "s", baseline=baseline["cpu"], **lower)
        record(
            bench,
            "process peak (ru_maxrss)",
            ours["rss_mb"],
            "MB",
            baseline=baseline["rss_mb"],
            **lower,
        )
        if traced:
            record(bench, "Python peak (tracemalloc)", peak, "MB")
        if ours["rss_mb"] > LIMIT_MB:
            failed.append(f"{bench}: {ours['rss_mb']:.0f} MB > {LIMIT_MB} MB")
        if kind == "results":
            stored = measure("store", path, folder, where=where)
            print(
                f"{bench}: confirm (preview + store {stored['rows']} hands) "
                f"{stored['seconds']:.1f} s ({stored['cpu']:.1f} s CPU), process peak "
                f"{stored['rss_mb']:.0f} MB"
            )
            lower["baseline_name"] = "preview"
            record(
                bench,
                "confirm: preview + store",
                stored["seconds"],
                "s",
                baseline=ours["seconds"],
                **lower,
            )
            record(bench, "confirm CPU time", stored["cpu"], "s", baseline=ours["cpu"], **lower)
            record(
                bench,
                "confirm process peak (ru_maxrss)",
                stored["rss_mb"],
                "MB",
                baseline=ours["rss_mb"],
                **lower,
            )
            if where == "page" and stored["rss_mb"] > LIMIT_MB:
                failed.append(f"{bench} confirm: {stored['rss_mb']:.0f} MB > {LIMIT_MB} MB")
    print(f"total {time.perf_counter() - started:.0f} s")
    for line in failed:
        print("OVER THE MEMORY BOUND:", line)
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(*sys.argv[2:6])
    else:
        sys.exit(main())
