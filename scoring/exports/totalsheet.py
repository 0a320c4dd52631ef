"""The columns of a sheet of evening totals: how clubs keep their history.

One row per player per evening (or per round, with a ``round`` column): the
date, the name, the points, and where the club wrote them the marsen and the
place. The results import (:mod:`.importers`) reads such a sheet when its first
row names these columns rather than a hand log's (:mod:`.handlog`); the titles
may be the column names, the titles below in either language, or the Dutch
words a club writes.
"""

from django.utils.translation import gettext_lazy as _

from . import handlog

#: The columns, in the order the upload page lists them.
COLUMNS = ("date", "round", "name", "points", "marsen", "place")
#: A sheet of totals without one of these cannot be imported.
REQUIRED = ("date", "name", "points")

TITLES = {
    "date": handlog.TITLES["date"],
    "round": handlog.TITLES["round"],
    "name": _("Name"),
    "points": _("Points"),
    "marsen": _("Marsen"),
    "place": _("Place"),
}

#: Titles a club's own sheet may use, besides the column names and TITLES.
ALIASES = {
    "date": handlog.ALIASES["date"],  # a date and a round are written as in a hand log
    "round": handlog.ALIASES["round"],
    "name": ("naam", "speler", "player", "lid", "member", "deelnemer"),
    "points": ("punten", "totaal", "total", "score", "totaal punten", "punten totaal"),
    "marsen": ("marsen", "mars", "pits", "aantal marsen"),
    "place": ("plaats", "positie", "rang", "position", "rank", "pl"),
}
