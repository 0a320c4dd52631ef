"""The .xlsx files read back with openpyxl: values, types and layout, compared with the site."""

import datetime

import pytest
from django.utils import timezone, translation
from django.utils.formats import date_format

from common.formatting import average_value
from scoring.exports import handlog, reports, xlsx
from scoring.models import Adjustment, Hand
from scoring.results import standings
from tournaments.models import Seat
from tournaments.words import describe_settings

from .conftest import read_xlsx

pytestmark = pytest.mark.django_db

TRICKY = ['=HYPERLINK("http://evil.example","klik")', "+31 6 1234", "-Min", "@SUM(A1:A9)"]


def header_row(sheet, first="#"):
    for row in sheet.iter_rows():
        if row[0].value == first:
            return row[0].row
    raise AssertionError("no header row")


def table_rows(sheet, top):
    """The rows of the table under the header row ``top``, up to the empty row
    that ends it (the notes under it are not rows of players)."""
    rows = []
    for row in sheet.iter_rows(min_row=top + 1, values_only=True):
        if all(value is None for value in row):
            break
        rows.append(list(row))
    return rows


def standings_values(competition):
    result = standings.season_standings(competition=competition)
    return [
        [
            line.rank,
            result.names[line.key],
            line.points,
            float(average_value(line.average)),  # as the page shows it (1 decimal, half up)
            line.evenings,
            line.games,
            line.marsen,
            line.nat,
            line.roem,
        ]
        for line in result.lines
    ]


def test_standings_sheet_holds_the_sites_numbers_as_numbers(read_only_season):
    competition, *_ = read_only_season
    book = read_xlsx(xlsx.report_xlsx(reports.standings_report(competition=competition)))
    assert book.sheetnames == ["Standings"]
    sheet = book["Standings"]
    top = header_row(sheet)
    titles = [cell.value for cell in sheet[top]]
    assert titles == [
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
    rows = table_rows(sheet, top)
    expected = standings_values(competition)
    assert len(rows) == len(expected) == 9
    for got, want in zip(rows, expected, strict=True):
        assert got[:3] == want[:3]
        assert got[3] == want[3]
        assert got[4:] == want[4:]
        assert all(type(value) is int for value in got[2:3] + got[4:])
        assert isinstance(got[3], int | float)


def test_standings_header_is_bold_frozen_and_the_settings_stand_above_it(read_only_season):
    competition, *_ = read_only_season
    book = read_xlsx(xlsx.report_xlsx(reports.standings_report(competition=competition)))
    sheet = book.active
    top = header_row(sheet)
    assert sheet.freeze_panes == f"A{top + 1}"
    assert all(cell.font.bold for cell in sheet[top])
    above = [row[0] for row in sheet.iter_rows(max_row=top - 1, values_only=True)]
    assert above[0] == f"Standings · {competition.club.name}"
    assert competition.name in above[1]
    words = [str(w) for w in describe_settings(competition)]
    assert words and all(word in above for word in words)
    assert "Equal points: more marsen, fewer nat; still equal, the place is shared." in above
    assert sheet.column_dimensions["B"].width >= len("Speler 10")
    assert sheet.auto_filter.ref == f"A{top}:I{top + 9}"


def test_a_shared_rank_is_a_number_shown_with_an_equals_sign(read_only_season):
    competition, members, evenings, director = read_only_season
    report = reports.standings_report(competition=competition)
    report.rows[1]["rank"], report.rows[1]["shared"] = 1, True
    report.rows[0]["shared"] = True
    sheet = read_xlsx(xlsx.report_xlsx(report)).active
    top = header_row(sheet)
    cell = sheet.cell(row=top + 2, column=1)
    assert cell.value == 1 and cell.number_format == '0"="'
    assert sheet.cell(row=top + 3, column=1).number_format == "General"


def test_players_below_the_attendance_line_have_an_empty_rank(club, play_season):

    competition, *_ = play_season(club, evenings=2, players=9, rounds=1, min_attendance=2)
    expected = standings_values(competition)
    sheet = read_xlsx(xlsx.report_xlsx(reports.standings_report(competition=competition))).active
    top = header_row(sheet)
    rows = [list(row) for row in sheet.iter_rows(min_row=top + 1, values_only=True)]
    unranked = [row for row in rows if row and row[0] is None and row[1]]
    assert len(unranked) == sum(1 for row in expected if row[0] is None) >= 1
    assert rows[-1][0].startswith("Players without a rank")


def test_evening_result_sheet_has_every_round_and_the_prizes(read_only_season):
    competition, members, evenings, director = read_only_season
    evening = evenings[0]
    result = standings.evening_result(evening=evening)
    sheet = read_xlsx(xlsx.report_xlsx(reports.evening_report(evening=evening))).active
    top = header_row(sheet)
    titles = [cell.value for cell in sheet[top]]
    assert titles[:4] == ["#", "Player", "Round 1", "Round 2"]
    assert titles[-1] == "Prize"
    rows = {row[1]: row for row in sheet.iter_rows(min_row=top + 1, values_only=True)}
    for line in result.lines:
        row = rows[result.names[line.key]]
        assert row[0] == line.rank
        assert [row[2], row[3]] == [result.rounds[line.key].get(n) for n in (1, 2)]
        assert row[titles.index("Points")] == line.points
    winners = [row[1] for row in rows.values() if row[-1] == "winner"]
    assert set(winners) == {result.names[k] for k in result.winners}
    assert any(row[-1] == "poedelprijs" for row in rows.values())


def test_a_provisional_evening_sheet_agrees_with_the_page_and_names_no_prize(evening_in_play):
    evening, _first = evening_in_play
    result = standings.evening_result(evening=evening)
    sheet = read_xlsx(xlsx.report_xlsx(reports.evening_report(evening=evening))).active
    top = header_row(sheet)
    titles = [cell.value for cell in sheet[top]]
    assert "Prize" not in titles
    assert titles[:3] == ["#", "Player", "Round 1"]
    cells = [cell for row in sheet.iter_rows(values_only=True) for cell in row if cell]
    assert "Provisional result · " + evening.competition.club.name in cells
    assert "2 of 4 tables confirmed — the result is not final yet." in cells
    assert "round 2, table 2: 3 of 16 hands" in cells
    assert "round 2, table 1: 16 of 16 hands, to be confirmed" in cells
    rows = list(sheet.iter_rows(min_row=top + 1, max_row=top + 8, values_only=True))
    assert [(row[0], row[1], row[titles.index("Points")]) for row in rows] == [
        (line.rank, result.names[line.key], line.points) for line in result.lines
    ]


def test_names_that_look_like_formulas_are_text(read_only_season):
    competition, members, evenings, director = read_only_season
    for member, name in zip(members, TRICKY, strict=False):
        type(member).objects.filter(pk=member.pk).update(name=name)
    sheet = read_xlsx(xlsx.report_xlsx(reports.standings_report(competition=competition))).active
    cells = [row[1] for row in sheet.iter_rows() if row[1].value in TRICKY]
    assert len(cells) == len(TRICKY)
    assert all(cell.data_type == "s" and cell.quotePrefix for cell in cells)
    log = read_xlsx(xlsx.hand_log_xlsx(handlog.hand_log_rows(competition))).active
    names = [cell for row in log.iter_rows(min_row=2) for cell in row[4:8] if cell.value in TRICKY]
    assert names and all(cell.data_type == "s" and cell.quotePrefix for cell in names)


#: The hand log writes the teams as the score sheet does.
TEAM_WORD = {"A": "wij", "B": "zij"}


def database_hand_log(competition):
    names = {}
    for seat in Seat.objects.filter(round__evening__competition=competition, table__isnull=False):
        names[(seat.table_id, seat.position)] = seat.player_name
    rows = []
    for hand in Hand.objects.filter(game__table__round__evening__competition=competition).order_by(
        "game__table__round__evening__date",
        "game__table__round__number",
        "game__table__number",
        "number",
    ):
        table = hand.game.table
        rows.append(
            [
                table.round.evening.date,
                table.round.number,
                table.number,
                hand.number,
                *[names[(table.pk, p)] for p in "NSEW"],
                TEAM_WORD[hand.playing],
                hand.trump or None,
                hand.points_a,
                hand.points_b,
                # As the score sheet writes them: a pit's roem column holds the pit's
                # 100, the other team's after verzaken the penalty of 100.
                hand.roem_a + 100 * (hand.pit == "A") + 100 * (hand.verzaakt == "B"),
                hand.roem_b + 100 * (hand.pit == "B") + 100 * (hand.verzaakt == "A"),
                hand.declared_a or None,
                hand.declared_b or None,
                TEAM_WORD.get(hand.pit),
                TEAM_WORD.get(hand.verzaakt),
                TEAM_WORD[hand.playing] if hand.nat else None,
                hand.score_a,
                hand.score_b,
                None,  # sitout
                None,  # sitout_marsen
            ]
        )
    return rows


def test_hand_log_has_one_row_per_hand_with_real_values(read_only_season):
    competition, *_ = read_only_season
    data = xlsx.hand_log_xlsx(handlog.hand_log_rows(competition), name_width=12)
    book = read_xlsx(data)
    assert book.sheetnames == ["Hands"]
    sheet = book["Hands"]
    assert [cell.value for cell in sheet[1]][:5] == ["Date", "Round", "Table", "Hand", "North"]
    assert all(cell.font.bold for cell in sheet[1])
    assert sheet.freeze_panes == "A2"
    rows = [list(row) for row in sheet.iter_rows(min_row=2, values_only=True)]
    sitout = handlog.COLUMNS.index("sitout")
    hands = [row for row in rows if row[sitout] is None]
    sitouts = [row for row in rows if row[sitout] is not None]
    expected = database_hand_log(competition)
    assert len(hands) == Hand.objects.count() == len(expected)
    for got, want in zip(hands, expected, strict=True):
        assert isinstance(got[0], datetime.datetime) and got[0].date() == want[0]
        assert got[1:] == want[1:]
    assert all(type(v) is int for row in hands for v in row[1:4] + row[10:14] + row[19:21])
    assert len(sitouts) == Adjustment.objects.filter(kind="sitout").count() == 2
    assert all(row[2] is None and row[3] is None and row[sitout] == 1600 for row in sitouts)
    assert sheet.auto_filter.ref == f"A1:W{len(rows) + 1}"


def test_an_empty_competition_gives_a_sheet_with_only_the_header(club):
    from tests import factories

    competition = factories.competition(club)
    sheet = read_xlsx(xlsx.hand_log_xlsx(handlog.hand_log_rows(competition))).active
    assert sheet.max_row == 1
    report = reports.standings_report(competition=competition)
    sheet = read_xlsx(xlsx.report_xlsx(report)).active
    assert sheet.cell(row=header_row(sheet), column=2).value == "Player"


def test_dates_written_as_text_in_a_dutch_sheet_are_dutch(read_only_season):
    competition, members, evenings, director = read_only_season
    with translation.override("nl"):
        sheet = read_xlsx(xlsx.report_xlsx(reports.evening_report(evening=evenings[0]))).active
        printed = date_format(timezone.localdate(), "j F Y")
    lines = [sheet.cell(row=n, column=1).value for n in range(1, 4)]
    assert lines[1] == f"{competition.name} · di 6 okt 2026"
    assert lines[2] == f"Afgedrukt {printed}"
