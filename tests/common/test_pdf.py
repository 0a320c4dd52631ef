"""The one reportlab setup: the embedded font, escaped text, page decorations."""

import datetime
import io

from django.utils import translation
from pypdf import PdfReader

from common.pdf import document, font_files, numbered_canvas, paragraph, styles


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
