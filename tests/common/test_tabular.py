"""The one reader of imported spreadsheets: CSV, .xlsx and .ods, as the programs write them."""

import codecs
import dataclasses
import io
import time
import zipfile
from datetime import date, datetime

import openpyxl
import pytest
from django.utils import translation

from common import tabular
from common.tabular import Bad, Limits, Rejected, normalise_title, read_table
from tests.common.spreadsheets import (
    Cell,
    csv_bytes,
    libreoffice_xlsx,
    ods_bytes,
    ods_content,
    xlsx_bytes,
)

LIMITS = Limits(max_bytes=5 * 1024 * 1024, max_rows=100)
KNOWN = {normalise_title(t) for t in ("naam", "lidnummer", "telefoon", "actief", "date", "round")}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def read(data, filename="file.csv", limits=LIMITS):
    table = read_table(data, filename, limits=limits, known_titles=KNOWN)
    return table, list(table.rows())


def rejected(data, filename="file.csv", limits=LIMITS):
    with pytest.raises(Rejected) as caught:
        read(data, filename, limits)
    (problem,) = caught.value.problems
    return problem.message


# ---------------------------------------------------------------- CSV


@pytest.mark.parametrize("separator", [";", ",", "\t"])
def test_csv_separator_is_the_one_that_finds_the_titles(separator):
    data = csv_bytes([["Naam", "Telefoon"], ["Jansen, J.; jr", "06 1"]], delimiter=separator)
    table, rows = read(data)
    assert table.separator == separator
    assert rows == [(1, ["Naam", "Telefoon"]), (2, ["Jansen, J.; jr", "06 1"])]


def test_both_imports_sniff_the_same_way_a_tie_is_a_semicolon():
    table, rows = read(b"a;b,c\r\n1;2,3\r\n")
    assert table.separator == ";" and rows[0] == (1, ["a", "b,c"])


def test_utf8_without_bom_and_utf16_with_bom_are_read():
    _table, rows = read("naam\r\nZoë\r\n".encode())
    assert rows[1] == (2, ["Zoë"])
    data = csv_bytes([["naam", "actief"], ["Zoë", "ja"]], delimiter="\t", encoding="utf-16")
    assert data.startswith(codecs.BOM_UTF16_LE)
    table, rows = read(data)
    assert rows[1] == (2, ["Zoë", "ja"]) and table.warnings == []


def test_windows_1252_is_read_with_a_warning_that_speaks_to_every_user():
    table, rows = read("naam\r\nJosé Müller €5\r\n".encode("cp1252"))
    assert rows[1] == (2, ["José Müller €5"])
    (warning,) = table.warnings
    assert "Windows-1252" in warning
    assert "Excel: “CSV UTF-8”" in warning and "LibreOffice: “Unicode (UTF-8)”" in warning


def test_a_file_in_no_known_encoding_is_refused_with_its_line():
    message = rejected(b"naam\r\nJan\r\nJos\x81\x8d\r\n")
    assert "not text in UTF-8 or Windows-1252 (line 3" in message
    assert "LibreOffice" in message and ".ods" in message


def test_a_binary_file_is_not_a_csv():
    assert "not a CSV text file" in rejected(b"\x00\x01\x02binary")
    assert "not a CSV text file" in rejected(b"%PDF-1.4\x00\x00\x07 stream")


def test_blank_lines_are_skipped_and_row_numbers_are_the_files():
    _table, rows = read(b"naam;x\r\n\r\n;\r\n  ;\r\nJan;\r\n")
    assert rows == [(1, ["naam", "x"]), (5, ["Jan"])]


def test_millions_of_blank_lines_are_skipped_quickly():
    started = time.perf_counter()
    _table, rows = read(b"naam\r\n" + b"\r\n" * 2_000_000 + b"Jan\r\n")
    assert rows[-1] == (2_000_002, ["Jan"])
    assert time.perf_counter() - started < 5


def test_header_hint_names_the_separator_inside_one_cell():
    # The hand log (commas) opened in Dutch Excel, which splits on ";", and saved again.
    table, rows = read(b'"date,round,table,hand"\r\n"2026-10-06,1,1,1"\r\n')
    assert rows[0] == (1, ["date,round,table,hand"])
    hint = table.header_hint()
    assert "one cell, “date,round,table,hand”" in hint
    assert "“,” (comma) between the titles" in hint
    assert "a semicolon (;), a comma (,) or a tab" in hint


def test_header_hint_names_an_unknown_separator():
    table, _rows = read(b"naam|lidnummer\r\nJan|1\r\n")
    assert "“|” (vertical bar)" in table.header_hint()


def test_header_hint_when_the_titles_are_simply_unknown():
    table, _rows = read(b"adres;woonplaats\r\nDorpsstraat 1;Ede\r\n")
    hint = table.header_hint()
    assert "“;” (semicolon) between its titles" in hint and "none of them" in hint


def test_an_unclosed_quote_is_refused_with_the_row():
    data = b'naam\r\nJan\r\n"' + b"x" * 200_000 + b"\r\n"
    message = rejected(data)
    assert "after row 2" in message and "never closed" in message


# ---------------------------------------------------------------- cells, every format


def test_the_sites_formula_guard_is_dropped_in_every_format():
    rows = [["naam", "telefoon"], ["'=1+1", "'+31 6 1234"], ["'t Hart", "'-5"], ["'@x", "''+"]]
    # "''+" is how the site writes a text that itself is "'+" (common.csvfile.guard).
    expected = [["=1+1", "+31 6 1234"], ["'t Hart", "-5"], ["@x", "'+"]]
    for data, name in [
        (csv_bytes(rows), "l.csv"),
        (libreoffice_xlsx(rows), "l.xlsx"),  # LibreOffice keeps the apostrophe as data
        (ods_bytes(rows), "l.ods"),
    ]:
        _table, got = read(data, name)
        assert [cells for _n, cells in got[1:]] == expected, name


def test_control_characters_and_nul_are_bad_cells_in_every_format():
    rows = [["naam", "telefoon"], ["Jan\nJansen", "06"], ["Kees\x00", "1\t2"], [" Bep ", "x"]]
    # XML holds no NUL: in an .ods a tab and a second paragraph instead.
    in_ods = [*rows[:2], [Cell("Kees", "2"), Cell("1<text:tab/>2")], rows[3]]
    for data, name in [(csv_bytes(rows), "l.csv"), (ods_bytes(in_ods), "l.ods")]:
        _table, got = read(data, name)
        cells = [cells for _n, cells in got[1:]]
        assert isinstance(cells[0][0], Bad) and "line break" in cells[0][0].message, name
        assert isinstance(cells[1][0], Bad) and isinstance(cells[1][1], Bad), name
        assert cells[2] == ["Bep", "x"], name
    # openpyxl refuses to write NUL; a line break it writes.
    _table, got = read(xlsx_bytes([["naam"], ["Jan\nJansen"]]), "l.xlsx")
    assert isinstance(got[1][1][0], Bad)


def test_a_cell_longer_than_the_limit_is_bad():
    limits = dataclasses.replace(LIMITS, max_cell_chars=10)
    _table, rows = read(b"naam\r\n" + b"x" * 11 + b"\r\nJan\r\n", limits=limits)
    assert isinstance(rows[1][1][0], Bad) and "more than 10 characters" in rows[1][1][0].message
    assert rows[2] == (3, ["Jan"])


# ---------------------------------------------------------------- .xlsx


def test_xlsx_boolean_formulas_read_as_their_values_other_formulas_are_bad():
    rows = [["naam", "actief", "gast"], ["Jan", True, False]]

    def more(sheet):
        sheet["D2"] = "=SUM(1,2)"
        sheet["A3"] = "Kees"
        sheet["B3"] = "=true"
        sheet["C3"] = "= FALSE ( )"

    _table, got = read(libreoffice_xlsx(rows, edit=more), "l.xlsx")
    assert got[1] == (2, ["Jan", True, False, Bad(got[1][1][3].message)])
    assert "formula (=SUM(1,2))" in got[1][1][3].message
    assert got[2] == (3, ["Kees", True, False])


def test_xlsx_values_numbers_dates_and_error_cells():
    def error(sheet):
        sheet["D2"] = "#DIV/0!"
        sheet["D2"].data_type = "e"

    data = xlsx_bytes([["naam", "nr", "datum"], ["Jan", 12, datetime(2026, 10, 6)]], edit=error)
    _table, rows = read(data, "l.xlsx")
    name, number, when, bad = rows[1][1]
    assert (name, number, when) == ("Jan", 12, datetime(2026, 10, 6))
    assert isinstance(bad, Bad) and "#DIV/0!" in bad.message


def test_xlsx_merged_cells_are_a_problem_naming_the_range():
    data = xlsx_bytes(
        [["naam", "nr"], ["Jan", 1], ["Kees", None]], edit=lambda s: s.merge_cells("A3:B3")
    )
    table, _rows = read(data, "l.xlsx")
    assert [(p.row, p.message) for p in table.problems] == [
        (3, "cells A3:B3 are merged; unmerge them so that every cell holds its own value.")
    ]


def test_xlsx_is_read_streaming_never_loaded_whole(monkeypatch):
    calls = []
    real = openpyxl.load_workbook

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(openpyxl, "load_workbook", spy)
    read(xlsx_bytes([["naam"], ["Jan"]]), "l.xlsx")
    assert calls == [{"read_only": True, "data_only": False, "keep_links": False}]


def test_xlsx_a_stray_cell_far_away_is_left_out_with_a_warning():
    def stray(sheet):
        sheet["XFD1048576"] = "oeps"
        sheet["CW2"] = "net te ver"

    started = time.perf_counter()
    table, rows = read(xlsx_bytes([["naam"], ["Jan"]], edit=stray), "l.xlsx")
    assert rows == [(1, ["naam"]), (2, ["Jan"])]
    assert table.warnings == ["Only columns A to CV are read; the sheet goes on to column XFD."]
    assert time.perf_counter() - started < 10


def test_xlsx_that_unpacks_too_large_or_holds_too_many_strings_is_refused():
    data = xlsx_bytes([["naam"], ["Jan"]])
    limits = dataclasses.replace(LIMITS, max_unpacked_bytes=1000)
    assert "too large when unpacked" in rejected(data, "l.xlsx", limits)
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a") as archive:  # as Excel and LibreOffice write texts
        archive.writestr("xl/sharedStrings.xml", "<sst>" + "<si><t>x</t></si>" * 100 + "</sst>")
    limits = dataclasses.replace(LIMITS, max_shared_strings_bytes=1000)
    assert "too large when unpacked" in rejected(buffer.getvalue(), "l.xlsx", limits)


@pytest.mark.parametrize(
    "data, filename",
    [
        (b"PK\x03\x04 not really a zip", "l.xlsx"),
        (b"naam\r\n", "l.xlsx"),
        (b"naam\r\n", "l.ods"),
    ],
)
def test_files_that_are_no_workbook_are_refused(data, filename):
    assert "not an Excel workbook (.xlsx) or a LibreOffice spreadsheet (.ods)" in rejected(
        data, filename
    )


def test_old_xls_and_empty_files_are_refused():
    assert "old Excel file (.xls)" in rejected(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600))
    assert rejected(b"") == "The file is empty."


# ---------------------------------------------------------------- .ods


def test_ods_as_libreoffice_writes_it():
    rows = [
        ["Naam", "Lidnummer", "Actief", "Gast", "Lid sinds"],
        ["Jan", 612345678, True, False, date(2020, 1, 31)],
        "blank",
        ["Kees", 12.5, False, True, datetime(2020, 1, 31, 20, 15)],
    ]
    started = time.perf_counter()
    table, got = read(ods_bytes(rows), "leden.ods")
    assert time.perf_counter() - started < 5  # 16,000 and a million repeats, not expanded
    assert got == [
        (1, ["Naam", "Lidnummer", "Actief", "Gast", "Lid sinds"]),
        (2, ["Jan", 612345678, True, False, date(2020, 1, 31)]),
        (6, ["Kees", 12.5, False, True, datetime(2020, 1, 31, 20, 15)]),
    ]
    assert table.kind == "ods" and table.problems == [] and table.warnings == []


def test_ods_booleans_without_a_formula_and_other_formulas():
    rows = [
        ["naam", "actief", "som"],
        ["Jan", True, Cell("3", table__formula="of:=1+2", office__value_type="float")],
    ]
    _table, got = read(ods_bytes(rows, formula_booleans=False), "l.ods")
    assert got[1][1][:2] == ["Jan", True]
    assert isinstance(got[1][1][2], Bad) and "formula (of:=1+2)" in got[1][1][2].message


def test_ods_repeated_cells_and_spaces_and_comments():
    rows = [
        ["a", Cell("x", table__number_columns_repeated=3), None, "b"],
        [Cell('Jan<text:s text:c="2"/>de Vries')],
        [Cell("<office:annotation><text:p>een opmerking</text:p></office:annotation>Piet")],
    ]
    _table, got = read(ods_bytes(rows), "l.ods")
    assert got[0] == (1, ["a", "x", "x", "x", None, "b"])
    assert got[1] == (2, ["Jan  de Vries"])
    assert got[2] == (3, ["Piet"])


def test_ods_merged_cells_are_a_problem_naming_the_range():
    rows = [["naam", "nr"], [Cell("Jan", table__number_columns_spanned=2)]]
    table, got = read(ods_bytes(rows), "l.ods")
    assert got[1] == (2, ["Jan"])
    assert [(p.row, p.message[:15]) for p in table.problems] == [(2, "cells A2:B2 are")]


def test_ods_reads_the_first_sheet_only():
    _table, got = read(ods_bytes([["naam"], ["Jan"]], sheets=2), "l.ods")
    assert got == [(1, ["naam"]), (2, ["Jan"])]


def test_ods_with_another_mimetype_or_a_doctype_is_refused():
    odt = ods_bytes([["naam"]], mimetype="application/vnd.oasis.opendocument.text")
    assert "not an Excel workbook" in rejected(odt, "l.ods")
    bomb = ods_bytes(
        [["&a;"]], doctype='<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]>'
    )  # entities are never expanded
    assert "not an Excel workbook" in rejected(bomb, "l.ods")


def test_a_broken_ods_is_refused_not_a_500():
    data = ods_bytes(None, content="<office:document-content><table:table")
    assert "not an Excel workbook" in rejected(data, "l.ods")


# ---------------------------------------------------------------- limits


@pytest.mark.parametrize("kind", ["csv", "xlsx", "ods"])
def test_more_rows_than_the_limit_are_refused_while_reading(kind):
    rows = [["naam"], *[[f"Speler {n}"] for n in range(101)]]
    data = {"csv": csv_bytes, "xlsx": libreoffice_xlsx, "ods": ods_bytes}[kind](rows)
    message = rejected(data, f"l.{kind}")
    assert "more than 100 rows below the column titles" in message
    _table, got = read(data, f"l.{kind}", dataclasses.replace(LIMITS, max_rows=101))
    assert len(got) == 102


def test_ods_rows_repeated_past_the_limit_are_refused():
    content = ods_content([["naam"], ["Jan"]]).replace(
        '<table:table-row><table:table-cell office:value-type="string" '
        'calcext:value-type="string"><text:p>Jan',
        '<table:table-row table:number-rows-repeated="5000000"><table:table-cell '
        'office:value-type="string" calcext:value-type="string"><text:p>Jan',
    )
    assert "more than 100 rows" in rejected(ods_bytes(None, content=content), "l.ods")


@pytest.mark.parametrize("kind", ["csv", "ods"])
def test_values_right_of_the_column_limit_are_left_out_with_a_warning(kind):
    limits = dataclasses.replace(LIMITS, max_columns=3)
    rows = [["naam", "b", "c", "d", "e"], ["Jan", 1, 2, 3, 4]]
    data = csv_bytes(rows) if kind == "csv" else ods_bytes(rows)
    table, got = read(data, f"l.{kind}", limits)
    assert got[1][1] == (["Jan", "1", "2"] if kind == "csv" else ["Jan", 1, 2])
    assert table.warnings == [
        "Only columns A to C are read; row 1 has values further to the right, which are left out."
    ]


def test_a_file_over_the_size_limit_is_refused_before_reading():
    limits = dataclasses.replace(LIMITS, max_bytes=10)
    assert "too large (11" in rejected(b"naam\r\nJan\r\n", limits=limits)


def test_column_letters():
    assert [tabular.column_letter(i) for i in (0, 25, 26, 99, 16383)] == [
        "A",
        "Z",
        "AA",
        "CV",
        "XFD",
    ]


def test_a_zip_that_is_no_spreadsheet_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("photo.jpg", b"\xff\xd8")
    assert "not an Excel workbook" in rejected(buffer.getvalue(), "l.xlsx")


# ---------------------------------------------------------------- lost letters


def lost(value):
    return isinstance(value, Bad) and "lost" in value.message and "UTF-8" in value.message


@pytest.mark.parametrize(
    "encoding", ["cp1252", "ascii"], ids=["windows-1252", "plain ascii, no byte-order mark"]
)
def test_a_question_mark_in_an_8_bit_csv_is_a_lost_letter_but_not_in_a_title(encoding):
    text = "Naam;Betaald?\r\n?ukasz W?sowski;ja\r\nJan;nee?\r\n" + (
        "José;ja\r\n" if encoding == "cp1252" else ""
    )
    _table, rows = read(text.encode(encoding))
    assert rows[0] == (1, ["Naam", "Betaald?"])  # a title may ask
    assert lost(rows[1][1][0]) and rows[1][1][1] == "ja"
    assert rows[2][1][0] == "Jan" and lost(rows[2][1][1])
    assert "Windows-1252 has no Ł or ą" in rows[1][1][0].message


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-8", "utf-16"])
def test_a_question_mark_in_a_unicode_csv_is_a_question_mark(encoding):
    data = "Naam;Notitie\r\nZoë;komt ze?\r\n".encode(encoding)
    _table, rows = read(data)
    assert rows[1] == (2, ["Zoë", "komt ze?"])


def test_the_replacement_character_is_a_lost_letter_in_every_format():
    rows = [["Naam", "Telefoon"], ["\ufffdukasz", "06 1"]]
    for data, filename in [
        (csv_bytes(rows), "file.csv"),
        (xlsx_bytes(rows), "file.xlsx"),
        (ods_bytes(rows), "file.ods"),
    ]:
        _table, read_rows = read(data, filename)
        cells = read_rows[1][1]
        assert lost(cells[0]) and "“\ufffd”" in cells[0].message, filename
        assert cells[1] == "06 1"
