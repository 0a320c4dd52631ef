"""A column spec: what one column of a listed table is, for every way it is shown.

One list of :class:`Column` describes a table once; the django-tables2 table
of the page (:class:`common.tables.SpecTable`), the spreadsheet, the CSV file
and the PDF are all built from it, so a title, an order or a rounding cannot
differ between the screen and a file.

Rows are dicts keyed by :attr:`Column.key`. A rank row may say ``shared`` (a
place shared with others: ``3=``); a rank of None is "below the line" (not
ranked yet).

Kinds: ``TEXT``; ``INT``; ``DECIMAL`` (always ``decimals`` decimals);
``NUMBER`` (an int or an exact fraction: whole numbers shown whole, others with
``decimals`` decimals, as a league's proportional match points); ``RANK``;
``DATE`` (a date: "di 8 dec 2026" on the page, a date cell in a spreadsheet).

A column may have a short ``abbr`` for the page's header (``P`` for "Played"),
which then carries the full title as its ``title`` attribute; files always write
the title.

A column whose title does not say what it counts has a ``help``: one or two
sentences, written once here with the title. The page gives it as the header's
``title`` and in a list under the table; the spreadsheet as a comment on the
header cell and in notes under the table; the PDF in notes under the table
(:func:`column_notes` gives them in the columns' order). A CSV file has no
notes: it holds one table, for programs to read.
"""

from dataclasses import dataclass, replace
from fractions import Fraction

from .formatting import AVERAGE_DECIMALS, day_text, format_decimal, round_half_up

TEXT, INT, DECIMAL, NUMBER, RANK, DATE = "text", "int", "decimal", "number", "rank", "date"
#: What a page and a PDF show for a player without a rank.
NO_RANK = "–"


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    kind: str = INT
    width: int = 9  # characters, for spreadsheets; the PDF sizes columns by their text
    decimals: int = AVERAGE_DECIMALS  # of a DECIMAL or (not whole) NUMBER column
    abbr: str = ""  # the page's header, when shorter than the title
    help: str = ""  # what the column counts, when the title does not say it

    @property
    def note(self) -> str:
        """The help as a line of notes under the table: "Roem: the roem ..."."""
        return f"{self.title}: {self.help}" if self.help else ""

    @property
    def numeric(self) -> bool:
        """Right-aligned on the page and in the PDF."""
        return self.kind in (INT, DECIMAL, NUMBER, RANK)

    @staticmethod
    def _whole(value):
        """A NUMBER's value as an int when it is whole, else None."""
        value = Fraction(value)
        return value.numerator if value.denominator == 1 else None

    def text(self, row) -> str:
        """The value as the page, the PDF and the CSV file write it."""
        value = row.get(self.key)
        if value is None or value == "":
            return NO_RANK if self.kind == RANK else ""
        if self.kind == RANK:
            return f"{value}=" if row.get("shared") else str(value)
        if self.kind == DECIMAL:
            return format_decimal(value, self.decimals)
        if self.kind == NUMBER:
            whole = self._whole(value)
            return str(whole) if whole is not None else format_decimal(value, self.decimals)
        if self.kind == DATE:
            return day_text(value)
        return str(value)

    def cell(self, row):
        """The value as a spreadsheet holds it: a number for numbers (a decimal
        rounded as it is shown), the text for texts, None for nothing."""
        value = row.get(self.key)
        if value is None or value == "":
            return None
        if self.kind == DECIMAL:
            return float(round_half_up(value, self.decimals))
        if self.kind == NUMBER:
            whole = self._whole(value)
            return whole if whole is not None else float(round_half_up(value, self.decimals))
        if self.kind == TEXT:
            return str(value)
        return value

    def fitted(self, rows) -> "Column":
        """This column as wide as its title, or (a text) its longest value (at most 50)."""
        width = max(self.width, len(self.title) + 2)
        if self.kind == TEXT:
            longest = max((len(str(row.get(self.key) or "")) for row in rows), default=0)
            width = min(max(width, longest + 2), 50)
        return replace(self, width=width)


def column_notes(columns) -> list[Column]:
    """The columns with a help, in their order: the notes under a table, on the page
    and in the files."""
    return [column for column in columns if column.help]
