"""Download file names: translated, with the file name's own words (one home,
``common.downloads.FILE_WORDS``), in Dutch and in English."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests import factories
from tests.leagues.conftest import build_league, generate

pytestmark = pytest.mark.django_db


def filename(response):
    return response["Content-Disposition"].split("filename=")[1].strip('"')


@pytest.mark.parametrize(
    ("language", "table", "schedule", "archive"),
    [
        ("nl", "stand", "speelschema", "archief"),
        ("en", "standings", "schedule", "archive"),
    ],
)
def test_league_and_archive_files_are_named_in_the_readers_language(
    client, language, table, schedule, archive
):
    world = build_league(divisions=(2,))
    generate(world)
    league = world.league
    club = factories.club("De Klaverboer")
    client.force_login(factories.role(club, "admin"))
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    with translation.override(language):
        got = [
            filename(client.get(reverse(name, args=[league.pk]), **headers))
            for name in ("leagues:tables-pdf", "leagues:tables-xlsx", "leagues:schedule-pdf")
        ]
        got.append(
            filename(client.get(reverse("exports:club-archive", args=[club.slug]), **headers))
        )
    assert got == [
        f"regiocompetitie-2026-2027-{table}.pdf",
        f"regiocompetitie-2026-2027-{table}.xlsx",
        f"regiocompetitie-2026-2027-{schedule}.pdf",
        f"{club.slug}-{archive}.zip",
    ]
