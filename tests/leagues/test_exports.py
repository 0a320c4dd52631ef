"""League files read back (openpyxl, pypdf) and compared with the database."""

import io
from fractions import Fraction

import openpyxl
import pytest
from django.urls import reverse
from pypdf import PdfReader

from common.downloads import XLSX_TYPE
from leagues import exports as league_exports
from leagues import selectors as league_selectors
from leagues.models import LeagueMatch
from tests.common.test_pdf import pdf_fonts

from .conftest import build_league, generate, play_match, seat

pytestmark = pytest.mark.django_db


def pdf_text(data):
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def words(text):
    return " ".join(text.split())


@pytest.fixture
def season(db, rng):
    world = build_league(divisions=(3, 2), points_rule="proportional", points_shared=7)
    generate(world)
    matches = list(LeagueMatch.objects.filter(league=world.league).order_by("date", "pk"))
    for match in matches[:5]:
        play_match(world, match, rng)
    play_match(world, matches[5], rng, confirm=False)
    seat(world, matches[6])
    return world


def test_league_table_xlsx_has_a_sheet_per_division_with_the_tables_numbers(season):
    tables = league_selectors.division_tables(league=season.league)
    data = league_exports.league_table_xlsx(league=season.league, tables=tables)
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    assert workbook.sheetnames == ["Division 1", "Division 2"]
    for table, sheet in zip(tables, workbook.worksheets, strict=True):
        rows = list(sheet.iter_rows(values_only=True))
        assert rows[0][:3] == ("Place", "Team", "Club")
        assert len(rows) == 1 + len(table.lines)
        for line, row in zip(table.lines, rows[1:], strict=True):
            assert row[0] == line.place
            assert row[1] == line.team.name
            assert row[2] == line.team.club.name
            assert row[3:7] == (line.played, line.won, line.drawn, line.lost)
            # Proportional match points: exact in the table, two decimals in the file.
            assert row[7] == pytest.approx(float(line.row.match_points), abs=0.005)
            assert row[8:12] == (
                line.points_for,
                line.points_against,
                line.point_difference,
                line.game_points_for,
            )
    assert any(line.row.match_points.denominator != 1 for t in tables for line in t.lines)


def test_schedule_xlsx_lists_every_match_with_its_result(season):
    lines = league_selectors.league_schedule(league=season.league)
    data = league_exports.schedule_xlsx(league=season.league, lines=lines)
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    rows = list(sheet.iter_rows(min_row=2, values_only=True))
    assert len(rows) == LeagueMatch.objects.filter(league=season.league).count() == len(lines)
    for line, row in zip(lines, rows, strict=True):
        match = line.match
        assert row[0] == match.matchday
        assert row[1].date() == match.date
        assert row[2:5] == (match.division.name, match.home.name, match.away.name)
        if line.outcome:
            assert row[5:7] == (line.outcome.home_points, line.outcome.away_points)
            total = Fraction(row[7]).limit_denominator(100) + Fraction(row[8]).limit_denominator(
                100
            )
            assert float(total) == pytest.approx(7)
        else:
            assert row[5:9] == (None, None, None, None)
    statuses = [row[9] for row in rows]
    assert statuses.count("confirmed by both captains") == 5
    assert statuses.count("played, to be confirmed") == 1
    assert statuses.count("tables ready") == 1


def test_formula_like_names_stay_text(season):
    team = season.teams[0][0]
    team.name = '=HYPERLINK("http://evil.example","klik")'
    team.save()
    tables = league_selectors.division_tables(league=season.league)
    data = league_exports.league_table_xlsx(league=season.league, tables=tables)
    sheet = openpyxl.load_workbook(io.BytesIO(data)).worksheets[0]
    cells = [c for c in sheet["B"] if c.value == team.name]
    assert cells and cells[0].data_type == "s" and cells[0].quotePrefix


def test_table_and_schedule_pdfs_read_back(season):
    tables = league_selectors.division_tables(league=season.league)
    text = words(pdf_text(league_exports.league_table_pdf(league=season.league, tables=tables)))
    for table in tables:
        assert table.division.name in text
        for line in table.lines:
            assert line.team.name in text
    lines = league_selectors.league_schedule(league=season.league)
    text = words(pdf_text(league_exports.schedule_pdf(league=season.league, lines=lines)))
    for line in lines:
        if line.outcome:
            # The teams, then the points home and away: the columns of the page.
            match = line.match
            assert (
                f"{match.home.name} {match.away.name} "
                f"{line.outcome.home_points} {line.outcome.away_points}"
            ) in text


def test_match_form_has_the_seating_filled_in(season):
    match = LeagueMatch.objects.filter(league=season.league, status="seated").last()
    sheet = league_selectors.match_sheet(match=match)
    text = words(pdf_text(league_exports.match_forms_pdf(sheets=[sheet])))
    assert "Match form" in text
    assert match.home.name in text and match.away.name in text
    # Every player of both line-ups, and per table who sits wij and zij.
    for side in ("home", "away"):
        for member in season.lineup(match.team(side)):
            assert member.name in text
    for table in sheet.tables:
        wij = table.home_names if table.home_side == "A" else table.away_names
        assert " & ".join(wij) in text
    assert "Captain home" in text and "Captain away" in text


def test_match_form_of_a_scheduled_match_has_empty_seats(world):
    match = LeagueMatch.objects.filter(league=world.league).first()
    sheet = league_selectors.match_sheet(match=match)
    assert all(t.home_names == ["", ""] for t in sheet.tables)
    text = words(pdf_text(league_exports.match_forms_pdf(sheets=[sheet])))
    assert "pair 1" in text and "pair 2" in text


def test_file_views_answer_with_attachments(client, season):
    league = season.league
    response = client.get(reverse("leagues:tables-xlsx", kwargs={"pk": league.pk}))
    assert response["Content-Type"] == XLSX_TYPE
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["Content-Disposition"].endswith('.xlsx"')
    assert "private" in response["Cache-Control"] and "no-store" in response["Cache-Control"]
    openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    response = client.get(reverse("leagues:schedule-pdf", kwargs={"pk": league.pk}))
    assert response["Content-Type"] == "application/pdf"
    assert PdfReader(io.BytesIO(b"".join(response.streaming_content))).pages


def test_league_pdfs_print_names_in_polish_with_the_embedded_font(season):
    """The league PDFs used Helvetica and printed "Łódź" as boxes; they share the
    site's one reportlab setup now (``common.pdf``: DejaVu Sans, embedded)."""
    team = season.teams[0][0]
    team.name = "Łódź Wiśniewscy"
    team.save()
    club = team.club
    club.name = "Klub Łódź"
    club.save()
    tables = league_selectors.division_tables(league=season.league)
    lines = league_selectors.league_schedule(league=season.league)
    match = LeagueMatch.objects.filter(league=season.league, status="seated").last()
    files = {
        "table": league_exports.league_table_pdf(league=season.league, tables=tables),
        "schedule": league_exports.schedule_pdf(league=season.league, lines=lines),
        "form": league_exports.match_forms_pdf(sheets=[league_selectors.match_sheet(match=match)]),
    }
    assert "Łódź Wiśniewscy" in words(pdf_text(files["table"]))
    assert "Klub Łódź" in words(pdf_text(files["table"]))
    assert "Łódź Wiśniewscy" in words(pdf_text(files["schedule"]))
    for data in files.values():
        fonts = pdf_fonts(data)
        assert fonts and all(embedded for embedded in fonts.values()), fonts
        assert all("DejaVuSans" in name for name in fonts), fonts
        assert not any("Helvetica" in name for name in fonts)


@pytest.mark.parametrize(
    ("points", "shown"),
    [(Fraction(5, 8), "0.63"), (Fraction(7, 8), "0.88"), (Fraction(17, 3), "5.67"), (7, "7")],
)
def test_match_points_are_the_same_on_the_page_and_in_the_spreadsheet(points, shown):
    """The page rounded half up (5/8 is 0,63) and the spreadsheet with ``round()``
    (half to even on the binary number: 0,62); both use ``common.formatting`` now."""
    from django.utils import translation

    with translation.override("en"):
        assert league_selectors.format_points(points) == shown
    assert league_selectors.points_value(points) == float(shown)
