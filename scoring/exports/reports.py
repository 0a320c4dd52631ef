"""What the files hold: standings, an evening's result, score sheets, the table plan.

Each function reads once (through ``scoring.results.standings`` for the numbers, so a
file never disagrees with the site) and returns plain values; the renderers in
:mod:`.xlsx`, :mod:`.csv` and :mod:`.pdf` only lay them out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date

from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from common.columns import Column
from common.downloads import file_stem
from common.formatting import day_text
from scoring import rules
from scoring.messages import MARK_LEGENDS
from scoring.models import Game, Hand
from scoring.results import standings
from scoring.results.tables import period_cells, standings_columns
from scoring.results.words import describe_evening
from tournaments.models import Competition, Evening, Round, Seat
from tournaments.words import describe_settings, describe_side_ranking


@dataclass
class Report:
    """A ranked table with its title and the rules it was ranked by."""

    club: str
    title: str
    subtitle: str
    columns: list[Column]  # scoring.results.tables.standings_columns, fitted
    rows: list[dict]
    notes: list[str] = field(default_factory=list)  # above the table (ranking settings)
    footnotes: list[str] = field(default_factory=list)  # below it
    # What the columns count (each column's ``help``) stands under the table, before
    # the footnotes, in the .xlsx and the PDF: common.columns.column_notes(columns).
    sheet: str = ""  # the spreadsheet tab's name
    stem: str = ""  # the file name without extension
    printed: date | None = None
    #: More rankings of the same columns after the main one (the standings' side
    #: rankings: puntenkampioen, most marsen), as the page shows them.
    sections: list[ReportSection] = field(default_factory=list)


@dataclass
class ReportSection:
    """A ranking a report holds after its main table, in the report's columns: its
    own title (the page's heading), the sentence of its definition and its rows."""

    key: str
    title: str
    rows: list[dict]
    notes: list[str] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)


def _line_row(line, names, periods=()):
    return {
        "rank": line.rank,
        "shared": line.shared,
        "name": names.get(line.key, "?"),
        "points": line.points,
        "average": line.average,  # exact; every format rounds it the one way
        "evenings": line.evenings,
        "games": line.games,
        "marsen": line.marsen,
        "nat": line.nat,
        "roem": line.roem,
        **period_cells(line, periods),
    }


def _fit_widths(columns, rows):
    return [column.fitted(rows) for column in columns]


def _below_line(result):
    if not result.unranked:
        return []
    return [_("Players without a rank have not yet played the minimum number of evenings.")]


def standings_report(*, competition: Competition, period=None) -> Report:
    """The season standings (of a period) as the standings page shows them, with its
    side rankings (puntenkampioen, most marsen) after the main ranking."""
    result = standings.season_standings(competition=competition, period=period)
    pairs = competition.kind == Competition.Kind.PAIRS
    rows = [_line_row(line, result.names, result.periods) for line in result.lines]
    labels = dict(Competition.SideRanking.choices)
    sections = [
        ReportSection(
            key=key,
            title=capfirst(labels[key]),
            rows=[_line_row(line, side.names) for line in side.lines],
            notes=[str(describe_side_ranking(definition))],
            footnotes=_below_line(side),
        )
        for (key, side), definition in zip(
            standings.side_standings(competition=competition, period=period),
            competition.side_ranking_definitions(),
            strict=True,
        )
    ]
    every_row = rows + [row for section in sections for row in section.rows]
    columns = standings_columns(pairs=pairs, competition=competition, periods=result.periods)
    columns = _fit_widths(columns, every_row)
    count = len(result.evenings)
    subtitle = competition.name + (f" · {period.name}" if period is not None else "")
    subtitle += " · " + (
        _("after %(count)s evening") if count == 1 else _("after %(count)s evenings")
    ) % {"count": count}
    footnotes = _below_line(result)
    name = competition.name + (f" {period.name}" if period is not None else "")
    return Report(
        club=competition.club.name,
        title=_("Standings"),
        subtitle=subtitle,
        columns=columns,
        rows=rows,
        notes=[str(words) for words in describe_settings(competition, period)],
        footnotes=footnotes,
        sheet=_("Standings"),
        stem=file_stem("", "standings", name),
        printed=timezone.localdate(),
        sections=sections,
    )


#: competition format -> ``report(evening) -> Report``: the result of an evening of a
#: format an app above scoring owns (a league's matchday lists its matches), which
#: that app registers in its ``AppConfig.ready()`` (:func:`register_evening_report`).
_evening_reports = {}


def register_evening_report(format, report) -> None:
    _evening_reports[str(format)] = report


def other_evening_report(evening: Evening) -> Report | None:
    """The result of an evening whose format an app above scoring tells, else None."""
    report = _evening_reports.get(evening.competition.format)
    return report(evening) if report is not None else None


def evening_report(*, evening: Evening) -> Report:
    """An evening's result: every player's rounds, ranked, with winner and poedelprijs;
    while the evening is open, the provisional result the page shows, and how far
    each table is. A league's matchday: its matches (:func:`other_evening_report`)."""
    other = other_evening_report(evening)
    if other is not None:
        return other
    result = standings.evening_result(evening=evening)
    competition = evening.competition
    pairs = competition.kind == Competition.Kind.PAIRS
    winners, prizes, poedel = result.winners, result.prizes, result.poedel
    rows = []
    for line in result.lines:
        row = _line_row(line, result.names)
        rounds = result.rounds.get(line.key, {})
        for number in result.round_numbers:
            row[f"round_{number}"] = rounds.get(number)
        if line.key in winners:
            row["prize"] = _("winner")
        elif line.key in prizes:
            row["prize"] = _("prize")
        elif line.key in poedel:
            row["prize"] = _("poedelprijs")
        else:
            row["prize"] = ""
        rows.append(row)
    columns = standings_columns(
        pairs=pairs,
        evenings=False,
        round_numbers=result.round_numbers,
        prize=result.final,
        competition=competition,
    )
    columns = _fit_widths(columns, rows)
    notes, footnotes = [], []
    if not result.final:
        notes.append(
            _("%(done)s of %(total)s tables confirmed — the result is not final yet.")
            % {"done": result.confirmed, "total": len(result.tables)}
        )
        notes.append(
            _(
                "Only confirmed tables count, ranked on the average per game; "
                "the prizes follow when the evening is closed."
            )
        )
        footnotes = [
            _("round %(round)s, table %(table)s")
            % {"round": t.table.round.number, "table": t.table.number}
            + f": {t.how_far}"
            for t in result.unconfirmed
        ]
    if not evening.counts_for_ranking:
        notes.append(_("This evening does not count for the ranking."))
    if result.final:
        notes.extend(str(words) for words in describe_evening(competition, result))
    return Report(
        club=competition.club.name,
        title=_("Result") if result.final else _("Provisional result"),
        subtitle=f"{competition.name} · {day_text(evening.date)}",
        columns=columns,
        rows=rows,
        notes=notes,
        footnotes=footnotes,
        sheet=_("Result"),
        stem=file_stem("", "result", competition.name, f"{evening.date:%Y-%m-%d}"),
        printed=timezone.localdate(),
    )


# ---------------------------------------------------------------- score sheets


@dataclass(frozen=True)
class SheetRow:
    """One hand on a filled score sheet, as the paper has it.

    ``points`` and ``roem`` are what each team banks, split the paper's way: a
    nat team writes 0 (``nat``), its opponents 162 and the roem the rule set
    gives them; a pit's 100 is written as roem, with an M beside it (TP when the
    defenders took every trick: a tegenpit). A verzaken hand has a V as the mark
    of the team that reneged, which writes 0; the other team writes 162 and all
    roem + the penalty as roem. ``roefel``: the hand is the roefel.
    """

    number: int
    dealer: str
    points: tuple[int, int]
    roem: tuple[int, int]
    mark: tuple[str, str]
    nat: tuple[bool, bool]
    roefel: bool = False
    #: Declared roem (match-1500): what each team declared, "50+20+stuk"; ``roem``
    #: then holds what counted. Empty for in-trick roem and hands without declarations.
    declared: tuple[str, str] = ("", "")


@dataclass(frozen=True)
class ScoreSheet:
    table: int
    names: dict  # position (N, E, S, W) -> name
    length: int  # rows to print
    url: str
    rows: list[SheetRow] = field(default_factory=list)
    totals: tuple[int, int] | None = None
    points_total: tuple[int, int] | None = None
    roem_total: tuple[int, int] | None = None
    status: str = ""
    confirmed_by: str = ""
    #: Hand 1 is the roefel (the rule set plays it).
    roefel: bool = False
    #: How a pit, nat and verzaken are written (:func:`sheet_legend`).
    legend: str = ""
    #: The title of each team's mark column: M, or marsen (``mark_title``).
    mark_title: str = "M"
    #: Under a marsen column: the marsen of each team (its I's), for the subtotal.
    marsen_total: tuple[int, int] | None = None

    def team(self, team):
        return [self.names.get(position, "") for position in Seat.SEATS_OF[team]]


@dataclass(frozen=True)
class RoundSheets:
    club: str
    competition: str
    date: date
    round: int
    sheets: list[ScoreSheet]
    sitouts: list[str]
    filled: bool
    printed: date | None = None
    warning: str = ""  # on every sheet when its QR code cannot work (printed as localhost)


def sheet_length(ruleset: rules.Ruleset) -> int:
    """Rows a blank sheet needs: the boompje's hands, or enough for a match to its target."""
    if ruleset.game_end is rules.GameEnd.HANDS:
        return ruleset.hands_per_game
    # A hand brings both teams together about 162 + roem: a team reaches the
    # target after about 2 * target / 162 hands; two rows to spare.
    return min(math.ceil(2 * ruleset.target_score / rules.HAND_TOTAL) + 2, 40)


def sheet_legend(ruleset: rules.Ruleset, style=rules.sheet.MarkStyle.PIT_TEAM) -> str:
    """How the sheet writes the rows the grid and the import read back
    (:mod:`scoring.rules.sheet`), with the rule set's bonuses and the club's marks
    (``style``, :data:`scoring.messages.MARK_LEGENDS`)."""
    pit, penalty = ruleset.pit_bonus, ruleset.verzaken_bonus
    rows = _(
        "Pit: 162 | %(pit)s + roem and the mark. Nat: nat for the team that played, "
        "162 | the roem for the other. Verzaakt: V for the team that reneged, "
        "162 | %(penalty)s + all roem for the other."
    ) % {"pit": pit, "penalty": penalty}
    return f"{MARK_LEGENDS[rules.sheet.MarkStyle(style)]} {rows}"


def mark_title(style) -> str:
    """The title of a team's mark column on the printed sheet: marsen for a marsen
    column, else M (the column also holds V)."""
    if rules.sheet.MarkStyle(style) is rules.sheet.MarkStyle.MARSEN:
        return _("marsen")
    return _("M")


def _paper_split(hand, style):
    """(points, roem, marks, nat) per team as written on paper (``rules.sheet.write_row``)."""
    row = rules.sheet.write_row(
        style=style,
        playing=hand.playing,
        points=(hand.points_a, hand.points_b),
        scores=(hand.score_a, hand.score_b),
        pit=hand.pit,
        verzaakt=hand.verzaakt,
        nat=hand.nat,
    )
    nat = (row.nat is rules.Team.A, row.nat is rules.Team.B)
    return tuple(row.points), tuple(row.roem), tuple(row.marks), nat


def round_sheets(*, round_: Round, entry_url, filled: bool = False) -> RoundSheets:
    """The score sheets of every table of a round, blank or with the entered hands.

    ``entry_url(token)`` makes a table's link for its QR code.
    """
    evening = round_.evening
    competition = evening.competition
    style = competition.club.mark_style()
    seats = list(Seat.objects.filter(round=round_).select_related("member", "table"))
    by_table, tables, sitouts = {}, {}, []
    for seat in seats:
        if seat.table_id is None:
            sitouts.append(seat.player_name)
            continue
        tables[seat.table_id] = seat.table
        by_table.setdefault(seat.table_id, {})[seat.position] = seat.player_name
    games = {g.table_id: g for g in Game.objects.filter(table__round=round_)}
    hands = {}
    if filled:
        for hand in Hand.objects.filter(game__table__round=round_).order_by("number"):
            hands.setdefault(hand.game_id, []).append(hand)
    sheets = []
    for table in sorted(tables.values(), key=lambda t: t.number):
        names = by_table.get(table.pk, {})
        game = games.get(table.pk)
        if game is not None:
            data = dict(game.ruleset)
            ruleset = rules.ruleset_from(data.pop("name"), data)
        else:
            ruleset = competition.ruleset()
        length = sheet_length(ruleset)
        extra = {}
        if filled and game is not None:
            rows = []
            for hand in hands.get(game.pk, []):
                points, roem, marks, nat = _paper_split(hand, style)
                dealer = rules.dealer_of_hand(hand.number)
                rows.append(
                    SheetRow(
                        number=hand.number,
                        dealer=names.get(Seat.ORDER[int(dealer)], ""),
                        points=points,
                        roem=roem,
                        mark=marks,
                        nat=nat,
                        roefel=ruleset.is_roefel(hand.number),
                        declared=(hand.declared_a, hand.declared_b),
                    )
                )
            extra = {
                "rows": rows,
                "totals": (game.total_a, game.total_b),
                "points_total": (sum(r.points[0] for r in rows), sum(r.points[1] for r in rows)),
                "roem_total": (sum(r.roem[0] for r in rows), sum(r.roem[1] for r in rows)),
                "marsen_total": (
                    tuple(sum(r.mark[t] == rules.sheet.MARK_TALLY for r in rows) for t in (0, 1))
                    if style is rules.sheet.MarkStyle.MARSEN
                    else None
                ),
                "status": game.get_status_display(),
                "confirmed_by": game.confirmed_by,
            }
            length = max(length, len(rows))
        sheets.append(
            ScoreSheet(
                table=table.number,
                names=names,
                length=length,
                url=entry_url(table.token),
                roefel=ruleset.roefel,
                legend=sheet_legend(ruleset, style),
                mark_title=mark_title(style),
                **extra,
            )
        )
    return RoundSheets(
        club=competition.club.name,
        competition=competition.name,
        date=evening.date,
        round=round_.number,
        sheets=sheets,
        sitouts=sorted(sitouts),
        filled=filled,
        printed=timezone.localdate(),
    )


def dealers(sheet: ScoreSheet):
    """The dealer's name for each row of a blank sheet (North deals hand 1)."""
    return [
        sheet.names.get(Seat.ORDER[int(rules.dealer_of_hand(n))], "")
        for n in range(1, sheet.length + 1)
    ]
