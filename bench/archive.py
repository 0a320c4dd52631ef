"""Benchmark of the club archive's import: ``python -m bench.archive [ROWS]``.

Plays two evenings of a small club through the services, exports its club.json,
and copies its rows (with new ids) until the archive holds about ROWS rows
(default: the page's limit, ``archive.WEB_MAX_ROWS``); then imports it as the
upload page does, on a throw-away database (SQLite, or ``BENCH_DATABASE_URL``),
and prints the rows, club.json's size and the seconds the import took. The page's
limit is chosen so that this stays well under 20 s.
"""

import datetime
import json
import random
import sys
import time

from bench.database import throwaway_database


def grown(data, rows):
    """``data`` (a club.json dict) with its rows copied until it holds about ``rows``."""
    base = data["rows"]
    per_copy = sum(len(r) for r in base.values())
    copies = max(1, rows // per_copy)
    out = {label: [] for label in base}
    from scoring.exports.archive import SCHEMA, To

    for copy in range(copies):
        offset = copy * 10_000_000
        for label, items in base.items():
            for item in items:
                row = {**item, "id": item["id"] + offset}
                for name, kind in SCHEMA[label].items():
                    if isinstance(kind, To) and row[name] is not None:
                        row[name] += offset
                out[label].append(row)
    return {**data, "rows": out}


def main():
    with throwaway_database("bench-archive-"):
        from scoring.demo import play_evening
        from scoring.exports import archive
        from tests import factories

        rows = int(sys.argv[1]) if len(sys.argv) > 1 else archive.WEB_MAX_ROWS
        club = factories.club(name="Bench")
        admin = factories.role(club, "admin")
        players = [factories.member(club, f"Speler {n}") for n in range(16)]
        season = factories.competition(club, name="Winter")
        for week in range(2):
            day = datetime.date(2026, 9, 8) + datetime.timedelta(weeks=week)
            play_evening(season, day, players, admin, random.Random(week))
        data = grown(archive.club_archive_data(club), rows)
        text = json.dumps(data, ensure_ascii=False, indent=1).encode()
        count = sum(len(r) for r in data["rows"].values())
        operator = factories.user("bench-operator", is_superuser=True)
        limits = archive.ArchiveLimits.for_rows(count)
        start = time.perf_counter()
        archive.club_archive_import(data=text, by=operator, slug="bench-copy", limits=limits)
        seconds = time.perf_counter() - start
        print(
            f"archive import: {count} rows, {len(text) / 1e6:.1f} MB club.json, "
            f"{len(text) / count:.0f} bytes a row, {seconds:.1f} s"
        )


if __name__ == "__main__":
    main()
