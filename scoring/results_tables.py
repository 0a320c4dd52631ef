"""Result and standings tables: one column spec, drawn by django-tables2 and every file.

:func:`standings_columns` is the one definition of the standings' and an
evening result's columns (titles, order, kinds, rounding); the page's
django-tables2 tables below are built from it, and so are the spreadsheet, CSV
and PDF of :mod:`scoring.exports.reports`.

:func:`player_evening_columns` and :func:`partner_columns` are the player page's
two tables (no file yet).

Rows are plain dicts built by the views from ``scoring.standings``; the rank is
a value of the row, so sorting by another column keeps every player's rank.
"""

from fractions import Fraction

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.columns import DATE, DECIMAL, INT, RANK, TEXT, Column
from common.tables import SpecTable


def standings_columns(*, pairs=False, evenings=True, round_numbers=(), prize=False):
    """The columns of the standings (``evenings``) or of an evening's result
    (``round_numbers``: a column per round; ``prize``: winner and poedelprijs in
    words, for the files; the page shows them as badges by the name)."""
    columns = [
        Column("rank", _("#"), RANK, 5),
        Column("name", _("Pair") if pairs else _("Player"), TEXT, 24),
    ]
    columns += [
        Column(f"round_{n}", _("Round %(number)s") % {"number": n}, INT, 9) for n in round_numbers
    ]
    columns += [
        Column("points", _("Points"), INT, 9),
        Column("average", _("Average"), DECIMAL, 9),
    ]
    if evenings:
        columns.append(Column("evenings", _("Evenings"), INT, 9))
    columns += [
        Column("games", _("Games"), INT, 8),
        Column("marsen", _("Marsen"), INT, 8),
        Column("nat", _("Nat"), INT, 6),
        Column("roem", _("Roem"), INT, 8),
    ]
    if prize:
        columns.append(Column("prize", _("Prize"), TEXT, 8))
    return columns


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
