"""The stored evening totals on two connections at once (``transactional_db``): apart
from tests/scoring/results/test_evening_totals.py, whose season is built once in a
transaction around that module, which a test outside a transaction cannot run in."""

import threading

import pytest
from django.db import connection, transaction

from scoring.models import Game
from tests.scoring.results.test_evening_totals import from_store, lines, live, stored_ids
from tournaments.models import Seat


@pytest.mark.django_db(transaction=True)
def test_a_read_while_a_correction_is_uncommitted_shows_the_committed_sums(club, play_season):
    """Two connections: a director's correction holds its transaction open while a
    standings read comes in. The read waits for nothing (it takes no lock: SQLite's
    write lock is the correction's) and shows the standings as committed; the
    correction stored its sums in its transaction, so after its commit they are read."""
    competition, members, evenings, director = play_season(
        club, evenings=1, players=8, rounds=1, seed=5
    )
    ids = [evenings[0].pk]
    game = Game.objects.filter(table__round__evening=evenings[0]).order_by("pk").first()
    north = Seat.objects.get(table=game.table, position="N").member_id
    before = {key: points for key, _rank, points, _g, _m in lines(competition)}
    locked, done = threading.Event(), threading.Event()
    result = {}

    def correct():
        try:
            with transaction.atomic():
                changed = Game.objects.get(pk=game.pk)
                changed.total_a += 100
                changed.save()  # stores the evening's totals again, uncommitted
                locked.set()
                done.wait(60)  # the read below comes in meanwhile
        finally:
            connection.close()

    def read():
        try:
            result["lines"] = {key: points for key, _r, points, _g, _m in lines(competition)}
        finally:
            connection.close()

    writer = threading.Thread(target=correct)
    writer.start()
    assert locked.wait(10)
    reader = threading.Thread(target=read)
    reader.start()
    reader.join(30)
    read_while_open = not reader.is_alive()
    done.set()
    writer.join(10)
    reader.join(30)
    assert read_while_open  # it did not wait for the correction's commit
    assert result["lines"][north] == before[north]
    assert stored_ids() == set(ids)
    assert from_store(ids) == live(ids)
    assert live(ids)[(ids[0], north)][0] == before[north] + 100
    assert lines(competition) != {}
    assert {key: points for key, _r, points, _g, _m in lines(competition)}[north] == (
        before[north] + 100
    )


@pytest.mark.django_db(transaction=True)
def test_two_corrections_of_one_closed_evening_at_once_store_both(club, play_season):
    """Two connections correct two games of one finished evening at once: the second
    waits for the first (PostgreSQL: the evening's row of totals, which each change
    writes before it sums; SQLite: the write lock), so the totals stored last sum both
    corrections, not the second one alone."""
    competition, members, evenings, director = play_season(
        club, evenings=1, players=8, rounds=1, seed=5
    )
    ids = [evenings[0].pk]
    first, second = Game.objects.filter(table__round__evening=evenings[0]).order_by("pk")[:2]
    before = from_store(ids)
    saved, done = threading.Event(), threading.Event()

    def correct(game, hold):
        try:
            with transaction.atomic():
                changed = Game.objects.get(pk=game.pk)
                changed.total_a += 100
                changed.save()
                if hold:
                    saved.set()
                    done.wait(60)  # the second correction comes in meanwhile
        finally:
            connection.close()

    one = threading.Thread(target=correct, args=(first, True))
    one.start()
    assert saved.wait(10)
    two = threading.Thread(target=correct, args=(second, False))
    two.start()
    two.join(1)  # time for the second to reach its wait
    done.set()
    one.join(30)
    two.join(30)
    assert not one.is_alive() and not two.is_alive()
    after = from_store(ids)
    assert after == live(ids)
    changed = {key for key in after if after[key][0] != before[key][0]}
    assert len(changed) == 4  # wij (N and S) of both tables: both corrections
