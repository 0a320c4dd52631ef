"""Result and standings tables: one column spec, drawn by django-tables2 and every file.

:func:`standings_columns` is the one definition of the standings' and an
evening result's columns (titles, order, kinds, rounding, and what each counts:
the help under the table); the page's django-tables2 tables below are built from
it, and so are the spreadsheet, CSV and PDF of :mod:`scoring.exports.reports`.
Each concept (roem, marsen, the average, ...) has one column function, so the
standings, an evening's result and the player page say the same of it.

:func:`player_evening_columns`, :func:`player_period_columns` (a season counted by
periods) and :func:`partner_columns` are the player page's tables (no file yet);
:func:`player_stat_columns` the columns its statistics share with the standings
(their titles and help).

Rows are plain dicts built by the views from ``scoring.results.standings``; the rank is
a value of the row, so sorting by another column keeps every player's rank.
"""

from fractions import Fraction

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from common.columns import DATE, DECIMAL, INT, RANK, TEXT, Column
from common.rulesets import CHOICES as RULESET_CHOICES
from common.rulesets import describe_game
from common.tables import SpecTable
from scoring.rules import InvalidRuleset
from tournaments.ranking_rules import AverageUnit


def standings_columns(
    *, pairs=False, evenings=True, round_numbers=(), prize=False, competition=None, periods=()
):
    """The columns of the standings (``evenings``) or of an evening's result
    (``round_numbers``: a column per round; ``prize``: winner and poedelprijs in
    words, for the files; the page shows them as badges by the name).

    ``competition``: whose rule set and sit-out score the columns' help states (what
    a nat team's roem does, what a game is), and whose average unit the average's
    title says (an evening's result: always per game); without it the help says it
    in general. ``periods``: the periods a season is counted by
    (``Standings.periods``): a column per period's result and which ones count."""
    ruleset = _ruleset_of(competition)
    columns = [
        rank_column(),
        Column("name", _("Pair") if pairs else _("Player"), TEXT, 24),
    ]
    columns += [
        Column(f"round_{n}", _("Round %(number)s") % {"number": n}, INT, 9) for n in round_numbers
    ]
    columns += period_columns(periods, competition)
    unit = competition.average_unit if competition is not None and evenings else None
    columns += [points_column(season=evenings), average_column(ruleset, unit=unit)]
    if evenings:
        columns.append(evenings_column())
    columns += [
        games_column(),
        marsen_column(sitout_mars=bool(competition and competition.sitout_mars)),
        nat_column(),
        roem_column(ruleset),
    ]
    if prize:
        columns.append(Column("prize", _("Prize"), TEXT, 8))
    return columns


def _ruleset_of(competition):
    """The rule set a competition's help speaks of; None (the help in general words)
    without a competition or for one whose stored rule set the core refuses."""
    if competition is None:
        return None
    try:
        return competition.ruleset()
    except InvalidRuleset:
        return None


# --- The columns of the results, each with what it counts -----------------------------
# One column per concept: the standings, an evening's result and the player page
# (its statistics) take their titles and help from here.


def rank_column(title=None):
    return Column(
        "rank",
        title or _("#"),
        RANK,
        5,
        help=_("The place; 3= is a place shared with others, – is no place (yet)."),
    )


def points_column(*, season=True):
    """The points: of the evenings that count (``season``), or of one evening."""
    if season:
        words = _(
            "The total of the evenings that count: their team's game totals, plus "
            "sit-out and absence scores and adjustments."
        )
    else:
        words = _(
            "The evening's total: their team's game totals, plus sit-out and absence "
            "scores and adjustments."
        )
    return Column("points", _("Points"), INT, 9, help=words)


def average_column(ruleset=None, *, unit=None, long=False):
    """The average (gemiddelde), its title saying its basis: points per game (a
    game as ``ruleset`` has it: a boompje of 16 hands, a match to 500) or per
    evening (``unit``, a ``Competition.AverageUnit``; None: per game). ``long``:
    the title in full words (the player page), else the header's short one."""
    if unit == AverageUnit.EVENING:
        title = _("Average per evening") if long else _("Avg. per evening")
        words = _("Points per evening: the points divided by the evenings counted.")
    else:
        title = _("Average per game") if long else _("Avg. per game")
        words = _("Points per game: the points divided by the games.")
        if ruleset is not None:
            words += " " + describe_game(ruleset)
    return Column("average", title, DECIMAL, 9, help=words)


def period_columns(periods, competition=None):
    """A season counted by periods: each period's result (its name as the title),
    then the periods that count."""
    if not periods:
        return []
    best = competition.best_of if competition is not None else None
    if best:
        words = ngettext(
            "The period's result: the player's best evening in it.",
            "The period's result: the total of the player's best %(count)s evenings in it.",
            best,
        ) % {"count": best}
    else:
        words = _("The period's result: the total of the player's evenings in it.")
    columns = [Column(f"period_{p.pk}", p.name, INT, 9, help=words) for p in periods]
    columns.append(
        Column(
            "periods_counted",
            _("Periods counted"),
            TEXT,
            18,
            help=_("The periods whose results make the player's points, the best ones."),
        )
    )
    return columns


def period_cells(line, periods):
    """A standings row's values of :func:`period_columns` (``line``: a ranked line)."""
    names = {p.pk: p.name for p in periods}
    cells = {f"period_{p.pk}": None for p in periods}
    for result in line.periods:
        cells[f"period_{result.period}"] = result.points
    cells["periods_counted"] = ", ".join(
        names[r.period] for r in line.periods if r.counted and r.period in names
    )
    return cells


def evenings_column():
    words = _(
        "Evenings played, also those not among the best; an evening with only an "
        "absence score is not played."
    )
    return Column("evenings", _("Evenings"), INT, 9, help=words)


def games_column():
    words = _("One a round: played, sat out or scored for absence.")
    return Column("games", _("Games"), INT, 8, help=words)


def marsen_column(*, sitout_mars=False):
    """Marsen: the playing team's pits. A tegenpit is not one (docs/rules.md, "Pit
    (mars) and tegenpit": clubs write it TP, apart from the playing team's M), so it is
    left out, and the help says so."""
    words = _(
        "Hands their team played and took every trick (a pit, M on the score sheet). "
        "A tegenpit (TP: every trick taken as defenders) is not counted."
    )
    if sitout_mars:
        words += " " + _("A round sat out counts as a mars.")
    return Column("marsen", _("Marsen"), INT, 8, help=words)


def nat_column():
    words = _("Hands their team played and went nat; the opponents going nat is not counted.")
    return Column("nat", _("Nat"), INT, 6, help=words)


def roem_column(ruleset=None):
    """Roem received: what the team banked (``scoring.rules.game_roem``), so a nat
    team's roem counts where ``ruleset.nat_roem`` sends it."""
    words = [_("The roem their team received: in a hand it made, its own.")]
    if ruleset is not None:
        rule = dict(RULESET_CHOICES["nat_roem"])[ruleset.nat_roem.value]
        words.append(_("When a team is nat: %(rule)s.") % {"rule": rule})
    else:
        words.append(_("When a team is nat, the rule set says who gets the roem."))
    words.append(_("After verzaken the other team gets all roem of the hand."))
    words.append(_("The 100 for a pit is not roem."))
    return Column("roem", _("Roem"), INT, 8, help=" ".join(words))


class StandingsTable(SpecTable):
    """The season standings; ``columns`` is :func:`standings_columns`' list.

    django-tables2 draws the headers (sorting links, ``aria-sort``), sorts the
    rows and feeds the exports; the body is :meth:`html_rows`, each row's HTML
    written once from the column spec's texts, not resolved cell by cell through
    django-tables2's generic machinery (which costs more than the standings'
    own computation on a season of 100 players).
    """

    class Meta(SpecTable.Meta):
        template_name = "scoring/results/standings_table.html"
        orderable = True
        attrs = {"class": "standings"}
        empty_text = gettext_lazy("No results yet.")

    def row_class(self, record):
        return "below-line" if record["rank"] is None else ""

    def html_rows(self):
        """Each row as ``<tr>...</tr>``, in the table's order: the rank, name and
        numbers as :meth:`common.columns.Column.text` writes them (the name
        through ``render_name``), with the cell classes of the columns and
        django-tables2's even/odd row classes."""
        columns = [
            (column.name, column.column.spec, column.attrs["td"].as_html())
            for column in self.columns
        ]
        rows = []
        for index, record in enumerate(self.data):
            classes = " ".join(filter(None, (self.row_class(record), ("even", "odd")[index % 2])))
            cells = []
            for name, spec, attrs in columns:
                text = spec.text(record)
                if name == "name":
                    text = conditional_escape(self.render_name(text, record))
                elif not spec.numeric:  # a number's text is digits and signs only
                    text = conditional_escape(text)
                cells.append(f"<td {attrs}>{text}</td>")
            rows.append(f'<tr class="{classes}">{"".join(cells)}</tr>')
        return mark_safe("\n".join(rows))  # noqa: S308 - every text above is escaped

    def __init__(self, data, *, columns=None, **kwargs):
        columns = standings_columns() if columns is None else columns
        super().__init__(
            data,
            columns=columns,
            order_by_keys={"name": ("sort_name",)},
            sequence=[spec.key for spec in columns],
            **kwargs,
        )

    def render_name(self, value, record):
        if record.get("url"):
            return format_html('<a href="{}">{}</a>', record["url"], value)
        return value


class EveningResultTable(StandingsTable):
    """An evening's result. On a phone the rank, the name, the points and the
    average fit the width (up to 400 px wide without the average); the other columns
    (:attr:`DETAIL`) carry the class ``col-detail``, which the style sheet hides
    on narrow screens (the files and a wider screen have them all)."""

    DETAIL = ("games", "marsen", "nat", "roem")
    """Keys of the columns a phone leaves out, besides every round's column."""
    NARROWEST = ("average",)
    """Keys of the columns phones up to 400 px wide leave out too (``col-narrowest``)."""

    class Meta(StandingsTable.Meta):
        attrs = {"class": "standings evening-result"}

    def __init__(self, data, **kwargs):
        super().__init__(data, **kwargs)
        for bound in self.columns:
            if bound.name in self.DETAIL or bound.name.startswith("round_"):
                label = "col-detail"
            elif bound.name in self.NARROWEST:
                label = "col-narrowest"
            else:
                continue
            attrs = {part: dict(values) for part, values in bound.column.attrs.items()}
            for part in ("th", "td"):
                cell = attrs.setdefault(part, {})
                cell["class"] = " ".join(filter(None, (cell.get("class"), label)))
            bound.column.attrs = attrs

    def row_class(self, record):
        return " ".join(key for key in ("winner", "prize", "poedel") if record.get(key))

    def render_name(self, value, record):
        name = super().render_name(value, record)
        if record.get("winner"):
            return format_html("{} <span class='badge prize'>{}</span>", name, _("winner"))
        if record.get("prize"):
            return format_html("{} <span class='badge prize'>{}</span>", name, _("prize"))
        if record.get("poedel"):
            return format_html("{} <span class='badge prize'>{}</span>", name, _("poedelprijs"))
        return name


# --- The player page ---------------------------------------------------------------------


def player_evening_columns():
    """The player page's evenings: each evening's points, games and place."""
    return [
        Column("date", _("Date"), DATE, 12),
        Column("points", _("Points"), INT, 9),
        Column("games", _("Games"), INT, 8),
        Column("rank", _("Place"), RANK, 7),
        Column("players", _("Players"), INT, 8),
        Column("counts", _("In the standings"), TEXT, 24),
    ]


def partner_columns():
    """The player page's partners: games and average together."""
    return [
        Column("name", _("Partner"), TEXT, 24),
        Column("games", _("Games together"), INT, 9),
        Column("average", _("Average together"), DECIMAL, 9),
    ]


def player_stat_columns(competition):
    """The player page's statistics that are columns of the standings too, by key, with
    their help: the same words as the standings' and an evening result's headers."""
    ruleset = _ruleset_of(competition)
    columns = [
        games_column(),
        average_column(ruleset, unit=competition.average_unit, long=True),
        marsen_column(sitout_mars=competition.sitout_mars),
        roem_column(ruleset),
    ]
    return {column.key: column for column in columns}


def player_evening_rows(evenings, *, url):
    """The rows of :func:`player_evening_columns` (``evenings``: ``PlayerEvening``
    values; ``url``: an evening's page)."""
    counts = {
        "counted": _("counts"),
        "dropped": _("dropped (not among the best)"),
    }
    return [
        {
            "date": e.evening.date,
            "url": url(e.evening),
            "points": e.points,
            "games": e.games,
            "rank": e.rank,
            "players": e.players,
            "counts": counts.get(e.counts, _("does not count")),
        }
        for e in evenings
    ]


def player_period_columns():
    """The player page's periods, in a season counted by periods: each period's
    result and whether the standings count it."""
    return [
        Column("name", _("Period"), TEXT, 16),
        Column("points", _("Result"), INT, 9),
        Column("counts", _("In the standings"), TEXT, 24),
    ]


def player_period_rows(periods):
    """The rows of :func:`player_period_columns` (``periods``: ``PlayerStats.periods``)."""
    return [
        {
            "name": period.name,
            "points": result.points if result else None,
            "counts": (
                _("no evening played")
                if result is None
                else _("counts")
                if result.counted
                else _("dropped (not among the best)")
            ),
        }
        for period, result in periods
    ]


def partner_rows(partners):
    """The rows of :func:`partner_columns` (``partners``: ``Partner`` values)."""
    return [
        {
            "name": p.name,
            "games": p.games,
            "average": Fraction(p.points, p.games) if p.games else 0,
        }
        for p in partners
    ]


class PlayerEveningsTable(SpecTable):
    class Meta(SpecTable.Meta):
        attrs = {"class": "player-evenings"}

    def __init__(self, data, **kwargs):
        super().__init__(data, columns=player_evening_columns(), **kwargs)

    def render_date(self, value, record):
        return self.link(record["url"], self.text("date", record))


class PartnersTable(SpecTable):
    class Meta(SpecTable.Meta):
        attrs = {"class": "player-partners"}

    def __init__(self, data, **kwargs):
        super().__init__(data, columns=partner_columns(), **kwargs)


class PlayerPeriodsTable(SpecTable):
    class Meta(SpecTable.Meta):
        attrs = {"class": "player-periods"}

    def __init__(self, data, **kwargs):
        super().__init__(data, columns=player_period_columns(), **kwargs)
