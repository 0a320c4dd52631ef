"""A captain seats a league's first match while an organiser changes the league (its
match format) or makes its schedule again, on two connections (PostgreSQL: its row
locks; SQLite's one write lock lets no two writers overlap at all).

The organiser's change locks the league's row, sees no seated match, and changes the
format or replaces the matches. The first line-up locks the league's row before its
match's, as the organiser's change takes them: it waits for that change to commit and
then seats the match with the format the league has now, or says the match is gone.
Had it locked the match first, it would seat with the format being replaced (a match of
two tables in a league of three), or deadlock with the schedule's deletion of its match.
"""

import datetime
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from leagues import services as league_services
from leagues.models import League, LeagueMatch
from tests import factories
from tests.leagues.conftest import build_league, generate
from tests.locks import until_lock_waiters

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks: the PostgreSQL leg runs it"
    ),
]


def held_at(monkeypatch, owner, name, thread_name):
    """Holds the thread ``thread_name`` once it calls ``owner.name`` (inside the
    organiser's change, its league locked, before its commit): ``(held, release)``."""
    held, release = threading.Event(), threading.Event()
    real = getattr(owner, name)

    def holding(*args, **kwargs):
        if threading.current_thread().name == thread_name and not held.is_set():
            held.set()
            release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, holding)
    return held, release


def in_thread(outcome, name, work):
    """Runs ``work`` on a connection of its own in the thread ``name``; its result or
    its exception lands in ``outcome[name]``."""
    thread = threading.Thread(target=lambda: outcome.__setitem__(name, _catch(work)), name=name)
    thread.start()
    return thread


def first_line_up(world, match):
    team = match.home
    return league_services.match_lineup_set(
        match=match, side="home", players=world.lineup(team), by=world.captains[team.pk]
    )


def line_up_during(monkeypatch, world, match, change, *, held_in, before=None):
    """The organiser's ``change`` (a function) held once it calls ``held_in`` (an
    ``(owner, name)``: inside it, the league locked, before its commit), then the home
    captain's first line-up of ``match``, which must wait for it; then the change goes
    on. ``before`` runs once the change is held. Returns ``{"change": its result or its
    exception, "seat": the line-up's}``."""
    outcome = {}
    held, release = held_at(monkeypatch, *held_in, "change")
    organiser = in_thread(outcome, "change", change)
    assert held.wait(10), f"the change never reached {held_in[1]}"
    if before:
        before()
    seat = in_thread(outcome, "seat", lambda: first_line_up(world, match))
    until_lock_waiters(1, what="the first line-up never waited for the change")
    release.set()
    for thread in (organiser, seat):
        thread.join(30)
        assert not thread.is_alive()
    return outcome


def test_a_first_line_up_during_a_format_change_seats_the_match_in_the_new_format(monkeypatch):
    world = build_league(divisions=(2,), tables=2)
    generate(world)
    for team in world.all_teams:  # enough players for three tables
        extra = factories.members(team.club, 2)
        for member in extra:
            league_services.team_player_add(
                team=team, member=member, by=world.directors[team.club_id]
            )
        world.players[team.pk] += extra
    match = LeagueMatch.objects.filter(league=world.league).order_by("date", "pk").first()

    def three_tables():  # the line-up the captain sends is for the new format
        world.league.tables_per_match = 3

    outcome = line_up_during(
        monkeypatch,
        world,
        match,
        lambda: league_services.league_update(
            league=world.league, by=world.organiser, tables_per_match=3
        ),
        held_in=(league_services, "_log"),
        before=three_tables,
    )
    assert isinstance(outcome["change"], League), outcome["change"]
    assert isinstance(outcome["seat"], LeagueMatch), outcome["seat"]
    league = League.objects.get(pk=world.league.pk)
    assert league.tables_per_match == 3
    seated = LeagueMatch.objects.get(pk=match.pk)
    assert seated.status == LeagueMatch.Status.SEATED
    assert seated.tables.count() == 3 * league.games_per_table


def test_a_first_line_up_while_the_schedule_is_made_again_is_refused_in_words(monkeypatch):
    world = build_league(divisions=(2,), tables=2)
    generate(world)
    match = LeagueMatch.objects.filter(league=world.league).order_by("date", "pk").first()
    # the schedule held after its check that no match is seated, before it deletes them
    outcome = line_up_during(
        monkeypatch,
        world,
        match,
        lambda: generate(world, seed=5),
        held_in=(league_services.schedule, "double_round_robin"),
    )
    assert isinstance(outcome["change"], list), outcome["change"]
    assert isinstance(outcome["seat"], ValidationError), outcome["seat"]
    assert "no longer in the schedule" in str(outcome["seat"])
    assert not LeagueMatch.objects.filter(pk=match.pk).exists()
    assert not LeagueMatch.objects.exclude(status=LeagueMatch.Status.SCHEDULED).exists()


def _catch(work):
    try:
        return work()
    except Exception as exc:  # noqa: BLE001 - the outcome is what the test reads
        return exc
    finally:
        connection.close()


def test_a_line_up_while_the_organiser_moves_the_match_waits_and_seats_it(monkeypatch):
    """The move locks the league and then the match, as the line-up does: the line-up
    waits for the move's commit (before, each held what the other waited for)."""
    world = build_league(divisions=(2,), tables=2)
    generate(world)
    match = LeagueMatch.objects.filter(league=world.league).order_by("date", "pk").first()
    new_date = match.date + datetime.timedelta(days=1)
    outcome = line_up_during(
        monkeypatch,
        world,
        match,
        lambda: league_services.match_move(match=match, date=new_date, by=world.organiser),
        held_in=(league_services, "_check_free_week"),
    )
    assert isinstance(outcome["change"], LeagueMatch), outcome["change"]
    assert isinstance(outcome["seat"], LeagueMatch), outcome["seat"]
    seated = LeagueMatch.objects.select_related("evening").get(pk=match.pk)
    assert seated.status == LeagueMatch.Status.SEATED
    assert seated.date == new_date == seated.evening.date
