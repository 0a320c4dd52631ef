"""One rounding of averages: the standings page, the .xlsx, the CSV and the PDF
show the same value (``common.formatting``: one decimal, half up, on the exact
fraction). The page cut the digits off (1625,0) where the files rounded (1625,1).
"""

import csv
import io
import re
from fractions import Fraction

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from scoring.exports import csv as csv_export
from scoring.exports import pdf, reports, xlsx
from scoring.results.tables import StandingsTable, standings_columns

from .conftest import pdf_pages, read_xlsx

pytestmark = pytest.mark.django_db

#: (exact average, as every format shows it in Dutch)
AVERAGES = [
    (Fraction(162508, 100), "1625,1"),  # 1625.08: the page showed 1625,0
    (Fraction(32501, 20), "1625,1"),  # 1625.05 exactly: half up (round() gave 1625,0)
    (Fraction(32499, 20), "1625,0"),  # 1624.95 exactly
    (Fraction(4875, 3), "1625,0"),  # 1625.0
    (Fraction(16251, 10), "1625,1"),
    (Fraction(65001, 40), "1625,0"),  # 1625.025
]


def _rows():
    return [
        {
            "rank": n,
            "shared": False,
            "name": f"Speler {n}",
            "sort_name": f"speler {n}",
            "points": 1625 * 16,
            "average": average,
            "evenings": 1,
            "games": 1,
            "marsen": 0,
            "nat": 0,
            "roem": 0,
        }
        for n, (average, _shown) in enumerate(AVERAGES, 1)
    ]


def _report(rows):
    return reports.Report(
        club="Club",
        title="Stand",
        subtitle="Seizoen",
        columns=standings_columns(),
        rows=rows,
        sheet="Stand",
    )


def _screen(rows):
    table = StandingsTable(rows, columns=standings_columns())
    html = table.as_html(RequestFactory().get("/"))
    return re.findall(r'<td class="num">(\d+,\d)</td>', html)


def test_screen_xlsx_csv_and_pdf_show_the_same_rounded_average():
    expected = [shown for _average, shown in AVERAGES]
    with translation.override("nl"):
        rows = _rows()
        report = _report(rows)
        screen = _screen(rows)
        book = read_xlsx(xlsx.report_xlsx(report))
        text = csv_export.report_csv(report).decode("utf-8-sig")
        pages = " ".join(pdf_pages(pdf.report_pdf(report)))
    assert screen == expected
    sheet = book["Stand"]
    cells = [row[3] for row in sheet.iter_rows() if isinstance(row[0].value, int)]
    assert [f"{cell.value:.1f}".replace(".", ",") for cell in cells] == expected
    assert {cell.number_format for cell in cells} == {"0.0"}
    assert [cell.value for cell in cells] == [float(s.replace(",", ".")) for s in expected]
    lines = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    assert [line[3] for line in lines[1:]] == expected
    found = re.findall(r"\b1625,\d\b", pages)
    assert found == expected


def test_the_standings_page_and_its_files_agree_on_every_players_average(client, season):
    """End to end on a played season: the page's average column is the CSV's and
    the PDF's, and the spreadsheet's number, for every player."""
    competition, *_rest, director = season
    client.force_login(director)
    client.cookies["django_language"] = "nl"
    url = reverse("results:standings", kwargs={"club": competition.club.slug, "pk": competition.pk})
    html = client.get(url).content.decode()
    screen = re.findall(r'<td class="num">(\d+,\d)</td>', html)
    with translation.override("nl"):
        report = reports.standings_report(competition=competition)
        text = csv_export.report_csv(report).decode("utf-8-sig")
        book = read_xlsx(xlsx.report_xlsx(report))
        pages = " ".join(pdf_pages(pdf.report_pdf(report)))
    lines = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    assert screen and screen == [line[3] for line in lines[1:]]
    numbers = [
        f"{row[3].value:.1f}".replace(".", ",")
        for row in book.active.iter_rows()
        if isinstance(row[2].value, int) and row[1].value
    ]
    assert numbers == screen
    assert all(value in pages for value in screen)
