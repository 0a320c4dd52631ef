"""Fixtures of the scoring tests: an evening in play, a played season (a builder and one
built once per module)."""

import datetime
import random

import pytest

from scoring.demo import play_game
from scoring.models import Game
from tests import factories
from tournaments import services
from tournaments.models import Attendance


@pytest.fixture
def director(club):
    return factories.role(club, "director")


@pytest.fixture
def play(club, director):
    """Round 1 of a new evening drawn: 8 players at two tables (``factories.drawn_round``)."""
    return factories.drawn_round(club, director)


@pytest.fixture
def table(play):
    """Table 1 of ``play``, its game not yet begun."""
    return play.table


@pytest.fixture
def director_client(client, director):
    """A client signed in as the club's director."""
    client.force_login(director)
    return client


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
    factories.round_played(first, rng=rng, by=director)
    second = services.round_draw(evening=evening, by=director, seed=2)
    complete, partial = Game.objects.filter(table__round=second).order_by("table__number")
    factories.game_played(complete, play_game(ruleset, rng), by=director, confirmed_by=None)
    factories.game_played(partial, play_game(ruleset, rng)[:3], by=director, confirmed_by=None)
    evening.refresh_from_db()
    return evening, first


@pytest.fixture(scope="session")
def play_season():
    """Plays a season: ``play_season(club, *, evenings=3, players=9, rounds=2, seed=7,
    **settings)`` returns ``(competition, members, evenings, director)``.

    A competition with ``settings``, ``players`` new members and ``evenings`` weekly
    evenings from 6 October 2026, each with ``rounds`` rounds drawn, played from the
    seeded random ``seed`` and confirmed, then finished; from evening 2 on one player
    a night calls in absent. The builder keeps nothing between calls; the calling
    test (or a module-scoped fixture on ``module_db``) brings the database."""

    def play(club, *, evenings=3, players=9, rounds=2, seed=7, **settings):
        director = factories.role(club, "director")
        competition = factories.competition(club, rounds_per_evening=rounds, **settings)
        members = factories.members(club, players)
        rng = random.Random(seed)
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
                factories.round_played(round_, rng=rng, by=director)
            played.append(
                services.evening_set_status(evening=evening, status="finished", by=director)
            )
        return competition, members, played, director

    return play


@pytest.fixture(scope="module")
def season_once(module_db, play_season):
    """A played season of 3 evenings, 8 players, 1 round each, built once per module
    in a club of its own: (club, competition, members, evenings, director).
    Only for tests that read it."""
    club = factories.club()
    return (club, *play_season(club, evenings=3, players=8, rounds=1))
