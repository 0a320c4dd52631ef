import os
from types import SimpleNamespace

import pytest
from django.db import connection, transaction

from tests import factories
from tournaments import services as tournament_services

#: Fixtures through which a test reaches the test database (``module_db`` and the
#: ``db``/``transactional_db`` ones need ``django_db_setup``; ``live_server`` asks
#: for ``transactional_db`` only when it starts, so it is named itself).
DATABASE_FIXTURES = frozenset({"django_db_setup", "db", "transactional_db", "live_server"})


def uses_the_database(item):
    """Whether a test reaches the suite's database: a database fixture, the
    ``django_db`` marker, or the ``database`` marker (its own processes on
    ``DATABASE_URL``, as the load test's gunicorn)."""
    if DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    return any(item.get_closest_marker(name) for name in ("django_db", "database"))


def pytest_collection_modifyitems(config, items):
    """Marks live-server tests slow; on PostgreSQL, runs only what the database decides.

    A test served by a live server (browser, HTTP against the dev server) is
    slow; the load, LAN and hostile-input modules mark themselves (see the
    ``slow`` marker in pyproject.toml).

    The PostgreSQL leg of ``make test`` is there for the database's behaviour
    (queries, constraints, locking, concurrency, migrations). A test that
    reaches no database (the rules core, the pure draw and ranking, the lint
    and translation checks, startup checks in child processes) or one marked
    ``sqlite_file`` (the club laptop's SQLite file, LAN mode, the SQLite
    backup) runs the same on either leg, so on PostgreSQL it is deselected:
    the SQLite leg runs it. ``KLAVERJAS_TEST_ALL=1`` runs everything anyway.
    """
    for item in items:
        if "live_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
    if connection.vendor == "sqlite" or os.environ.get("KLAVERJAS_TEST_ALL") == "1":
        return
    kept, elsewhere = [], []
    for item in items:
        on_this_leg = uses_the_database(item) and not item.get_closest_marker("sqlite_file")
        (kept if on_this_leg else elsewhere).append(item)
    if elsewhere:
        config.hook.pytest_deselected(items=elsewhere)
        items[:] = kept


@pytest.fixture(autouse=True)
def fresh_throttle():
    """Each test starts with nothing counted by the brakes (``clubs.auth.throttle_allowed``):
    its sign-ups, new clubs and PIN tries are not the earlier tests' (all from 127.0.0.1)."""
    from django.core.cache import caches

    caches["throttle"].clear()


@pytest.fixture(scope="module")
def module_db(django_db_setup, django_db_blocker):
    """A transaction around one test module, rolled back at its end.

    For set-ups built once per module (``scope="module"``) that the module's
    tests only read: each test still runs in its own savepoint inside it, so a
    test's writes are undone before the next one. Not for tests that need
    ``transactional_db`` (a live server sees committed data only).
    """
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture
def club(db):
    return factories.club()


@pytest.fixture
def other_club(db):
    return factories.club(name="Klaverjasclub Andere Tafel")


@pytest.fixture(scope="session")
def drawn_evening():
    """Draws an evening: ``drawn_evening(club, director, *, players=8, seed=1)``.

    A new competition with one evening of ``players`` present members and round 1
    drawn: ``players // 4`` tables, each with its game. Returns a namespace with
    ``season``, ``evening``, ``round``, ``tables`` (by number) and ``games``.
    The builder keeps nothing between calls; the calling test brings the database
    (``db``, ``transactional_db`` or ``module_db``). Not the scoring tests'
    ``evening_in_play``, which has two rounds played."""

    def draw(club, director, *, players=8, seed=1):
        season = factories.competition(club)
        members = factories.members(club, players)
        evening = factories.evening(season, present=members)
        round_ = tournament_services.round_draw(evening=evening, by=director, seed=seed)
        tables = list(round_.tables.order_by("number").select_related("game"))
        return SimpleNamespace(
            season=season,
            evening=evening,
            round=round_,
            tables=tables,
            games=[t.game for t in tables],
        )

    return draw
