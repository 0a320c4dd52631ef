"""A column spec: what one column of a listed table is, for every way it is shown.

One list of :class:`Column` describes a table once; the django-tables2 table
of the page, the spreadsheet, the CSV file and the PDF are all built from it, so
a title, an order or a rounding cannot differ between the screen and a file.

Rows are dicts keyed by :attr:`Column.key`. A rank row may say ``shared`` (a
place shared with others: ``3=``); a rank of None is "below the line" (not
ranked yet).
"""

from dataclasses import dataclass

from .formatting import AVERAGE_DECIMALS, format_decimal, round_half_up

TEXT, INT, DECIMAL, RANK = "text", "int", "decimal", "rank"
#: What a page and a PDF show for a player without a rank.
NO_RANK = "–"


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    kind: str = INT
    width: int = 9  # characters, for spreadsheets; the PDF sizes columns by their text
    decimals: int = AVERAGE_DECIMALS  # of a DECIMAL column

    @property
    def numeric(self) -> bool:
        """Right-aligned on the page and in the PDF."""
        return self.kind != TEXT

    def text(self, row) -> str:
        """The value as the page, the PDF and the CSV file write it."""
        value = row.get(self.key)
        if value is None or value == "":
            return NO_RANK if self.kind == RANK else ""
        if self.kind == RANK:
            return f"{value}=" if row.get("shared") else str(value)
        if self.kind == DECIMAL:
            return format_decimal(value, self.decimals)
        return str(value)

    def cell(self, row):
        """The value as a spreadsheet holds it: a number for numbers (a decimal
        rounded as it is shown), the text for texts, None for nothing."""
        value = row.get(self.key)
        if value is None or value == "":
            return None
        if self.kind == DECIMAL:
            return float(round_half_up(value, self.decimals))
        if self.kind == TEXT:
            return str(value)
        return value

    def fitted(self, rows) -> "Column":
        """This column as wide as its title, or (a text) its longest value (at most 50)."""
        width = max(self.width, len(self.title) + 2)
        if self.kind == TEXT:
            longest = max((len(str(row.get(self.key) or "")) for row in rows), default=0)
            width = min(max(width, longest + 2), 50)
        return Column(self.key, self.title, self.kind, width, self.decimals)
