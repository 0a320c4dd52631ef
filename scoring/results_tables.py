"""Result and standings tables (django-tables2).

Rows are plain dicts built by the views from ``scoring.standings``; the rank is
a value of the row, so sorting by another column keeps every player's rank.
"""

import django_tables2 as tables
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _


class RankColumn(tables.Column):
    def render(self, value, record):
        if value is None:
            return "–"
        return f"{value}=" if record.get("shared") else value


class NumberColumn(tables.Column):
    attrs = {"td": {"class": "num"}, "th": {"class": "num"}}


class StandingsTable(tables.Table):
    rank = RankColumn(verbose_name=_("#"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=_("Player"), order_by=("sort_name",))
    points = NumberColumn(verbose_name=_("Points"))
    average = NumberColumn(verbose_name=_("Average"))
    evenings = NumberColumn(verbose_name=_("Evenings"))
    games = NumberColumn(verbose_name=_("Games"))
    marsen = NumberColumn(verbose_name=_("Marsen"))
    nat = NumberColumn(verbose_name=_("Nat"))
    roem = NumberColumn(verbose_name=_("Roem"))

    class Meta:
        orderable = True
        attrs = {"class": "standings"}
        row_attrs = {"class": lambda record: "below-line" if record["rank"] is None else ""}
        empty_text = _("No results yet.")

    def render_name(self, value, record):
        if record.get("url"):
            return format_html('<a href="{}">{}</a>', record["url"], value)
        return value

    def render_average(self, value):
        return number_format(float(value), 1)

    def value_average(self, value):
        return round(float(value), 1)

    def value_name(self, value):
        return value

    def value_rank(self, value):
        return value


class EveningResultTable(StandingsTable):
    class Meta(StandingsTable.Meta):
        exclude = ("evenings",)
        row_attrs = {
            "class": lambda record: " ".join(
                c
                for c, on in (
                    ("winner", record.get("winner")),
                    ("prize", record.get("prize")),
                    ("poedel", record.get("poedel")),
                )
                if on
            )
        }

    def render_name(self, value, record):
        name = super().render_name(value, record)
        if record.get("winner"):
            return format_html("{} <span class='badge prize'>{}</span>", name, _("winner"))
        if record.get("prize"):
            return format_html("{} <span class='badge prize'>{}</span>", name, _("prize"))
        if record.get("poedel"):
            return format_html("{} <span class='badge prize'>{}</span>", name, _("poedelprijs"))
        return name
