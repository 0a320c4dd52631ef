"""The hand log reads and writes a pit as the score sheet does (scoring.rules.sheet):
one notation for the printed sheet, the grid, the import and the export."""

import pytest

from scoring.exports import csv as csv_export
from scoring.exports import handlog
from scoring.models import Game, Hand
from tests import factories
from tests.scoring.exports.test_import import NAMES, apply, csv_bytes, game_rows, rejected

pytestmark = pytest.mark.django_db


@pytest.fixture
def competition(club):
    for name in NAMES:
        factories.member(club, name)
    return factories.competition(club)


PIT = {"playing": "wij", "points_a": 162, "points_b": 0, "pit": "wij"}


def test_a_pit_in_a_file_written_as_the_sheet_writes_it_is_262(competition):
    apply(competition, csv_bytes(game_rows(changes={3: {**PIT, "roem_a": 100}})))
    hand = Hand.objects.get(number=3)
    assert (hand.score_a, hand.roem_a, hand.pit) == (262, 0, "A")


def test_a_pit_with_roem_in_a_file_is_the_column_above_the_bonus(competition):
    apply(competition, csv_bytes(game_rows(changes={3: {**PIT, "roem_a": 150}})))
    hand = Hand.objects.get(number=3)
    assert (hand.score_a, hand.roem_a) == (312, 50)


def test_a_pit_with_less_than_the_bonus_in_a_file_is_refused_saying_how_to_write_it(
    competition,
):
    from django.utils import translation

    with translation.override("en"):
        problems = rejected(competition, csv_bytes(game_rows(changes={3: {**PIT, "roem_a": 20}})))
    assert [(p.row, p.column) for p in problems] == [(4, "roem_a")]
    assert "Write 100 (or leave it empty) for a pit without roem, 120" in problems[0].message


def test_the_export_writes_a_pit_as_the_sheet_does_and_imports_back(competition, club):
    from scoring.exports import importers

    apply(competition, csv_bytes(game_rows(changes={3: {**PIT, "roem_a": 120}})))
    rows = list(handlog.hand_log_rows(competition))
    assert (rows[2].roem_a, rows[2].pit, rows[2].score_a) == (120, "wij", 282)
    data = csv_export.hand_log_csv(rows)
    copy = importers.results_import_apply(
        club=club, new_competition={"name": "Kopie"}, data=data
    ).competition
    game = Game.objects.get(table__round__evening__competition=copy)
    assert game.hands.get(number=3).score_a == 282
    assert csv_export.hand_log_csv(handlog.hand_log_rows(copy)) == data
