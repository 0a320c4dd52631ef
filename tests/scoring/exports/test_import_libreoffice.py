"""A hand log as LibreOffice 7.4 saves it in Windows-1252: a lost letter adds no member.

The file is in tests/clubs/fixtures/ with the member lists (how it was made: its
README.md): the site's hand log of one game, "Łukasz Wąsowski" saved as
"?ukasz W?sowski". The reader (common.tabular) refuses such a cell, so "add
players who are not members yet as members" cannot make a member of it.
"""

from pathlib import Path

import pytest
from django.utils import translation

from clubs.models import Member
from scoring.exports import importers
from tests import factories

FIXTURE = Path(__file__).resolve().parents[2] / "clubs" / "fixtures" / "handlog-resaved-cp1252.csv"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_a_lost_letter_in_a_hand_log_is_refused_not_added_as_a_member(club):
    for name in ("Anna", "José Müller", "Dirk"):
        factories.member(club, name)
    competition = factories.competition(club)
    kwargs = {"club": club, "competition": competition, "data": FIXTURE.read_bytes()}
    found = importers.results_import_preview(filename=FIXTURE.name, create_members=True, **kwargs)
    assert not found.ok and found.new_members == []
    # Once per cell of "east", rows 2 to 17 (16 hands), each with how to save as UTF-8.
    assert {(p.column, p.message.split(":")[0]) for p in found.problems} == {
        (
            "east",
            "the cell holds “?” where the program that saved the file could not write a "
            "letter (Windows-1252 has no Ł or ą, for example)",
        )
    }
    assert sorted(p.row for p in found.problems) == list(range(2, 18))
    with pytest.raises(importers.ImportRejected):
        importers.results_import_apply(filename=FIXTURE.name, create_members=True, **kwargs)
    assert sorted(Member.objects.filter(club=club).values_list("name", flat=True)) == [
        "Anna",
        "Dirk",
        "José Müller",
    ]
