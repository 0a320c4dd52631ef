"""League files: the tables and the schedule as .xlsx and PDF, and the match forms (PDF).

Selector values in, bytes out; nothing here knows of requests (views wrap the
bytes in a response). A fresh workbook or reportlab document per call.

Decisions
---------
.xlsx
    The league table has one sheet per division, the schedule one sheet, each
    with the columns of the page (:mod:`leagues.tables`, one spec); the
    title row bold and frozen with a filter. Numbers are numbers; match points
    are whole numbers, or (proportional points) rounded to two decimals. A name
    starting with ``=``, ``+``, ``-`` or ``@`` is written as text with Excel's
    quote prefix (:mod:`common.xlsxfile`, as every workbook of the site).
PDF
    A4, in the embedded DejaVu Sans of :mod:`common.pdf` (so "Łódź" prints as
    written). Every name is escaped before it goes into a reportlab paragraph,
    whose text is markup. The tables and the schedule
    are landscape; a match form is one portrait page per match: the teams, the
    line-ups, per game the tables with who sits wij (N/S) and zij (E/W), boxes
    for the points (filled in when known), the totals and the captains'
    signatures.
"""

import io

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from common.pdf import BOLD, FONT, document, paragraph, styles
from common.xlsxfile import XlsxWriter, table_sheet

from .selectors import format_points
from .tables import league_table_columns, league_table_rows, schedule_columns, schedule_rows

# --- .xlsx ------------------------------------------------------------------------------


def _titles(columns):
    return [column.title for column in columns]


def _cells(columns, rows):
    """Spreadsheet values of ``rows``, column by column."""
    return [[column.cell(row) for column in columns] for row in rows]


def _texts(columns, rows):
    """The texts a page shows of ``rows``, column by column (for the PDF)."""
    return [[column.text(row) for column in columns] for row in rows]


def league_table_xlsx(*, league, tables) -> bytes:
    """Every division's table, one sheet each (``tables``: ``division_tables``)."""
    out = XlsxWriter()
    columns = league_table_columns()
    for table in tables:
        rows = _cells(columns, league_table_rows(table))
        table_sheet(out, table.division.name, _titles(columns), rows)
    if not tables:
        out.sheet(str(league))
    return out.save()


def schedule_xlsx(*, league, lines) -> bytes:
    """The schedule, one row per match (``lines``: ``league_schedule``)."""
    out = XlsxWriter()
    columns = schedule_columns()
    table_sheet(out, _("Schedule"), _titles(columns), _cells(columns, schedule_rows(lines)))
    return out.save()


# --- PDF --------------------------------------------------------------------------------------


def _styles():
    every = styles()
    return every["title"], every["heading"], every["base"]


def _grid(data, widths=None, *, header=True, align_right_from=None):
    from reportlab.lib import colors
    from reportlab.platypus import Table, TableStyle

    table = Table(data, colWidths=widths, repeatRows=1 if header else 0)
    style = [
        ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]
    if header:
        style += [
            ("FONTNAME", (0, 0), (-1, 0), BOLD),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eceff1")),
        ]
    if align_right_from is not None:
        style.append(("ALIGN", (align_right_from, 0), (-1, -1), "RIGHT"))
    table.setStyle(TableStyle(style))
    return table


def _document(story, *, title, landscape_page=True):
    from reportlab.lib.pagesizes import A4, landscape

    buffer = io.BytesIO()
    pagesize = landscape(A4) if landscape_page else A4
    document(buffer, title=title, pagesize=pagesize).build(story)
    return buffer.getvalue()


def _cell(value):
    return "" if value is None else str(value)


def league_table_pdf(*, league, tables) -> bytes:
    from reportlab.platypus import Spacer

    title_style, heading, _normal = _styles()
    story = [paragraph(_("League table: %(league)s") % {"league": league}, title_style)]
    columns = league_table_columns()
    for table in tables:
        story.append(paragraph(table.division.name, heading))
        data = [_titles(columns), *_texts(columns, league_table_rows(table))]
        story.append(_grid(data, align_right_from=3))
        story.append(Spacer(1, 12))
    return _document(story, title=league)


def schedule_pdf(*, league, lines) -> bytes:
    title_style, _heading, _normal = _styles()
    story = [paragraph(_("Schedule: %(league)s") % {"league": league}, title_style)]
    columns = schedule_columns()
    data = [_titles(columns), *_texts(columns, schedule_rows(lines))]
    story.append(_grid(data))
    return _document(story, title=league)


def _match_form_story(sheet):
    from reportlab.lib.units import cm
    from reportlab.platypus import Spacer

    title_style, heading, normal = _styles()
    match = sheet.match
    league = match.league
    story = [
        paragraph(_("Match form"), title_style),
        paragraph(
            _("%(league)s · %(division)s · matchday %(matchday)s · %(date)s")
            % {
                "league": league,
                "division": match.division.name,
                "matchday": match.matchday,
                "date": formats.date_format(match.date, "DATE_FORMAT"),
            },
            normal,
        ),
        Spacer(1, 6),
        _grid(
            [
                [pgettext("match", "Home"), pgettext("match", "Away")],
                [
                    f"{match.home.name} ({match.home.club.name})",
                    f"{match.away.name} ({match.away.club.name})",
                ],
            ],
            [8.5 * cm, 8.5 * cm],
        ),
        Spacer(1, 6),
        paragraph(_("Line-ups"), heading),
    ]
    data = [[_("Pair"), pgettext("match", "Home"), pgettext("match", "Away")]]
    for pair in range(1, league.tables_per_match + 1):
        row = [str(pair)]
        for side in ("home", "away"):
            players = sheet.lineups[side][2 * pair - 2 : 2 * pair]
            names = [p.name if p is not None else "" for p in players]
            row.append(" & ".join(names) if any(names) else "")
        data.append(row)
    story.append(_grid(data, [1.5 * cm, 7.75 * cm, 7.75 * cm]))
    for game, tables in sheet.games:
        story.append(paragraph(_("Game %(number)s") % {"number": game}, heading))
        data = [[_("Table"), _("wij (N/S)"), _("zij (E/W)"), _("Points wij"), _("Points zij")]]
        for table in tables:
            wij_names, zij_names = (
                (table.home_names, table.away_names)
                if table.home_side == "A"
                else (table.away_names, table.home_names)
            )
            wij_team = match.home if table.home_side == "A" else match.away
            zij_team = match.away if table.home_side == "A" else match.home
            wij_pair = table.home_pair if table.home_side == "A" else table.away_pair
            zij_pair = table.away_pair if table.home_side == "A" else table.home_pair
            points = (table.home_points, table.away_points)
            if table.home_side == "B":
                points = points[::-1]
            data.append(
                [
                    str(table.table_number),
                    _("%(team)s, pair %(pair)s") % {"team": wij_team.name, "pair": wij_pair}
                    + "\n"
                    + " & ".join(n or "...." for n in wij_names),
                    _("%(team)s, pair %(pair)s") % {"team": zij_team.name, "pair": zij_pair}
                    + "\n"
                    + " & ".join(n or "...." for n in zij_names),
                    _cell(points[0]),
                    _cell(points[1]),
                ]
            )
        story.append(_grid(data, [1.5 * cm, 6 * cm, 6 * cm, 2.25 * cm, 2.25 * cm]))
    outcome = sheet.outcome
    story += [
        paragraph(_("Result"), heading),
        _grid(
            [
                ["", pgettext("match", "Home"), pgettext("match", "Away")],
                [
                    _("Points"),
                    _cell(outcome.home_points if outcome else None),
                    _cell(outcome.away_points if outcome else None),
                ],
                [
                    _("Game points"),
                    _cell(outcome.home_game_points if outcome else None),
                    _cell(outcome.away_game_points if outcome else None),
                ],
                [
                    _("Match points"),
                    format_points(outcome.home_match_points) if outcome else "",
                    format_points(outcome.away_match_points) if outcome else "",
                ],
            ],
            [4 * cm, 6.5 * cm, 6.5 * cm],
        ),
        Spacer(1, 18),
        _grid(
            [
                [_("Captain home"), _("Captain away")],
                ["\n\n", "\n\n"],
            ],
            [8.5 * cm, 8.5 * cm],
        ),
    ]
    return story


def match_forms_pdf(*, sheets) -> bytes:
    """One page per match (``sheets``: ``match_sheet`` values)."""
    from reportlab.platypus import PageBreak

    sheets = list(sheets)
    story = []
    for index, sheet in enumerate(sheets):
        if index:
            story.append(PageBreak())
        story += _match_form_story(sheet)
    if not story:
        title_style, _heading, _normal = _styles()
        story = [paragraph(_("No matches."), title_style)]
    title = sheets[0].match if len(sheets) == 1 else _("Match forms")
    return _document(story, title=title, landscape_page=False)
