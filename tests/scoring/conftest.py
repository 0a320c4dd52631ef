"""Fixtures of the scoring tests: an evening in play, a played season."""

import datetime
import random

import pytest

from scoring import services as scoring_services
from scoring.demo import play_game
from scoring.models import Game
from tests import factories
from tournaments import services
from tournaments.models import Attendance, Seat


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


def play_season(club, *, evenings=3, players=9, rounds=2, seed=7, **settings):
    director = factories.role(club, "director")
    competition = factories.competition(club, rounds_per_evening=rounds, **settings)
    members = factories.members(club, players)
    rng = random.Random(seed)
    ruleset = competition.ruleset()
    played = []
    for n in range(evenings):
        date = datetime.date(2026, 10, 6) + datetime.timedelta(weeks=n)
        evening = factories.evening(competition, date)
        absent = members[n] if n else None  # one player calls in absent from evening 2 on
        for member in members:
            status = "excused" if member == absent else "present"
            Attendance.objects.create(evening=evening, member=member, status=status)
        for _ in range(rounds):
            round_ = services.round_draw(evening=evening, by=director, seed=rng.random())
            for game in Game.objects.filter(table__round=round_):
                scoring_services.game_enter_sheet(
                    game=game, rows=play_game(ruleset, rng), by=director
                )
                scoring_services.game_confirm(game=game, name="Tegenpartij")
        played.append(services.evening_set_status(evening=evening, status="finished", by=director))
    return competition, members, played, director


@pytest.fixture(scope="module")
def season_once(module_db):
    """A played season of 3 evenings, 8 players, 1 round each, built once per module
    in a club of its own: (club, competition, members, evenings, director).
    Only for tests that read it."""
    club = factories.club()
    return (club, *play_season(club, evenings=3, players=8, rounds=1))
