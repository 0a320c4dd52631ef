import pytest

from tests import factories


def pytest_collection_modifyitems(config, items):
    """A test served by a live server (browser, HTTP against the dev server) is slow.

    The load, LAN and hostile-input modules mark themselves; see the `slow`
    marker in pyproject.toml.
    """
    for item in items:
        if "live_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def club(db):
    return factories.club()


@pytest.fixture
def other_club(db):
    return factories.club(name="Klaverjasclub Andere Tafel")
