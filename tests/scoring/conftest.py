"""Fixtures of the scoring tests: an evening in play."""

import random

import pytest

from scoring import services as scoring_services
from scoring.demo import play_game
from scoring.models import Game
from tests import factories
from tournaments import services
from tournaments.models import Seat


@pytest.fixture
def evening_in_play(club):
    """8 players, round 1 confirmed at both tables; in round 2 table 1 has played all
    its hands but not confirmed, table 2 has entered 3 hands."""
    director = factories.role(club, "director")
    competition = factories.competition(club, rounds_per_evening=2)
    evening = factories.evening(competition, present=factories.members(club, 8))
    rng = random.Random(5)
    ruleset = competition.ruleset()
    first = services.round_draw(evening=evening, by=director, seed=1)
    for game in Game.objects.filter(table__round=first):
        scoring_services.game_enter_sheet(game=game, rows=play_game(ruleset, rng), by=director)
        scoring_services.game_confirm(game=game, name="Tegenpartij")
    second = services.round_draw(evening=evening, by=director, seed=2)
    complete, partial = Game.objects.filter(table__round=second).order_by("table__number")
    scoring_services.game_enter_sheet(game=complete, rows=play_game(ruleset, rng), by=director)
    scoring_services.game_enter_sheet(game=partial, rows=play_game(ruleset, rng)[:3], by=director)
    evening.refresh_from_db()
    return evening, first


def round_one_points(first_round):
    points = {}
    for game in Game.objects.filter(table__round=first_round):
        for seat in Seat.objects.filter(table=game.table):
            points[seat.member_id] = game.total_a if seat.position in "NS" else game.total_b
    return points
