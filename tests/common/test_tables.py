"""common.tables: a django-tables2 table drawn from a column spec."""

import datetime
from fractions import Fraction

import django_tables2 as tables
import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import translation

from common.columns import DATE, DECIMAL, INT, NUMBER, RANK, TEXT, Column
from common.tables import SpecTable
from tests.htmltables import read_tables

SPEC = [
    Column("rank", "Place", RANK, abbr="#"),
    Column("name", "Name", TEXT),
    Column("day", "Day", DATE),
    Column("points", "Match points", NUMBER, decimals=2),
    Column("average", "Average", DECIMAL),
    Column("games", "Games", INT),
]
ROWS = [
    {
        "rank": 1,
        "shared": True,
        "name": "Ans",
        "day": datetime.date(2026, 12, 8),
        "points": Fraction(7, 3),
        "average": Fraction(81, 2),
        "games": 4,
    },
    {"rank": None, "name": "Bep", "day": None, "points": 2, "average": 0, "games": 0},
]


class ActionTable(SpecTable):
    button = tables.TemplateColumn("<button>go</button>", exclude_from_export=True)


def rendered(table):
    request = RequestFactory().get("/")
    context = Context({"table": table, "request": request})
    return Template("{% load django_tables2 %}{% render_table table %}").render(context)


def test_the_headers_are_the_specs_titles_in_order_and_an_abbr_keeps_the_title():
    with translation.override("en"):
        (table,) = read_tables(rendered(SpecTable(ROWS, columns=SPEC)))
    assert table.titles == ["Place", "Name", "Day", "Match points", "Average", "Games"]
    assert table.headers[0] == ("#", "Place")


def test_the_cells_are_the_specs_texts():
    with translation.override("en"):
        (table,) = read_tables(rendered(SpecTable(ROWS, columns=SPEC)))
    assert [cells for _classes, cells in table.rows] == [
        ["1=", "Ans", "Tue 8 Dec 2026", "2.33", "40.5", "4"],
        ["–", "Bep", "", "2", "0.0", "0"],
    ]


def test_numbers_are_right_aligned_and_texts_and_dates_not():
    html = rendered(SpecTable(ROWS, columns=SPEC))
    cells = html.split("<tbody")[1].split("</tr>")[0]
    classes = [c.split('"')[1] if c.startswith(' class="') else "" for c in cells.split("<td")[1:]]
    assert classes == ["num rank", "", "", "num", "num", "num"]


def test_declared_columns_follow_the_spec_and_stay_out_of_the_export():
    table = ActionTable(ROWS, columns=SPEC)
    assert [column.name for column in table.columns] == [
        "rank",
        "name",
        "day",
        "points",
        "average",
        "games",
        "button",
    ]
    with translation.override("en"):
        values = list(table.as_values())
    # The files' header is the full title, not the page's abbreviation.
    assert values[0] == ["Place", "Name", "Day", "Match points", "Average", "Games"]
    assert values[1] == [1, "Ans", datetime.date(2026, 12, 8), 2.33, 40.5, 4]


@pytest.mark.parametrize(
    "value, text, cell",
    [
        (Fraction(7, 1), "7", 7),
        (Fraction(7, 2), "3.50", 3.5),
        (Fraction(1, 3), "0.33", 0.33),
        (Fraction(-5, 8), "-0.63", -0.63),  # -0.625 rounded half away from zero
    ],
)
def test_a_number_column_is_whole_when_whole_and_two_decimals_else(value, text, cell):
    column = Column("p", "Points", NUMBER, decimals=2)
    with translation.override("en"):
        assert column.text({"p": value}) == text
    assert column.cell({"p": value}) == cell


def test_a_date_column_writes_the_weekday_and_keeps_a_date_for_spreadsheets():
    column = Column("d", "Date", DATE)
    day = datetime.date(2026, 12, 8)
    with translation.override("nl"):
        assert column.text({"d": day}) == "di 8 dec 2026"
    assert column.cell({"d": day}) == day
    assert not column.numeric


def test_fitted_keeps_the_abbreviation():
    column = Column("p", "Played", INT, 4, abbr="P").fitted([])
    assert (column.abbr, column.width) == ("P", 8)
