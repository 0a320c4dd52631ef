"""The one xlsx writer (write-only), read back with openpyxl."""

import datetime
import io
from fractions import Fraction

import openpyxl

from common.columns import DATE, DECIMAL, NUMBER, RANK, TEXT, Column
from common.xlsxfile import MAX_WIDTH, MIN_WIDTH, XlsxWriter, column_sheet, table_sheet


def read(data):
    return openpyxl.load_workbook(io.BytesIO(data))


def test_sheet_names_lose_characters_excel_forbids_and_stay_unique():
    out = XlsxWriter()
    names = [out.sheet(name).title for name in ["Stand: 2026/27 [najaar]?", "x" * 40, "x" * 40]]
    assert names[0] == "Stand  2026 27  najaar"
    assert len(names[1]) == len(names[2]) == 31 and names[1] != names[2]


def test_a_table_sheet_holds_real_values_and_guards_formulas():
    out = XlsxWriter()
    rows = [
        ['=HYPERLINK("x")', 12, datetime.date(2026, 10, 6), True, None, "0012"],
        ["Łódź\x07", -3.5, None, False, "", "a" * 80],
    ]
    table_sheet(out, "Blad", ["Naam", "n", "datum", "ja", "leeg", "nummer"], rows)
    sheet = read(out.save())["Blad"]
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == "A1:F3"
    assert all(cell.font.bold for cell in sheet[1])
    first, second = sheet[2], sheet[3]
    assert first[0].value == '=HYPERLINK("x")' and first[0].data_type == "s"
    assert first[0].quotePrefix
    assert first[1].value == 12 and first[2].value == datetime.datetime(2026, 10, 6)
    assert first[2].number_format == "yyyy-mm-dd"
    assert first[3].value is True and first[4].value is None and first[5].value == "0012"
    assert second[0].value == "Łódź"  # the control character a workbook cannot hold is gone
    assert second[4].value is None
    widths = [sheet.column_dimensions[letter].width for letter in "ABCDEF"]
    assert all(MIN_WIDTH <= width <= MAX_WIDTH for width in widths)
    assert widths[5] == MAX_WIDTH


def test_an_empty_workbook_still_has_a_sheet():
    assert read(XlsxWriter().save()).sheetnames == ["Sheet"]


def test_a_column_sheet_writes_each_kind_of_column_as_the_page_shows_it():
    columns = [
        Column("rank", "Plaats", RANK, 7),
        Column("name", "Naam", TEXT, 20, help="Wie speelde."),
        Column("average", "Gemiddelde", DECIMAL, 10, 1),
        Column("day", "Datum", DATE, 11),
        Column("points", "Punten", NUMBER, 10, 2),
    ]
    rows = [
        {"rank": 3, "shared": True, "name": "=1+1", "average": Fraction(16251, 10), "points": 7},
        {"rank": 5, "name": "Bob", "day": datetime.date(2026, 10, 6), "points": Fraction(5, 8)},
    ]
    out = XlsxWriter()
    column_sheet(out, "Stand", columns, rows, title="Stand", lines=["na 3 avonden"])
    sheet = read(out.save())["Stand"]
    # The title, the line, an empty row, then the header: frozen and filtered under it.
    assert sheet["A1"].value == "Stand" and sheet["A2"].value == "na 3 avonden"
    assert [cell.value for cell in sheet[4]] == ["Plaats", "Naam", "Gemiddelde", "Datum", "Punten"]
    assert sheet.freeze_panes == "A5" and sheet.auto_filter.ref == "A4:E6"
    assert sheet["B4"].comment.text == "Wie speelde."
    shared, plain = sheet[5], sheet[6]
    assert shared[0].value == 3 and shared[0].number_format == '0"="'  # shows 3=, sorts as 3
    assert plain[0].value == 5 and plain[0].number_format == "General"
    assert shared[1].value == "=1+1" and shared[1].quotePrefix
    assert shared[2].value == 1625.1 and shared[2].number_format == "0.0"
    assert plain[3].value == datetime.datetime(2026, 10, 6)
    assert plain[3].number_format == "yyyy-mm-dd"
    assert shared[4].value == 7 and plain[4].value == 0.63
    assert [sheet.column_dimensions[letter].width for letter in "AB"] == [7, 20]
