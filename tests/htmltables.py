"""Read a page's ``<table>`` back: its headers (text and ``title``) and its rows' cells."""

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class ReadTable:
    classes: list
    headers: list = field(default_factory=list)  # [(text, title attribute or None)]
    rows: list = field(default_factory=list)  # [(row classes, [cell text, ...])]

    @property
    def titles(self):
        """Each header's full title: its ``title`` attribute, else its text."""
        return [title or text for text, title in self.headers]


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.row = [], None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append(ReadTable(classes=(attrs.get("class") or "").split()))
        elif tag == "tr" and self.tables:
            self.row = ((attrs.get("class") or "").split(), [])
        elif tag in ("th", "td") and self.tables:
            self.cell = [tag, [], attrs.get("title")]

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1].append(data)

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self.cell is not None:
            kind, parts, title = self.cell
            text = " ".join("".join(parts).split())
            if kind == "th":
                self.tables[-1].headers.append((text, title))
            else:
                self.row[1].append(text)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if self.row[1]:
                self.tables[-1].rows.append(self.row)
            self.row = None


def read_tables(html, css_class=None):
    """Every table of ``html`` (with ``css_class``, when given), in page order."""
    reader = _Reader()
    reader.feed(html)
    return [t for t in reader.tables if css_class is None or css_class in t.classes]
