import gc
import os
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction
from django.test import TestCase, TransactionTestCase
from hypothesis import settings as hypothesis_settings

from tests import factories, migrating, template_db

ROOT = Path(__file__).resolve().parents[1]

# Hypothesis fails an example that takes over 200 ms by default: a timed assertion,
# which a shared or busy machine (three test processes on two cores) trips at
# random. Every property is still checked on every example; none is timed.
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")

# The test settings' ``replica`` is a mirror of the test database (config/routers.py).
# A test outside a transaction (a live server, ``transactional_db``) reads a public
# page from it, and may; a test in a transaction (``db``) reads from the primary, where
# its transaction is, and opens none on the replica.
TransactionTestCase.databases = frozenset({"default", "replica"})
TestCase.databases = frozenset({"default"})

#: What a transactional test's clean-up leaves: the rows Django makes for every model
#: after a migrate (content types and permissions), the same before and after a test.
KEPT_AFTER_A_TEST = ("django_content_type", "auth_permission")
_kept_rows = {}


def _kept(connection):
    """The content types and permissions a database holds, in full (a hundred rows or so)."""
    with connection.cursor() as cursor:
        rows = []
        for table in KEPT_AFTER_A_TEST:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)} ORDER BY 1")
            rows.append(cursor.fetchall())
    return rows


def _empty_the_tables(self):
    """A transactional test (``transactional_db``, a live server) ends with every table
    emptied, as Django's own clean-up (``flush``) leaves it, but by DELETE in one
    transaction: ``flush`` truncates every table (on PostgreSQL a quarter of a second a
    test, as each table's and index's files are renewed) and then makes every content
    type and permission again (``post_migrate``). Those are left as the first ``flush``
    made them; a test that changed them (a migration test) gets Django's ``flush``. The
    foreign keys are checked at the commit (Django makes them deferrable), when nothing
    that refers is left."""
    for alias in self._databases_names(include_mirrors=False):
        connection = connections[alias]
        if _kept_rows.get(alias) != _kept(connection):
            call_command("flush", verbosity=0, interactive=False, database=alias)
            _kept_rows[alias] = _kept(connection)
            continue
        tables = [
            table
            for table in connection.introspection.django_table_names(
                only_existing=True, include_views=False
            )
            if table not in KEPT_AFTER_A_TEST
        ]
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            for table in tables:
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")


TransactionTestCase._fixture_teardown = _empty_the_tables
template_db.install()


def pytest_configure(config):
    """Python's cyclic garbage collector less often: a test makes tens of thousands of
    short-lived model objects, and at the default threshold (700 new objects) the
    collector walks everything alive again and again: about 8% of the suite's CPU.
    A process's memory stays bounded: the young generation is still collected every
    50,000 objects."""
    gc.set_threshold(50_000, 20, 100)


def pytest_collection_finish(session):
    """What collection made (Django, the test modules, the apps) lives as long as the
    process: moved out of the collector's sight, it is not walked again."""
    gc.collect()
    gc.freeze()


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
    ``any_database`` (who may open each address, by role: the permission matrix
    and the outsiders' walk; where a PDF's words print; the club laptop's LAN
    mode) runs the same on either leg, so on PostgreSQL it is deselected: the
    SQLite leg runs it. Every page and form still meets PostgreSQL there, in the
    hostile-input sweep (every address as club A's admin) and the pages' own
    tests. ``KLAVERJAS_TEST_ALL=1`` runs everything anyway.
    """
    for item in items:
        if "live_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
    if connection.vendor == "sqlite" or os.environ.get("KLAVERJAS_TEST_ALL") == "1":
        return
    kept, elsewhere = [], []
    for item in items:
        on_this_leg = uses_the_database(item) and not item.get_closest_marker("any_database")
        (kept if on_this_leg else elsewhere).append(item)
    if elsewhere:
        config.hook.pytest_deselected(items=elsewhere)
        items[:] = kept


@pytest.fixture(autouse=True)
def fresh_caches():
    """Each test starts with nothing counted by the brakes (``clubs.auth.throttle_allowed``):
    its sign-ups, new clubs and PIN tries are not the earlier tests' (all from 127.0.0.1);
    and with no page kept (``common.pagecache``): a set-up built once per module
    (``module_db``) gets its versions back with each test's savepoint, so a page an
    earlier test kept under a version would otherwise be served to the next."""
    from django.core.cache import caches

    caches["throttle"].clear()
    caches["default"].clear()


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the site's default language: a test (or a request it made)
    that switched to English does not leave the next test's messages in English."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


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
    """Draws an evening: ``drawn_evening(club, director, *, players=8, seed=1)``, which is
    :func:`tests.factories.drawn_round` (a fixture for the tests that take it as one).
    The calling test brings the database (``db``, ``transactional_db`` or
    ``module_db``). Not the scoring tests' ``evening_in_play``, which has two rounds
    played."""
    return factories.drawn_round


@pytest.fixture(scope="session")
def migrated_laptop(tmp_path_factory):
    """The SQLite file of a club laptop right after its first ``manage.py migrate``.

    Made by the site itself: ``manage.py migrate`` in a child process with the
    laptop's default settings on a data folder of its own (a fresh migrate takes
    seconds), then copied whole (SQLite's backup API, in WAL mode as made) to a file
    that every test process of this checkout shares, made once for these migrations
    (``tests.template_db.made_once``, as the test databases' template). Tests read it
    or copy it with ``laptop_database``; none writes to it. ``make lan`` on a fresh
    laptop, migrating by itself, is tests/lan/test_club_laptop.py's.
    """

    def make(path):
        data = tmp_path_factory.mktemp("migrated-laptop")
        result = migrating.laptop_migrate(data)
        assert result.returncode == 0, result.stderr
        template_db.sqlite_copy(data / "db.sqlite3", path, journal_mode=None)

    return template_db.made_once("test-migrated-laptop", make)


@pytest.fixture
def laptop_database(migrated_laptop):
    """Copies the migrated laptop's database to ``path`` (SQLite's backup API: whole,
    with what its WAL holds): ``laptop_database(data_dir / "db.sqlite3")``."""

    def copy(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        template_db.sqlite_copy(migrated_laptop, path, journal_mode=None)
        return path

    return copy
