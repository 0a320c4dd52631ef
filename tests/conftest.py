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


def evening_in_play(club, director, *, players=8, seed=1):
    """An evening with one round drawn: ``players // 4`` tables, each with its game.

    A builder shared by the scoring, browser and page tests (not the scoring
    conftest's ``evening_in_play`` fixture, which has two rounds played)."""
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
