"""The member list as LibreOffice 7.4 re-saves the site's own export, imported back.

The files are in tests/clubs/fixtures/ (how they were made: its README.md). The
club here holds the members the export was made of (fixtures/site_export.py).
"""

from pathlib import Path

import openpyxl
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from clubs import exports, imports
from clubs.imports import ImportRow, Zeros
from clubs.models import Member
from tests import factories

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PIET = ImportRow(6, "Piet Nieuw", "0048", "piet@example.nl", "0698765432", True, False)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def members(club):
    """As in fixtures/site_export.py."""
    return [
        factories.member(
            club, "Jan Jansen", membership_number="0045", email="jan@example.nl", phone="0612345678"
        ),
        factories.member(
            club,
            "José Müller",
            membership_number="0046",
            email="jose@example.nl",
            phone="06-87654321",
        ),
        factories.member(
            club,
            "Łukasz Wąsowski",
            membership_number="0047",
            email="lukasz@example.pl",
            phone="0031612340000",
        ),
        factories.member(
            club, "Marie Bakker", email="marie@example.nl", phone="0101234567", is_active=False
        ),
    ]


def fixture(name):
    return (FIXTURES / name).read_bytes()


def preview_of(club, name):
    return imports.member_import_preview(club=club, data=fixture(name), filename=name)


def apply(club, preview):
    return imports.member_import_apply(
        club=club,
        rows=preview.rows,
        by=factories.role(club, "admin"),
        filename=preview.filename,
        columns=preview.columns,
        planned=preview.planned_changes,
    )


def stored(club):
    return sorted(
        Member.objects.filter(club=club).values_list("pk", "name", "membership_number", "phone")
    )


# ---------------------------------------------------------------- leading zeros


@pytest.mark.parametrize("name", ["csv-resaved-utf8.csv", "csv-resaved.xlsx", "csv-resaved.ods"])
def test_a_resaved_csv_export_keeps_the_members_zeros_and_says_so(club, members, name):
    # LibreOffice opened the CSV with its "Standard" columns: 0045 became 45, the
    # phones lost their zeros, and a typed 0048 / 0698765432 became 48 / 698765432.
    before = stored(club)
    preview = preview_of(club, name)
    assert preview.ok, preview.problems
    assert preview.to_change == []  # no 0045 -> 45, no 0612345678 -> 612345678
    assert [item.row.row for item in preview.skipped] == [2, 3, 4, 5]
    assert [(z.row, z.field, z.given, z.value, z.how) for z in preview.zeros] == [
        (2, "membership_number", "45", "0045", Zeros.MEMBER),
        (2, "phone", "612345678", "0612345678", Zeros.MEMBER),
        (3, "membership_number", "46", "0046", Zeros.MEMBER),
        (4, "membership_number", "47", "0047", Zeros.MEMBER),
        (4, "phone", "31612340000", "0031612340000", Zeros.MEMBER),
        (5, "phone", "101234567", "0101234567", Zeros.MEMBER),
        (6, "membership_number", "48", "0045", Zeros.UNKNOWN),  # nobody's: kept as 48
        (6, "phone", "698765432", "0698765432", Zeros.DUTCH),  # nine digits: the 0 back
    ]
    assert preview.warnings == [
        "Column “Lidnummer”, rows 2, 3, 4: the spreadsheet dropped the leading zeros (45 is "
        "the member's 0045, for example); the members keep theirs. Format the column as text "
        "in the spreadsheet, as in the site's .xlsx export.",
        "Column “Lidnummer”, row 6: the new member's number 48 may have lost its leading "
        "zeros in the spreadsheet, as the club's numbers start with 0 (0045). Check it "
        "before you import.",
        "Column “Telefoon”, rows 2, 4, 5: the spreadsheet dropped the leading zeros "
        "(612345678 is the member's 0612345678, for example); the members keep theirs. Format "
        "the column as text in the spreadsheet, as in the site's .xlsx export.",
        "Column “Telefoon”, row 6: 698765432 has nine digits, a Dutch phone number without "
        "its leading 0, so it is imported as 0698765432. Check it before you import.",
    ]
    assert preview.to_add == [ImportRow(6, "Piet Nieuw", "48", "piet@example.nl", "0698765432")]
    result = apply(club, preview)
    assert [(m.name, m.membership_number, m.phone) for m in result.added] == [
        ("Piet Nieuw", "48", "0698765432")
    ]
    assert [row for row in stored(club) if row[1] != "Piet Nieuw"] == before


@pytest.mark.parametrize("name", ["xlsx-resaved.xlsx", "xlsx-resaved.ods"])
def test_a_resaved_xlsx_export_keeps_what_is_typed_in_its_text_columns(club, members, name):
    # The export's number and phone columns are text down the sheet: typed in row 6,
    # 0048 and 0698765432 stay text in LibreOffice, and import as typed, unwarned.
    preview = preview_of(club, name)
    assert preview.ok, preview.problems
    assert preview.to_add == [PIET]
    assert preview.to_change == [] and preview.zeros == [] and preview.warnings == []
    assert [item.row.row for item in preview.skipped] == [2, 3, 4, 5]


def test_the_text_cells_libreoffice_wrote_are_the_ones_typed_under_the_export():
    sheet = openpyxl.load_workbook(FIXTURES / "xlsx-resaved.xlsx").active
    assert [(c.value, c.data_type) for c in sheet[6]][:4] == [
        ("Piet Nieuw", "s"),
        ("0048", "s"),
        ("piet@example.nl", "s"),
        ("0698765432", "s"),
    ]
    assert sheet.column_dimensions["B"].number_format == "@"
    assert sheet.column_dimensions["D"].number_format == "@"


def test_the_export_marks_the_whole_number_and_phone_columns_as_text(club, members):
    sheet = openpyxl.load_workbook(
        __import__("io").BytesIO(exports.members_xlsx(Member.objects.filter(club=club)))
    ).active
    # The column style (every row, also below the list, where a new member is typed)...
    assert sheet.column_dimensions["B"].number_format == "@"
    assert sheet.column_dimensions["D"].number_format == "@"
    assert sheet.column_dimensions["A"].number_format == "General"
    # ... and every cell in the list, Marie's empty membership number too (4 members: 2-5).
    for letter in "BD":
        cells = sheet[f"{letter}2:{letter}5"]
        assert [cell.number_format for (cell,) in cells] == ["@"] * 4, letter
    marie = next(row for row in sheet.iter_rows(min_row=2) if row[0].value == "Marie Bakker")
    assert marie[1].value is None and marie[1].number_format == "@"


# ---------------------------------------------------------------- lost letters


def test_a_windows_1252_csv_with_lost_letters_is_refused_on_their_rows(club, members):
    # LibreOffice saved "Łukasz Wąsowski" in Windows-1252 as "?ukasz W?sowski".
    before = stored(club)
    preview = preview_of(club, "csv-resaved-cp1252.csv")
    assert not preview.can_apply
    assert [(p.row, p.column) for p in preview.problems] == [(4, "Naam")]
    message = preview.problems[0].message
    assert message.startswith("the cell holds “?” where the program that saved the file could")
    assert "UTF-8" in message and "LibreOffice: “Unicode (UTF-8)”" in message
    assert any("Windows-1252" in warning for warning in preview.warnings)
    # José Müller reads right in Windows-1252; the row of lost letters is in no plan.
    assert [item.row.name for item in preview.skipped] == [
        "Jan Jansen",
        "José Müller",
        "Marie Bakker",
    ]
    assert all(row.row != 4 for row in preview.rows)
    assert preview.to_add == [] and preview.to_change == []
    assert stored(club) == before


def test_the_page_offers_no_import_of_a_file_with_lost_letters(client, club, members):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(club, "admin"))
    url = reverse("clubs:member-import", kwargs={"club": club.slug})
    name = "csv-resaved-cp1252.csv"
    response = client.post(url, {"file": SimpleUploadedFile(name, fixture(name))})
    assert response.status_code == 200 and response.context["token"] == ""
    assert "the cell holds “?” where the program that saved the file" in response.content.decode()


# ---------------------------------------------------------------- renamed without a number


def test_members_renamed_in_a_sheet_without_numbers_are_found_by_e_mail(client, club, members):
    jan, marie = members[0], members[3]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(club, "admin"))
    url = reverse("clubs:member-import", kwargs={"club": club.slug})
    name = "renamed-without-numbers.csv"
    response = client.post(url, {"file": SimpleUploadedFile(name, fixture(name))})
    preview = response.context["preview"]
    assert preview.ok and preview.to_add == []
    assert [(c.member_id, [str(f) for f in c.fields], c.found_by) for c in preview.to_change] == [
        (jan.pk, ["Naam: Jan Jansen → Jan de Vries"], "found by the e-mail address jan@example.nl"),
        (
            marie.pk,
            ["Naam: Marie Bakker → Marie de Vries-Bakker"],
            "found by the e-mail address marie@example.nl",
        ),
    ]
    page = response.content.decode()
    assert "found by the e-mail address jan@example.nl" in page
    # Each is a proposal the secretary ticks (a family may share an address).
    boxes = [f"{change.row.row}-{change.member_id}" for change in preview.to_change]
    assert boxes == [f"2-{jan.pk}", f"5-{marie.pk}"]
    for box in boxes:
        assert f'name="rename" value="{box}"' in page
    assert "Jan de Vries is Jan Jansen: change this member" in page
    client.post(url, {"token": response.context["token"], "rename": boxes})
    assert stored(club) == sorted(
        [
            (jan.pk, "Jan de Vries", "0045", "0612345678"),
            (members[1].pk, "José Müller", "0046", "06-87654321"),
            (members[2].pk, "Łukasz Wąsowski", "0047", "0031612340000"),
            (marie.pk, "Marie de Vries-Bakker", "", "0101234567"),
        ]
    )
