"""The one reportlab setup: the embedded font, escaped text, page decorations."""

import datetime
import io
from fractions import Fraction

from django.utils import translation
from pypdf import PdfReader

from common.columns import DECIMAL, NO_RANK, RANK, TEXT, Column
from common.pdf import column_grid, document, font_files, numbered_canvas, paragraph, styles


def pdf_fonts(data):
    """{base name: embedded?} of every font the PDF's pages name."""
    fonts = {}
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            embedded = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            fonts[str(font["/BaseFont"])] = embedded
    return fonts


def test_the_font_is_dejavu_sans_from_the_system():
    """The host has Debian's fonts-dejavu-core (README); nothing is downloaded."""
    regular, bold = font_files()
    assert regular.name == "DejaVuSans.ttf" and bold.name == "DejaVuSans-Bold.ttf"


def test_a_document_prints_every_alphabet_in_the_embedded_font_only():
    buffer = io.BytesIO()
    every = styles()
    doc = document(buffer, title="Łódź", author="Klub")
    story = [paragraph("Łódź <b>Wiśniewska</b> & Ἀθῆναι", every["title"])]
    with translation.override("nl"):
        canvas = numbered_canvas("Klub Łódź", "Stand", datetime.date(2026, 10, 6))
        doc.build(story, canvasmaker=canvas)
    data = buffer.getvalue()
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    assert "Łódź <b>Wiśniewska</b> & Ἀθῆναι" in text  # markup printed as typed
    assert "Klub Łódź" in text and "Afgedrukt 6 oktober 2026" in text and "Pagina 1 van 1" in text
    fonts = pdf_fonts(data)
    assert fonts and all(fonts.values()), fonts
    assert all("DejaVuSans" in name for name in fonts), fonts


def test_a_column_grid_prints_the_titles_the_pages_texts_and_right_aligns_numbers():
    columns = [
        Column("rank", "Plaats", RANK, 7),
        Column("name", "Naam", TEXT, 20),
        Column("average", "Gemiddelde", DECIMAL, 10, 1),
    ]
    rows = [
        {"rank": 3, "shared": True, "name": "Ann", "average": Fraction(16251, 10)},
        {"rank": None, "name": "Bob", "average": None},
    ]
    with translation.override("nl"):
        grid = column_grid(columns, rows)
    assert grid.data == [
        ["Plaats", "Naam", "Gemiddelde"],
        ["3=", "Ann", "1625,1"],
        [NO_RANK, "Bob", ""],
    ]
    assert grid.numeric == {0, 2}
