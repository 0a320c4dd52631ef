"""Every PDF the site makes fits its A4 page: long names wrap inside their cells.

Read back with pdfplumber: every character's box lies inside the page box less a
margin, and no two words print over each other. The PDFs: the standings and an
evening's result (``report_pdf``, also in the club archive), the score sheets (blank
and filled) and the table plan (``scoresheets_pdf``, ``table_plan_pdf``), and the
league's table, schedule and match forms (``leagues.exports``).
"""

import io
import random

import pdfplumber
import pytest
from reportlab.lib.pagesizes import A4

from clubs.models import Club, Member
from leagues import exports as league_exports
from leagues import selectors as league_selectors
from leagues.models import League, LeagueMatch, LeagueTeam
from scoring.exports import pdf, reports
from tests import factories
from tests.leagues.conftest import build_league, generate, play_match, seat
from tournaments.models import Round

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]

#: 40 characters, with a long word in it, as names come in real clubs' files.
LONG = "Wilhelmina van Oldenbarnevelt-Bakkerszoon"
MARGIN = 5  # points kept free at every edge of the page (reportlab draws from 15 mm)


def long_name(index):
    return f"{LONG[: 40 - 3]} {index:02d}"


def check_fits(data):
    """Every page of ``data`` is A4 (either way up); nothing prints outside its page
    box less MARGIN, and no two words overlap. Returns the pages' (width, height)."""
    sizes = []
    with pdfplumber.open(io.BytesIO(data)) as document:
        for page in document.pages:
            width, height = round(page.width), round(page.height)
            assert sorted((width, height)) == sorted(round(side) for side in A4)
            sizes.append((width, height))
            assert page.chars, "an empty page"
            for char in page.chars:
                assert char["x0"] >= MARGIN and char["x1"] <= page.width - MARGIN, char
                assert char["top"] >= MARGIN and char["bottom"] <= page.height - MARGIN, char
            words = page.extract_words(keep_blank_chars=False, use_text_flow=True)
            for index, one in enumerate(words):
                for other in words[index + 1 :]:
                    wide = min(one["x1"], other["x1"]) - max(one["x0"], other["x0"])
                    high = min(one["bottom"], other["bottom"]) - max(one["top"], other["top"])
                    assert wide <= 0.5 or high <= 0.5, (one["text"], other["text"])
    return sizes


def text_of(data):
    with pdfplumber.open(io.BytesIO(data)) as document:
        return " ".join(" ".join((page.extract_text() or "").split()) for page in document.pages)


@pytest.fixture(scope="module")
def long_season(module_db, play_season):
    """A season of 6 rounds an evening (a column per round) with 40-character names
    in a club with a 40-character name. Built once per module (``module_db``): its
    tests only read it."""
    club = factories.club(long_name(0))
    competition, members, evenings, director = play_season(club, players=9, rounds=6, evenings=2)
    for index, member in enumerate(members, 1):
        Member.objects.filter(pk=member.pk).update(name=long_name(index))
    competition.name = long_name(99)
    competition.save(update_fields=["name"])
    return competition, evenings


def test_standings_and_evening_result_with_long_names_fit_the_page(long_season):
    competition, evenings = long_season
    standings = pdf.report_pdf(reports.standings_report(competition=competition))
    result = pdf.report_pdf(reports.evening_report(evening=evenings[1]))
    check_fits(standings)
    # Six round columns and the prize: too wide upright, so the page turns.
    assert check_fits(result)[0][0] > check_fits(result)[0][1]
    for data in (standings, result):
        assert long_name(1)[:20] in text_of(data)


def test_score_sheets_and_table_plan_with_long_names_fit_the_page(long_season):
    competition, evenings = long_season
    round_ = Round.objects.filter(evening=evenings[1]).order_by("number").first()

    def url(token):
        return f"https://klaverjas.example/t/{token}"

    for filled in (False, True):
        sheets = reports.round_sheets(round_=round_, entry_url=url, filled=filled)
        check_fits(pdf.scoresheets_pdf(sheets))
    check_fits(pdf.table_plan_pdf(reports.round_sheets(round_=round_, entry_url=url)))


@pytest.fixture
def long_league():
    world = build_league(divisions=(4,), tables=3)
    League.objects.filter(pk=world.league.pk).update(name=long_name(50))
    for index, team in enumerate(world.all_teams, 1):
        LeagueTeam.objects.filter(pk=team.pk).update(name=long_name(60 + index))
    for index, club in enumerate(world.clubs, 1):
        Club.objects.filter(pk=club.pk).update(name=long_name(70 + index))
    for index, player in enumerate(Member.objects.filter(club__in=world.clubs), 1):
        Member.objects.filter(pk=player.pk).update(name=long_name(index))
    generate(world)
    matches = list(LeagueMatch.objects.filter(league=world.league).order_by("date", "pk"))
    play_match(world, matches[0], random.Random(12))
    seat(world, matches[1])
    world.league.refresh_from_db()
    return world, matches


def test_league_table_schedule_and_match_forms_with_long_names_fit_the_page(long_league):
    world, matches = long_league
    league = world.league
    table = league_exports.league_table_pdf(
        league=league, tables=league_selectors.division_tables(league=league)
    )
    schedule = league_exports.schedule_pdf(
        league=league, lines=league_selectors.league_schedule(league=league)
    )
    # Eleven columns of the table, ten of the schedule: landscape, nothing cut off.
    assert check_fits(table)[0][0] > A4[0]
    assert check_fits(schedule)[0][0] > A4[0]
    assert "Place" in text_of(table) and "Status" in text_of(schedule)
    for match in matches[:3]:
        sheet = league_selectors.match_sheet(match=LeagueMatch.objects.get(pk=match.pk))
        form = league_exports.match_forms_pdf(sheets=[sheet])
        # The form stays upright: the long names wrap in their cells.
        assert all(width < height for width, height in check_fits(form))
    assert long_name(61)[:20] in text_of(table)


def test_the_check_finds_a_name_printed_over_the_next_column():
    """The measure itself: a fixed-width table whose name runs into the next cell fails."""
    from reportlab.platypus import Table

    from common.pdf import document

    buffer = io.BytesIO()
    doc = document(buffer, title="t")
    doc.build([Table([[long_name(1), "1234"]], colWidths=[60, 40])])
    with pytest.raises(AssertionError):
        check_fits(buffer.getvalue())
