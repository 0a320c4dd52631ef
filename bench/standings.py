"""Benchmark: standings and evening result pages on a large season.

``python -m bench.standings`` (part of ``make bench``) builds, in a
throw-away SQLite file (or a throw-away database beside the one of
``BENCH_DATABASE_URL``: ``bench.database``), a
competition of 100 players, 40 evenings, 3 rounds and 16 hands a game (about
48,000 hands), then times the standings page and an evening result page
through Django's test client, with their SQL query counts, beside one raw SQL
aggregate that sums the same numbers, timed in turns with each (a call of each a
round, medians of 21): the pages' overhead is that ratio. The
standings read each finished evening's sums (``EveningTotals``, stored by the
changes: ``scoring.results.services.evening_totals_store``, called here once for the
season made in bulk); a read of evenings without them sums them in memory (stores
nothing), and is timed on its own.
``BENCH_PROFILE="standings page"`` (or ``"evening result page"``) prints a
profile of one request of that page first.
"""

import os
import random
import statistics
import sys
import time

from bench.record import record

PLAYERS, EVENINGS, ROUNDS, HANDS = 100, 40, 3, 16


def main():
    from bench.database import throwaway_database

    with throwaway_database("klaverjas-bench-") as connection:
        from django.core.signals import request_finished, request_started
        from django.db import close_old_connections
        from django.test.utils import setup_test_environment

        setup_test_environment()
        # Keep one connection across requests, as the test runner does, so the
        # queries of each page can be counted.
        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)
        started = time.perf_counter()
        competition, evening = build()
        print(
            f"built {hand_count()} hands on {connection.vendor} in "
            f"{time.perf_counter() - started:.1f} s"
        )
        measure(competition, evening)


def hand_count():
    from scoring.models import Hand

    return Hand.objects.count()


def build():
    import datetime

    from django.db import transaction

    from clubs.models import Club, Member
    from tournaments.models import Competition

    with transaction.atomic():
        club = Club.objects.create(name="Bench", slug="bench")
        members = Member.objects.bulk_create(
            Member(club=club, name=f"Speler {n:03d}") for n in range(PLAYERS)
        )
        competition = Competition.objects.create(
            club=club,
            name="Bench",
            start_date=datetime.date(2026, 1, 1),
            end_date=datetime.date(2026, 12, 31),
            tie_breaks=["marsen", "fewer_nat"],
            best_of=30,
            min_attendance=10,
        )
        evenings = season_history(
            competition,
            members,
            evenings=EVENINGS,
            rounds=ROUNDS,
            hands=HANDS,
            rng=random.Random(1),
            first=datetime.date(2026, 1, 6),
        )
    return competition, evenings[-1]


def scored_hands(ruleset, rng, count=512):
    """``count`` random hands scored by the rules core, unsaved and of no game yet: the
    hands a season's games are drawn from."""
    from scoring.models import Hand
    from scoring.rules import other_points, score_hand

    pool = []
    for _ in range(count):
        a = rng.choice((0, 20, 40, 62, 81, 82, 90, 100, 120, 140, 162))
        playing = rng.choice("AB")
        roem = (rng.choice((0, 0, 20, 50)), 0) if a else (0, 0)
        result = score_hand(ruleset, playing=playing, points=(a, other_points(a)), roem=roem)
        pool.append(
            Hand(
                number=1,
                playing=playing,
                points_a=a,
                points_b=other_points(a),
                roem_a=roem[0],
                score_a=result.scores[0],
                score_b=result.scores[1],
                nat=result.nat,
            )
        )
    return pool


def bulk_insert(model, rows, varying):
    """Insert ``rows`` of ``model``, each (a prototype instance, the values of the fields
    ``varying`` names, by attname); every other field as in its prototype. PostgreSQL
    takes them by COPY (several times bulk_create's speed), other databases by
    bulk_create. No ids come back."""
    from django.db import connection

    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    names = [f.attname for f in fields]
    where = [names.index(name) for name in varying]
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            (
                model(
                    **{n: getattr(proto, n) for n in names}
                    | dict(zip(varying, values, strict=True))
                )
                for proto, values in rows
            ),
            batch_size=2000,
        )
        return
    prepared = {}
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    connection.ensure_connection()
    with (
        connection.connection.cursor() as cursor,
        cursor.copy(
            f"COPY {connection.ops.quote_name(model._meta.db_table)} ({columns}) FROM STDIN"
        ) as copy,
    ):
        for proto, values in rows:
            row = prepared.get(id(proto))
            if row is None:
                row = prepared[id(proto)] = [
                    f.get_db_prep_save(f.pre_save(proto, True), connection) for f in fields
                ]
            for index, value in zip(where, values, strict=True):
                row[index] = value
            copy.write_row(row)


def season_history(competition, members, *, evenings, rounds, hands, rng, first):
    """A season played before: ``evenings`` finished evenings a week apart from
    ``first``, of ``rounds`` rounds each with every one of ``members`` (a multiple of 4)
    at a table, ``hands`` hands a game, every game confirmed; made in bulk (no
    services), the hands drawn from a pool the rules core scored. Its evenings."""
    import datetime

    from django.utils import timezone

    from scoring.models import Game, Hand
    from tournaments.models import Evening, Round, Seat, Table

    now = timezone.now()
    ruleset = competition.ruleset().to_dict()
    pool = scored_hands(competition.ruleset(), rng)
    made = Evening.objects.bulk_create(
        Evening(
            competition=competition,
            date=first + datetime.timedelta(weeks=n % 52, days=n // 52),
            status=Evening.Status.FINISHED,
        )
        for n in range(evenings)
    )
    rounds_made = Round.objects.bulk_create(
        Round(evening=evening, number=n + 1) for evening in made for n in range(rounds)
    )
    per_round = len(members) // 4
    tables = Table.objects.bulk_create(
        (Table(round=round_, number=n + 1) for round_ in rounds_made for n in range(per_round)),
        batch_size=5000,
    )
    seats, games, drawn = [], [], []
    for r, round_ in enumerate(rounds_made):
        players = members[:]
        rng.shuffle(players)
        for table in tables[r * per_round : (r + 1) * per_round]:
            for position in Seat.ORDER:
                seats.append((round_.pk, table.pk, position, players.pop().pk))
            dealt = [rng.choice(pool) for _ in range(hands)]
            drawn.append(dealt)
            games.append(
                Game(
                    table=table,
                    ruleset=ruleset,
                    status="confirmed",
                    confirmed_at=now,
                    total_a=sum(hand.score_a for hand in dealt),
                    total_b=sum(hand.score_b for hand in dealt),
                    hands_entered=hands,
                )
            )
    seat = Seat(position=Seat.ORDER[0])
    bulk_insert(
        Seat,
        ((seat, values) for values in seats),
        ("round_id", "table_id", "position", "member_id"),
    )
    games = Game.objects.bulk_create(games, batch_size=5000)
    bulk_insert(
        Hand,
        (
            (hand, (game.pk, number))
            for game, dealt in zip(games, drawn, strict=True)
            for number, hand in enumerate(dealt, 1)
        ),
        ("game_id", "number"),
    )
    return made


def timed(func, repeat=11):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def timed_against(func, baseline, repeat=21):
    """The medians of ``func`` and ``baseline`` timed in turns, one call of each a
    round: a shared machine's slow spell then slows both, and their ratio holds."""
    ours, base = [], []
    for _ in range(repeat):
        ours.append(timed(func, repeat=1))
        base.append(timed(baseline, repeat=1))
    return statistics.median(ours), statistics.median(base)


def measure(competition, evening):
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    client = Client()
    pages = {
        "standings page": reverse(
            "results:standings", kwargs={"club": "bench", "pk": competition.pk}
        ),
        "evening result page": reverse(
            "results:evening", kwargs={"club": "bench", "pk": evening.pk}
        ),
    }
    raw = (
        "SELECT s.member_id, SUM(CASE WHEN s.position IN ('N','S') THEN g.total_a "
        "ELSE g.total_b END) FROM tournaments_seat s "
        "JOIN scoring_game g ON g.table_id = s.table_id GROUP BY s.member_id"
    )

    def run_raw():
        with connection.cursor() as cursor:
            cursor.execute(raw)
            cursor.fetchall()

    if os.environ.get("BENCH_PROFILE"):
        import cProfile

        cProfile.runctx(
            "client.get(url)",
            globals(),
            {"client": client, "url": pages[os.environ["BENCH_PROFILE"]]},
            sort="cumtime",
        )
    baseline = timed(run_raw)
    print(f"baseline: one raw SQL aggregate of all points: {baseline * 1000:.1f} ms")
    from scoring.models import EveningTotals
    from scoring.results.standings import season_standings

    def figure(name, func, said):
        """Time ``func`` in turns with the raw aggregate; print and record the pair."""
        seconds, base = timed_against(func, run_raw)
        print(
            f"{said}: {seconds * 1000:.1f} ms, {seconds / base:.1f}x the raw aggregate "
            f"({base * 1000:.1f} ms, timed in turns)"
        )
        record(
            f"pages (48,000 hands, {connection.vendor})",
            name,
            seconds * 1000,
            "ms",
            baseline=base * 1000,
            baseline_name="one raw SQL aggregate",
            lower_is_better=True,
        )

    from django.db import transaction

    from scoring.results.services import evening_totals_store

    EveningTotals.objects.all().delete()
    figure(
        "standings computation, no stored totals (sums every evening in memory)",
        lambda: season_standings(competition=competition),
        "standings computation, no evening's totals stored",
    )
    with transaction.atomic():
        evening_totals_store(competition.evenings.values("pk"))
    with CaptureQueriesContext(connection) as queries:
        season_standings(competition=competition)
    count = len(queries)
    figure(
        f"standings computation, no HTML ({count} queries)",
        lambda: season_standings(competition=competition),
        f"standings computation ({count} queries)",
    )
    for name, url in pages.items():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        count = len(queries)
        assert response.status_code == 200, response.status_code
        figure(
            f"{name} ({count} queries)",
            lambda url=url: client.get(url),
            f"{name} ({count} queries)",
        )


if __name__ == "__main__":
    sys.exit(main())
