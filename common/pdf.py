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
from typing import NamedTuple
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


# --- Tables that fit the page --------------------------------------------------------------

#: Reportlab's cell padding, left plus right, and a point to spare for rounding.
CELL_PADDING = 12 + 1


def _lines(text):
    return str(text).split("\n")


def _text_width(text, font, size):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return max(stringWidth(line, font, size) for line in _lines(text))


def _word_width(text, font, size):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    words = str(text).split()
    return max((stringWidth(word, font, size) for word in words), default=0)


def table_widths(data, *, header=True, wrap=(), size=9, wrap_header=True):
    """(natural, least) widths of the columns of ``data`` (rows of texts): as wide as
    the widest cell, and as narrow as the longest word of the header
    (``wrap_header``; else its whole text) and, for the columns in ``wrap`` (their
    texts may wrap), of every cell; the other columns' cells keep their whole width."""
    register_fonts()
    natural, least = [], []
    for index in range(len(data[0])):
        head = [data[0][index]] if header else []
        body = [row[index] for row in data[1 if header else 0 :]]
        widths = [_text_width(text, BOLD, size) for text in head]
        widths += [_text_width(text, FONT, size) for text in body]
        natural.append(max(widths, default=0) + CELL_PADDING)
        words = [(_word_width if wrap_header else _text_width)(text, BOLD, size) for text in head]
        measure = _word_width if index in wrap else _text_width
        words += [measure(text, FONT, size) for text in body]
        least.append(max(words, default=0) + CELL_PADDING)
    return natural, least


def fitted_widths(natural, width, *tiers):
    """Column widths that fit ``width``: the natural ones when they fit; else, tier by
    tier (each a list of least widths, narrower), the columns give up room in
    proportion to what they have beyond the tier's least, at the first tier that
    leaves enough; when even the last is too wide, every column shrinks in proportion
    (its long words split)."""
    if sum(natural) <= width:
        return list(natural)
    excess = sum(natural) - width
    for least in tiers:
        spare = [most - few for most, few in zip(natural, least, strict=True)]
        if sum(spare) >= excess:
            share = excess / sum(spare)
            return [most - room * share for most, room in zip(natural, spare, strict=True)]
    least = tiers[-1] if tiers else natural
    return [few * width / sum(least) for few in least]


#: Room a page keeps beside a table: the 15 mm margins of :func:`document`, in points.
PAGE_MARGINS = 2 * 15 * 72 / 25.4


def fitting_pagesize(natural, least, *, portrait=True):
    """A4 upright when the columns fit it at their natural widths (or, for a page that
    prefers upright, at their least), else A4 landscape."""
    from reportlab.lib.pagesizes import A4, landscape

    room = A4[0] - PAGE_MARGINS
    fits = sum(least) <= room if portrait else sum(natural) <= room
    return A4 if fits else landscape(A4)


def fitted_table(data, *, width, header=True, wrap=None, numeric=(), size=9, fill=False, style=()):
    """A reportlab table of ``data`` (rows of texts; a newline starts a line) no wider
    than ``width``: the columns in ``wrap`` (by default every column not in
    ``numeric``) wrap their texts, the ``numeric`` ones are right-aligned; ``fill``: a
    form as wide as ``width``, the room to spare shared by the columns. Every cell is
    an escaped paragraph, so a long name wraps inside its cell instead of printing over
    the next one."""
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, Table, TableStyle

    columns = range(len(data[0]))
    wrap = set(columns) - set(numeric) if wrap is None else set(wrap)
    # The texts wrap first; the headers only when that is not enough.
    natural, texts = table_widths(data, header=header, wrap=wrap, size=size, wrap_header=False)
    _natural, words = table_widths(data, header=header, wrap=wrap, size=size)
    widths = fitted_widths(natural, width, texts, words)
    if fill and sum(widths) < width:
        widths = [each + (width - sum(widths)) / len(widths) for each in widths]
    plain = ParagraphStyle("fitted", fontName=FONT, fontSize=size, leading=size + 2)
    bold = ParagraphStyle("fitted-head", parent=plain, fontName=BOLD)
    right, bold_right = (
        ParagraphStyle(f"{s.name}-right", parent=s, alignment=TA_RIGHT) for s in (plain, bold)
    )

    def cell(text, number, index):
        head = header and number == 0
        chosen = (bold_right if head else right) if index in numeric else (bold if head else plain)
        return Paragraph("<br/>".join(escape(line) for line in _lines(text)), chosen)

    cells = [
        [cell(text, number, index) for index, text in enumerate(row)]
        for number, row in enumerate(data)
    ]
    table = Table(cells, colWidths=widths, repeatRows=1 if header else 0)
    commands = [
        ("FONT", (0, 0), (-1, -1), FONT, size),  # else the table names Helvetica
        ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]
    if header:
        commands.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eceff1")))
    table.setStyle(TableStyle([*commands, *style]))
    return table


class Grid(NamedTuple):
    """A table of texts to print: ``data`` the rows of texts (the header row first),
    ``numeric`` the indexes of the columns that are right-aligned. Measure it
    (:func:`table_widths` of ``data``) to choose the page, then :meth:`table`."""

    data: list[list[str]]
    numeric: frozenset[int]

    def table(self, width, *, style=(), **options):
        """The grid as a :func:`fitted_table` no wider than ``width``."""
        return fitted_table(self.data, width=width, numeric=self.numeric, style=style, **options)


def column_grid(columns, rows) -> Grid:
    """A table of a column spec (:class:`common.columns.Column`) as the PDF prints
    it: the titles, a row of each row's texts as the page shows them, and its
    numeric columns right-aligned. The one way every PDF lays out a listed table."""
    return Grid(
        [
            [str(column.title) for column in columns],
            *([column.text(row) for column in columns] for row in rows),
        ],
        frozenset(index for index, column in enumerate(columns) if column.numeric),
    )
