"""Spreadsheet files written the way LibreOffice and Excel write them, for import tests.

- :func:`libreoffice_xlsx`: an .xlsx where true/false cells are ``=TRUE()`` and
  ``=FALSE()`` formulas (LibreOffice has no boolean cells and saves them so).
- :func:`ods_bytes`: a minimal LibreOffice .ods (``mimetype`` stored first,
  ``content.xml``, ``META-INF/manifest.xml``), with the repeated empty rows and
  columns LibreOffice writes after the data, booleans as
  ``office:boolean-value`` (optionally with the ``of:=TRUE()`` formula), numbers
  as ``office:value``, dates as ``office:date-value``.
- :func:`csv_bytes`: a CSV with any separator and encoding.
"""

import csv
import io
import zipfile
from datetime import date, datetime
from xml.sax.saxutils import escape, quoteattr

import openpyxl

ODS_MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"
NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
    'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"'
)
MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
    'manifest:version="1.3">'
    f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{ODS_MIMETYPE}"/>'
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
    "</manifest:manifest>"
)


def csv_bytes(rows, *, delimiter=";", encoding="utf-8-sig"):
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue().encode(encoding)


def xlsx_bytes(rows, *, edit=None):
    """An .xlsx as openpyxl writes it (true/false as boolean cells); ``edit(sheet)`` after."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    if edit:
        edit(sheet)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def libreoffice_xlsx(rows, *, edit=None):
    """Rows as LibreOffice saves them to .xlsx: booleans become =TRUE()/=FALSE() formulas."""
    formulas = {True: "=TRUE()", False: "=FALSE()"}
    rows = [[formulas[v] if isinstance(v, bool) else v for v in row] for row in rows]
    return xlsx_bytes(rows, edit=edit)


class Cell:
    """A raw .ods cell: attributes and paragraphs as written."""

    def __init__(self, *paragraphs, **attributes):
        self.paragraphs = paragraphs
        self.attributes = attributes


def _cell(value, *, formula_booleans):
    if isinstance(value, Cell):
        attributes = "".join(
            f" {name.replace('__', ':').replace('_', '-')}={quoteattr(str(v))}"
            for name, v in value.attributes.items()
        )
        body = "".join(f"<text:p>{p}</text:p>" for p in value.paragraphs)
        return f"<table:table-cell{attributes}>{body}</table:table-cell>"
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, bool):
        word = "true" if value else "false"
        formula = f' table:formula="of:={word.upper()}()"' if formula_booleans else ""
        return (
            f'<table:table-cell{formula} office:value-type="boolean" '
            f'office:boolean-value="{word}" calcext:value-type="boolean">'
            f"<text:p>{word.upper()}</text:p></table:table-cell>"
        )
    if isinstance(value, int | float):
        return (
            f'<table:table-cell office:value-type="float" office:value="{value}" '
            f'calcext:value-type="float"><text:p>{value}</text:p></table:table-cell>'
        )
    if isinstance(value, datetime | date):
        return (
            f'<table:table-cell office:value-type="date" office:date-value="{value.isoformat()}">'
            f"<text:p>{value.isoformat()}</text:p></table:table-cell>"
        )
    return (
        '<table:table-cell office:value-type="string" calcext:value-type="string">'
        f"<text:p>{escape(str(value))}</text:p></table:table-cell>"
    )


def ods_content(rows, *, formula_booleans=True, sheets=1, doctype=""):
    body = []
    for number in range(sheets):
        body.append(f'<table:table table:name="Blad{number + 1}">')
        body.append('<table:table-column table:number-columns-repeated="1024"/>')
        for row in rows if number == 0 else [["ander blad"]]:
            if row == "blank":
                body.append(
                    '<table:table-row table:number-rows-repeated="3">'
                    '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
                )
                continue
            cells = "".join(_cell(value, formula_booleans=formula_booleans) for value in row)
            body.append(
                f"<table:table-row>{cells}"
                '<table:table-cell table:number-columns-repeated="16000"/></table:table-row>'
            )
        # LibreOffice writes the rest of the sheet as one repeated empty row.
        body.append(
            '<table:table-row table:number-rows-repeated="1048500">'
            '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
        )
        body.append("</table:table>")
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype}'
        f'<office:document-content {NAMESPACES} office:version="1.3">'
        "<office:body><office:spreadsheet>" + "".join(body) + "</office:spreadsheet>"
        "</office:body></office:document-content>"
    )


def ods_bytes(rows, *, formula_booleans=True, mimetype=ODS_MIMETYPE, content=None, **kwargs):
    """A LibreOffice .ods holding ``rows`` on its first sheet ("blank" = 3 empty rows)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), mimetype)  # stored, first
        archive.writestr(
            "content.xml",
            content or ods_content(rows, formula_booleans=formula_booleans, **kwargs),
        )
        archive.writestr("META-INF/manifest.xml", MANIFEST)
    return buffer.getvalue()
