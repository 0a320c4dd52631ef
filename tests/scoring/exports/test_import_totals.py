"""Importing a season kept as a sheet of evening totals per player (how clubs keep
their history), and the results import's mistakes pointed at the row that is
wrong: a misspelt name blames that row only, a name close to a member's is asked.

The fixtures in ``tests/fixtures`` were made with LibreOffice 7.4 headless from
the CSV files beside them:
``libreoffice --headless --infilter="CSV:59,34,76,1,1/5/2/2/3/1/4/1/5/1"
--convert-to xlsx seizoen_totalen.csv`` (Dutch titles, the dates as date cells)
and ``libreoffice --headless --infilter="CSV:44,34,76,1,1/2" --convert-to ods
season_rounds.csv`` (English titles, a row per player per round).
"""

import datetime
import io
import re
from pathlib import Path

import openpyxl
import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from clubs.models import PendingUpload
from scoring.exports import importers
from scoring.models import Adjustment, Game, Hand
from scoring.results import standings
from tests import factories
from tests.scoring.exports.test_import import (
    apply,
    counts,
    csv_bytes,
    game_rows,
    preview,
    rejected,
)
from tournaments.models import Attendance, Evening, Round, Seat

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def fixture(name):
    return (FIXTURES / name).read_bytes()


def totals_csv(rows, header="Datum;Naam;Punten;Marsen;Plaats"):
    return ("\r\n".join([header, *rows]) + "\r\n").encode()


@pytest.fixture
def members(club):
    return {name: factories.member(club, name) for name in ["Anna", "Bert", "Cor", "Dirk", "Renée"]}


@pytest.fixture
def competition(club, members):
    return factories.competition(club, rounds_per_evening=3)


def lines(competition):
    result = standings.season_standings(competition=competition)
    return [
        (result.names[line.key], line.rank, line.points, line.games, line.evenings, line.marsen)
        for line in result.lines
    ]


# ---------------------------------------------------------------- the season in one file


def test_a_libreoffice_sheet_of_evening_totals_imports_and_the_standings_are_its_totals(
    competition, members, client, club
):
    data = fixture("seizoen_totalen.xlsx")
    found = preview(competition, data, "seizoen_totalen.xlsx")
    assert found.ok and found.can_apply, found.problems
    assert found.kind == "totals"
    assert [(e.date.isoformat(), e.players) for e in found.evenings] == [
        ("2026-09-08", 5),
        ("2026-09-15", 4),
        ("2026-09-22", 4),
    ]
    assert found.new_members == [] and found.near == []
    before = counts()
    assert counts() == before  # the preview wrote nothing

    result = apply(competition, data, "seizoen_totalen.xlsx")
    assert (len(result.evenings), result.totals, result.games, result.hands) == (3, 13, 0, 0)
    assert Game.objects.count() == Hand.objects.count() == Seat.objects.count() == 0
    # The sheet, worked out by hand (points; marsen):
    #   Anna  4210 + 4500 + 3600 = 12310; 1 + 2 + 0 = 3
    #   Bert  4380 + 3800 + 4700 = 12880; 2 + 0 + 3 = 5
    #   Cor   3950 + 4100 + 3900 = 11950; 0 + 1 + 0 = 1
    #   Dirk  3950 +   –  + 4400 =  8350; 0 + 1     = 1
    #   Renée 3700 + 3900 +   –  =  7600; 1 + 0     = 1
    # Each evening's total stands for the competition's 3 rounds: 3 games an evening.
    assert lines(competition) == [
        ("Bert", 1, 12880, 9, 3, 5),
        ("Anna", 2, 12310, 9, 3, 3),
        ("Cor", 3, 11950, 9, 3, 1),
        ("Dirk", 4, 8350, 6, 2, 1),
        ("Renée", 5, 7600, 6, 2, 1),
    ]
    evenings = Evening.objects.filter(competition=competition).order_by("date")
    assert {e.status for e in evenings} == {Evening.Status.FINISHED}
    # Everyone on the sheet was there: no "Aanwezig 0".
    assert [
        Attendance.objects.filter(evening=e, status=Attendance.Status.PRESENT).count()
        for e in evenings
    ] == [5, 4, 4]
    page = client.get(competition.get_absolute_url()).content.decode()
    present = re.findall(r'<td>[^<]*</td><td class="num">(\d+)</td>', page)
    assert present == ["5", "4", "4"]  # the competition page's "Aanwezig" column

    # The standings say which evenings came from totals.
    url = reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk})
    with translation.override("en"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "3 evenings are imported as totals per player" in page

    # Twice adds nothing.
    again = preview(competition, data, "seizoen_totalen.xlsx")
    assert again.ok and not again.can_apply and len(again.skipped) == 3
    before = counts()
    apply(competition, data, "seizoen_totalen.xlsx")
    assert counts() == before


def test_best_of_and_averages_count_the_imported_totals(competition):
    competition.best_of = 2
    competition.save()
    apply(competition, fixture("seizoen_totalen.xlsx"), "seizoen_totalen.xlsx")
    # Best 2 of 3 evenings, by hand:
    #   Bert 4700 + 4380 = 9080 (3800 dropped); Anna 4500 + 4210 = 8710 (3600 dropped)
    #   Dirk 3950 + 4400 = 8350; Cor 4100 + 3950 = 8050 (3900 dropped); Renée 7600
    assert [
        (name, rank, points, games) for name, rank, points, games, _e, _m in lines(competition)
    ] == [
        ("Bert", 1, 9080, 6),
        ("Anna", 2, 8710, 6),
        ("Dirk", 3, 8350, 6),
        ("Cor", 4, 8050, 6),
        ("Renée", 5, 7600, 6),
    ]


def test_a_sheet_with_rounds_and_english_titles_imports_round_by_round(competition, members):
    data = fixture("season_rounds.ods")
    found = preview(competition, data, "season_rounds.ods")
    assert found.ok and found.kind == "totals", found.problems
    assert found.evenings[0].rounds == [1, 2]
    apply(competition, data, "season_rounds.ods")
    # Anna 1500 + 1300 = 2800, Bert 1500 + 1400 = 2900, Cor 1200 + 1350 = 2550,
    # Dirk 1200 + 1250 = 2450; one game per round row.
    assert lines(competition) == [
        ("Bert", 1, 2900, 2, 1, 1),
        ("Anna", 2, 2800, 2, 1, 1),
        ("Cor", 3, 2550, 2, 1, 0),
        ("Dirk", 4, 2450, 2, 1, 0),
    ]
    evening = Evening.objects.get(competition=competition)
    assert sorted(Round.objects.filter(evening=evening).values_list("number", flat=True)) == [1, 2]
    result = standings.evening_result(evening=evening)
    anna = members["Anna"].pk
    assert result.rounds[anna] == {1: 1500, 2: 1300}


@pytest.mark.parametrize(
    "header",
    [
        "Datum;Naam;Punten;Marsen;Plaats",
        "date;name;points;marsen;place",
        "Date;Name;Points;Marsen;Place",
        "DATUM;Speler;Totaal;Mars;Positie",
    ],
)
def test_dutch_and_english_titles_of_a_sheet_of_totals(competition, header):
    data = totals_csv(["2026-09-08;Anna;4210;1;1", "2026-09-08;Bert;3000;0;2"], header)
    found = preview(competition, data, "totals.csv")
    assert found.ok and found.kind == "totals", found.problems
    assert [(t.name, t.points, t.marsen) for t in found.evenings[0].totals] == [
        ("Anna", 4210, 1),
        ("Bert", 3000, 0),
    ]


def test_one_bad_row_imports_nothing_and_is_the_only_one_blamed(competition):
    data = totals_csv(
        [
            "2026-09-08;Anna;4210;1;1",
            "2026-09-08;Bert;vierduizend;0;2",  # row 3: not a number
            "2026-09-15;Cor;3900;0;1",
        ]
    )
    problems = rejected(competition, data, "totals.csv")
    assert [(p.row, p.column) for p in problems] == [(3, "Punten")]
    assert Adjustment.objects.count() == 0 and Evening.objects.count() == 0


def test_a_place_the_points_contradict_is_a_problem_of_that_row(competition):
    data = totals_csv(["2026-09-08;Anna;4210;1;2", "2026-09-08;Bert;3000;0;1"])
    problems = rejected(competition, data, "totals.csv")
    # Anna has the most points: place 1, not 2; Bert then is 2, not 1.
    assert [(p.row, p.column) for p in problems] == [(2, "Plaats"), (3, "Plaats")]


def test_a_player_twice_on_one_evening_is_refused(competition):
    data = totals_csv(["2026-09-08;Anna;4210;1;1", "2026-09-08;anna;3000;0;2"])
    problems = rejected(competition, data, "totals.csv")
    assert [(p.row, p.column) for p in problems] == [(3, "Naam")]
    assert "row 2" in problems[0].message


def test_the_refusal_lists_the_accepted_titles_in_the_users_language(competition):
    data = b"Wanneer;Wie;Hoeveel\r\n2026-09-08;Anna;4210\r\n"
    with translation.override("nl"):
        found = preview(competition, data, "totals.csv")
        message = found.problems[0].message
    assert "Datum, Naam, Punten" in message, message
    assert "date, round, table" not in message
    with translation.override("en"):
        found = preview(competition, data, "totals.csv")
    assert "Date, Name, Points" in found.problems[0].message
    # A sheet of totals without its points: the missing title, in the user's language.
    with translation.override("nl"):
        found = preview(competition, totals_csv(["2026-09-08;Anna"], "Datum;Naam"), "t.csv")
    message = found.problems[0].message
    assert ": Punten." in message and "Points" not in message, message


# ---------------------------------------------------------------- pointing at the wrong row


def test_a_name_misspelt_on_the_first_row_of_a_game_blames_that_row_only(competition):
    rows = game_rows(changes={1: {"north": "Anan"}})  # row 2 of the file
    problems = rejected(competition, csv_bytes(rows))
    # Before: "Anna, but row 2 of this game has Anan here" on each of the 15 good rows.
    assert [(p.row, p.column) for p in problems] == [(2, "north"), (2, "north")]
    assert "the other rows of this game" in problems[0].message
    assert "Anna" in problems[0].message
    assert "Anan is not a member" in problems[1].message


# ---------------------------------------------------------------- names close to a member's


def test_a_name_close_to_a_members_is_asked_and_maps_to_that_member(competition, members):
    data = totals_csv(["2026-09-08;Renee;4210;1;1", "2026-09-08;Anna;3000;0;2"])
    found = preview(competition, data, "totals.csv", create_members=True)
    assert found.ok and found.can_apply
    assert found.new_members == []  # not silently a new member
    [near] = found.near
    assert (near.name, near.row, near.members) == ("Renee", 2, ((members["Renée"].pk, "Renée"),))
    # Applied without an answer: refused, pointing at the row.
    with pytest.raises(importers.ImportRejected) as info:
        apply(competition, data, "totals.csv", create_members=True)
    assert [(p.row, p.column) for p in info.value.problems] == [(2, "Naam")]
    assert Evening.objects.count() == 0
    apply(
        competition,
        data,
        "totals.csv",
        create_members=True,
        name_choices={near.field: str(members["Renée"].pk)},
    )
    assert Adjustment.objects.get(points=4210).member == members["Renée"]
    assert not club_has("Renee", competition)


def club_has(name, competition):
    return competition.club.members.filter(name=name).exists()


def test_a_name_close_to_a_members_becomes_a_new_member_when_the_director_says_so(
    competition, members
):
    data = totals_csv(["2026-09-08;Renee;4210;1;1"])
    [near] = preview(competition, data, "totals.csv").near
    result = apply(competition, data, "totals.csv", name_choices={near.field: "new"})
    assert [m.name for m in result.new_members] == ["Renee"]
    assert club_has("Renee", competition) and club_has("Renée", competition)


def test_the_preview_page_asks_per_name_and_the_confirmation_carries_the_answer(
    competition, members, client, club, settings, tmp_path
):
    settings.DATA_DIR = tmp_path
    client.force_login(factories.role(club, "director"))
    url = reverse("exports:results-import", kwargs={"club": club.slug, "pk": competition.pk})
    file = io.BytesIO(totals_csv(["2026-09-08;Renee;4210;1;1"]))
    file.name = "totalen.csv"
    page = client.post(url, {"file": file})
    assert page.status_code == 200
    [near] = page.context["preview"].near
    html = page.content.decode()
    assert f'name="{near.field}"' in html and f'value="{members["Renée"].pk}"' in html
    answer = client.post(url, {"token": page.context["token"], near.field: members["Renée"].pk})
    assert answer.status_code == 302
    assert Adjustment.objects.get().member == members["Renée"]
    assert Evening.objects.get().date == datetime.date(2026, 9, 8)


@pytest.mark.parametrize(
    ("change", "column"),
    [
        ({"table": 2}, "table"),  # the only row of a "table 2" with these four players
        ({"round": 2}, "round"),
        ({"date": "2026-10-13"}, "date"),
        ({"round": "l"}, "round"),  # not a number: the row's own problem, no missing hand
        ({"hand": "6x"}, "hand"),
    ],
)
def test_a_misspelt_key_of_one_row_blames_that_row_only(competition, change, column):
    rows = game_rows(changes={5: change})  # hand 5 is row 6 of the file
    problems = rejected(competition, csv_bytes(rows))
    # Before: "hand 5 of this game is missing" on row 7 and the four players "also
    # play at table 1 in this round" on a correct row, or a second game short of hands.
    assert [(p.row, p.column) for p in problems] == [(6, column)], [str(p) for p in problems]


def test_the_command_refuses_a_close_name_unless_told_it_is_new(competition, members, tmp_path):
    path = tmp_path / "totalen.csv"
    path.write_bytes(totals_csv(["2026-09-08;Renee;4210;1;1", "2026-09-08;Anna;3000;0;2"]))
    arguments = ["import_results", str(path), "--club", competition.club.slug]
    arguments += ["--competition", competition.name]
    with pytest.raises(CommandError):
        call_command(*arguments, stdout=io.StringIO(), stderr=io.StringIO())
    assert Evening.objects.count() == 0
    out = io.StringIO()
    call_command(*arguments, "--close-names-are-new", "--create-members", stdout=out)
    assert "2 players' totals" in out.getvalue()
    assert competition.club.members.filter(name="Renee").exists()
    # Anna 3000 over 3 rounds; Renee 4210: the sheet's numbers.
    assert [(name, points) for name, _r, points, *_rest in lines(competition)] == [
        ("Renee", 4210),
        ("Anna", 3000),
    ]


def test_the_pages_and_files_of_an_evening_of_totals(competition, members, client, club):
    apply(competition, fixture("seizoen_totalen.xlsx"), "seizoen_totalen.xlsx")
    evening = Evening.objects.get(date=datetime.date(2026, 9, 8))
    client.force_login(factories.role(club, "director"))
    assert client.get(evening.get_absolute_url()).status_code == 200
    page = client.get(reverse("results:evening", kwargs={"club": club.slug, "pk": evening.pk}))
    assert page.status_code == 200
    # The evening ranks on the sheet's points: Bert 4380, Anna 4210, Cor and Dirk 3950.
    ranked = [(line.key, line.rank, line.points) for line in page.context["result"].lines]
    assert ranked[:4] == [
        (members["Bert"].pk, 1, 4380),
        (members["Anna"].pk, 2, 4210),
        (members["Cor"].pk, 3, 3950),
        (members["Dirk"].pk, 3, 3950),
    ]
    player = reverse("results:player", kwargs={"club": club.slug, "pk": members["Anna"].pk})
    assert client.get(player).status_code == 200
    download = reverse("exports:standings-xlsx", kwargs={"club": club.slug, "pk": competition.pk})
    sheet = openpyxl.load_workbook(io.BytesIO(client.get(download).getvalue())).active
    values = [cell for row in sheet.iter_rows(values_only=True) for cell in row]
    assert 12880 in values and 7600 in values  # Bert's and Renée's season totals


def test_a_hand_log_asks_about_a_name_close_to_a_members_too(competition, members):
    rows = game_rows(names=["Anna", "Bert", "Cor", "Renee"])
    found = preview(competition, csv_bytes(rows), create_members=True)
    assert found.ok and found.new_members == []
    [near] = found.near
    assert (near.name, near.row, near.column) == ("Renee", 2, "west")
    apply(
        competition,
        csv_bytes(rows),
        create_members=True,
        name_choices={near.field: members["Renée"].pk},
    )
    assert Seat.objects.get(position="W").member == members["Renée"]


def test_a_hand_log_marks_its_players_present_too(competition, members):
    apply(competition, csv_bytes(game_rows()))
    evening = Evening.objects.get()
    present = Attendance.objects.filter(evening=evening, status=Attendance.Status.PRESENT)
    assert sorted(a.member.name for a in present) == ["Anna", "Bert", "Cor", "Dirk"]


def test_a_director_cannot_record_an_imported_total_by_hand(competition, members, club):
    from django.core.exceptions import ValidationError

    from scoring import services
    from scoring.forms import AdjustmentForm

    evening = factories.evening(competition)
    director = factories.role(club, "director")
    with pytest.raises(ValidationError) as info:
        services.adjustment_record(
            evening=evening,
            kind=Adjustment.Kind.TOTALS,
            points=4000,
            reason="oud",
            by=director,
            member=members["Anna"],
        )
    assert "kind" in info.value.message_dict
    assert Adjustment.Kind.TOTALS not in dict(AdjustmentForm.base_fields["kind"].choices)
    assert Adjustment.objects.count() == 0


# ---------------------------------------------------------------- answers that name a player twice


@pytest.fixture
def janssen(club):
    return factories.member(club, "Janssen")


def test_a_close_name_answered_as_a_player_already_on_the_evening_is_a_problem_of_its_row(
    competition, members, janssen
):
    data = totals_csv(["2026-09-08;Janssen;4210;1;1", "2026-09-08;Jansen;3000;0;2"])
    [near] = preview(competition, data, "totals.csv").near
    assert (near.name, near.row) == ("Jansen", 3)
    before = counts()
    with pytest.raises(importers.ImportRejected) as info:
        apply(competition, data, "totals.csv", name_choices={near.field: str(janssen.pk)})
    assert counts() == before and Adjustment.objects.count() == 0
    [problem] = info.value.problems
    assert (problem.row, problem.column) == (3, "Naam")
    assert "Janssen" in problem.message and "row 2" in problem.message


def test_a_close_name_answered_as_a_player_already_in_that_round_is_a_problem_too(
    competition, members, janssen
):
    data = totals_csv(
        ["2026-09-08;1;Janssen;2100;0", "2026-09-08;1;Jansen;1500;0", "2026-09-08;2;Jansen;1800;0"],
        header="Datum;Ronde;Naam;Punten;Marsen",
    )
    [near] = preview(competition, data, "totals.csv").near
    with pytest.raises(importers.ImportRejected) as info:
        apply(competition, data, "totals.csv", name_choices={near.field: janssen.pk})
    # Round 1 has Janssen twice (rows 2 and 3); round 2 (row 4) has him once.
    assert [(p.row, p.column) for p in info.value.problems] == [(3, "Naam")]
    assert "row 2" in info.value.problems[0].message
    assert Round.objects.count() == 0


def test_a_close_name_answered_as_a_player_at_the_same_table_is_a_problem_of_a_hand_log(
    competition, members, janssen
):
    rows = game_rows(names=["Anna", "Janssen", "Cor", "Jansen"])
    [near] = preview(competition, csv_bytes(rows)).near
    with pytest.raises(importers.ImportRejected) as info:
        apply(competition, csv_bytes(rows), name_choices={near.field: janssen.pk})
    assert [(p.row, p.column) for p in info.value.problems] == [(2, "west")]
    assert Seat.objects.count() == 0


@pytest.mark.parametrize("answer", ["²", "١٢", "１２", " 1", "-1", "99999999999999999999999", "x"])
def test_an_answer_that_is_not_one_of_the_choices_is_a_problem_of_its_row(
    competition, members, answer
):
    data = totals_csv(["2026-09-08;Renee;4210;1;1"])
    [near] = preview(competition, data, "totals.csv").near
    with pytest.raises(importers.ImportRejected) as info:
        apply(competition, data, "totals.csv", name_choices={near.field: answer})
    assert [(p.row, p.column) for p in info.value.problems] == [(2, "Naam")]
    assert "Renée" in info.value.problems[0].message
    assert Evening.objects.count() == 0


def test_a_file_with_a_close_name_imported_twice_is_skipped_the_second_time(
    competition, members, janssen
):
    data = totals_csv(["2026-09-08;Anna;4210;1;1", "2026-09-08;Jansen;3000;0;2"])
    [near] = preview(competition, data, "totals.csv").near
    choices = {near.field: str(janssen.pk)}
    apply(competition, data, "totals.csv", name_choices=choices)
    assert Adjustment.objects.get(points=3000).member == janssen
    again = preview(competition, data, "totals.csv")
    assert again.ok, again.problems
    assert again.skipped == [datetime.date(2026, 9, 8)] and again.evenings == []
    before = counts()
    result = apply(competition, data, "totals.csv", name_choices=choices)
    assert result.skipped == [datetime.date(2026, 9, 8)] and result.evenings == []
    assert counts() == before
    # Answered as a new player instead, it is other results: refused, as before.
    with pytest.raises(importers.ImportRejected) as info:
        apply(competition, data, "totals.csv", name_choices={near.field: "new"})
    assert "other results" in info.value.problems[0].message


def test_a_hand_log_with_a_close_name_imported_twice_is_skipped_the_second_time(
    competition, members
):
    data = csv_bytes(game_rows(names=["Anna", "Bert", "Cor", "Renee"]))
    [near] = preview(competition, data).near
    choices = {near.field: members["Renée"].pk}
    apply(competition, data, name_choices=choices)
    again = preview(competition, data)
    assert again.ok and again.skipped == [datetime.date(2026, 10, 6)], again.problems
    result = apply(competition, data, name_choices=choices)
    assert result.evenings == [] and len(result.skipped) == 1


def test_the_page_keeps_the_file_when_the_answers_are_refused_so_they_can_be_given_again(
    competition, members, janssen, client, club, settings, tmp_path
):
    settings.DATA_DIR = tmp_path
    client.force_login(factories.role(club, "director"))
    url = reverse("exports:results-import", kwargs={"club": club.slug, "pk": competition.pk})
    file = io.BytesIO(totals_csv(["2026-09-08;Janssen;4210;1;1", "2026-09-08;Jansen;3000;0;2"]))
    file.name = "totalen.csv"
    page = client.post(url, {"file": file})
    [near] = page.context["preview"].near
    token = page.context["token"]
    refused = client.post(url, {"token": token, near.field: janssen.pk})
    assert refused.status_code == 200
    [problem] = refused.context["rejected"]
    assert problem.row == 3
    # The same preview, with its questions, to answer again.
    assert refused.context["token"] and f'name="{near.field}"' in refused.content.decode()
    refused = client.post(url, {"token": refused.context["token"], near.field: "²"})
    assert refused.status_code == 200 and refused.context["rejected"]
    answer = client.post(url, {"token": refused.context["token"], near.field: "new"})
    assert answer.status_code == 302
    assert Adjustment.objects.get(points=3000).member.name == "Jansen"
    assert not PendingUpload.objects.exists() and not (tmp_path / "imports").exists()


# ---------------------------------------------------------------- two close names, both new


def test_two_close_new_names_of_one_file_are_asked_and_can_be_one_new_member(competition, members):
    competition.club.members.filter(name="Renée").delete()
    data = totals_csv(["2026-09-08;Renee;4210;1;1", "2026-09-15;Renée;3000;0;1"])
    found = preview(competition, data, "totals.csv", create_members=True)
    assert found.ok and found.can_apply
    assert found.new_members == ["Renee"]  # the first; the second is asked
    [near] = found.near
    assert (near.name, near.row, near.members, near.names) == ("Renée", 3, (), ["Renee"])
    [(same, _name)] = near.others
    # Applied without an answer: refused, pointing at the row.
    with pytest.raises(importers.ImportRejected) as info:
        apply(competition, data, "totals.csv", create_members=True)
    assert [(p.row, p.column) for p in info.value.problems] == [(3, "Naam")]
    result = apply(
        competition, data, "totals.csv", create_members=True, name_choices={near.field: same}
    )
    [renee] = result.new_members
    assert renee.name == "Renee" and not club_has("Renée", competition)
    assert [a.member for a in Adjustment.objects.order_by("evening__date")] == [renee, renee]


def test_two_close_new_names_can_be_two_new_members(competition, members):
    competition.club.members.filter(name="Renée").delete()
    data = totals_csv(["2026-09-08;Renee;4210;1;1", "2026-09-08;Renée;3000;0;2"])
    [near] = preview(competition, data, "totals.csv", create_members=True).near
    result = apply(
        competition, data, "totals.csv", create_members=True, name_choices={near.field: "new"}
    )
    assert sorted(m.name for m in result.new_members) == ["Renee", "Renée"]


def test_two_close_new_names_answered_as_one_on_the_same_evening_is_a_problem(competition, members):
    competition.club.members.filter(name="Renée").delete()
    data = totals_csv(["2026-09-08;Renee;4210;1;1", "2026-09-08;Renée;3000;0;2"])
    [near] = preview(competition, data, "totals.csv", create_members=True).near
    [(same, _name)] = near.others
    with pytest.raises(importers.ImportRejected) as info:
        apply(competition, data, "totals.csv", create_members=True, name_choices={near.field: same})
    assert [(p.row, p.column) for p in info.value.problems] == [(3, "Naam")]
    assert not club_has("Renee", competition)


def test_the_preview_page_offers_the_earlier_new_name_as_an_answer(
    competition, members, client, club, settings, tmp_path
):
    competition.club.members.filter(name="Renée").delete()
    settings.DATA_DIR = tmp_path
    client.force_login(factories.role(club, "director"))
    url = reverse("exports:results-import", kwargs={"club": club.slug, "pk": competition.pk})
    file = io.BytesIO(totals_csv(["2026-09-08;Renee;4210;1;1", "2026-09-15;Renée;3000;0;1"]))
    file.name = "totalen.csv"
    page = client.post(url, {"file": file, "create_members": "on"})
    [near] = page.context["preview"].near
    [(same, _name)] = near.others
    assert f'value="{same}"' in page.content.decode()
    answer = client.post(url, {"token": page.context["token"], near.field: same})
    assert answer.status_code == 302
    assert {a.member.name for a in Adjustment.objects.all()} == {"Renee"}


def test_new_names_one_letter_apart_are_not_asked(competition, members):
    # A club's first import: numbered players, each a new member of its own.
    data = totals_csv(["2026-09-08;Speler 721;4210;1;1", "2026-09-08;Speler 722;3000;0;2"])
    found = preview(competition, data, "totals.csv", create_members=True)
    assert found.near == [] and found.new_members == ["Speler 721", "Speler 722"]


def test_the_command_adds_two_close_new_names_as_two_members_when_told_they_are_new(
    competition, members, tmp_path
):
    competition.club.members.filter(name="Renée").delete()
    path = tmp_path / "totalen.csv"
    path.write_bytes(totals_csv(["2026-09-08;Renee;4210;1;1", "2026-09-08;Renée;3000;0;2"]))
    arguments = ["import_results", str(path), "--club", competition.club.slug]
    arguments += ["--competition", competition.name, "--create-members"]
    with pytest.raises(CommandError):  # Renée is asked: the same as Renee, or new
        call_command(*arguments, stdout=io.StringIO(), stderr=io.StringIO())
    assert Evening.objects.count() == 0
    out = io.StringIO()
    call_command(*arguments, "--dry-run", stdout=out)
    assert "Renée is not a member but close to Renee" in out.getvalue()
    call_command(*arguments, "--close-names-are-new", stdout=io.StringIO())
    assert club_has("Renee", competition) and club_has("Renée", competition)
