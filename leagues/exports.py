"""League files: the tables and the schedule as .xlsx and PDF, and the match forms (PDF).

Selector values in, bytes out; nothing here knows of requests (views wrap the
bytes in a response). A fresh workbook or reportlab document per call.

Decisions
---------
.xlsx
    The league table has one sheet per division, the schedule one sheet, each
    with the columns of the page (:mod:`leagues.tables`, one spec); the
    title row bold and frozen with a filter, written by :func:`common.xlsxfile.column_sheet`
    as every table of a column spec. Numbers are numbers; a shared place shows
    "3=" and sorts as 3; match points
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

from common.pdf import (
    Grid,
    column_grid,
    document,
    fitting_pagesize,
    paragraph,
    styles,
    table_widths,
)
from common.xlsxfile import XlsxWriter, column_sheet

from . import selectors
from .selectors import format_points
from .tables import league_table_columns, league_table_rows, schedule_columns, schedule_rows

# --- .xlsx ------------------------------------------------------------------------------


def league_table_xlsx(*, league, tables) -> bytes:
    """Every division's table, one sheet each (``tables``: ``division_tables``)."""
    out = XlsxWriter()
    for table in tables:
        rows = league_table_rows(table)
        columns = [column.fitted(rows) for column in league_table_columns()]
        column_sheet(out, table.division.name, columns, rows)
    if not tables:
        out.sheet(str(league))
    return out.save()


def schedule_xlsx(*, league, lines) -> bytes:
    """The schedule, one row per match (``lines``: ``league_schedule``)."""
    out = XlsxWriter()
    rows = schedule_rows(lines)
    columns = [column.fitted(rows) for column in schedule_columns()]
    column_sheet(out, _("Schedule"), columns, rows)
    return out.save()


# --- A matchday's result ---------------------------------------------------------------------


def matchday_report(evening):
    """A league evening's result (the evening result page and its files): the
    matches played that day, with the teams, their points and match points and how
    far each is, as the schedule shows them; a scoring ``Report``."""
    from django.utils import timezone

    from common.downloads import file_stem
    from common.formatting import day_text
    from scoring.exports.reports import Report

    league = evening.competition.league
    lines = selectors.league_schedule(league=league, evening=evening)
    columns = [
        column.fitted(schedule_rows(lines))
        for column in schedule_columns()
        if column.key not in ("matchday", "date")
    ]
    played = sum(1 for line in lines if line.counted)
    return Report(
        club=evening.competition.club.name,
        title=_("Matchday result"),
        subtitle=f"{league} · {day_text(evening.date)}",
        columns=columns,
        rows=schedule_rows(lines),
        notes=[
            _("%(done)s of %(total)s matches confirmed by both captains.")
            % {"done": played, "total": len(lines)}
        ],
        sheet=_("Result"),
        stem=file_stem("", "result", str(league), f"{evening.date:%Y-%m-%d}"),
        printed=timezone.localdate(),
    )


# --- PDF --------------------------------------------------------------------------------------


def _styles():
    every = styles()
    return every["title"], every["heading"], every["base"]


def _document(story_of, *, title, grids, portrait=False):
    """The PDF of ``story_of(width)``: on A4 upright when every table (``grids``:
    :class:`common.pdf.Grid`) fits it, else landscape; ``portrait``: upright as long
    as the tables fit it with their texts wrapped."""
    buffer = io.BytesIO()
    natural, least = [0], [0]
    for data, numeric in grids:
        wrap = set(range(len(data[0]))) - numeric
        most, few = table_widths(data, wrap=wrap)
        natural, least = max(natural, most, key=sum), max(least, few, key=sum)
    pagesize = fitting_pagesize(natural, least, portrait=portrait)
    doc = document(buffer, title=title, pagesize=pagesize)
    doc.build(story_of(doc.width))
    return buffer.getvalue()


def _cell(value):
    return "" if value is None else str(value)


def league_table_pdf(*, league, tables) -> bytes:
    from reportlab.platypus import Spacer

    title_style, heading, _normal = _styles()
    columns = league_table_columns()
    grids = [
        (table.division.name, column_grid(columns, league_table_rows(table))) for table in tables
    ]

    def story(width):
        story = [paragraph(_("League table: %(league)s") % {"league": league}, title_style)]
        for name, grid in grids:
            story.append(paragraph(name, heading))
            story.append(grid.table(width))
            story.append(Spacer(1, 12))
        return story

    return _document(story, title=league, grids=[grid for _name, grid in grids])


def schedule_pdf(*, league, lines) -> bytes:
    title_style, _heading, _normal = _styles()
    grid = column_grid(schedule_columns(), schedule_rows(lines))

    def story(width):
        return [
            paragraph(_("Schedule: %(league)s") % {"league": league}, title_style),
            grid.table(width),
        ]

    return _document(story, title=league, grids=[grid])


def _match_form_story(sheet, width):
    from reportlab.platypus import Spacer

    title_style, heading, normal = _styles()
    match = sheet.match
    league = match.league

    def form(grid):
        return grid.table(width, fill=True)

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
    ]
    for title, grid in _match_form_tables(sheet):
        if title:
            story.append(paragraph(title, heading))
        story.append(form(grid))
        story.append(Spacer(1, 6))
    story += [
        Spacer(1, 12),
        form(Grid([[_("Captain home"), _("Captain away")], ["\n\n", "\n\n"]], frozenset())),
    ]
    return story


def _match_form_tables(sheet):
    """The tables of a match form as (heading, :class:`common.pdf.Grid`)."""
    match = sheet.match
    league = match.league
    home, away = pgettext("match", "Home"), pgettext("match", "Away")
    teams = [
        [home, away],
        [
            f"{match.home.name} ({match.home.club.name})",
            f"{match.away.name} ({match.away.club.name})",
        ],
    ]
    tables = [("", Grid(teams, frozenset()))]
    lineups = [[_("Pair"), home, away]]
    for pair in range(1, league.tables_per_match + 1):
        row = [str(pair)]
        for side in ("home", "away"):
            players = sheet.lineups[side][2 * pair - 2 : 2 * pair]
            names = [p.name if p is not None else "" for p in players]
            row.append(" & ".join(names) if any(names) else "")
        lineups.append(row)
    tables.append((_("Line-ups"), Grid(lineups, frozenset({0}))))
    for game, game_tables in sheet.games:
        data = [[_("Table"), _("wij (N/S)"), _("zij (E/W)"), _("Points wij"), _("Points zij")]]
        for table in game_tables:
            home_wij = table.home_side == "A"
            wij_names, zij_names = (
                (table.home_names, table.away_names)
                if home_wij
                else (table.away_names, table.home_names)
            )
            wij_team, zij_team = (match.home, match.away) if home_wij else (match.away, match.home)
            wij_pair, zij_pair = (
                (table.home_pair, table.away_pair)
                if home_wij
                else (table.away_pair, table.home_pair)
            )
            points = (table.home_points, table.away_points)
            if not home_wij:
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
        tables.append((_("Game %(number)s") % {"number": game}, Grid(data, frozenset({0, 3, 4}))))
    outcome = sheet.outcome
    result = [
        ["", home, away],
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
    ]
    tables.append((_("Result"), Grid(result, frozenset({1, 2}))))
    return tables


def match_forms_pdf(*, sheets) -> bytes:
    """One upright page per match (``sheets``: ``match_sheet`` values)."""
    from reportlab.platypus import PageBreak

    sheets = list(sheets)

    def story(width):
        story = []
        for index, sheet in enumerate(sheets):
            if index:
                story.append(PageBreak())
            story += _match_form_story(sheet, width)
        if not story:
            title_style, _heading, _normal = _styles()
            story = [paragraph(_("No matches."), title_style)]
        return story

    grids = [grid for sheet in sheets for _title, grid in _match_form_tables(sheet)]
    title = sheets[0].match if len(sheets) == 1 else _("Match forms")
    return _document(story, title=title, grids=grids, portrait=True)
