"""Benchmark of the files: ``python -m bench.exports`` (part of ``make bench``).

On the 48,000-hand competition of ``bench.standings`` (100 players, 40
evenings of 3 rounds of 16 hands), built in a throw-away SQLite file (or a
throw-away database beside the one of ``BENCH_DATABASE_URL``: ``bench.database``),
it times:

- the hand log as .xlsx (query, rows, workbook), beside openpyxl alone writing
  the same cells from memory in write-only mode: the baseline;
- the standings PDF (standings, report, PDF), beside reportlab alone laying
  out the same cells in a plain table;
- the import of that .xlsx hand log and of its CSV twin into an empty
  competition (read, check, score every hand, store; rolled back after),
  beside openpyxl alone reading the workbook's cells.

Each line gives the time and its ratio to its baseline. Bounded: each big step
runs once (the median of 3 runs for the PDF); about two minutes in all, most of
it openpyxl (which is several times faster with lxml installed).
"""

import io
import statistics
import sys
import time


def timed(func, repeat=1):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def line(name, seconds, baseline, baseline_name):
    from bench.record import record

    print(f"{name}: {seconds:.2f} s, {seconds / baseline:.1f}x {baseline_name}")
    record(
        "files (48,000 hands)",
        name,
        seconds,
        "s",
        baseline=baseline,
        baseline_name=baseline_name,
        lower_is_better=True,
    )


def openpyxl_alone(rows):
    from openpyxl import Workbook

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Hands")
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def openpyxl_reading(data):
    import openpyxl

    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    count = sum(1 for _row in workbook.worksheets[0].iter_rows(values_only=True))
    workbook.close()
    return count


def reportlab_alone(report):
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import SimpleDocTemplate, Table

    cells = [[column.title for column in report.columns]]
    cells += [[str(row.get(column.key, "")) for column in report.columns] for row in report.rows]
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=A4).build([Table(cells, repeatRows=1)])
    return buffer.getvalue()


def measure(competition):
    from django.db import transaction

    from clubs.models import Club
    from scoring.exports import csv, handlog, importers, pdf, reports, xlsx

    names = handlog.seat_names(competition)
    rows = [tuple(row) for row in handlog.hand_log_rows(competition, names=names)]
    header = tuple(handlog.COLUMNS)

    base_xlsx, _ = timed(lambda: openpyxl_alone([header, *rows]))
    print(f"baseline: openpyxl alone writes the {len(rows)} rows: {base_xlsx:.2f} s")
    ours_xlsx, data = timed(
        lambda: xlsx.hand_log_xlsx(
            handlog.hand_log_rows(competition, names=names), name_width=handlog.name_width(names)
        )
    )
    line("hand log .xlsx", ours_xlsx, base_xlsx, "openpyxl alone")
    ours_csv, csv_data = timed(lambda: csv.hand_log_csv(handlog.hand_log_rows(competition)))
    line("hand log .csv", ours_csv, base_xlsx, "openpyxl alone")

    report = reports.standings_report(competition=competition)
    base_pdf, _ = timed(lambda: reportlab_alone(report), repeat=3)
    ours_pdf, _ = timed(
        lambda: pdf.report_pdf(reports.standings_report(competition=competition)), repeat=3
    )
    print(f"baseline: reportlab alone lays out the {len(report.rows)} standings: {base_pdf:.2f} s")
    line("standings PDF (standings + PDF)", ours_pdf, base_pdf, "reportlab alone")

    base_read, _ = timed(lambda: openpyxl_reading(data))
    print(f"baseline: openpyxl alone reads the .xlsx hand log: {base_read:.2f} s")

    def import_into_new(payload, filename):
        with transaction.atomic():
            club = Club.objects.create(name="Hersteld", slug="hersteld")
            result = importers.results_import_apply(
                club=club,
                new_competition={"name": "Kopie"},
                data=payload,
                filename=filename,
                create_members=True,
            )
            assert result.hands == len(rows), (result.hands, len(rows))
            transaction.set_rollback(True)
        return result

    ours_import, _ = timed(lambda: import_into_new(data, "hands.xlsx"))
    line("import of the .xlsx hand log", ours_import, base_read, "openpyxl reading alone")
    print(f"  = {ours_import / base_xlsx:.1f}x openpyxl writing alone")
    ours_import_csv, _ = timed(lambda: import_into_new(csv_data, "hands.csv"))
    line("import of the .csv hand log", ours_import_csv, base_read, "openpyxl reading alone")
    print(
        f"sizes: .xlsx {len(data) / 1e6:.1f} MB, .csv {len(csv_data) / 1e6:.1f} MB "
        f"(import limit {importers.MAX_UPLOAD_BYTES // 2**20} MiB, {importers.MAX_ROWS} rows)"
    )


def main():
    from bench.database import throwaway_database
    from bench.standings import build, hand_count

    started = time.perf_counter()
    with throwaway_database("klaverjas-exports-bench-") as connection:
        competition, _evening = build()
        print(
            f"built {hand_count()} hands on {connection.vendor} in "
            f"{time.perf_counter() - started:.1f} s"
        )
        measure(competition)
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
