from types import SimpleNamespace

import pytest
from django.db import transaction

from tests import factories
from tournaments import services as tournament_services


def pytest_collection_modifyitems(config, items):
    """A test served by a live server (browser, HTTP against the dev server) is slow.

    The load, LAN and hostile-input modules mark themselves; see the `slow`
    marker in pyproject.toml.
    """
    for item in items:
        if "live_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def fresh_throttle():
    """Each test starts with nothing counted by the brakes (``clubs.auth.throttle_allowed``):
    its sign-ups, new clubs and PIN tries are not the earlier tests' (all from 127.0.0.1)."""
    from django.core.cache import caches

    caches["throttle"].clear()


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
