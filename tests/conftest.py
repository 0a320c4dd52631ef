import pytest

from tests import factories


@pytest.fixture
def club(db):
    return factories.club()


@pytest.fixture
def other_club(db):
    return factories.club(name="Klaverjasclub Andere Tafel")
