"""The one xlsx writer (write-only), read back with openpyxl."""

import datetime
import io

import openpyxl

from common.xlsxfile import MAX_WIDTH, MIN_WIDTH, XlsxWriter, table_sheet


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
