"""The club's log stores what happened with its values and reads in the reader's
language, whoever acted in which language; also in the club archive's log file."""

import datetime

import pytest
from django.utils import translation

from clubs import services
from clubs.models import ClubLog
from scoring.exports.archive import log_report
from tests import factories
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def lines(club, language):
    with translation.override(language):
        return [entry.text for entry in ClubLog.objects.filter(club=club).order_by("pk")]


def test_a_line_written_in_english_reads_in_dutch_and_the_other_way_round():
    club = factories.club("De Klaverboer")
    admin = factories.role(club, "admin")
    jan = factories.role(club, "member", factories.user("jan"))
    with translation.override("en"):
        services.role_grant(club=club, user=jan, role="director", by=admin)
    with translation.override("nl"):
        services.role_revoke(club=club, user=jan, by=admin)
    assert lines(club, "nl") == ["jan is nu wedstrijdleider", "jan heeft geen rol meer"]
    assert lines(club, "en") == ["jan is now tournament director", "jan no longer has a role"]
    # The values, not the sentence, are what is stored.
    grant = ClubLog.objects.get(club=club, action=ClubLog.Action.ROLE_GRANT)
    assert grant.params == {"user": "jan", "role": "director"}


def test_an_evening_deleted_in_english_reads_in_dutch_with_its_counts():
    club = factories.club()
    director = factories.role(club, "director")
    competition = factories.competition(club, name="Winter")
    evening = factories.evening(competition, datetime.date(2026, 10, 6))
    with translation.override("en"):
        tournament_services.evening_delete(evening=evening, by=director)
    dutch = lines(club, "nl")[-1]
    english = lines(club, "en")[-1]
    # Nothing was played: 0 of everything.
    assert dutch == (
        "Avond van 2026-10-06 van Winter verwijderd: 0 rondes, 0 tafels, "
        "0 partijen (0 bevestigd), 0 spellen, 0 correcties"
    ), dutch
    assert english.startswith("Evening of 2026-10-06 of Winter deleted: 0 rounds, 0 tables")


def test_the_archive_log_file_reads_in_the_readers_language():
    club = factories.club()
    admin = factories.role(club, "admin")
    jan = factories.role(club, "member", factories.user("jan"))
    with translation.override("en"):
        services.role_grant(club=club, user=jan, role="scorer", by=admin)
    for language, line in (("nl", "jan is nu teller"), ("en", "jan is now scorer")):
        with translation.override(language):
            rows = log_report(club).rows
        assert [row["summary"] for row in rows] == [line]


def test_a_line_from_before_keeps_the_summary_it_was_written_with():
    club = factories.club()
    ClubLog.objects.create(
        club=club, action=ClubLog.Action.CLUB_UPDATE, summary="Clubinstellingen opgeslagen"
    )
    assert lines(club, "en") == ["Clubinstellingen opgeslagen"]
