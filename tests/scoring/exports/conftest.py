import io

import openpyxl
import pytest
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

    Only for tests that read it, never with a live server: the database rows go
    back at the module's end, but the objects handed out are shared by its tests."""
    return _played(factories.club(), play_season)


@pytest.fixture
def director_client(client, club):
    client.force_login(factories.role(club, "director"))
    return client


def read_xlsx(data):
    return openpyxl.load_workbook(io.BytesIO(data))


def pdf_pages(data):
    """The text of every page of a PDF."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
