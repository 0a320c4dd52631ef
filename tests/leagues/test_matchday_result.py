"""A league evening's result page and files list the day's matches with their teams
and scores, not the club's players (who are other clubs' members)."""

import csv
import io

import pytest
from django.urls import reverse

from leagues import selectors as league_selectors
from leagues.models import LeagueMatch
from scoring.exports import csv as csv_export
from scoring.exports import pdf, reports
from tests.scoring.exports.test_pdf_fit import check_fits, text_of

from .conftest import build_league, generate, play_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def matchday(rng):
    world = build_league(divisions=(4,))
    generate(world)
    first = LeagueMatch.objects.filter(league=world.league).order_by("date", "pk")
    day = first.first().date
    matches = list(LeagueMatch.objects.filter(league=world.league, date=day).order_by("pk"))
    assert len(matches) == 2  # four teams: two matches a matchday
    played = play_match(world, matches[0], rng)
    play_match(world, matches[1], rng, confirm=False)
    return world, played.evening, matches


def test_the_matchday_result_lists_each_match_with_its_score(matchday):
    world, evening, matches = matchday
    report = reports.evening_report(evening=evening)
    lines = {line.match.pk: line for line in league_selectors.league_schedule(league=world.league)}
    assert [(row["home"], row["away"]) for row in report.rows] == [
        (match.home.name, match.away.name) for match in matches
    ]
    for row, match in zip(report.rows, matches, strict=True):
        score = lines[match.pk].score
        assert (row["home_points"], row["away_points"]) == (score.home_points, score.away_points)
    # One match confirmed by both captains, the other still to be confirmed.
    assert report.notes == ["1 of 2 matches confirmed by both captains."]
    assert report.rows[1]["status"] == "played, to be confirmed"

    rows = list(csv.reader(io.StringIO(csv_export.report_csv(report).decode("utf-8-sig"))))
    assert matches[0].home.name in str(rows) and matches[1].away.name in str(rows)
    data = pdf.report_pdf(report)
    check_fits(data)
    text = text_of(data)
    assert matches[0].home.name in text and "1 of 2 matches confirmed" in text


def test_the_result_page_of_a_league_evening_shows_its_matches(client, matchday):
    world, evening, matches = matchday
    club = evening.competition.club
    client.force_login(world.organiser)
    url = reverse("results:evening", kwargs={"club": club.slug, "pk": evening.pk})
    page = client.get(url).content.decode()
    for match in matches:
        assert match.home.name in page and match.away.name in page
    assert "tables confirmed" not in page
