"""A league world for the tests: an organising club, clubs with teams, players and
captains, and a way to play a match through the same services a league uses."""

import datetime
import random
from dataclasses import dataclass, field

import pytest
from django.utils import translation

from leagues import services as league_services
from leagues.models import LeagueMatch
from scoring.demo import play_game
from scoring.models import Game
from tests import factories

SEASON_START = datetime.date(2026, 9, 1)
SEASON_END = datetime.date(2027, 6, 30)


@dataclass
class World:
    league: object
    organiser: object
    clubs: list
    teams: list  # per division (top first): [LeagueTeam, ...]
    captains: dict = field(default_factory=dict)  # team pk -> user
    directors: dict = field(default_factory=dict)  # club pk -> user (a named organiser)
    players: dict = field(default_factory=dict)  # team pk -> [Member, ...]

    @property
    def all_teams(self):
        return [team for division in self.teams for team in division]

    def lineup(self, team):
        return self.players[team.pk][: 2 * self.league.tables_per_match]


def build_league(
    *, divisions=(4,), tables=2, games=1, hands=4, public=True, club_name="Bond", **settings
):
    """Teams of division d, number j belong to club j: each club has a team per division.

    As on a real site, each club's director is named an organiser of the league and
    enrols their own club's teams; the captains are accounts of the team's club."""
    organising = factories.club(club_name)
    organiser = factories.role(organising, "director")
    league = league_services.league_create(
        club=organising,
        by=organiser,
        name="Regiocompetitie",
        season="2026-2027",
        start_date=SEASON_START,
        end_date=SEASON_END,
        hands_per_game=hands,
        divisions=len(divisions),
        tables_per_match=tables,
        games_per_table=games,
        is_public=public,
        **settings,
    )
    clubs = [factories.club(f"Klaverclub {chr(65 + j)}") for j in range(max(divisions))]
    world = World(league=league, organiser=organiser, clubs=clubs, teams=[])
    for club in clubs:
        director = factories.role(club, "director", factories.user(f"director-{club.slug}"))
        league_services.league_organiser_add(league=league, user=director, by=organiser)
        world.directors[club.pk] = director
    for level, count in enumerate(divisions, 1):
        division = league.divisions.get(level=level)
        row = []
        for j in range(count):
            club = clubs[j]
            team = league_services.team_create(
                league=league,
                division=division,
                club=club,
                name=f"{club.name} {level}",
                by=world.directors[club.pk],
            )
            members = factories.members(club, 2 * tables + 1)
            for member in members:
                league_services.team_player_add(
                    team=team, member=member, by=world.directors[club.pk]
                )
            captain = factories.role(club, "member", factories.user(f"captain-{team.pk}"))
            league_services.team_captain_add(team=team, user=captain, by=world.directors[club.pk])
            world.captains[team.pk] = captain
            world.players[team.pk] = members
            row.append(team)
        world.teams.append(row)
    return world


def seat(world, match):
    match = LeagueMatch.objects.get(pk=match.pk)
    for side in ("home", "away"):
        team = match.team(side)
        league_services.match_lineup_set(
            match=match, side=side, players=world.lineup(team), by=world.captains[team.pk]
        )
    return LeagueMatch.objects.get(pk=match.pk)


def play_match(world, match, rng, *, mirror=False, rows=None, confirm=True):
    """Line-ups by the captains, every game entered and confirmed at its table, then
    (``confirm``) both captains confirm. ``mirror`` plays the same hands at every
    table: with the home team wij at half of the tables, the match is drawn; ``rows``
    gives those hands."""
    match = seat(world, match)
    ruleset = world.league.competition.ruleset()
    if mirror and rows is None:
        rows = play_game(ruleset, rng)
    for game in Game.objects.filter(table__league_slot__match=match).order_by("pk"):
        factories.game_played(game, rows or play_game(ruleset, rng), by=world.organiser)
    if confirm:
        for side in ("home", "away"):
            league_services.match_confirm(match=match, by=world.captains[match.team(side).pk])
    return LeagueMatch.objects.get(pk=match.pk)


def generate(world, seed=3):
    return league_services.schedule_generate(
        league=world.league, by=world.organiser, start_date=datetime.date(2026, 9, 15), seed=seed
    )


@pytest.fixture(autouse=True)
def english(settings):
    """The tests read messages and pages in English (the source language)."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def rng():
    return random.Random(12)


@pytest.fixture
def world(db):
    world = build_league(divisions=(4,))
    generate(world)
    return world
