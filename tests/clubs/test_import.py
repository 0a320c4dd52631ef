"""Member import from real CSV and .xlsx files: checked row by row, all or nothing."""

import codecs
import csv
import dataclasses
import html
import io
import zipfile

import openpyxl
import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from clubs import exports, imports
from clubs.imports import ImportRejected, ImportRow
from clubs.models import ClubLog, Member
from common.csvfile import dialect
from tests import factories
from tests.common import spreadsheets
from tests.common.spreadsheets import csv_bytes, xlsx_bytes

HEADER = ["Naam", "Lidnummer", "E-mail", "Telefoon", "Actief", "Gast"]
HARD_NAMES = [
    "Yvonne 't Hart",
    "José Müller-Lüdenscheidt",
    "<script>alert('x')</script>",
    "Anne & Piet <b>de Wit</b>",
    'Kees "de Kaart" Ærøskøbing',
]


# ---------------------------------------------------------------- helpers


@pytest.fixture(autouse=True)
def english():
    """Assert the English source messages; Dutch translations come later."""
    with translation.override("en"):
        yield


@pytest.fixture
def admin_client(client, club):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(club, "admin"))
    return client


def preview_of(club, data, filename="leden.csv"):
    return imports.member_import_preview(club=club, data=data, filename=filename)


def problems(preview):
    return [(p.row, p.column, p.message) for p in preview.problems]


def only_problem(preview):
    assert len(preview.problems) == 1, problems(preview)
    return preview.problems[0]


def import_url(club):
    return reverse("clubs:member-import", kwargs={"club": club.slug})


def upload(client, club, data, filename):
    return client.post(import_url(club), {"file": SimpleUploadedFile(filename, data)})


def apply(club, preview, by):
    """As the page does: with the changes the preview showed."""
    return imports.member_import_apply(
        club=club,
        rows=preview.rows,
        by=by,
        filename=preview.filename,
        columns=preview.columns,
        planned=preview.planned_changes,
    )


# ---------------------------------------------------------------- reading good files


def test_dutch_csv_with_bom_and_semicolons_previews_every_row(club):
    data = csv_bytes(
        [
            HEADER,
            ["Jan Jansen", "101", "jan@example.nl", "06-12345678", "ja", "nee"],
            ["Marie Bakker", "102", "", "", "nee", "ja"],
        ]
    )
    preview = preview_of(club, data)
    assert preview.ok and preview.can_apply
    assert preview.to_add == [
        ImportRow(2, "Jan Jansen", "101", "jan@example.nl", "06-12345678", True, False),
        ImportRow(3, "Marie Bakker", "102", "", "", False, True),
    ]
    assert preview.warnings == []


def test_english_csv_with_commas_and_quoted_fields(club):
    data = csv_bytes(
        [["Name", "Membership number", "Email"], ["Jansen, J.", "7", "j@example.org"]],
        delimiter=",",
        encoding="utf-8",
    )
    preview = preview_of(club, data)
    assert [(r.name, r.membership_number, r.email) for r in preview.to_add] == [
        ("Jansen, J.", "7", "j@example.org")
    ]


def test_tab_separated_utf16_from_excel_unicode_text_is_read(club):
    data = csv_bytes([["naam", "gast"], ["Zoë", "x"]], delimiter="\t", encoding="utf-16")
    assert data.startswith(codecs.BOM_UTF16_LE)
    preview = preview_of(club, data, "leden.txt")
    assert [(r.name, r.is_guest) for r in preview.to_add] == [("Zoë", True)]


@pytest.mark.parametrize(
    "titles",
    [
        ["  NAAM ", "Lid-nummer", "E-Mail", "TEL."],
        ["name", "membership_number", "e-mail adres", "Phone Number"],
        ["Volledige naam", "lidnr", "email", "mobiel"],
    ],
)
def test_column_titles_ignore_case_spaces_and_punctuation(club, titles):
    preview = preview_of(club, csv_bytes([titles, ["Bep", "9", "bep@example.nl", "010-1234"]]))
    assert preview.ok, problems(preview)
    assert preview.to_add == [ImportRow(2, "Bep", "9", "bep@example.nl", "010-1234")]


@pytest.mark.parametrize(
    "value, expected",
    [
        ("ja", True),
        ("Nee", False),
        ("yes", True),
        ("NO", False),
        ("1", True),
        ("0", False),
        ("j", True),
        ("n", False),
        ("x", True),
        ("waar", True),
        ("ONWAAR", False),
        ("", True),
    ],
)
def test_active_column_reads_yes_and_no_in_both_languages(club, value, expected):
    preview = preview_of(club, csv_bytes([["naam", "actief"], ["Bep", value]]))
    assert [r.is_active for r in preview.to_add] == [expected]


def test_empty_guest_cell_means_not_a_guest(club):
    preview = preview_of(club, csv_bytes([["naam", "gast"], ["Bep", " "]]))
    assert preview.to_add[0].is_guest is False


def test_xlsx_numbers_become_text_and_booleans_are_read(club):
    data = xlsx_bytes(
        [
            ["Naam", "Lidnummer", "Telefoon", "Actief", "Gast"],
            ["Jan", 1234, "0612345678", True, False],
            ["Piet", 1235.0, None, False, True],
        ]
    )
    preview = preview_of(club, data, "leden.xlsx")
    assert preview.ok, problems(preview)
    assert preview.to_add == [
        ImportRow(2, "Jan", "1234", "", "0612345678", True, False),
        ImportRow(3, "Piet", "1235", "", "", False, True),
    ]


def test_empty_rows_are_skipped_and_row_numbers_are_the_sheets(club):
    data = xlsx_bytes([["Naam", "E-mail"], ["Jan", None], [None, None], ["  ", ""], ["Kees", "x"]])
    preview = preview_of(club, data, "leden.xlsx")
    assert [r.name for r in preview.to_add] == ["Jan"]
    assert problems(preview) == [(5, "E-mail", "Enter a valid email address.")]


def test_unknown_columns_are_left_out_with_a_warning(club):
    data = csv_bytes([["Naam", "Adres", "Geboortedatum"], ["Jan", "Dorpsstraat 1", "1950-01-01"]])
    preview = preview_of(club, data)
    assert preview.can_apply
    assert preview.warnings == ["These columns are not imported: “Adres”, “Geboortedatum”."]


def test_values_in_a_column_without_title_are_warned_about(club):
    data = csv_bytes([["Naam", ""], ["Jan", "iets"]])
    preview = preview_of(club, data)
    assert preview.can_apply
    assert preview.warnings == ["Column B has values but no title; it is not imported."]


def test_names_are_trimmed_and_otherwise_kept_exactly(club):
    names = [*HARD_NAMES, "  Bep  van  Dam \u00a0"]
    preview = preview_of(club, csv_bytes([["naam"], *[[n] for n in names]]))
    assert [r.name for r in preview.to_add] == [*HARD_NAMES, "Bep  van  Dam"]


def test_csv_guard_apostrophe_from_our_export_is_dropped_but_real_ones_kept(club):
    data = csv_bytes([["naam", "telefoon"], ["'=1+1", "'+31 6 1234"], ["'t Hart", ""]])
    preview = preview_of(club, data)
    assert [(r.name, r.phone) for r in preview.to_add] == [("=1+1", "+31 6 1234"), ("'t Hart", "")]


# ---------------------------------------------------------------- broken files


def test_missing_name_column_is_an_error(club):
    preview = preview_of(club, csv_bytes([["Lidnummer", "E-mail"], ["1", "a@example.nl"]]))
    problem = only_problem(preview)
    assert (problem.row, problem.column) == (1, None)
    assert "no column for the names" in problem.message
    assert not preview.can_apply


def test_header_must_be_the_first_row(club):
    data = xlsx_bytes([["Ledenlijst 2025"], ["Naam"], ["Jan"]])
    preview = preview_of(club, data, "leden.xlsx")
    assert not preview.ok
    assert "Row 1:" in str(preview.problems[0])


def test_two_columns_meaning_the_same_are_an_error(club):
    preview = preview_of(club, csv_bytes([["Naam", "E-mail", "email"], ["Jan", "", ""]]))
    problem = only_problem(preview)
    assert (problem.row, problem.column) == (1, "email")
    assert "same as column “E-mail”" in problem.message


def test_empty_name_is_reported_with_row_and_column(club):
    data = csv_bytes([["Naam", "Lidnummer"], ["Jan", "1"], ["", "2"], ["Kees", "3"]])
    preview = preview_of(club, data)
    assert problems(preview) == [(3, "Naam", "the name is empty.")]
    assert str(preview.problems[0]) == "Row 3, column Naam: the name is empty."
    assert not preview.can_apply


def test_every_broken_row_is_reported_not_just_the_first(club):
    data = csv_bytes(
        [
            ["Naam", "E-mail", "Actief"],
            ["", "", ""],
            ["Jan", "geen-adres", "ja"],
            ["Kees", "", "misschien"],
            ["x" * 121, "", ""],
        ]
    )
    preview = preview_of(club, data)
    found = problems(preview)
    assert [(row, column) for row, column, _message in found] == [
        (3, "E-mail"),
        (4, "Actief"),
        (5, "Naam"),
    ]
    assert "“misschien” is not yes or no" in found[1][2]
    assert "at most 120 characters" in found[2][2]


def test_duplicate_membership_numbers_in_the_file_are_errors(club):
    data = csv_bytes([["Naam", "Lidnummer"], ["Jan", "12"], ["Kees", "13"], ["Piet", "12"]])
    preview = preview_of(club, data)
    assert problems(preview) == [(4, "Lidnummer", "membership number 12 is also on row 2.")]


def test_duplicate_names_in_the_file_are_errors_ignoring_case_and_spacing(club):
    data = csv_bytes([["Naam"], ["Jan de Vries"], ["JAN  DE VRIES"]])
    preview = preview_of(club, data)
    problem = only_problem(preview)
    assert (problem.row, problem.column) == (3, "Naam")
    assert "same name is on row 2" in problem.message


def test_cp1252_csv_is_read_with_a_warning_for_every_user(club):
    data = "Naam;Lidnummer\r\nJan;1\r\nJosé Müller;2\r\n".encode("cp1252")
    preview = preview_of(club, data)
    assert preview.ok, problems(preview)
    assert [r.name for r in preview.to_add] == ["Jan", "José Müller"]
    (warning,) = preview.warnings
    assert "Windows-1252" in warning and "LibreOffice" in warning and "CSV UTF-8" in warning


def test_csv_in_neither_utf8_nor_cp1252_is_rejected_with_the_line(club):
    data = b"Naam;Lidnummer\r\nJan;1\r\nJos\x81 M\x8d;2\r\n"
    preview = preview_of(club, data)
    problem = only_problem(preview)
    assert problem.row is None
    assert "not text in UTF-8 or Windows-1252" in problem.message and "line 3" in problem.message
    assert "LibreOffice" in problem.message and "CSV UTF-8" in problem.message
    assert preview.rows == [] and not preview.can_apply


def test_control_characters_in_a_value_are_errors(club):
    data = csv_bytes(
        [["Naam", "Telefoon"], ["Jan\x00Jansen", ""], ["Kees\nKaart", ""], ["Bep", "1\t2"]]
    )
    preview = preview_of(club, data)
    assert [(row, column) for row, column, _m in problems(preview)] == [
        (2, "Naam"),
        (3, "Naam"),
        (4, "Telefoon"),
    ]


def test_formula_cell_is_an_error_asking_for_values(club):
    def formulas(sheet):
        sheet["A3"] = '=CONCATENATE("Jan"," ","Jansen")'
        sheet["C2"] = "=TODAY()"  # in a column that is not imported: harmless

    data = xlsx_bytes([["Naam", "Lidnummer", "Lid sinds"], ["Kees", 1], [None, 2]], edit=formulas)
    preview = preview_of(club, data, "leden.xlsx")
    problem = only_problem(preview)
    assert (problem.row, problem.column) == (3, "Naam")
    assert "formula (=CONCATENATE(" in problem.message and "as values" in problem.message


def test_merged_cells_are_an_error_naming_the_range(club):
    data = xlsx_bytes(
        [["Naam", "Lidnummer"], ["Jan", 1], ["Kees", None]],
        edit=lambda sheet: sheet.merge_cells("A3:B3"),
    )
    preview = preview_of(club, data, "leden.xlsx")
    problem = only_problem(preview)
    assert problem.row == 3 and "A3:B3 are merged" in problem.message
    assert not preview.can_apply


@pytest.mark.parametrize(
    "data, filename, expected",
    [
        (b"PK\x03\x04 not really a zip", "leden.xlsx", "not an Excel workbook"),
        (b"Naam;Lidnummer\r\n", "leden.xlsx", "not an Excel workbook"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "leden.xls", "old Excel file"),
        (b"", "leden.csv", "The file is empty."),
    ],
)
def test_files_that_are_not_a_member_list_are_rejected(club, data, filename, expected):
    problem = only_problem(preview_of(club, data, filename))
    assert expected in problem.message


def test_zip_that_is_not_a_workbook_is_rejected(club):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("leden.txt", "Naam\nJan\n")
    problem = only_problem(preview_of(club, buffer.getvalue(), "leden.xlsx"))
    assert "not an Excel workbook" in problem.message


def test_workbook_that_unpacks_too_large_is_rejected(club, monkeypatch):
    monkeypatch.setattr(
        imports, "LIMITS", dataclasses.replace(imports.LIMITS, max_unpacked_bytes=1000)
    )
    problem = only_problem(preview_of(club, xlsx_bytes([["Naam"], ["Jan"]]), "l.xlsx"))
    assert "too large when unpacked" in problem.message


def test_a_stray_cell_far_away_does_not_make_the_sheet_huge(club):
    def stray(sheet):
        sheet["XFD1048576"] = "oeps"

    preview = preview_of(club, xlsx_bytes([["Naam"], ["Jan"]], edit=stray), "l.xlsx")
    assert [r.name for r in preview.to_add] == ["Jan"]
    assert preview.warnings == ["Only columns A to CV are read; the sheet goes on to column XFD."]


def test_header_without_members_is_an_error(club):
    problem = only_problem(preview_of(club, csv_bytes([["Naam", "Lidnummer"], ["", ""]])))
    assert problem.message == "The file has column titles but no members."


def test_file_over_5_mb_is_rejected_before_reading(club):
    data = b"Naam\r\n" + b"Jan Jansen\r\n" * (imports.MAX_UPLOAD_BYTES // 12 + 1)
    assert len(data) > 5 * 1024 * 1024
    problem = only_problem(preview_of(club, data))
    assert "too large" in problem.message and "5.0" in problem.message


def test_more_than_the_row_limit_is_rejected(club):
    rows = [[f"Speler {n}"] for n in range(imports.MAX_ROWS + 1)]
    preview = preview_of(club, csv_bytes([["naam"], *rows]))
    assert "more than 2,000 rows below the column titles" in preview.problems[-1].message
    assert not preview.can_apply


# ---------------------------------------------------------------- duplicates against the club


def test_existing_members_by_number_or_name_are_never_doubled(club):
    admin = factories.role(club, "admin")
    factories.member(club, "Piet Pietersen", membership_number="100")
    factories.member(club, "Élise van Dam")
    data = csv_bytes(
        [
            ["Naam", "Lidnummer"],
            ["Piet Pietersen", "100"],
            ["élise VAN DAM", ""],
            ["Nieuw Lid", "101"],
        ]
    )
    preview = preview_of(club, data)
    assert preview.ok
    assert [r.name for r in preview.to_add] == ["Nieuw Lid"]
    assert [(s.row.row, s.reason) for s in preview.skipped] == [
        (2, "already a member: Piet Pietersen, nothing differs."),
    ]
    # The name differs only in case: shown as a change, as the file writes it.
    assert [(c.row.row, [str(f) for f in c.fields]) for c in preview.to_change] == [
        (3, ["Naam: Élise van Dam → élise VAN DAM"])
    ]
    result = apply(club, preview, admin)
    assert [m.name for m in result.added] == ["Nieuw Lid"]
    assert Member.objects.filter(club=club).count() == 3
    assert Member.objects.filter(club=club, name="élise VAN DAM").count() == 1


def test_members_of_another_club_are_not_duplicates(club, other_club):
    factories.member(other_club, "Jan Jansen", membership_number="1")
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer"], ["Jan Jansen", "1"]]))
    assert [r.name for r in preview.to_add] == ["Jan Jansen"]


# ---------------------------------------------------------------- the service


def test_apply_adds_everyone_stored_exactly_and_logs_once(club):
    admin = factories.role(club, "admin")
    data = xlsx_bytes([["Naam", "Lidnummer"], *[[name, n] for n, name in enumerate(HARD_NAMES)]])
    preview = preview_of(club, data, "leden 2025.xlsx")
    result = apply(club, preview, admin)
    stored = dict(Member.objects.filter(club=club).values_list("membership_number", "name"))
    assert stored == {str(n): name for n, name in enumerate(HARD_NAMES)}
    assert len(result.added) == len(HARD_NAMES)
    log = ClubLog.objects.get(club=club)
    assert log.action == ClubLog.Action.MEMBER_IMPORT
    assert log.user == admin
    assert log.text == "5 members imported from leden 2025.xlsx"
    assert [entry["name"] for entry in log.detail["added"]] == HARD_NAMES


def test_apply_is_all_or_nothing(club):
    admin = factories.role(club, "admin")
    factories.member(club, "Bestaand")
    rows = [ImportRow(2, "Goed Lid"), ImportRow(3, "x" * 121), ImportRow(4, "Ook Goed")]
    with pytest.raises(ImportRejected) as caught:
        imports.member_import_apply(club=club, rows=rows, by=admin)
    assert [(p.row, p.column) for p in caught.value.problems] == [(3, "Name")]
    assert list(Member.objects.filter(club=club).values_list("name", flat=True)) == ["Bestaand"]
    assert not ClubLog.objects.exists()


def test_apply_rolls_back_members_when_the_log_cannot_be_written(club, monkeypatch):
    admin = factories.role(club, "admin")

    def broken(**kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(ClubLog.objects, "create", broken)
    with pytest.raises(RuntimeError):
        imports.member_import_apply(club=club, rows=[ImportRow(2, "Jan")], by=admin)
    assert Member.objects.filter(club=club).count() == 0


def test_apply_rechecks_members_added_since_the_preview(club):
    admin = factories.role(club, "admin")
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer"], ["Jan", "1"], ["Kees", "2"]]))
    assert len(preview.to_add) == 2
    factories.member(club, "Johannes", membership_number="1")  # someone else, meanwhile
    result = apply(club, preview, admin)
    assert [m.name for m in result.added] == ["Kees"]
    assert [s.row.name for s in result.skipped] == ["Jan"]
    assert Member.objects.filter(club=club, membership_number="1").count() == 1


def test_apply_rejects_duplicates_within_the_rows_it_is_given(club):
    admin = factories.role(club, "admin")
    rows = [ImportRow(2, "Jan", "1"), ImportRow(3, "Kees", "1")]
    with pytest.raises(ImportRejected):
        imports.member_import_apply(club=club, rows=rows, by=admin)
    assert Member.objects.count() == 0


@pytest.mark.parametrize("role", ["member", "scorer", "director"])
def test_only_a_club_admin_may_apply_an_import(club, role):
    user = factories.role(club, role)
    with pytest.raises(PermissionDenied):
        imports.member_import_apply(club=club, rows=[ImportRow(2, "Jan")], by=user)
    assert Member.objects.count() == 0


# ---------------------------------------------------------------- the pages


def test_upload_page_shows_the_form_and_the_columns(admin_client, club):
    response = admin_client.get(import_url(club))
    assert response.status_code == 200
    assert 'type="file"' in response.text and 'enctype="multipart/form-data"' in response.text
    assert "naam / name (required)" in response.text


def test_preview_then_apply_through_the_pages(admin_client, club):
    factories.member(club, "Bestaand Lid", membership_number="1")
    data = xlsx_bytes(
        [HEADER, ["Bestaand Lid", 1, None, None, None, None], *[[n] for n in HARD_NAMES]]
    )
    response = upload(admin_client, club, data, "leden.xlsx")
    assert response.status_code == 200
    token = response.context["token"]
    assert token
    for name in HARD_NAMES:
        assert html.escape(name) in response.text
    assert "<script>alert" not in response.text and "<b>de Wit</b>" not in response.text
    assert "1 row is already a member and will be skipped" in response.text
    assert Member.objects.filter(club=club).count() == 1  # the preview changes nothing

    response = admin_client.post(import_url(club), {"token": token}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("clubs:member-list", args=[club.slug])
    assert "5 members imported." in response.text
    assert "1 row was already a member and was skipped." in response.text
    names = set(Member.objects.filter(club=club).values_list("name", flat=True))
    assert names == {"Bestaand Lid", *HARD_NAMES}
    assert ClubLog.objects.filter(club=club, action=ClubLog.Action.MEMBER_IMPORT).count() == 1


def test_imported_names_are_escaped_on_the_member_pages(admin_client, club):
    response = upload(
        admin_client, club, csv_bytes([["naam"], *[[n] for n in HARD_NAMES]]), "l.csv"
    )
    admin_client.post(import_url(club), {"token": response.context["token"]})
    page = admin_client.get(reverse("clubs:member-list", args=[club.slug])).text
    for member in Member.objects.filter(club=club):
        assert html.escape(member.name) in page
        detail = admin_client.get(member.get_absolute_url()).text
        assert html.escape(member.name) in detail
    assert "<script>alert" not in page


BROKEN_FILES = {
    "wrong columns": (csv_bytes([["Lidnummer", "Adres"], ["1", "Dorpsstraat 1"]]), "l.csv"),
    "empty name": (csv_bytes([["Naam", "Lidnummer"], ["Jan", "1"], ["", "2"]]), "l.csv"),
    "duplicate numbers": (csv_bytes([["Naam", "Lidnummer"], ["Jan", "7"], ["Kees", "7"]]), "l.csv"),
    "non-utf8 csv": (b"Naam\r\nJos\x81\r\n", "l.csv"),
    "formula": (xlsx_bytes([["Naam"], ["Jan"], ['="Kees"']]), "l.xlsx"),
    "merged cells": (
        xlsx_bytes([["Naam", "Lidnummer"], ["Jan", 1]], edit=lambda s: s.merge_cells("A2:B2")),
        "l.xlsx",
    ),
    "not a workbook": (b"PK\x03\x04 broken", "l.xlsx"),
}
EXPECTED = {
    "wrong columns": "no column for the names",
    "empty name": "the name is empty.",
    "duplicate numbers": "membership number 7 is also on row 2",
    "non-utf8 csv": "not text in UTF-8 or Windows-1252",
    "formula": "holds a formula",
    "merged cells": "A2:B2 are merged",
    "not a workbook": "not an Excel workbook",
}


@pytest.mark.parametrize("case", BROKEN_FILES)
def test_broken_file_gets_a_report_and_changes_nothing(admin_client, club, case):
    factories.member(club, "Bestaand Lid")
    data, filename = BROKEN_FILES[case]
    response = upload(admin_client, club, data, filename)
    assert response.status_code == 200
    assert response.context["token"] == ""
    assert "This file cannot be imported. Nothing has been changed." in response.text
    assert html.escape(EXPECTED[case]) in response.text
    assert "Import these members" not in response.text
    assert Member.objects.filter(club=club).count() == 1
    assert not ClubLog.objects.exists()


def test_upload_over_5_mb_is_refused_on_the_form(admin_client, club):
    data = b"Naam\r\n" + b"x" * (5 * 1024 * 1024)
    response = upload(admin_client, club, data, "groot.csv")
    assert response.status_code == 200
    assert response.context["preview"] is None
    assert "The file is too large (5.0" in response.context["form"].errors["file"][0]
    assert Member.objects.count() == 0


def test_a_tampered_token_imports_nothing(admin_client, club):
    response = upload(admin_client, club, csv_bytes([["naam"], ["Jan"]]), "l.csv")
    token = response.context["token"]
    response = admin_client.post(import_url(club), {"token": token[:-2] + "xx"})
    assert response.status_code == 200
    assert "The preview could not be read; upload the file again." in response.text
    assert Member.objects.count() == 0


def test_a_token_is_only_good_for_its_own_club(admin_client, club, other_club):
    admin = factories.role(other_club, "admin")
    factories.role(club, "admin", admin)
    admin_client.force_login(admin)
    response = upload(admin_client, club, csv_bytes([["naam"], ["Jan"]]), "l.csv")
    response = admin_client.post(import_url(other_club), {"token": response.context["token"]})
    assert "could not be read" in response.text
    assert Member.objects.count() == 0


def test_an_old_preview_has_to_be_uploaded_again(admin_client, club, monkeypatch):
    response = upload(admin_client, club, csv_bytes([["naam"], ["Jan"]]), "l.csv")
    monkeypatch.setattr(imports, "TOKEN_MAX_AGE", -1)
    response = admin_client.post(import_url(club), {"token": response.context["token"]})
    assert "more than an hour old" in response.text
    assert Member.objects.count() == 0


def test_apply_after_someone_added_the_same_members_doubles_nobody(admin_client, club):
    response = upload(admin_client, club, csv_bytes([["naam"], ["Jan"], ["Kees"]]), "l.csv")
    factories.member(club, "jan")
    factories.member(club, "Kees")
    response = admin_client.post(
        import_url(club), {"token": response.context["token"]}, follow=True
    )
    assert "Nothing was imported: every row is already a member." in response.text
    assert Member.objects.filter(club=club).count() == 2


# ---------------------------------------------------------------- who may import


@pytest.mark.parametrize("role", ["member", "scorer", "director"])
def test_below_admin_gets_403(client, club, role):
    client.force_login(factories.role(club, role))
    assert client.get(import_url(club)).status_code == 403
    data = csv_bytes([["naam"], ["Jan"]])
    assert upload(client, club, data, "l.csv").status_code == 403
    assert Member.objects.count() == 0


@pytest.mark.parametrize("public", [True, False])
def test_another_clubs_admin_gets_404(client, other_club, public):
    target = factories.club(results_public=public)
    client.force_login(factories.role(other_club, "admin"))
    assert client.get(import_url(target)).status_code == 404
    assert upload(client, target, csv_bytes([["naam"], ["Jan"]]), "l.csv").status_code == 404
    assert Member.objects.count() == 0


def test_anonymous_visitors_are_sent_to_log_in(client, club):
    response = upload(client, club, csv_bytes([["naam"], ["Jan"]]), "l.csv")
    assert response.status_code == 302 and reverse("login") in response.url
    assert Member.objects.count() == 0


# ---------------------------------------------------------------- LibreOffice and Excel round trips


def exported_rows(club, kind="csv"):
    """The club's own export as the rows a spreadsheet program shows (CSV: apostrophes kept)."""
    members = list(Member.objects.filter(club=club))
    if kind == "csv":
        text = exports.members_csv(members).decode("utf-8-sig")
        separator = dialect().delimiter  # the site's one CSV dialect, by the active language
        return list(csv.reader(io.StringIO(text, newline=""), delimiter=separator))
    sheet = openpyxl.load_workbook(io.BytesIO(exports.members_xlsx(members))).active
    return [list(row) for row in sheet.iter_rows(values_only=True)]


@pytest.fixture
def secretary_list(club):
    factories.member(club, "Jan Jansen", membership_number="0012", phone="0612345678")
    factories.member(club, "+31 Piet", phone="+31 6 1234", is_guest=True)
    factories.member(club, "=1+1", is_active=False)
    factories.member(club, "Yvonne 't Hart", email="y@example.nl")
    return club


def as_libreoffice(rows):
    """ja/nee cells turned into the true/false cells LibreOffice writes as =TRUE()/=FALSE()."""
    words = {"yes": True, "no": False, "ja": True, "nee": False}
    return [rows[0], *[[words.get(v, v) for v in row] for row in rows[1:]]]


@pytest.mark.parametrize("save_as", ["xlsx", "ods", "csv ,", "csv ;"])
def test_the_csv_export_saved_by_libreoffice_imports_back_without_duplicates(
    secretary_list, save_as
):
    """The CSV opened in LibreOffice keeps the guard apostrophes as data; saved as a workbook
    the yes/no columns become true/false cells (=TRUE() formulas in .xlsx)."""
    club = secretary_list
    rows = as_libreoffice(exported_rows(club, "csv"))
    assert ["'+31 Piet", "", "", "'+31 6 1234", True, True] in rows
    if save_as == "xlsx":
        data, name = spreadsheets.libreoffice_xlsx(rows), "leden.xlsx"
    elif save_as == "ods":
        data, name = spreadsheets.ods_bytes(rows), "leden.ods"
    else:
        words = [
            [("TRUE" if v else "FALSE") if isinstance(v, bool) else v for v in r] for r in rows
        ]
        data, name = csv_bytes(words, delimiter=save_as[-1], encoding="utf-8"), "leden.csv"
    preview = preview_of(club, data, name)
    assert preview.ok, problems(preview)
    assert preview.to_add == [] and preview.to_change == [] and not preview.can_apply
    assert len(preview.skipped) == 4
    assert preview.warnings == []


@pytest.mark.parametrize("kind", ["xlsx", "csv"])
def test_the_export_imported_back_unchanged_changes_nothing(secretary_list, kind):
    club = secretary_list
    admin = factories.role(club, "admin")
    data = getattr(exports, f"members_{kind}")(Member.objects.filter(club=club))
    preview = preview_of(club, data, f"leden.{kind}")
    assert preview.ok and preview.to_add == [] and preview.to_change == []
    assert {s.reason for s in preview.skipped} == {
        f"already a member: {m.name}, nothing differs." for m in Member.objects.filter(club=club)
    }
    result = apply(club, preview, admin)
    assert result.added == [] and result.changed == []
    assert Member.objects.filter(club=club).count() == 4
    assert not ClubLog.objects.exists()


def test_a_name_with_a_line_break_in_the_export_gets_a_row_message(club):
    """The member form now refuses it; an old record still exports, and imports clearly."""
    factories.member(club, "Jan\nJansen", membership_number="7")
    factories.member(club, "Kees")
    for kind in ("xlsx", "csv"):
        data = getattr(exports, f"members_{kind}")(Member.objects.filter(club=club))
        preview = preview_of(club, data, f"leden.{kind}")
        problem = only_problem(preview)
        assert (problem.row, problem.column) == (2, "Name"), kind
        assert "line break" in problem.message and "one line" in problem.message
        assert not preview.can_apply


def edited_export(club, edit):
    """The club's .xlsx export with ``edit(sheet)`` done to it, as a secretary does."""
    workbook = openpyxl.load_workbook(
        io.BytesIO(exports.members_xlsx(Member.objects.filter(club=club)))
    )
    edit(workbook.active)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def row_of(sheet, name):
    return next(row for row in sheet.iter_rows(min_row=2) if row[0].value == name)


def test_an_edited_phone_number_is_shown_as_a_change_and_applied(admin_client, secretary_list):
    club = secretary_list

    def edit(sheet):
        row_of(sheet, "Jan Jansen")[3].value = "0687654321"
        row_of(sheet, "=1+1")[4].value = "yes"  # active again

    response = upload(admin_client, club, edited_export(club, edit), "leden.xlsx")
    preview = response.context["preview"]
    assert preview.ok and preview.to_add == []
    assert [(c.name, [str(f) for f in c.fields]) for c in preview.to_change] == [
        ("=1+1", ["Active: no → yes"]),
        ("Jan Jansen", ["Phone: 0612345678 → 0687654321"]),
    ]
    assert "2 members will be changed" in response.text
    assert "<del>0612345678</del> → <ins>0687654321</ins>" in response.text
    assert Member.objects.get(name="Jan Jansen").phone == "0612345678"  # not yet

    response = admin_client.post(
        import_url(club), {"token": response.context["token"]}, follow=True
    )
    assert "2 members changed." in response.text
    jan = Member.objects.get(club=club, name="Jan Jansen")
    assert (jan.phone, jan.membership_number) == ("0687654321", "0012")
    assert Member.objects.get(club=club, name="=1+1").is_active is True
    assert Member.objects.filter(club=club).count() == 4
    log = ClubLog.objects.get(club=club)
    assert log.text == "Member import from leden.xlsx: 0 added, 2 changed"
    assert log.detail["changed"][1] == {
        "pk": jan.pk,
        "row": 4,  # after "+31 Piet" and "=1+1"
        "name": "Jan Jansen",
        "changes": {"phone": ["0612345678", "0687654321"]},
    }


def test_a_member_changed_since_the_preview_rejects_the_import(club):
    admin = factories.role(club, "admin")
    jan = factories.member(club, "Jan", membership_number="1", phone="06 1")
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer", "Telefoon"], ["Jan", "1", "06 2"]]))
    assert len(preview.to_change) == 1
    Member.objects.filter(pk=jan.pk).update(phone="06 3")  # another admin, meanwhile
    with pytest.raises(ImportRejected) as caught:
        apply(club, preview, admin)
    assert "Jan was changed by someone else since the preview" in str(caught.value.problems[0])
    jan.refresh_from_db()
    assert jan.phone == "06 3" and not ClubLog.objects.exists()


def test_changes_and_additions_are_all_or_nothing(club, monkeypatch):
    admin = factories.role(club, "admin")
    factories.member(club, "Jan", membership_number="1", phone="06 1")
    data = csv_bytes([["Naam", "Lidnummer", "Telefoon"], ["Jan", "1", "06 2"], ["Kees", "2", ""]])
    preview = preview_of(club, data)
    assert len(preview.to_change) == 1 and len(preview.to_add) == 1

    def broken(**kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(ClubLog.objects, "create", broken)
    with pytest.raises(RuntimeError):
        apply(club, preview, admin)
    assert Member.objects.get(club=club, name="Jan").phone == "06 1"
    assert not Member.objects.filter(club=club, name="Kees").exists()


def test_a_present_column_is_the_truth_an_absent_one_is_left_alone(club):
    admin = factories.role(club, "admin")
    factories.member(club, "Jan", membership_number="1", phone="06 1", email="jan@example.nl")
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer", "Telefoon"], ["Jan", "1", ""]]))
    assert [str(f) for f in preview.to_change[0].fields] == ["Telefoon: 06 1 → –"]
    apply(club, preview, admin)
    jan = Member.objects.get(club=club, name="Jan")
    assert (jan.phone, jan.email) == ("", "jan@example.nl")


def test_a_new_name_for_a_number_is_a_change_unless_another_member_has_it(club):
    factories.member(club, "Johannes", membership_number="1")
    factories.member(club, "Kees", membership_number="2")
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer"], ["Jan", "1"]]))
    assert [str(f) for f in preview.to_change[0].fields] == ["Naam: Johannes → Jan"]
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer"], ["kees", "1"]]))
    assert "another member is called that" in only_problem(preview).message
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer"], ["Kees", "1"], ["Johannes", ""]]))
    assert [p.row for p in preview.problems] == [2, 3]  # renamed away; then the same member


def test_a_number_of_another_member_is_refused(club):
    factories.member(club, "Jan", membership_number="1")
    factories.member(club, "Kees", membership_number="2")
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer"], ["Jan", ""], ["Piet", "3"]]))
    assert [str(f) for f in preview.to_change[0].fields] == ["Lidnummer: 1 → –"]
    preview = preview_of(club, csv_bytes([["Naam"], ["Jan"], ["jan"]]))
    assert "same name is on row 2" in only_problem(preview).message


def test_two_rows_that_are_one_member_are_an_error(club):
    factories.member(club, "Jan", membership_number="1")
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer"], ["Johannes", "1"], ["Jan", ""]]))
    problem = only_problem(preview)
    assert problem.row == 3 and "row 2 is the same member (Jan)" in problem.message


def test_phone_and_number_cells_that_are_numbers_are_warned_about(club):
    data = xlsx_bytes(
        [["Naam", "Lidnummer", "Telefoon"], ["Jan", 12, 31612345678], ["Kees", "0013", "06 1"]]
    )
    preview = preview_of(club, data, "leden.xlsx")
    assert preview.can_apply
    # 11 digits is not a Dutch number without its 0 (that has 9): kept as it is, warned.
    assert preview.to_add[0] == ImportRow(2, "Jan", "12", "", "31612345678")
    assert preview.warnings == [
        "Column “Lidnummer” holds a number instead of text in row 2: a leading zero is lost "
        "that way (0612345678 becomes 612345678). Check the value, and format the column as "
        "text in the spreadsheet.",
        "Column “Telefoon” holds a number instead of text in row 2: a leading zero is lost "
        "that way (0612345678 becomes 612345678). Check the value, and format the column as "
        "text in the spreadsheet.",
    ]


@pytest.mark.parametrize("value", [True, False, "ja", "nee", "yes", "no", 1, 0, "true", "FALSE"])
def test_active_accepts_booleans_words_and_numbers_in_a_workbook(club, value):
    data = spreadsheets.libreoffice_xlsx([["Naam", "Actief"], ["Jan", value]])
    preview = preview_of(club, data, "leden.xlsx")
    assert preview.ok, problems(preview)
    assert preview.to_add[0].is_active is (value in (True, "ja", "yes", 1, "true"))


def test_an_ods_member_list_imports(admin_client, club):
    rows = [HEADER, ["Jan Jansen", "0101", "jan@example.nl", "06-1", True, False], ["Bep", 102]]
    response = upload(admin_client, club, spreadsheets.ods_bytes(rows), "leden.ods")
    assert response.context["preview"].ok
    admin_client.post(import_url(club), {"token": response.context["token"]})
    assert list(
        Member.objects.filter(club=club).values_list("name", "membership_number", "is_active")
    ) == [("Bep", "102", True), ("Jan Jansen", "0101", True)]


def test_a_csv_with_the_wrong_separator_says_which_it_found(club):
    preview = preview_of(club, b"Naam|Lidnummer\r\nJan|1\r\n")
    assert preview.problems[0].message.startswith("there is no column for the names")
    assert preview.problems[1].message.startswith(
        "The first row is one cell, “Naam|Lidnummer”, with “|” (vertical bar) between"
    )


# ---------------------------------------------------------------- e-mail and leading zeros


def test_a_shared_e_mail_address_of_a_member_in_the_file_adds_the_new_person(club):
    marie = factories.member(club, "Marie Bakker", email="fam@example.nl")
    rows = [
        ["Naam", "E-mail"],
        ["Marie Bakker", "fam@example.nl"],
        ["Piet Bakker", "fam@example.nl"],
    ]
    preview = preview_of(club, csv_bytes(rows))
    # Marie's own row claims her, so Piet (the same family address) is a new member.
    assert [row.name for row in preview.to_add] == ["Piet Bakker"]
    assert [item.row.name for item in preview.skipped] == ["Marie Bakker"]
    assert Member.objects.get(pk=marie.pk).name == "Marie Bakker"


def test_an_e_mail_address_two_members_share_finds_neither(club):
    factories.member(club, "Marie Bakker", email="fam@example.nl")
    factories.member(club, "Piet Bakker", email="fam@example.nl")
    preview = preview_of(club, csv_bytes([["Naam", "E-mail"], ["M. Bakker", "fam@example.nl"]]))
    assert [row.name for row in preview.to_add] == ["M. Bakker"] and preview.to_change == []


def test_an_e_mail_address_of_a_member_with_another_number_finds_nobody(club):
    factories.member(club, "Jan", membership_number="7", email="jan@example.nl")
    data = csv_bytes([["Naam", "Lidnummer", "E-mail"], ["Johannes", "8", "jan@example.nl"]])
    preview = preview_of(club, data)
    assert [row.name for row in preview.to_add] == ["Johannes"] and preview.to_change == []


def test_a_number_without_zeros_that_two_members_could_be_is_refused(club):
    factories.member(club, "Jan", membership_number="045")
    factories.member(club, "Kees", membership_number="0045")
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer"], ["Piet", "45"]]))
    problem = only_problem(preview)
    assert (problem.row, problem.column) == (2, "Lidnummer")
    assert problem.message.startswith("45 may be 0045, 045: the spreadsheet dropped")
    # The name tells which one it is.
    preview = preview_of(club, csv_bytes([["Naam", "Lidnummer"], ["Kees", "45"]]))
    assert preview.ok and preview.to_change == [] and preview.skipped[0].row.name == "Kees"


def test_a_new_member_sharing_a_family_address_is_only_proposed_as_a_rename(admin_client, club):
    marie = factories.member(club, "Marie Bakker", email="fam@example.org", phone="0101111111")
    data = csv_bytes([["Naam", "E-mail", "Telefoon"], ["Piet Bakker", "fam@example.org", "0612"]])
    response = upload(admin_client, club, data, "nieuwe-leden.csv")
    preview = response.context["preview"]
    # The preview proposes it, unticked: the box's value is row 2 and Marie's id.
    [change] = preview.to_change
    assert (change.member_id, change.proposed, change.choice) == (marie.pk, True, f"2-{marie.pk}")
    page = response.content.decode()
    assert f'name="rename" value="2-{marie.pk}"' in page
    assert "Piet Bakker is Marie Bakker: change this member" in page
    # Applied without ticking it: Piet is a new member, Marie stays as she was.
    admin_client.post(import_url(club), {"token": response.context["token"]})
    marie.refresh_from_db()
    assert (marie.name, marie.email, marie.phone) == (
        "Marie Bakker",
        "fam@example.org",
        "0101111111",
    )
    piet = Member.objects.get(club=club, name="Piet Bakker")
    assert (piet.email, piet.phone) == ("fam@example.org", "0612")
    assert Member.objects.filter(club=club).count() == 2


def test_the_service_without_confirmed_renames_adds_the_row(club):
    marie = factories.member(club, "Marie Bakker", email="fam@example.org")
    preview = preview_of(club, csv_bytes([["Naam", "E-mail"], ["Piet Bakker", "fam@example.org"]]))
    result = imports.member_import_apply(
        club=club,
        rows=preview.rows,
        by=factories.role(club, "admin"),
        columns=preview.columns,
        planned=preview.planned_changes,
    )
    assert ([m.name for m in result.added], result.changed) == (["Piet Bakker"], [])
    marie.refresh_from_db()
    assert marie.name == "Marie Bakker"


def test_a_confirmed_rename_changes_the_member_found_by_e_mail(admin_client, club):
    marie = factories.member(club, "Marie Bakker", email="marie@example.org")
    data = csv_bytes([["Naam", "E-mail"], ["Marie de Vries", "marie@example.org"]])
    response = upload(admin_client, club, data, "leden.csv")
    # A box for another row or member is ignored; Marie's own is the confirmation.
    boxes = [f"3-{marie.pk}", f"2-{marie.pk + 1}", "nonsense", f"2-{marie.pk}"]
    admin_client.post(import_url(club), {"token": response.context["token"], "rename": boxes})
    marie.refresh_from_db()
    assert marie.name == "Marie de Vries"
    assert Member.objects.filter(club=club).count() == 1
    log = ClubLog.objects.get(club=club, action=ClubLog.Action.MEMBER_IMPORT)
    assert [item["pk"] for item in log.detail["changed"]] == [marie.pk]
    assert log.detail["added"] == []


def test_renames_from_post_reads_only_row_and_member_numbers():
    assert imports.renames_from_post(["2-17", "x-3", "4-", "5-9"]) == {2: 17, 5: 9}


def test_renames_from_post_ignores_digits_that_are_not_ascii():
    # "²" and fullwidth digits pass str.isdigit() but are no ids: ignored, not a 500.
    assert imports.renames_from_post(["²-3", "2-²", "１-4", "3-0", "6-7"]) == {6: 7}
