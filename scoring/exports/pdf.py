"""PDFs to print (reportlab), A4: score sheets, the table plan, results and standings.

Every function builds a fresh document and returns its bytes (reportlab is not
thread-safe across documents). Labels use the active language. Each page has
the club's name and the date it was printed; reports and the table plan also
"page 2 of 3".

Decisions
---------
Fonts
    The one reportlab setup of :mod:`common.pdf`: DejaVu Sans embedded (else
    reportlab's Vera), so every alphabet a member's name can be in prints.
Score sheet
    One page per table: event, date, round and table, the four names under wij
    (North, South) and zij (East, West), a row per hand (the game's length:
    16 for a boompje, enough rows for a match to its target) with points, roem
    and a mark column (M, or marsen: the club's ``Club.sheet_marks``) for each
    team and who deals, the totals, signature
    lines for both teams, and a QR code of the table's entry link. The filled
    sheet is the same page with the entered hands written the paper's way: a
    nat team writes 0 ("nat"), the other team 162 and the roem; a pit's 100 is
    written as roem with the club's mark (by default M, TP for the defenders' pit,
    a tegenpit; a tally I in a marsen column, counted in the subtotal; or P or M
    in the column of the team that took no trick). A hand
    ended by verzaken has a V in the mark
    column of the team that reneged (it writes 0), the other team 162 and all
    roem + the penalty as roem. Under a rule set with the roefel, hand 1 says
    "roefel ♣" beside its dealer. Its totals are the game's stored totals.
Table plan
    For the wall: the tables in large type, wij beside zij, then everyone in
    alphabetical order with their table and seat, and who sits out.
Reports
    The standings or an evening's result as a table whose header row repeats on
    every page; the ranking settings above it, in words; under it each side
    ranking of the standings (puntenkampioen, most marsen) under its heading and
    definition, then what each column counts (the columns' help), a line per
    column, then the footnotes. Landscape when the
    columns do not fit upright (an evening of five rounds or more).
"""

from __future__ import annotations

import io

from django.utils.translation import gettext as _

from common import qr
from common.columns import column_notes
from common.formatting import day_text as _date
from common.pdf import (
    BOLD,
    FONT,
    column_grid,
    document,
    fitting_pagesize,
    numbered_canvas,
    register_fonts,
    table_widths,
    term,
)
from common.pdf import paragraph as _p
from common.pdf import styles as _styles

from .reports import Report, RoundSheets, ScoreSheet, dealers

# ---------------------------------------------------------------- reports


def report_pdf(report: Report) -> bytes:
    """Standings or an evening's result; the header row repeats on every page. Further
    rankings (the standings' side rankings) follow the main table, each under its
    heading and the sentence of its definition, in the same columns."""
    register_fonts()
    from reportlab.lib.units import mm
    from reportlab.platypus import Spacer

    styles = _styles()
    tables = [report.rows] + [section.rows for section in report.sections]
    grids = [column_grid(report.columns, rows) for rows in tables]
    # Every column as wide as its widest cell (of every table); the texts (the names)
    # wrap when that is too wide, and the page turns sideways when the names would
    # get less than 45 mm upright.
    numeric = grids[0].numeric
    titles = grids[0].data[0]
    everything = [titles, *(row for grid in grids for row in grid.data[1:])]
    natural, least = table_widths(
        everything, wrap=set(range(len(titles))) - numeric, wrap_header=False
    )
    least = [
        max(few, min(most, 45 * mm)) if index not in numeric else few
        for index, (most, few) in enumerate(zip(natural, least, strict=True))
    ]
    pagesize = fitting_pagesize(natural, least)
    buffer = io.BytesIO()
    doc = document(
        buffer, title=f"{report.title} · {report.subtitle}", author=report.club, pagesize=pagesize
    )
    story = [_p(report.title, styles["title"]), _p(report.subtitle, styles["subtitle"])]
    story.append(Spacer(1, 6))
    for note in report.notes:
        story.append(_p(note, styles["small"]))
    story.append(Spacer(1, 8))
    story.append(_report_table(report.rows, grids[0], doc.width))
    for section, grid in zip(report.sections, grids[1:], strict=True):
        story.append(Spacer(1, 10))
        story.append(_p(section.title, styles["subtitle"]))
        story.extend(_p(note, styles["small"]) for note in section.notes)
        story.append(Spacer(1, 4))
        story.append(_report_table(section.rows, grid, doc.width))
        story.extend(_p(note, styles["small"]) for note in section.footnotes)
    notes = column_notes(report.columns)
    if notes:
        story.append(Spacer(1, 6))
        story.extend(term(column.title, column.help, styles["small"]) for column in notes)
    if report.footnotes:
        story.append(Spacer(1, 6))
        story.extend(_p(note, styles["small"]) for note in report.footnotes)
    footer = f"{report.title} · {report.subtitle}"
    doc.build(story, canvasmaker=numbered_canvas(report.club, footer, report.printed))
    return buffer.getvalue()


def _report_table(rows, grid, width):
    """One ranked table (``grid``: :func:`common.pdf.column_grid` of ``rows``) fitted
    to ``width``: the header repeating on every page, a line above the players
    without a rank."""
    from reportlab.lib import colors

    style = [
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde5dd")),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    for number in range(1, len(grid.data)):
        if number % 2 == 0:
            style.append(("BACKGROUND", (0, number), (-1, number), colors.HexColor("#f3f3f3")))
    ranked = [row.get("rank") is not None for row in rows]
    if any(ranked) and not all(ranked):
        line = ranked.index(False) + 1
        style.append(("LINEABOVE", (0, line), (-1, line), 1.2, colors.black))
    return grid.table(width, style=style)


# ---------------------------------------------------------------- score sheets


def _sheet_story(sheets: RoundSheets, sheet: ScoreSheet, styles, width, height):
    from reportlab.lib import colors
    from reportlab.lib.units import mm
    from reportlab.platypus import Spacer, Table, TableStyle

    story = []
    title = _("Score sheet (record)") if sheets.filled else _("Score sheet")
    round_table = _("Round %(round)s · Table %(table)s") % {
        "round": sheets.round,
        "table": sheet.table,
    }
    heading = [
        _p(title, styles["subtitle"]),
        _p(sheets.competition, styles["title"]),
        _p(_date(sheets.date), styles["subtitle"]),
        _p(round_table, styles["big"]),
    ]
    qr_size = 32 * mm
    qr_cell = [
        qr.qr_code(sheet.url, size=qr_size, border=2),
        _p(_("Scan to enter the scores"), styles["small"]),
    ]
    top = Table([[heading, qr_cell]], colWidths=[width - qr_size - 4 * mm, qr_size + 4 * mm])
    top.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    story.append(top)
    story.append(_p(sheet.url, styles["small"]))
    if sheets.warning:
        story.append(_p(sheets.warning, styles["warning"]))
    story.append(Spacer(1, 3 * mm))

    wij, zij = sheet.team("A"), sheet.team("B")
    teams = Table(
        [
            [
                _p(_("wij") + " · " + _("North") + " / " + _("South"), styles["small"]),
                _p(_("zij") + " · " + _("East") + " / " + _("West"), styles["small"]),
            ],
            [_p(wij[0], styles["name"]), _p(zij[0], styles["name"])],
            [_p(wij[1], styles["name"]), _p(zij[1], styles["name"])],
        ],
        colWidths=[width / 2, width / 2],
    )
    teams.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (0, -1), 1, colors.black),
                ("BOX", (1, 0), (1, -1), 1, colors.black),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
            ]
        )
    )
    story.append(teams)
    story.append(Spacer(1, 3 * mm))

    head = [
        "#",
        _("Dealer"),
        _("wij"),
        "",
        "",
        _("zij"),
        "",
        "",
    ]
    mark = sheet.mark_title
    sub = ["", "", _("Points"), _("Roem"), mark, _("Points"), _("Roem"), mark]
    data = [head, sub]
    givers = dealers(sheet)
    filled = {row.number: row for row in sheet.rows}
    for number in range(1, sheet.length + 1):
        dealer = givers[number - 1] if number <= len(givers) else ""
        row = filled.get(number)
        if row is None:
            dealer = _roefel_dealer(dealer, sheet.roefel and number == 1)
            data.append([str(number), _p(dealer, styles["cell"]), "", "", "", "", "", ""])
            continue
        cells = [str(number), _p(_roefel_dealer(row.dealer, row.roefel), styles["cell"])]
        for team in (0, 1):
            points = _("nat") if row.nat[team] else str(row.points[team])
            roem = str(row.roem[team]) if row.roem[team] else ""
            if row.declared[team]:
                # Declared roem: what counted, then what the team declared.
                roem = _p(f"{roem or 0} ({row.declared[team]})", styles["small"])
            cells += [points, roem, row.mark[team]]
        data.append(cells)
    if sheets.filled and sheet.totals is not None:
        points_total, roem_total = sheet.points_total, sheet.roem_total
        marsen = [str(n) if n else "" for n in sheet.marsen_total or ("", "")]
        data.append(
            [
                _("Subtotal"),
                "",
                str(points_total[0]),
                str(roem_total[0]),
                marsen[0],
                str(points_total[1]),
                str(roem_total[1]),
                marsen[1],
            ]
        )
        data.append([_("Total"), "", str(sheet.totals[0]), "", "", str(sheet.totals[1]), "", ""])
    else:
        data.append([_("Subtotal"), "", "", "", "", "", "", ""])
        data.append([_("Total"), "", "", "", "", "", "", ""])
    fixed = 12 * mm + 2 * (22 * mm + 20 * mm + 13 * mm)
    widths = [12 * mm, width - fixed + 0 * mm] + [22 * mm, 20 * mm, 13 * mm] * 2
    widths[0] = 12 * mm
    # Rows fit the page: the part above and below the grid takes about 120 mm.
    room = height - 125 * mm
    row_height = max(min(room / (sheet.length + 4), 9 * mm), 5 * mm)
    heights = [6 * mm, 6 * mm] + [row_height] * sheet.length + [8 * mm, 8 * mm]
    grid = Table(data, colWidths=widths, rowHeights=heights, repeatRows=2)
    last = len(data) - 1
    grid.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 11),
                ("FONT", (0, 0), (-1, 1), BOLD, 10),
                ("SPAN", (2, 0), (4, 0)),
                ("SPAN", (5, 0), (7, 0)),
                ("SPAN", (0, last - 1), (1, last - 1)),
                ("SPAN", (0, last), (1, last)),
                ("SPAN", (2, last), (4, last)),
                ("SPAN", (5, last), (7, last)),
                ("ALIGN", (2, 0), (-1, -1), "CENTER"),
                ("ALIGN", (0, 0), (0, -1), "CENTER"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
                ("BOX", (2, 0), (4, -1), 1.5, colors.black),
                ("BOX", (5, 0), (7, -1), 1.5, colors.black),
                ("BOX", (0, 0), (-1, -1), 1.5, colors.black),
                ("LINEABOVE", (0, last - 1), (-1, last - 1), 1.5, colors.black),
                ("FONT", (0, last - 1), (-1, last), BOLD, 12),
                ("BACKGROUND", (0, 0), (-1, 1), colors.HexColor("#eeeeee")),
                ("BACKGROUND", (0, last - 1), (-1, last), colors.HexColor("#eeeeee")),
                ("TEXTCOLOR", (1, 2), (1, last - 2), colors.HexColor("#555555")),
            ]
        )
    )
    story.append(grid)
    if sheet.legend:
        story.append(_p(sheet.legend, styles["small"]))
    if any(any(row.declared) for row in sheet.rows):
        note = _("Roem: what counts, in brackets what the team declared.")
        story.append(_p(note, styles["small"]))
    story.append(Spacer(1, 4 * mm))
    if sheets.filled and sheet.status:
        status = sheet.status + (f" · {sheet.confirmed_by}" if sheet.confirmed_by else "")
        story.append(_p(status, styles["small"]))
        story.append(Spacer(1, 2 * mm))
    signatures = Table(
        [
            [_p(_("Signature wij"), styles["small"]), "", _p(_("Signature zij"), styles["small"])],
            ["", "", ""],
        ],
        colWidths=[width / 2 - 5 * mm, 10 * mm, width / 2 - 5 * mm],
        rowHeights=[5 * mm, 12 * mm],
    )
    signatures.setStyle(
        TableStyle(
            [
                ("LINEBELOW", (0, 1), (0, 1), 0.8, colors.black),
                ("LINEBELOW", (2, 1), (2, 1), 0.8, colors.black),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    story.append(signatures)
    return story


def _roefel_dealer(dealer, roefel):
    """The dealer cell, with the roefel mark on the roefel hand."""
    if not roefel:
        return dealer
    return f"{dealer} · {_('roefel')} ♣" if dealer else f"{_('roefel')} ♣"


def scoresheets_pdf(sheets: RoundSheets) -> bytes:
    """One score sheet per table of a round, blank to fill in or filled as a record."""
    register_fonts()
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import PageBreak

    styles = _styles()
    buffer = io.BytesIO()
    title = _("Score sheets · %(competition)s · %(date)s · round %(round)s") % {
        "competition": sheets.competition,
        "date": _date(sheets.date),
        "round": sheets.round,
    }
    doc = document(buffer, title=title, author=sheets.club, pagesize=A4)
    story = []
    for index, sheet in enumerate(sheets.sheets):
        if index:
            story.append(PageBreak())
        story.extend(_sheet_story(sheets, sheet, styles, doc.width, doc.height))
    if not story:
        story.append(_p(_("This round has no tables."), styles["base"]))
    doc.build(story, canvasmaker=numbered_canvas(sheets.club, title, sheets.printed))
    return buffer.getvalue()


# ---------------------------------------------------------------- table plan


def table_plan_pdf(sheets: RoundSheets) -> bytes:
    """The round's tables in large type for the wall, then everyone alphabetically."""
    register_fonts()
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.platypus import CondPageBreak, Spacer, Table, TableStyle

    styles = _styles()
    buffer = io.BytesIO()
    title = _("Table plan · %(competition)s · %(date)s · round %(round)s") % {
        "competition": sheets.competition,
        "date": _date(sheets.date),
        "round": sheets.round,
    }
    doc = document(buffer, title=title, author=sheets.club, pagesize=A4)
    width = doc.width
    story = [
        _p(_("Table plan") + " · " + sheets.competition, styles["title"]),
        _p(
            _date(sheets.date) + " · " + _("Round %(number)s") % {"number": sheets.round},
            styles["big"],
        ),
        Spacer(1, 5 * mm),
    ]
    data = [
        [
            _p(_("Table"), styles["plan_label"]),
            _p(_("wij") + " · " + _("North") + " / " + _("South"), styles["plan_label"]),
            _p(_("zij") + " · " + _("East") + " / " + _("West"), styles["plan_label"]),
        ]
    ]
    for sheet in sheets.sheets:
        wij, zij = sheet.team("A"), sheet.team("B")
        data.append(
            [
                str(sheet.table),
                [_p(wij[0], styles["plan_name"]), _p(wij[1], styles["plan_name"])],
                [_p(zij[0], styles["plan_name"]), _p(zij[1], styles["plan_name"])],
            ]
        )
    plan = Table(data, colWidths=[22 * mm, (width - 22 * mm) / 2, (width - 22 * mm) / 2])
    plan.repeatRows = 1
    style = [
        ("FONT", (0, 1), (0, -1), BOLD, 26),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.8, colors.grey),
        ("LINEBELOW", (0, 0), (-1, 0), 1.5, colors.black),
        ("TOPPADDING", (0, 1), (-1, -1), 6),
        ("BOTTOMPADDING", (0, 1), (-1, -1), 6),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
    ]
    plan.setStyle(TableStyle(style))
    story.append(plan)
    if sheets.sitouts:
        story.append(Spacer(1, 6 * mm))
        story.append(_p(_("Sitting out") + ": " + ", ".join(sheets.sitouts), styles["plan_name"]))
    # Everyone alphabetically: find your name, then your table.
    people = []
    for sheet in sheets.sheets:
        for position in ("N", "S", "E", "W"):
            name = sheet.names.get(position)
            if name:
                team = _("wij") if position in "NS" else _("zij")
                people.append((name, str(sheet.table), team))
    people += [(name, "–", _("sits out")) for name in sheets.sitouts]
    people.sort(key=lambda item: (item[0].casefold(), item[1]))
    if people:
        story.append(CondPageBreak(60 * mm))
        story.append(Spacer(1, 8 * mm))
        story.append(_p(_("Who sits where"), styles["title"]))
        story.append(Spacer(1, 3 * mm))
        half = (len(people) + 1) // 2
        rows = []
        for index in range(half):
            left = people[index]
            right = people[index + half] if index + half < len(people) else ("", "", "")
            rows.append(
                [_p(left[0], styles["name"]), left[1], left[2]]
                + [""]
                + [_p(right[0], styles["name"]), right[1], right[2]]
            )
        head = [_("Name"), _("Table"), _("Team"), "", _("Name"), _("Table"), _("Team")]
        column = (width - 8 * mm) / 2
        index_table = Table(
            [head, *rows],
            colWidths=[column - 34 * mm, 16 * mm, 18 * mm, 8 * mm]
            + [column - 34 * mm, 16 * mm, 18 * mm],
            repeatRows=1,
        )
        index_table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), FONT, 13),
                    ("FONT", (0, 0), (-1, 0), BOLD, 10),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("ALIGN", (1, 0), (2, -1), "CENTER"),
                    ("ALIGN", (5, 0), (6, -1), "CENTER"),
                    ("LINEBELOW", (0, 0), (2, -1), 0.4, colors.lightgrey),
                    ("LINEBELOW", (4, 0), (6, -1), 0.4, colors.lightgrey),
                ]
            )
        )
        story.append(index_table)
    doc.build(story, canvasmaker=numbered_canvas(sheets.club, title, sheets.printed))
    return buffer.getvalue()
