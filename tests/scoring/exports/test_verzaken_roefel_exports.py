"""Verzaken and the roefel in the results import, the hand-log export and the PDF
score sheet."""

import pytest

from common.csvfile import dialect
from scoring import rules, services
from scoring.exports import csv as csv_export
from scoring.exports import handlog, importers, pdf, reports
from scoring.models import Game, Hand
from scoring.services import HandInput
from tests import factories
from tournaments import services as tournament_services

from .conftest import pdf_pages
from .test_import import NAMES, apply, csv_bytes, game_rows, rejected

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(club):
    return [factories.member(club, name) for name in NAMES]


@pytest.fixture
def competition(club, players):
    return factories.competition(club)


#: A match to 500: hand 1 the roefel (zij play with clubs), then wij 100-62 five times.
ROEFEL = {1: {"playing": "B", "points_a": 62, "points_b": 100, "trump": ""}}


def stored_games(of):
    fields = ("total_a", "total_b", "winner", "nat_a", "nat_b", "verzaken_a", "verzaken_b")
    return [
        tuple(getattr(g, f) for f in fields)
        for g in Game.objects.filter(table__round__evening__competition=of).order_by(
            "table__round__evening__date", "table__round__number", "table__number"
        )
    ]


def test_a_verzaken_row_imports_with_empty_card_points(competition):
    # As the score sheet writes it: the other team's roem holds the penalty of 100.
    verzaken = {"points_a": "", "points_b": "", "verzaakt": "B", "roem_a": 120}
    result = apply(competition, csv_bytes(game_rows(changes={3: verzaken})))
    assert result.hands == 16
    hand = Hand.objects.get(number=3)
    assert (hand.points_a, hand.points_b, hand.verzaakt, hand.nat) == (162, 0, "B", False)
    assert (hand.score_a, hand.score_b) == (282, 0)
    game = Game.objects.get()
    assert (game.total_a, game.total_b) == (15 * 100 + 282, 15 * 62)
    assert (game.verzaken_a, game.verzaken_b, game.nat_a, game.nat_b) == (0, 1, 0, 0)


def test_a_verzaken_row_with_card_points_that_do_not_follow_is_refused(competition):
    rows = game_rows(changes={3: {"verzaakt": "B"}})  # 100-62 stays
    problems = rejected(competition, csv_bytes(rows))
    assert [(p.row, p.column) for p in problems] == [(4, "points_a, points_b")]


def test_a_verzaken_hand_round_trips_through_the_hand_log(competition):
    verzaken = {"points_a": "", "points_b": "", "verzaakt": "A", "roem_b": 150}
    apply(competition, csv_bytes(game_rows(changes={5: verzaken})))
    data = csv_export.hand_log_csv(handlog.hand_log_rows(competition))
    text = data.decode("utf-8-sig")
    header, *lines = text.splitlines()
    separator = dialect().delimiter
    titles = header.split(separator)
    column = titles.index(str(handlog.TITLES["verzaakt"]))  # in the active language
    team = str(rules.Team.A.column)  # written as the score sheet does: wij
    assert [line.split(separator)[column] for line in lines] == [""] * 4 + [team] + [""] * 11
    copy = importers.results_import_apply(
        club=factories.club(), new_competition={"name": "Kopie"}, data=data, create_members=True
    ).competition
    assert stored_games(copy) == stored_games(competition)
    assert Hand.objects.get(game__table__round__evening__competition=copy, number=5).verzaakt == "A"
    assert csv_export.hand_log_csv(handlog.hand_log_rows(copy)) == data


def test_the_import_refuses_the_roefel_by_the_wrong_team(club, players):
    match = factories.competition(club, name="Match", ruleset_preset="match-500")
    rows = game_rows(hands=6, changes={1: {"playing": "A", "points_a": 100, "points_b": 62}})
    problems = rejected(match, csv_bytes(rows))
    assert [(p.row, p.column) for p in problems] == [(2, "playing")]
    assert "the roefel" in problems[0].message


def test_the_import_refuses_the_roefel_with_another_trump(club, players):
    match = factories.competition(club, name="Match", ruleset_preset="match-500")
    rows = game_rows(hands=6, changes={1: {**ROEFEL[1], "trump": "H"}})
    problems = rejected(match, csv_bytes(rows))
    assert [(p.row, p.column) for p in problems] == [(2, "trump")]


def test_the_import_takes_the_roefel_and_stores_clubs(club, players):
    match = factories.competition(club, name="Match", ruleset_preset="match-500")
    apply(match, csv_bytes(game_rows(hands=6, changes=ROEFEL)))
    first = Hand.objects.get(number=1)
    assert (first.playing, first.trump) == ("B", "C")
    assert Game.objects.get().winner == "A"


@pytest.fixture
def match_round(club):
    director = factories.role(club, "director")
    season = factories.competition(club, ruleset_preset="match-500")
    evening = factories.evening(season, present=factories.members(club, 4))
    round_ = tournament_services.round_draw(evening=evening, by=director, seed=1)
    return round_


def sheet_text(round_, *, filled):
    sheets = reports.round_sheets(round_=round_, entry_url=lambda t: f"/t/{t}/", filled=filled)
    return pdf_pages(pdf.scoresheets_pdf(sheets))[0]


def test_the_pdf_score_sheet_marks_the_roefel_and_a_verzaken_hand(match_round):
    game = match_round.tables.get().game
    services.hand_record(game=game, data=HandInput(playing="B", points_a=62, points_b=100))
    services.hand_record(
        game=game, data=HandInput(playing="A", points_a=162, points_b=0, roem_a=20, verzaakt="B")
    )
    cells = sheet_text(match_round, filled=True).splitlines()  # one cell a line
    first = cells.index("1")
    assert cells[first + 1].endswith(" · roefel ♣") and cells[first + 2 : first + 4] == [
        "62",
        "100",
    ]
    second = cells.index("2", first)
    # wij write 162 and 20 + 100 roem; zij 0 with a V in their mark column.
    assert cells[second + 2 : second + 6] == ["162", "120", "0", "V"]
    assert "roefel" not in cells[second + 1]


def test_a_blank_sheet_of_a_roefel_game_marks_hand_one(match_round):
    cells = sheet_text(match_round, filled=False).splitlines()
    marked = [index for index, cell in enumerate(cells) if "roefel ♣" in cell]
    assert len(marked) == 1 and cells[marked[0] - 1] == "1"
