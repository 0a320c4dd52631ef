"""The one CSV writer: quoting and the formula guard, read back with the csv module."""

import csv
import io
from fractions import Fraction

import pytest
from django.utils import translation

from common.csvfile import (
    Dialect,
    Verbatim,
    csv_bytes,
    csv_lines,
    dialect,
    field,
    guard,
    needs_guard,
    unguard,
)
from common.formatting import format_average

FORMULAS = ["=1+1", "+31 6", "-Min", "@SUM(A1)", "\tx", "\rx"]
HIDDEN = ["Jan;=cmd|' /C calc'!A0", "Piet,+SUM(A1)", "a;b,-c", "x;@y"]
HARMLESS = ["Jan Jansen", "Yvonne 't Hart", "Anne & Piet", "1-2-3", "a=b", "Łódź", ""]


@pytest.mark.parametrize("text", FORMULAS + HIDDEN)
def test_a_text_a_spreadsheet_could_run_gets_an_apostrophe(text):
    assert guard(text) == "'" + text


@pytest.mark.parametrize("text", HARMLESS)
def test_a_harmless_text_is_left_alone(text):
    assert guard(text) == text


@pytest.mark.parametrize("text", FORMULAS + HIDDEN + HARMLESS + ["'=x", "''=x", "'Jan", "'"])
def test_unguard_gives_back_exactly_what_was_guarded(text):
    assert unguard(guard(text)) == text


def test_an_apostrophe_before_a_formula_gets_a_second_one():
    assert guard("'=x") == "''=x" and needs_guard("'=x")


@pytest.mark.parametrize("text", ["a,b", "a;b", 'a"b', "a\nb", "a\r\nb", "a\tb"])
def test_a_field_with_a_separator_quote_or_line_break_is_quoted(text):
    assert field(text).startswith('"') and field(text).endswith('"')


def test_numbers_and_verbatim_texts_are_not_guarded():
    assert field(-12) == "-12"
    assert field(Verbatim("-12,5")) == '"-12,5"'  # quoted (a comma), never guarded
    assert field(Verbatim("3=")) == "3="
    assert field(None) == ""


@pytest.mark.parametrize(("language", "file_delimiter"), [("nl", ";"), ("en", ",")])
@pytest.mark.parametrize("reader_delimiter", [";", ","])
def test_no_cell_starts_a_formula_whatever_separator_the_reader_splits_on(
    language, file_delimiter, reader_delimiter
):
    rows = [[text, 1] for text in FORMULAS + HIDDEN + HARMLESS]
    with translation.override(language):
        data = csv_bytes(["Naam", "n"], rows)
    assert data.startswith("\ufeff".encode())
    text = data.decode("utf-8-sig")
    read = list(csv.reader(io.StringIO(text, newline=""), delimiter=reader_delimiter))
    cells = [cell for row in read for cell in row]
    assert not [c for c in cells if c.startswith(("=", "+", "-", "@", "\t", "\r"))]
    if reader_delimiter == file_delimiter:
        assert [unguard(row[0]) for row in read[1:]] == [row[0] for row in rows]


def test_lines_come_in_chunks_with_one_header_and_one_byte_order_mark():
    chunks = list(csv_lines(["a"], ([n] for n in range(4500))))
    assert len(chunks) == 3
    text = "".join(chunks)
    assert text.count("\ufeff") == 1 and text.startswith("\ufeffa\r\n0\r\n")
    assert text.count("\r\n") == 4501


@pytest.mark.parametrize(
    ("language", "expected"), [("nl", Dialect(";", ",")), ("en", Dialect(",", "."))]
)
def test_the_dialect_follows_the_languages_decimal_sign(language, expected):
    with translation.override(language):
        assert dialect() == expected
        data = csv_bytes(["a", "b"], [[Verbatim(format_average(Fraction(32501, 20))), 2]])
    fields = next(
        csv.reader(
            io.StringIO(data.decode("utf-8-sig").splitlines()[1]), delimiter=expected.delimiter
        )
    )
    assert fields == [f"1625{expected.decimal}1", "2"]


def test_the_dialect_is_the_one_at_the_call_not_when_the_chunks_are_read():
    with translation.override("nl"):
        chunks = csv_lines(["a", "b"], [[1, 2]])
    with translation.override("en"):
        assert "".join(chunks) == "\ufeffa;b\r\n1;2\r\n"
