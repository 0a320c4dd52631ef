"""CSV files read back with the csv module and compared with the site."""

import codecs
import csv
import io

import pytest
from django.utils import translation

from scoring.exports import csv as csv_export
from scoring.exports import handlog, reports
from scoring.models import Hand
from scoring.results import standings

from .test_xlsx import TRICKY, database_hand_log

pytestmark = pytest.mark.django_db


def read(data, delimiter=","):
    """The rows of a CSV file; ``,`` is the English dialect the tests here write in."""
    assert data.startswith(codecs.BOM_UTF8)
    text = data.decode("utf-8-sig")
    assert "\r\n" in text
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


def test_standings_csv_matches_the_site(read_only_season):
    competition, *_ = read_only_season
    rows = read(csv_export.report_csv(reports.standings_report(competition=competition)))
    assert rows[0] == [
        "#",
        "Player",
        "Points",
        "Avg. per game",
        "Evenings",
        "Games",
        "Marsen",
        "Nat",
        "Roem",
    ]
    result = standings.season_standings(competition=competition)
    assert len(rows) == len(result.lines) + 1
    for row, line in zip(rows[1:], result.lines, strict=True):
        assert row[0] == (f"{line.rank}=" if line.shared else str(line.rank))
        assert row[1] == result.names[line.key]
        assert int(row[2]) == line.points
        assert float(row[3]) == round(float(line.average), 1)
        assert [int(v) for v in row[4:]] == [
            line.evenings,
            line.games,
            line.marsen,
            line.nat,
            line.roem,
        ]


def test_standings_csv_average_uses_the_languages_decimal_sign(read_only_season):
    competition, *_ = read_only_season
    with translation.override("nl"):
        data = csv_export.report_csv(reports.standings_report(competition=competition))
    averages = [row[3] for row in read(data, ";")[1:]]
    assert all("," in value and "." not in value for value in averages)


def test_hand_log_csv_is_the_import_format_and_matches_the_database(read_only_season):
    competition, *_ = read_only_season
    rows = read(csv_export.hand_log_csv(handlog.hand_log_rows(competition)))
    assert rows[0] == [str(handlog.TITLES[key]) for key in handlog.COLUMNS]
    assert rows[0][:4] == ["Date", "Round", "Table", "Hand"]
    sitout = handlog.COLUMNS.index("sitout")
    hands = [row for row in rows[1:] if not row[sitout]]
    expected = database_hand_log(competition)
    assert len(hands) == len(expected) == Hand.objects.count()
    for got, want in zip(hands, expected, strict=True):
        assert got == ["" if value is None else str(value) for value in want]
    sitouts = [row for row in rows[1:] if row[sitout]]
    assert sitouts and all(row[2] == row[3] == "" and row[sitout] == "1600" for row in sitouts)


def test_hand_log_csv_speaks_dutch_with_semicolons_and_wij_zij(read_only_season):
    competition, *_ = read_only_season
    with translation.override("nl"):
        data = csv_export.hand_log_csv(handlog.hand_log_rows(competition))
    rows = read(data, ";")
    assert rows[0][:4] == ["Datum", "Ronde", "Tafel", "Spel"]
    assert "Punten wij" in rows[0] and "Punten zij" in rows[0]
    playing = rows[0].index("Spelende partij")
    teams = {row[playing] for row in rows[1:] if row[playing]}
    assert teams == {"wij", "zij"}
    assert all(len(row) == len(handlog.COLUMNS) for row in rows)


def test_every_csv_uses_the_one_dialect_of_the_language(read_only_season):
    competition, *_ = read_only_season
    report = reports.standings_report(competition=competition)
    for language, delimiter in (("nl", ";"), ("en", ",")):
        with translation.override(language):
            files = [
                csv_export.report_csv(report),
                csv_export.hand_log_csv(handlog.hand_log_rows(competition)),
            ]
        for data in files:
            header = data.decode("utf-8-sig").split("\r\n", 1)[0]
            other = "," if delimiter == ";" else ";"
            assert header.count(delimiter) >= 8 and other not in header, (language, header)


def test_formula_like_names_get_an_apostrophe(read_only_season):
    competition, members, *_ = read_only_season
    for member, name in zip(members, TRICKY, strict=False):
        type(member).objects.filter(pk=member.pk).update(name=name)
    rows = read(csv_export.hand_log_csv(handlog.hand_log_rows(competition)))
    names = {name for row in rows[1:] for name in row[4:8] if name}
    assert {"'" + name for name in TRICKY} <= names
    assert not names & set(TRICKY)
    standings_rows = read(csv_export.report_csv(reports.standings_report(competition=competition)))
    assert {"'" + name for name in TRICKY} <= {row[1] for row in standings_rows}
