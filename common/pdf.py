"""PDFs (reportlab): one setup for every printout of the site.

Every document is built fresh per call (reportlab is not thread-safe across
documents); this module only holds what they share.

Decisions
---------
Fonts
    DejaVu Sans when the system has it (Debian's ``fonts-dejavu-core``, on
    most Linux hosts: nearly every alphabet a member's name can be in, so
    "Łódź" prints as written), else the Bitstream Vera that ships with
    reportlab (Western European letters only). The font is embedded, so the PDF
    prints the same anywhere. Nothing is downloaded. Registered once per process
    under the names :data:`FONT` and :data:`BOLD`; ``<b>`` in a paragraph maps
    to the bold face.
Text
    A paragraph's text is markup to reportlab: :func:`paragraph` escapes it, so
    a name such as ``<b>Jan</b> & Co`` prints as typed.
Pages
    A4 by default with 15 mm margins; :func:`numbered_canvas` draws the club,
    the printing date (in words, the active language's: "8 december 2026") and
    "page n of m" on every page.
"""

from __future__ import annotations

import threading
from pathlib import Path
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _

from common.formatting import date_text

FONT, BOLD = "KJSans", "KJSans-Bold"
#: Where Linux distributions (and macOS, by hand) put DejaVu Sans, and its bold face.
FONT_CANDIDATES = (
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/dejavu/DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/TTF/DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("/Library/Fonts/DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
)
_fonts_lock = threading.Lock()
_fonts_ready = False


def font_files() -> tuple[Path, Path]:
    """(regular, bold): DejaVu Sans when installed, else reportlab's own Vera."""
    for path, bold_name in FONT_CANDIDATES:
        regular = Path(path)
        if regular.exists() and (regular.parent / bold_name).exists():
            return regular, regular.parent / bold_name
    import reportlab

    fonts = Path(reportlab.__file__).parent / "fonts"
    return fonts / "Vera.ttf", fonts / "VeraBd.ttf"


def register_fonts():
    """Register the embedded fonts once per process (safe to call on every document)."""
    global _fonts_ready
    if _fonts_ready:
        return
    with _fonts_lock:
        if _fonts_ready:
            return
        from reportlab.lib.fonts import addMapping
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont

        regular, bold = font_files()
        pdfmetrics.registerFont(TTFont(FONT, str(regular)))
        pdfmetrics.registerFont(TTFont(BOLD, str(bold)))
        addMapping(FONT, 0, 0, FONT)
        addMapping(FONT, 1, 0, BOLD)
        addMapping(FONT, 0, 1, FONT)
        addMapping(FONT, 1, 1, BOLD)
        _fonts_ready = True


def styles() -> dict:
    """The paragraph styles every printout picks from, all in the embedded font."""
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle

    register_fonts()
    base = ParagraphStyle("base", fontName=FONT, fontSize=10, leading=13)
    return {
        "base": base,
        "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10),
        "title": ParagraphStyle("title", parent=base, fontName=BOLD, fontSize=18, leading=22),
        "heading": ParagraphStyle(
            "heading",
            parent=base,
            fontName=BOLD,
            fontSize=13,
            leading=17,
            spaceBefore=8,
            spaceAfter=4,
        ),
        "subtitle": ParagraphStyle("subtitle", parent=base, fontSize=12, leading=15),
        "big": ParagraphStyle("big", parent=base, fontName=BOLD, fontSize=22, leading=26),
        "name": ParagraphStyle("name", parent=base, fontSize=14, leading=18),
        "cell": ParagraphStyle("cell", parent=base, fontSize=9, leading=11),
        "warning": ParagraphStyle(
            "warning", parent=base, fontName=BOLD, textColor=colors.HexColor("#b00020")
        ),
        "plan_name": ParagraphStyle("plan_name", parent=base, fontSize=18, leading=22),
        "plan_label": ParagraphStyle(
            "plan_label", parent=base, fontName=BOLD, fontSize=11, leading=22
        ),
    }


def paragraph(text, style):
    """A reportlab paragraph of ``text`` as typed (escaped: its text is markup)."""
    from reportlab.platypus import Paragraph

    return Paragraph(escape(str(text)), style)


def term(word, text, style):
    """A paragraph "**word**: text", both as typed (escaped), the word in bold: a
    line of a list of explanations, such as what a table's columns count."""
    from reportlab.platypus import Paragraph

    return Paragraph(f"<b>{escape(str(word))}</b>: {escape(str(text))}", style)


def document(buffer, *, title, author="", pagesize=None, margin_mm=15):
    """A document template writing to ``buffer``, with its metadata."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.platypus import SimpleDocTemplate

    register_fonts()
    return SimpleDocTemplate(
        buffer,
        pagesize=pagesize or A4,
        leftMargin=margin_mm * mm,
        rightMargin=margin_mm * mm,
        topMargin=(margin_mm + 1) * mm,
        bottomMargin=(margin_mm - 1) * mm,
        title=str(title),
        author=str(author),
        creator="klaverjas-club",
        # The canvas starts in the embedded font: its default (Helvetica) would
        # otherwise be named on every page.
        initialFontName=FONT,
    )


def numbered_canvas(club, title, printed, *, numbered=True):
    """A canvas class that draws the club, the printing date and (``numbered``)
    "page n of m" on every page; pass it as ``doc.build(..., canvasmaker=...)``."""
    from reportlab.pdfgen.canvas import Canvas

    class PageCanvas(Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._pages = []

        def showPage(self):
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._pages)
            for number, state in enumerate(self._pages, 1):
                self.__dict__.update(state)
                self._decorate(number, total)
                super().showPage()
            super().save()

        def _decorate(self, number, total):
            from reportlab.lib.units import mm

            width, height = self._pagesize
            self.saveState()
            self.setFont(BOLD, 9)
            self.drawString(15 * mm, height - 10 * mm, str(club))
            self.setFont(FONT, 9)
            self.drawRightString(
                width - 15 * mm,
                height - 10 * mm,
                _("Printed %(date)s") % {"date": date_text(printed)} if printed else "",
            )
            self.setFont(FONT, 8)
            self.drawString(15 * mm, 8 * mm, str(title))
            if numbered:
                self.drawRightString(
                    width - 15 * mm,
                    8 * mm,
                    _("Page %(page)s of %(pages)s") % {"page": number, "pages": total},
                )
            self.restoreState()

    return PageCanvas
