"""Importing past results: the round trip, twice, and every way a file can be wrong."""

import csv
import dataclasses
import datetime
import io
import time
import zipfile

import openpyxl
import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation

from clubs.models import Club, Member
from common.tabular import normalise_title
from scoring import rules
from scoring import services as scoring_services
from scoring.exports import csv as csv_export
from scoring.exports import handlog, importers, xlsx
from scoring.models import Adjustment, AuditEntry, EveningTotals, Game, Hand
from scoring.results import standings
from tests import factories
from tests.common import spreadsheets
from tournaments import services as tournament_services
from tournaments.models import Competition, Evening, EveningLog, Round, Seat, Table

pytestmark = pytest.mark.django_db

MODELS = (Club, Member, Competition, Evening, Round, Table, Seat, Game, Hand, Adjustment)
NAMES = ["Anna", "Bert", "Cor", "Dirk"]


def counts():
    return {model.__name__: model.objects.count() for model in (*MODELS, AuditEntry, EveningLog)}


def csv_bytes(rows, columns=handlog.COLUMNS, *, encoding="utf-8"):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row.get(column, "") for column in columns])
    return buffer.getvalue().encode(encoding)


def game_rows(date="2026-10-06", round_=1, table=1, names=NAMES, hands=16, changes=None):
    """A boompje where wij make every hand 100-62: no tie, no roem."""
    rows = []
    for number in range(1, hands + 1):
        row = {
            "date": date,
            "round": round_,
            "table": table,
            "hand": number,
            "north": names[0],
            "south": names[1],
            "east": names[2],
            "west": names[3],
            "playing": "A",
            "trump": "H",
            "points_a": 100,
            "points_b": 62,
            "roem_a": 0,
            "roem_b": 0,
            "pit": "",
        }
        row.update((changes or {}).get(number, {}))
        rows.append(row)
    return rows


@pytest.fixture
def players(club):
    return [factories.member(club, name) for name in NAMES + ["Els", "Frits", "Gerda", "Henk"]]


@pytest.fixture
def competition(club, players):
    return factories.competition(club)


def preview(competition, data, filename="hands.csv", **kwargs):
    return importers.results_import_preview(
        club=competition.club, competition=competition, data=data, filename=filename, **kwargs
    )


def apply(competition, data, filename="hands.csv", **kwargs):
    return importers.results_import_apply(
        club=competition.club, competition=competition, data=data, filename=filename, **kwargs
    )


def rejected(competition, data, filename="hands.csv", **kwargs):
    """The problems of a file that must not import; checks that nothing changed."""
    before = counts()
    found = preview(competition, data, filename, **kwargs)
    assert not found.ok and not found.can_apply
    with pytest.raises(importers.ImportRejected) as info:
        apply(competition, data, filename, **kwargs)
    assert counts() == before
    assert [str(p) for p in info.value.problems] == [str(p) for p in found.problems]
    return found.problems


def lines(result):
    names = result.names
    return [
        (names[line.key], line.rank, line.points, line.games, line.evenings)
        + (line.marsen, line.nat, line.roem, line.shared)
        for line in result.lines
    ]


# ---------------------------------------------------------------- the round trip


class TestAPlayedSeasonsHandLog:
    """The round trip of one played season (``class_season``), built once for them all."""

    @pytest.mark.parametrize("language", ["en", "nl"])
    def test_hand_log_csv_imports_into_an_empty_club_with_the_same_standings(
        self, class_season, language
    ):
        competition, members, evenings, director = class_season
        with translation.override(language):
            data = csv_export.hand_log_csv(handlog.hand_log_rows(competition))
        fresh = factories.club(name="Hersteld")
        result = importers.results_import_apply(
            club=fresh,
            new_competition={"name": competition.name, "tie_breaks": competition.tie_breaks},
            data=data,
            filename="backup.csv",
            create_members=True,
        )
        copy = result.competition
        assert copy.club == fresh and copy.ruleset() == competition.ruleset()
        assert (copy.start_date, copy.end_date) == (evenings[0].date, evenings[-1].date)
        assert lines(standings.season_standings(competition=copy)) == lines(
            standings.season_standings(competition=competition)
        )
        for original, restored in zip(evenings, copy.evenings.order_by("date"), strict=True):
            assert lines(standings.evening_result(evening=restored)) == lines(
                standings.evening_result(evening=original)
            )
        assert result.sitouts == 2 and len(result.new_members) == 9
        # And the restored competition exports the very same file.
        with translation.override(language):
            assert csv_export.hand_log_csv(handlog.hand_log_rows(copy)) == data

    @pytest.mark.parametrize(
        "name", ["Jan;=cmd|' /C calc'!A0", "Piet,+SUM(A1)", "'=al met apostrof", "=1+1"]
    )
    def test_a_name_with_a_formula_after_a_separator_survives_the_csv_round_trip(
        self, class_season, name
    ):
        """The export quotes and guards such a name (``common.csvfile``); the import
        undoes exactly that guard, so the restored player has the very same name."""
        competition, members, *_ = class_season
        type(members[0]).objects.filter(pk=members[0].pk).update(name=name)
        data = csv_export.hand_log_csv(handlog.hand_log_rows(competition))
        result = importers.results_import_apply(
            club=factories.club(name="Hersteld"),
            new_competition={"name": competition.name, "tie_breaks": competition.tie_breaks},
            data=data,
            filename="backup.csv",
            create_members=True,
        )
        assert name in {member.name for member in result.new_members}

    def test_imported_games_are_stored_as_the_site_stores_them(self, class_season):
        competition, *_ = class_season
        data = csv_export.hand_log_csv(handlog.hand_log_rows(competition))
        copy = importers.results_import_apply(
            club=factories.club(), new_competition={"name": "Kopie"}, data=data, create_members=True
        ).competition
        fields = ("total_a", "total_b", "hands_entered", "winner", "marsen_a", "marsen_b")
        fields += ("nat_a", "nat_b", "roem_a", "roem_b", "ruleset")

        def games(of):
            return [
                tuple(getattr(g, f) for f in fields)
                for g in Game.objects.filter(table__round__evening__competition=of).order_by(
                    "table__round__evening__date", "table__round__number", "table__number"
                )
            ]

        assert games(copy) == games(competition)
        ruleset = copy.ruleset()
        for game in Game.objects.filter(table__round__evening__competition=copy):
            assert game.status == Game.Status.CONFIRMED and game.confirmed_by == "import"
            assert game.confirmed_at is not None and game.ruleset == ruleset.to_dict()
            hands = list(game.hands.order_by("number"))
            summary = rules.score_game(ruleset, [(h.score_a, h.score_b) for h in hands])
            assert tuple(summary.totals) == (game.total_a, game.total_b)
            assert all(h.entered_via == "import" for h in hands)
            assert game.audit.get().action == AuditEntry.Action.CREATE
        assert all(e.status == Evening.Status.FINISHED for e in copy.evenings.all())
        assert EveningLog.objects.filter(evening__competition=copy).count() == 3

    def test_hand_log_xlsx_imports_back_into_the_same_club(self, class_season):
        competition, members, evenings, director = class_season
        data = xlsx.hand_log_xlsx(handlog.hand_log_rows(competition))
        copy = importers.results_import_apply(
            club=competition.club,
            new_competition={"name": "Uit Excel", "tie_breaks": competition.tie_breaks},
            data=data,
            filename="hands.xlsx",
            by=director,
        ).competition
        assert Member.objects.filter(club=competition.club).count() == 9  # nobody new
        assert lines(standings.season_standings(competition=copy)) == lines(
            standings.season_standings(competition=competition)
        )

    def test_importing_the_same_file_twice_adds_nothing(self, class_season):
        competition, *_ = class_season
        data = csv_export.hand_log_csv(handlog.hand_log_rows(competition))
        before = counts()
        again = preview(competition, data)
        assert again.ok and not again.can_apply and not again.evenings
        assert len(again.skipped) == 3
        result = apply(competition, data)
        assert result.evenings == [] and len(result.skipped) == 3
        assert counts() == before

    def test_a_changed_evening_is_refused_not_doubled(self, class_season):
        competition, *_ = class_season
        rows = list(
            csv.DictReader(
                io.StringIO(
                    csv_export.hand_log_csv(handlog.hand_log_rows(competition)).decode("utf-8-sig")
                )
            )
        )
        for row in rows:
            if row["Hand"] == "1":
                row["Trump"] = "S" if row["Trump"] != "S" else "H"
        problems = rejected(competition, csv_bytes(rows, columns=list(rows[0])))
        assert len(problems) == 3
        assert "already has an evening on 2026-10-06 with other results" in problems[0].message
        assert problems[0].column == "Date"  # as the file titles it


def test_a_planned_evening_without_rounds_gets_the_imported_rounds(competition):
    evening = factories.evening(competition, __import__("datetime").date(2026, 10, 6))
    result = apply(competition, csv_bytes(game_rows()))
    assert result.evenings == [evening]
    evening.refresh_from_db()
    assert evening.status == Evening.Status.FINISHED and evening.rounds.count() == 1


def test_the_imported_evenings_totals_are_stored_in_the_import(competition):
    """The import writes in bulk (no signals): it stores the evenings' totals itself,
    as they are summed from what it wrote, also for an evening that was planned."""
    planned = factories.evening(competition, __import__("datetime").date(2026, 10, 6))
    data = csv_bytes(game_rows() + game_rows(date="2026-10-13"))
    result = apply(competition, data)
    assert len(result.evenings) == 2 and planned in result.evenings
    ids = [evening.pk for evening in result.evenings]
    stored = dict(EveningTotals.objects.filter(evening_id__in=ids).values_list("evening", "sums"))
    assert set(stored) == set(ids)
    assert {pk: bytes(sums) for pk, sums in stored.items()} == {
        pk: bytes(sums) for pk, sums in standings.evening_sums(ids).items()
    }


# ---------------------------------------------------------------- a file of one's own


def test_a_hand_written_file_with_dutch_titles_in_another_order_imports(competition):
    titles = ["Spel", "Tafel", "Ronde", "Datum", "Noord", "Zuid", "Oost", "West", "Speelt"]
    titles += ["Troef", "Punten wij", "Punten zij", "Roem wij", "Roem zij", "Mars", "Opmerking"]
    keys = ["hand", "table", "round", "date", "north", "south", "east", "west", "playing"]
    keys += ["trump", "points_a", "points_b", "roem_a", "roem_b", "pit", "note"]
    rows = game_rows(
        changes={
            # A pit written as the score sheet writes it: the pit's 100 and 20 roem.
            3: {"playing": "B", "points_a": 0, "points_b": 162, "pit": "zij", "roem_b": 120},
            5: {"playing": "wij", "points_a": 70, "points_b": 92, "trump": "k"},
        }
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";")
    writer.writerow(titles)
    for row in rows:
        writer.writerow([row.get(key, "") for key in keys])
    found = preview(competition, buffer.getvalue().encode("utf-8"))
    assert found.ok, found.problems
    assert found.warnings == ["These columns are not imported: “Opmerking”."]
    result = apply(competition, buffer.getvalue().encode("utf-8"))
    game = Game.objects.get(table__round__evening__competition=competition)
    assert (game.marsen_b, game.nat_a, game.roem_b) == (1, 1, 20)
    hand = game.hands.get(number=5)
    assert (hand.trump, hand.nat, hand.score_a, hand.score_b) == ("C", True, 0, 162)
    assert result.games == 1 and result.hands == 16


def test_an_xlsx_of_ones_own_with_date_cells_imports(competition):
    import datetime

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(list(handlog.REQUIRED))
    for row in game_rows():
        values = [row[key] for key in handlog.REQUIRED]
        values[0] = datetime.datetime(2026, 10, 6)
        values[1] = float(values[1])
        sheet.append(values)
    buffer = io.BytesIO()
    book.save(buffer)
    result = apply(competition, buffer.getvalue(), "oud.xlsx")
    assert result.hands == 16 and result.evenings[0].date == datetime.date(2026, 10, 6)


def test_sit_out_rows_become_sit_out_seats_and_scores(competition):
    rows = game_rows() + [{"date": "2026-10-06", "round": 1, "north": "Els", "sitout": 1600}]
    apply(competition, csv_bytes(rows))
    seat = Seat.objects.get(table__isnull=True)
    assert seat.member.name == "Els" and seat.round.number == 1
    adjustment = Adjustment.objects.get()
    assert (adjustment.kind, adjustment.points, adjustment.member) == ("sitout", 1600, seat.member)
    line = {
        standings_line.key: standings_line
        for standings_line in standings.season_standings(competition=competition).lines
    }[seat.member_id]
    assert (line.points, line.games) == (1600, 1)


def test_unknown_players_are_added_as_members_only_when_asked(competition):
    rows = game_rows(names=["Anna", "bert", "Nieuwe Speler", "Dirk"])
    problems = rejected(competition, csv_bytes(rows))
    assert len(problems) == 1  # once per name, not once per row
    assert problems[0].row == 2 and problems[0].column == "east"
    assert "Nieuwe Speler is not a member of the club" in problems[0].message
    found = preview(competition, csv_bytes(rows), create_members=True)
    assert found.ok and found.new_members == ["Nieuwe Speler"]
    apply(competition, csv_bytes(rows), create_members=True)
    assert Member.objects.filter(club=competition.club, name="Nieuwe Speler").count() == 1
    seats = Seat.objects.filter(table__isnull=False)
    assert {s.member.name for s in seats} == {"Anna", "Bert", "Nieuwe Speler", "Dirk"}


def test_a_game_that_stops_early_is_imported_with_a_warning(competition):
    found = preview(competition, csv_bytes(game_rows(hands=12)))
    assert found.ok
    assert any("ends after 12 hands" in warning for warning in found.warnings)
    apply(competition, csv_bytes(game_rows(hands=12)))
    game = Game.objects.get()
    assert (game.hands_entered, game.status, game.winner) == (12, "confirmed", "")


# ---------------------------------------------------------------- broken files


def test_missing_columns_are_named(competition):
    columns = [c for c in handlog.COLUMNS if c not in ("points_b", "west")]
    problems = rejected(competition, csv_bytes(game_rows(), columns))
    assert len(problems) == 1 and problems[0].row == 1
    assert "missing: West, Points zij" in problems[0].message


def test_every_bad_row_is_reported_with_row_column_and_reason(competition):
    rows = game_rows(
        changes={
            2: {"points_b": 61},  # not 162
            4: {"roem_a": 30},  # no hand makes 30
            6: {"date": "06-10-2026"},  # not YYYY-MM-DD
            8: {"playing": "X"},
            9: {"trump": "Q"},
            10: {"pit": "A"},  # pit without all the points
            11: {"points_a": "veel"},
        }
    )
    problems = rejected(competition, csv_bytes(rows))
    got = [(p.row, p.column) for p in problems]
    assert got == [
        (3, "points_a, points_b"),
        (5, "roem_a"),
        (7, "date"),
        (9, "playing"),
        (10, "trump"),
        (11, "pit"),
        (12, "points_a"),
    ]
    messages = [p.message for p in problems]
    assert messages[0] == "The card points of both teams must add up to 162."
    assert "roem is made of 20, 50, 100 and 200" in messages[1]
    assert "write it as YYYY-MM-DD" in messages[2]
    assert str(problems[0]) == (
        "Row 3, column points_a, points_b: The card points of both teams must add up to 162."
    )


def test_a_name_twice_at_one_table_is_an_error(competition):
    rows = game_rows(names=["Anna", "Bert", "anna", "Dirk"])
    problems = rejected(competition, csv_bytes(rows))
    assert len(problems) == 16
    assert problems[0].column == "east" and "also in column “north”" in problems[0].message


def test_a_hand_number_twice_in_a_game_is_an_error(competition):
    rows = game_rows(changes={16: {"hand": 15}})
    problems = rejected(competition, csv_bytes(rows))
    assert [(p.row, p.column) for p in problems] == [(17, "hand")]
    assert "hand 15 of this game (2026-10-06, round 1, table 1) is also on row 16" in (
        problems[0].message
    )


def test_a_missing_hand_and_a_hand_after_the_end_are_errors(competition):
    gap = game_rows()
    del gap[6]
    problems = rejected(competition, csv_bytes(gap))
    assert "hand 7 of this game (2026-10-06, round 1, table 1) is missing" in problems[0].message
    late = game_rows(hands=17)
    problems = rejected(competition, csv_bytes(late))
    assert problems[0].row == 18 and "over after hand 16 (1600–992)" in problems[0].message


def test_a_player_at_two_tables_of_a_round_is_an_error(competition):
    rows = game_rows() + game_rows(table=2, names=["Els", "Frits", "Gerda", "Anna"])
    problems = rejected(competition, csv_bytes(rows))
    assert len(problems) == 1 and problems[0].column == "west"
    assert "Anna also plays at table 1 in this round" in problems[0].message


def test_players_changing_within_a_game_is_an_error(competition):
    rows = game_rows(changes={9: {"south": "Henk"}})
    problems = rejected(competition, csv_bytes(rows))
    assert [(p.row, p.column) for p in problems] == [(10, "south")]


def test_scores_in_the_file_must_be_what_the_rule_set_gives(competition):
    rows = game_rows(changes={2: {"score_a": 90, "score_b": 62}, 3: {"nat": "A"}})
    problems = rejected(competition, csv_bytes(rows))
    assert [(p.row, p.column) for p in problems] == [(3, "score_a"), (4, "nat")]
    assert problems[0].message == "the file says 90, but by the rule set (rotterdam) it is 100."


def test_a_file_made_under_other_rules_is_caught(club, players):
    competition = factories.competition(club, ruleset_preset="match-1500")
    rows = game_rows()
    # 81-81 with 20 roem for the playing team: made in rotterdam, nat by card points.
    rows[1].update(points_a=81, points_b=81, roem_a=20, score_a=101, score_b=81)
    problems = rejected(competition, csv_bytes(rows))
    assert any(p.row == 3 and p.column == "score_a" for p in problems)


def test_an_existing_evening_outside_the_season_is_refused(competition):
    problems = rejected(competition, csv_bytes(game_rows(date="2030-01-01")))
    assert "2030-01-01 is outside the season" in problems[0].message


def test_two_members_with_one_name_are_ambiguous(competition):
    factories.member(competition.club, "ANNA")
    problems = rejected(competition, csv_bytes(game_rows(names=["anna", "Bert", "Cor", "Dirk"])))
    assert "2 members of the club are called anna" in problems[0].message


def test_a_sit_out_row_with_a_table_is_an_error(competition):
    rows = game_rows() + [
        {"date": "2026-10-06", "round": 1, "table": 2, "north": "Els", "sitout": 1600}
    ]
    problems = rejected(competition, csv_bytes(rows))
    assert [(p.row, p.column) for p in problems] == [(18, "table")]


def test_a_file_in_windows_1252_is_read_with_a_warning(competition):
    factories.member(competition.club, "Ännä")
    data = csv_bytes(game_rows(names=["Ännä", "Bert", "Cor", "Dirk"]), encoding="cp1252")
    found = preview(competition, data)
    assert found.ok, found.problems
    assert any("Windows-1252" in warning for warning in found.warnings)
    assert apply(competition, data).hands == 16


def test_a_file_in_another_encoding_is_refused_with_its_line(competition):
    rows = game_rows()
    data = csv_bytes(rows).replace(b"Anna", b"\x81nn\x8d")
    problems = rejected(competition, data)
    assert "not text in UTF-8 or Windows-1252 (line 2" in problems[0].message


def test_a_zip_that_is_not_a_workbook_is_refused(competition):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("photo.jpg", b"\xff\xd8not really")
    problems = rejected(competition, buffer.getvalue(), "hands.xlsx")
    assert problems[0].message == (
        "The file is not an Excel workbook (.xlsx) or a LibreOffice spreadsheet (.ods) "
        "that can be read."
    )


@pytest.mark.parametrize(
    ("data", "filename", "expected"),
    [
        (b"", "hands.csv", "The file is empty."),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", "hands.xls", "old Excel file (.xls)"),
        (b"not a workbook", "hands.xlsx", "not an Excel workbook"),
        (",".join(handlog.COLUMNS).encode(), "hands.csv", "column titles but no hands"),
        (b"\x00\x01\x02binary", "hands.csv", "not a CSV text file"),
    ],
)
def test_files_that_are_no_hand_log_are_refused(competition, data, filename, expected):
    problems = rejected(competition, data, filename)
    assert expected in problems[0].message


def test_a_formula_cell_in_a_workbook_is_an_error(competition):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(list(handlog.REQUIRED))
    for row in game_rows():
        sheet.append([row[key] for key in handlog.REQUIRED])
    sheet["K5"] = "=100"
    buffer = io.BytesIO()
    book.save(buffer)
    problems = rejected(competition, buffer.getvalue(), "hands.xlsx")
    assert [(p.row, p.column) for p in problems] == [(5, "points_b")]
    assert "formula (=100)" in problems[0].message


def test_a_hundred_thousand_rows_are_refused_quickly_by_the_row_limit(competition, monkeypatch):
    row = ",".join(["2026-10-06", "1", "1", "1", *NAMES, "A", "H", "100", "62", "0", "0", ""])
    data = (
        ",".join(handlog.REQUIRED[:8] + ("playing", "trump", "points_a", "points_b"))
        + ",roem_a,roem_b,pit\r\n"
        + (row + "\r\n") * 100_000
    ).encode()
    from common import tabular

    read, scored = [], []
    rows = tabular.Table.rows

    def counted_rows(table):
        for row in rows(table):
            read.append(row[0])
            yield row

    score_hand = rules.score_hand
    monkeypatch.setattr(tabular.Table, "rows", counted_rows)
    monkeypatch.setattr(
        rules, "score_hand", lambda *a, **k: scored.append(1) or score_hand(*a, **k)
    )
    problems = rejected(competition, data)
    assert len(problems) == 1 and "more than 50,000 rows" in problems[0].message
    # Quickly: reading stops at the limit (titles and 50,000 rows, once for the preview and
    # once for the import), and not one hand is scored.
    assert len(read) == 2 * (1 + 50_000) and not scored


def test_a_file_over_the_size_limit_is_refused_before_reading(competition, monkeypatch):
    monkeypatch.setattr(
        importers.read, "LIMITS", dataclasses.replace(importers.LIMITS, max_bytes=1000)
    )
    problems = rejected(competition, csv_bytes(game_rows()))
    assert "The file is too large" in problems[0].message


def test_a_report_stops_at_500_problems_and_says_how_many_more(competition):
    rows = [
        r
        for t in range(1, 41)
        for r in game_rows(table=t, changes={n: {"points_b": 1} for n in range(1, 17)})
    ]
    problems = rejected(competition, csv_bytes(rows))
    assert len(problems) == 501
    assert problems[-1].message == "… and 140 more problems."


def test_only_a_director_may_import(competition):
    scorer = factories.role(competition.club, "scorer")
    with pytest.raises(PermissionDenied):
        apply(competition, csv_bytes(game_rows()), by=scorer)
    director = factories.role(competition.club, "director")
    result = apply(competition, csv_bytes(game_rows()), by=director)
    assert Hand.objects.filter(entered_by=director).count() == result.hands == 16


def test_aliases_do_not_collide():
    aliases = importers.read._aliases()
    for key in handlog.COLUMNS:
        assert aliases[normalise_title(key)] == key
        assert aliases[normalise_title(handlog.TITLES[key])] == key


def test_millions_of_blank_lines_are_skipped_quickly(competition):
    data = csv_bytes(game_rows()) + b"\r\n" * 3_000_000 + b",,,,\r\n" * 10_000
    started = time.perf_counter()
    found = preview(competition, data)
    assert found.ok and found.hands == 16
    assert time.perf_counter() - started < 10


def test_a_stray_cell_far_down_a_workbook_is_no_trouble(competition):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(list(handlog.REQUIRED))
    for row in game_rows():
        sheet.append([row[key] for key in handlog.REQUIRED])
    sheet.cell(row=1_000_000, column=1, value=" ")
    buffer = io.BytesIO()
    book.save(buffer)
    started = time.perf_counter()
    found = preview(competition, buffer.getvalue(), "hands.xlsx")
    assert found.ok and found.hands == 16
    assert time.perf_counter() - started < 10


# ---------------------------------------------------------------- one reader for every import


def hand_rows(rows, columns=handlog.COLUMNS):
    return [list(columns), *[[row.get(column, "") for column in columns] for row in rows]]


@pytest.mark.parametrize("kind", ["csv ,", "csv ;", "csv tab", "xlsx", "ods"])
def test_a_hand_log_reads_the_same_from_every_kind_of_file(competition, kind):
    rows = hand_rows(game_rows())
    if kind == "xlsx":
        data, name = spreadsheets.libreoffice_xlsx(rows), "hands.xlsx"
    elif kind == "ods":
        data, name = spreadsheets.ods_bytes(rows), "hands.ods"
    else:
        separator = {"tab": "\t"}.get(kind[4:], kind[4:])
        data, name = spreadsheets.csv_bytes(rows, delimiter=separator), "hands.csv"
    found = preview(competition, data, name)
    assert found.ok, found.problems
    assert (found.games, found.hands, found.warnings) == (1, 16, [])
    assert apply(competition, data, name).hands == 16


def test_guard_apostrophes_kept_by_libreoffice_are_dropped_in_a_workbook(competition):
    """The hand log CSV guards "=Anna" as "'=Anna"; LibreOffice keeps that when saving .xlsx."""
    factories.member(competition.club, "=Anna")
    rows = hand_rows(game_rows(names=["'=Anna", "Bert", "Cor", "Dirk"]))
    for data, name in [
        (spreadsheets.libreoffice_xlsx(rows), "hands.xlsx"),
        (spreadsheets.ods_bytes(rows), "hands.ods"),
    ]:
        found = preview(competition, data, name)
        assert found.ok and found.new_members == [], (name, found.problems)
    apply(competition, spreadsheets.ods_bytes(rows), "hands.ods")
    assert {s.member.name for s in Seat.objects.all()} == {"=Anna", "Bert", "Cor", "Dirk"}


def test_a_hand_log_saved_in_one_column_says_which_separator_it_found(competition):
    """Opened in Dutch Excel (which splits on ";") and saved: every row is one quoted cell."""
    lines = csv_export.hand_log_csv(handlog.hand_log_rows(competition)).decode("utf-8-sig")
    data = "".join(f'"{line}"\r\n' for line in lines.splitlines()).encode()
    problems = rejected(competition, data)
    assert "names none that this import knows" in problems[0].message
    assert "“,” (comma) between the titles" in problems[1].message
    assert "a semicolon (;), a comma (,) or a tab" in problems[1].message


def test_merged_cells_and_formulas_in_a_results_workbook_are_problems(competition):
    def edit(sheet):
        sheet.merge_cells("A3:A4")
        sheet["K5"] = "=162-J5"

    rows = hand_rows(game_rows(), handlog.REQUIRED)
    problems = rejected(competition, spreadsheets.libreoffice_xlsx(rows, edit=edit), "h.xlsx")
    found = [(p.row, p.column, p.message[:20]) for p in problems]
    assert (3, None, "cells A3:A4 are merg") in found
    assert (5, "points_b", "the cell holds a for") in found


def test_a_name_with_a_line_break_is_a_row_problem(competition):
    rows = game_rows(changes={2: {"north": "Anna\nJansen"}})
    problems = rejected(competition, csv_bytes(rows))
    assert [(p.row, p.column) for p in problems] == [(3, "north")]
    assert "line break" in problems[0].message


# ---------------------------------------------------------------- a sit-out's mars


def test_a_sit_outs_mars_goes_out_in_the_hand_log_and_comes_back_in_the_standings(club):
    """Five players, ``sitout_mars`` on: the draw gives the sit-out 1600 and a mars.

    The game, worked out by hand: hand 1 wij take every trick (162 + 100 = 262,
    a mars for wij), hands 2-16 wij make 100 against 62. Wij 262 + 15 x 100 =
    1762 with 1 mars each; zij 15 x 62 = 930 with none; the sit-out 1600 and 1 mars.
    """
    director = factories.role(club, "director")
    competition = factories.competition(
        club, rounds_per_evening=1, sitout_score=1600, sitout_mars=True
    )
    evening = factories.evening(
        competition, datetime.date(2026, 10, 6), present=factories.members(club, 5)
    )
    round_ = tournament_services.round_draw(evening=evening, by=director, seed=3)
    sheet = [
        scoring_services.HandInput(playing="A", points_a=162, points_b=0, pit="A", trump="H")
    ] + [scoring_services.HandInput(playing="A", points_a=100, points_b=62, trump="H")] * 15
    game = Game.objects.get(table__round=round_)
    scoring_services.game_enter_sheet(game=game, rows=sheet, by=director)
    scoring_services.game_confirm(game=game, name="Tegenpartij")
    tournament_services.evening_set_status(evening=evening, status="finished", by=director)
    seats = {seat.position: seat.member.name for seat in Seat.objects.filter(round=round_)}
    sat_out = Seat.objects.get(round=round_, table__isnull=True).member.name
    expected = {
        seats["N"]: (1762, 1),
        seats["S"]: (1762, 1),
        seats["E"]: (930, 0),
        seats["W"]: (930, 0),
        sat_out: (1600, 1),
    }

    def points_and_marsen(of):
        result = standings.season_standings(competition=of)
        return {result.names[line.key]: (line.points, line.marsen) for line in result.lines}

    assert points_and_marsen(competition) == expected
    with translation.override("en"):
        data = csv_export.hand_log_csv(handlog.hand_log_rows(competition))
    # The file itself: the sit-out row says 1600 and 1 mars, the hand rows no sit-out marsen.
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    column = rows[0].index("Sit-out marsen")
    north, table = rows[0].index("North"), rows[0].index("Table")
    sitout_rows = [row for row in rows[1:] if row[north] == sat_out and not row[table]]
    assert [(row[rows[0].index("Sit-out score")], row[column]) for row in sitout_rows] == [
        ("1600", "1")
    ]
    assert {row[column] for row in rows[1:] if row[table]} == {""}
    fresh = factories.club(name="Hersteld")
    copy = importers.results_import_apply(
        club=fresh,
        new_competition={"name": competition.name},
        data=data,
        filename="backup.csv",
        create_members=True,
    ).competition
    assert points_and_marsen(copy) == expected
    assert Adjustment.objects.get(evening__competition=copy).marsen == 1
    # Importing the same file again adds nothing: the sit-out's mars is part of the evening.
    again = importers.results_import_apply(
        club=fresh, competition=copy, data=data, filename="backup.csv"
    )
    assert again.skipped == [datetime.date(2026, 10, 6)] and again.hands == 0
    with translation.override("en"):
        assert csv_export.hand_log_csv(handlog.hand_log_rows(copy)) == data
    # A file made before the sit-out marsen column (the same rows without it) is the
    # same evening too: skipped, not refused as "other results".
    older = io.StringIO(newline="")
    writer = csv.writer(older)
    for row in rows:
        writer.writerow(row[:column] + row[column + 1 :])
    before_the_column = importers.results_import_apply(
        club=fresh,
        competition=copy,
        data=older.getvalue().encode("utf-8-sig"),
        filename="older.csv",
    )
    assert before_the_column.skipped == [datetime.date(2026, 10, 6)]
    assert before_the_column.hands == 0


def test_sit_out_marsen_on_a_hand_row_are_refused(competition):
    rows = game_rows(changes={3: {"sitout_marsen": 1}})
    problems = rejected(competition, csv_bytes(rows))
    assert [(p.row, p.column) for p in problems] == [(4, "sitout_marsen")]
    assert "only a sit-out row" in problems[0].message


def test_a_sit_out_row_without_marsen_scores_none(competition):
    rows = game_rows() + [
        {"date": "2026-10-06", "round": 1, "north": "Els", "sitout": 1600, "sitout_marsen": 1},
        {"date": "2026-10-06", "round": 1, "north": "Frits", "sitout": 1600},
    ]
    apply(competition, csv_bytes(rows))
    marsen = dict(Adjustment.objects.values_list("member__name", "marsen"))
    assert marsen == {"Els": 1, "Frits": 0}


def test_a_name_is_its_member_whatever_its_case_spacing_and_accents_composition(club, players):
    """``common.text.name_key``: Renée typed with a combining accent (as some programs
    save it), in capitals, with two spaces, is the member Renée, not a new player."""
    renee = factories.member(club, "Renée de Wit")
    competition = factories.competition(club)
    written = "RENE\u0301E  de wit"
    result = apply(competition, csv_bytes(game_rows(names=[written, *NAMES[1:]])))
    assert result.new_members == []
    assert (
        Seat.objects.get(table__round__evening__competition=competition, position="N").member
        == renee
    )
