"""PDFs read back with pypdf: names, totals and page counts, compared with the site."""

import dataclasses
import io
import shutil
import subprocess

import pytest
from django.utils import timezone, translation
from django.utils.formats import date_format
from pypdf import PdfReader

from common.columns import INT, Column
from common.formatting import format_average
from scoring.exports import pdf, reports, table_entry_path
from scoring.models import Game
from scoring.results import standings
from tests.needs import missing
from tournaments.models import Round, Seat

from .conftest import pdf_pages

pytestmark = pytest.mark.django_db

BASE = "https://klaverjas.example"


def entry_url(token):
    return BASE + table_entry_path(token)


def has_run(text, *cells):
    """The cells one after the other in the extracted text (one cell a line)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    cells = [str(cell) for cell in cells]
    return any(lines[i : i + len(cells)] == cells for i in range(len(lines)))


def first_round(evenings):
    return Round.objects.get(evening=evenings[0], number=1)


def test_standings_pdf_lists_every_player_with_the_sites_points(read_only_season):
    competition, *_ = read_only_season
    data = pdf.report_pdf(reports.standings_report(competition=competition))
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert page.mediabox.width < page.mediabox.height  # A4 upright
    assert round(float(page.mediabox.height)) == 842
    text = page.extract_text()
    result = standings.season_standings(competition=competition)
    for line in result.lines:
        assert has_run(text, result.names[line.key], line.points)
    assert competition.club.name in text and competition.name in text
    assert "Ranked by total points." in text
    assert "Printed" in text and "Page 1 of 1" in text


def test_a_long_standings_list_repeats_the_header_on_every_page(read_only_season):
    competition, *_ = read_only_season
    report = reports.standings_report(competition=competition)
    rows = [dict(row, name=f"Speler {n:03d}", rank=n + 1) for n, row in enumerate(report.rows * 20)]
    report = dataclasses.replace(report, rows=rows)
    pages = pdf_pages(pdf.report_pdf(report))
    assert len(pages) >= 3
    for number, text in enumerate(pages, 1):
        # A page of the table (the notes under it may end on a page of their own).
        if "Speler " in text:
            assert has_run(text, "#", "Player", "Points", "Avg. per game")
        assert competition.club.name in text
        assert f"Page {number} of {len(pages)}" in text
    everything = "\n".join(pages)
    assert all(f"Speler {n:03d}" in everything for n in range(len(rows)))
    assert sum("Speler " in text for text in pages) >= 3


def test_evening_result_pdf_has_rounds_points_and_prizes(read_only_season):
    competition, members, evenings, director = read_only_season
    evening = evenings[1]
    result = standings.evening_result(evening=evening)
    text = "\n".join(pdf_pages(pdf.report_pdf(reports.evening_report(evening=evening))))
    assert "Round 1" in text and "Round 2" in text
    for line in result.lines:
        rounds = result.rounds[line.key]
        assert has_run(text, result.names[line.key], rounds[1], rounds[2], line.points)
    assert "winner" in text and "poedelprijs" in text
    assert "not final" not in text


def test_a_provisional_evening_pdf_says_so_and_names_no_prize(evening_in_play):
    evening, _first = evening_in_play
    result = standings.evening_result(evening=evening)
    text = "\n".join(pdf_pages(pdf.report_pdf(reports.evening_report(evening=evening))))
    assert "Provisional result" in text and "not final" in text
    assert "round 2, table 2: 3 of 16 hands" in text
    assert "winner" not in text and "poedelprijs" not in text and "Prize" not in text
    for line in result.lines:
        assert has_run(text, result.names[line.key], result.rounds[line.key][1], line.points)


def test_many_columns_turn_the_page_sideways(read_only_season):
    competition, members, evenings, director = read_only_season
    report = reports.evening_report(evening=evenings[0])
    extra = [Column(f"round_{n}", f"Round {n}", INT, 9) for n in range(3, 9)]
    report = dataclasses.replace(report, columns=report.columns[:4] + extra + report.columns[4:])
    page = PdfReader(io.BytesIO(pdf.report_pdf(report))).pages[0]
    assert page.mediabox.width > page.mediabox.height


def test_blank_score_sheets_one_page_per_table_with_names_and_link(read_only_season):
    competition, members, evenings, director = read_only_season
    round_ = first_round(evenings)
    sheets = reports.round_sheets(round_=round_, entry_url=entry_url)
    pages = pdf_pages(pdf.scoresheets_pdf(sheets))
    tables = list(round_.tables.order_by("number"))
    assert len(pages) == len(tables) == 2
    for text, table in zip(pages, tables, strict=True):
        assert f"Round 1 · Table {table.number}" in text
        assert competition.name in text and "Tue 6 Oct 2026" in text
        for seat in Seat.objects.filter(table=table):
            assert seat.player_name in text
        assert f"{BASE}/t/{table.token}/" in text
        assert "Signature wij" in text and "Signature zij" in text
        assert "Subtotal" in text and "Total" in text
        # How a pit is written, as the grid and the import read it back.
        written = " ".join(text.split())
        assert "Pit: 162 | 100 + roem and the mark." in written
        assert "M in the pit team's column: pit (mars)" in written  # the club's default marks
        numbers = [line.split()[0] for line in text.splitlines() if line.split()]
        assert [str(n) for n in range(1, 17)] == [n for n in numbers if n.isdigit()][:16]


def test_filled_score_sheets_carry_the_games_totals(read_only_season):
    competition, members, evenings, director = read_only_season
    round_ = first_round(evenings)
    sheets = reports.round_sheets(round_=round_, entry_url=entry_url, filled=True)
    pages = pdf_pages(pdf.scoresheets_pdf(sheets))
    for text, table in zip(pages, round_.tables.order_by("number"), strict=True):
        game = Game.objects.get(table=table)
        assert "Score sheet (record)" in text
        assert has_run(text, "Total", game.total_a, game.total_b)
        assert "confirmed" in text


def test_filled_sheet_rows_add_up_to_the_game_total(read_only_season):
    competition, members, evenings, director = read_only_season
    for round_ in Round.objects.filter(evening__competition=competition):
        sheets = reports.round_sheets(round_=round_, entry_url=entry_url, filled=True)
        for sheet in sheets.sheets:
            assert sheet.rows and len(sheet.rows) >= 16
            for team in (0, 1):
                written = sum(row.points[team] + row.roem[team] for row in sheet.rows)
                assert written == sheet.totals[team]
                assert all(row.points[team] in (0, 162) for row in sheet.rows if any(row.nat))


def test_table_plan_names_everyone_and_who_sits_out(read_only_season):
    competition, members, evenings, director = read_only_season
    round_ = first_round(evenings)
    sheets = reports.round_sheets(round_=round_, entry_url=lambda token: "")
    text = "\n".join(pdf_pages(pdf.table_plan_pdf(sheets)))
    assert "Table plan" in text and "Who sits where" in text
    for seat in Seat.objects.filter(round=round_):
        assert seat.player_name in text
    sitting_out = Seat.objects.get(round=round_, table__isnull=True)
    assert f"Sitting out: {sitting_out.player_name}" in text
    assert "/t/" not in text  # no private links on the wall


def test_names_in_other_alphabets_print(read_only_season):
    """DejaVu Sans from Debian's fonts-dejavu-core (the README; CI installs it)."""
    competition, members, *_ = read_only_season
    type(members[0]).objects.filter(pk=members[0].pk).update(name="Łukasz Żółć-Şahin")
    text = pdf_pages(pdf.report_pdf(reports.standings_report(competition=competition)))[0]
    assert "Łukasz Żółć-Şahin" in text


def test_pdfs_follow_the_active_language(read_only_season):
    competition, *_ = read_only_season
    with translation.override("nl"):
        text = pdf_pages(pdf.report_pdf(reports.standings_report(competition=competition)))[0]
    result = standings.season_standings(competition=competition)
    line = result.lines[0]
    assert has_run(text, result.names[line.key], line.points)
    # Averages with the language's decimal sign: a comma in Dutch.
    with translation.override("nl"):
        assert format_average(line.average) in text


def test_a_round_without_tables_prints_a_page_saying_so(club):
    from tests import factories

    competition = factories.competition(club)
    evening = factories.evening(competition)
    round_ = Round.objects.create(evening=evening, number=1)
    sheets = reports.round_sheets(round_=round_, entry_url=entry_url)
    assert "This round has no tables." in pdf_pages(pdf.scoresheets_pdf(sheets))[0]


def test_blank_sheet_length_follows_the_rule_set():
    from scoring import rules

    assert reports.sheet_length(rules.get_ruleset("rotterdam")) == 16
    assert reports.sheet_length(rules.get_ruleset("rotterdam").replace(hands_per_game=12)) == 12
    assert reports.sheet_length(rules.get_ruleset("single-deal")) == 1
    assert reports.sheet_length(rules.get_ruleset("match-500")) == 9
    assert reports.sheet_length(rules.get_ruleset("match-1500")) == 21


def test_names_with_markup_characters_print_as_written(read_only_season):
    competition, members, evenings, director = read_only_season
    name = "Anne & Piet <b>de Wit</b>"
    type(members[0]).objects.filter(pk=members[0].pk).update(name=name)
    text = pdf_pages(pdf.report_pdf(reports.standings_report(competition=competition)))[0]
    assert name in " ".join(text.split())  # the name may wrap in its cell
    round_ = Round.objects.filter(evening=evenings[0], seats__member=members[0]).first()
    sheets = reports.round_sheets(round_=round_, entry_url=entry_url)
    text = " ".join(" ".join(pdf_pages(pdf.table_plan_pdf(sheets))).split())
    assert name in text  # (a long name may wrap)


def test_the_qr_code_opens_the_tables_entry_page(read_only_season, tmp_path):
    if not (shutil.which("pdftoppm") and shutil.which("zbarimg")):
        missing("needs poppler-utils and zbar-tools to read the QR code")
    competition, members, evenings, director = read_only_season
    round_ = first_round(evenings)
    sheets = reports.round_sheets(round_=round_, entry_url=entry_url)
    (tmp_path / "sheets.pdf").write_bytes(pdf.scoresheets_pdf(sheets))
    subprocess.run(
        ["pdftoppm", "-png", "-r", "150", str(tmp_path / "sheets.pdf"), str(tmp_path / "page")],
        check=True,
    )
    codes = []
    for page in sorted(tmp_path.glob("page-*.png")):
        found = subprocess.run(
            ["zbarimg", "-q", "--raw", str(page)], capture_output=True, text=True, check=True
        )
        codes.append(found.stdout.strip())
    tables = round_.tables.order_by("number")
    assert codes == [f"{BASE}/t/{table.token}/" for table in tables]


def test_dates_in_a_dutch_pdf_are_written_in_dutch(read_only_season):
    competition, members, evenings, director = read_only_season
    evening = evenings[0]  # Tuesday 6 October 2026
    with translation.override("nl"):
        text = "\n".join(pdf_pages(pdf.report_pdf(reports.evening_report(evening=evening))))
        sheets = pdf_pages(
            pdf.scoresheets_pdf(
                reports.round_sheets(round_=first_round(evenings), entry_url=entry_url)
            )
        )
        printed = date_format(timezone.localdate(), "j F Y")
    assert f"{competition.name} · di 6 okt 2026" in text
    assert f"Afgedrukt {printed}" in text
    assert "06-10-2026" not in text
    assert all("di 6 okt 2026" in page for page in sheets)
