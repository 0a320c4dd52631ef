"""QR codes of the tables' private links: inline SVG for the page, reportlab for the PDF.

Both are drawn from one module matrix made by reportlab's QR encoder (error
correction M, so a code still scans with a crease or a coffee ring), with the
four-module quiet zone the standard asks for. The SVG is one ``<path>`` in module
units: a few kilobytes, sharp at any size, no ids (many codes share one page),
no script and nothing from another site.

Nothing here knows about requests: callers pass the absolute URLs (the view
builds them from the request, so on the club laptop they carry the laptop's
address) and get a string or PDF bytes back. A fresh reportlab document per call.
"""

from __future__ import annotations

import functools
import io
import itertools
from dataclasses import dataclass
from xml.sax.saxutils import escape

from django.http.request import split_domain_port
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from common.pdf import BOLD, FONT, document, paragraph, register_fonts

QUIET_ZONE = 4  # modules of white around the code
LEVEL = "M"

LOOPBACK = ("localhost", "127.", "[::1]", "::1")
LOOPBACK_WARNING = _(
    "Printed from localhost: these codes lead to the computer that printed them, and no "
    "phone can follow them. Print again from the laptop's network address (make lan "
    "prints it)."
)


def is_loopback_host(host: str) -> bool:
    """Links made on this host (``localhost:8000``, ``127.0.0.1``) lead to the
    computer itself: no phone can follow them."""
    return split_domain_port(host)[0].startswith(LOOPBACK) or host.startswith(LOOPBACK)


def qr_code(url: str, *, size: float = 1, border: int = QUIET_ZONE):
    """reportlab's QR code of ``url`` as a flowable, ``size`` points square with
    ``border`` modules of quiet zone. (It draws each dark run straight on the page;
    reportlab's widget, in a Drawing, makes a checked shape of each: twice the CPU.)"""
    return _flowable()(url, width=size, height=size, qrLevel=LEVEL, qrBorder=border)


def qr_modules(url: str) -> list[list[bool]]:
    """The code's modules, row by row (True is dark), without the quiet zone."""
    return [list(row) for row in _matrix(url)]


@functools.lru_cache(maxsize=1024)
def _matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """reportlab's encoding of ``url``, made once per link and process: the encoder
    tries all eight masks (about 10 ms of CPU a code), and a round's codes are drawn
    again each time its sheet or its page of codes is opened."""
    from reportlab.graphics.barcode.qr import QrCode

    code = QrCode(url, qrLevel=LEVEL)
    code.qr.make()
    return tuple(tuple(bool(cell) for cell in row) for row in code.qr.modules)


@functools.cache
def _flowable():
    """reportlab's QR flowable, drawn from ``_matrix`` (reportlab imported when a PDF is
    first made, not when the site starts)."""
    from reportlab.graphics.barcode.qr import QrCode

    class CachedQrCode(QrCode):
        def draw(self):
            modules = _matrix(self.value)
            side = len(modules) + 2 * self.qrBorder
            xsize, ysize = self.width / side, self.height / side
            for r, row in enumerate(modules):
                c = 0
                for dark, run in itertools.groupby(row):
                    count = len(list(run))
                    if dark:
                        y = self.height - (r + self.qrBorder + 1) * ysize
                        self.rect((c + self.qrBorder) * xsize, y, count * xsize, ysize * 1.05)
                    c += count

    return CachedQrCode


def qr_svg(url: str, *, label: str = "") -> SafeString:
    """An inline ``<svg>`` of the code: dark runs of each row as one path.

    It scales to its box (CSS sets the size); ``label`` becomes its accessible name.
    """
    modules = qr_modules(url)
    side = len(modules) + 2 * QUIET_ZONE
    runs = []
    for y, row in enumerate(modules, start=QUIET_ZONE):
        x = 0
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            runs.append(f"M{start + QUIET_ZONE} {y}h{x - start}v1h-{x - start}z")
    name = escape(label or url, {'"': "&quot;"})
    # Safe: numbers, and the label escaped above.
    return mark_safe(  # noqa: S308
        f'<svg class="qr-code" viewBox="0 0 {side} {side}" role="img" aria-label="{name}" '
        f'shape-rendering="crispEdges"><rect width="{side}" height="{side}" fill="#fff"/>'
        f'<path fill="#000" d="{"".join(runs)}"/></svg>'
    )


# --- The round's sheet of codes --------------------------------------------------------


@dataclass(frozen=True)
class TableCode:
    """One table's code on the sheet: its number, its players and its link."""

    number: int
    url: str
    names_a: tuple[str, ...] = ()
    names_b: tuple[str, ...] = ()


@dataclass(frozen=True)
class CodeSheet:
    """What the PDF prints, in the active language (the caller translates)."""

    title: str
    subtitle: str
    table_label: str  # "Table %(number)s"
    wij: str
    zij: str
    hint: str
    codes: tuple[TableCode, ...]
    warning: str = ""  # printed above the codes when they cannot work (localhost)


def code_sheet_pdf(sheet: CodeSheet) -> bytes:
    """A4 pages of six cards (two by three) to cut out and put on the tables: the
    table's number, its players, the code and the link written out."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Spacer, Table, TableStyle

    register_fonts()
    base = ParagraphStyle("base", fontName=FONT, fontSize=10, leading=13, alignment=1)
    styles = {
        "title": ParagraphStyle("title", parent=base, fontName=BOLD, fontSize=14, leading=18),
        "subtitle": ParagraphStyle("subtitle", parent=base, fontSize=10, leading=13),
        "table": ParagraphStyle("table", parent=base, fontName=BOLD, fontSize=20, leading=24),
        "names": ParagraphStyle("names", parent=base, fontSize=9, leading=11),
        "url": ParagraphStyle("url", parent=base, fontSize=6.5, leading=8),
        "warning": ParagraphStyle(
            "warning", parent=base, fontName=BOLD, textColor=colors.HexColor("#b00020")
        ),
    }

    def p(text, style):
        return paragraph(text, styles[style])

    buffer = io.BytesIO()
    margin = 10 * mm
    doc = document(buffer, title=sheet.title, pagesize=A4, margin_mm=10)
    width = A4[0] - 2 * margin
    cell_height = 84 * mm
    qr_size = 52 * mm
    cards = []
    for code in sheet.codes:
        card = [p(sheet.table_label % {"number": code.number}, "table")]
        if code.names_a or code.names_b:
            card.append(p(f"{sheet.wij}: {' & '.join(code.names_a)}", "names"))
            card.append(p(f"{sheet.zij}: {' & '.join(code.names_b)}", "names"))
        card += [Spacer(1, 2 * mm), qr_code(code.url, size=qr_size), p(code.url, "url")]
        cards.append(card)
    story = [p(sheet.title, "title"), p(sheet.subtitle, "subtitle"), p(sheet.hint, "subtitle")]
    if sheet.warning:
        story.append(p(sheet.warning, "warning"))
    story.append(Spacer(1, 4 * mm))
    if cards:
        rows = [cards[i : i + 2] for i in range(0, len(cards), 2)]
        if len(rows[-1]) == 1:
            rows[-1].append("")
        grid = Table(rows, colWidths=[width / 2] * 2, rowHeights=cell_height)
        grid.setStyle(
            TableStyle(
                [
                    ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999999")),
                    ("TOPPADDING", (0, 0), (-1, -1), 3 * mm),
                ]
            )
        )
        story.append(grid)
    doc.build(story)
    return buffer.getvalue()
