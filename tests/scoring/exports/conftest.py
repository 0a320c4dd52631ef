import contextlib
import io

import openpyxl
import pytest
from django.db import transaction
from django.utils import translation
from pypdf import PdfReader

from tests import factories


@pytest.fixture(autouse=True)
def english():
    """Titles in English (the source strings); one test checks the site's default language."""
    with translation.override("en"):
        yield


#: The played season of the export tests: 9 players (one sits out every round),
#: 3 evenings of 2 rounds.
SEASON = {"evenings": 3, "players": 9, "rounds": 2, "tie_breaks": ["marsen", "fewer_nat"]}


def _played(club, play_season):
    competition, members, evenings, director = play_season(club, **SEASON)
    for evening in evenings:
        evening.refresh_from_db()
    return competition, members, evenings, director


@pytest.fixture
def season(club, play_season):
    """A played season (``SEASON``) in the test's club: (competition, members,
    evenings, director). For tests that change it."""
    return _played(club, play_season)


@pytest.fixture(scope="module")
def read_only_season(module_db, play_season):
    """The same season as ``season``, built once per module in a club of its own.

    Only for tests that read it or write to the database alone (each test's savepoint
    undoes that), never with a live server: the database rows go back at the
    module's end, but the objects handed out are shared by its tests."""
    return _played(factories.club(), play_season)


@pytest.fixture(scope="class")
def class_season(module_db, play_season):
    """The same season as ``season``, built once for a class of tests, in a club of its
    own, and gone again at the class's end (a savepoint inside ``module_db``, rolled
    back): the module's other tests, which count every hand or club in the database,
    never see it. A test outside a class gets a season of its own.

    As ``read_only_season``: only for tests that read it or write to the database
    alone (their own savepoint undoes it), never with a live server; the objects
    handed out are shared by the class's tests. Not in a module that also uses
    ``read_only_season``: one first built inside a class would go with the class."""
    with rolled_back():
        yield _played(factories.club(), play_season)


@contextlib.contextmanager
def rolled_back():
    """A savepoint rolled back at the end: for a class-scoped fixture on ``module_db``,
    whose rows are then gone before the module's next test outside the class."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture
def director_client(client, club):
    client.force_login(factories.role(club, "director"))
    return client


def read_xlsx(data):
    return openpyxl.load_workbook(io.BytesIO(data))


def pdf_pages(data):
    """The text of every page of a PDF."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
