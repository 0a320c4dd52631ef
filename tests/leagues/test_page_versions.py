"""A league's pages answer 304 until something they show changes (``leagues.versions``).

Each kind of change a league's pages show gives the league's pages a new version: the
league's own rows (through the services, which the admin's saves share: the receivers
are on the models), its competition's (a hand at a matchday), its clubs' (a name).
"""

import datetime

import pytest
from django.urls import reverse

from leagues import selectors
from leagues import services as league_services
from leagues.models import League, LeagueMatch
from tests import factories
from tests.leagues.conftest import build_league, seat

pytestmark = pytest.mark.django_db

PAGES = ["league-detail", "schedule", "tables", "club-ranking"]


def page(name, league, **kwargs):
    return reverse(f"leagues:{name}", kwargs={"pk": league.pk, **kwargs})


def version_of(league):
    return selectors.league_page_version(league=selectors.league_queryset().get(pk=league.pk))


def version(world):
    return version_of(world.league)


def first_match(world):
    return LeagueMatch.objects.filter(league=world.league).order_by("date", "pk").first()


def change_league(world):
    league_services.league_update(league=world.league, by=world.organiser, name="Nieuwe naam")


def change_division(world):
    division = world.league.divisions.first()
    league_services.division_update(division=division, by=world.organiser, name="Ereklasse")


def change_team(world):
    league_services.team_update(team=world.teams[0][0], by=world.organiser, name="Hernoemd")


def change_player(world):
    team = world.teams[0][0]
    league_services.team_player_remove(
        player=team.players.order_by("pk").last(), by=world.directors[team.club_id]
    )


def change_captain(world):
    team = world.teams[0][0]
    league_services.team_captain_remove(
        team=team, user=world.captains[team.pk], by=world.directors[team.club_id]
    )


def change_organiser(world):
    director = next(iter(world.directors.values()))
    league_services.league_organiser_remove(league=world.league, user=director, by=world.organiser)


def change_match_date(world):
    match = first_match(world)
    league_services.match_move(
        match=match, date=match.date + datetime.timedelta(days=1), by=world.organiser
    )


def change_seating(world):
    seat(world, first_match(world))


def change_hand(world):
    from scoring.models import Game

    match = seat(world, first_match(world))
    game = Game.objects.filter(table__league_slot__match=match).order_by("pk").first()
    factories.game_played(game, [factories.hand_input()], by=world.organiser, confirmed_by=None)


def change_club_name(world):
    club = world.clubs[0]
    club.name = "Klaverclub Anders"
    club.save()


def change_member_name(world):
    member = world.players[world.teams[0][0].pk][0]
    member.name = "Andere Naam"
    member.save()


def change_previous_season(world):
    """The next season's pages name this one."""
    following = build_league(club_name="Volgend seizoen").league
    League.objects.filter(pk=following.pk).update(previous=world.league)
    before = version_of(following)
    change_league(world)
    assert version_of(following) != before


CHANGES = [
    change_league,
    change_division,
    change_team,
    change_player,
    change_captain,
    change_organiser,
    change_match_date,
    change_seating,
    change_hand,
    change_club_name,
    change_member_name,
]


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__[7:])
def test_every_change_the_pages_show_gives_them_a_new_version(world, change):
    before = version(world)
    change(world)
    assert version(world) != before


def test_the_next_seasons_pages_follow_a_change_of_the_season_before(world):
    change_previous_season(world)


def test_nothing_changed_nothing_new(world, client):
    before = version(world)
    client.get(page("tables", world.league))
    assert version(world) == before


@pytest.mark.parametrize("name", PAGES)
def test_a_page_answers_304_until_the_league_changes(client, world, name):
    first = client.get(page(name, world.league))
    assert first.status_code == 200
    tag = first["ETag"]
    assert "public" in first["Cache-Control"]
    again = client.get(page(name, world.league), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    change_team(world)
    changed = client.get(page(name, world.league), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert changed["ETag"] != tag
    assert "Hernoemd" in changed.content.decode()


def test_a_viewer_who_becomes_an_organiser_gets_the_organisers_page(client, world):
    """The page shows an organiser other links; the version says whether the viewer is one."""
    user = factories.user("aspirant")
    client.force_login(user)
    first = client.get(page("league-detail", world.league))
    assert "private" in first["Cache-Control"]
    edit = page("league-edit", world.league)
    assert edit not in first.content.decode()
    factories.role(world.league.club, "director", user)
    changed = client.get(page("league-detail", world.league), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert edit in changed.content.decode()


def test_a_stranger_with_a_private_leagues_etag_gets_no_304(client, db):
    """The permission is asked before the version: an ETag copied from an organiser's
    page does not tell a stranger that the page is unchanged."""
    private = build_league(public=False, club_name="Besloten Bond")
    client.force_login(private.organiser)
    tag = client.get(page("tables", private.league))["ETag"]
    client.force_login(factories.user("buitenstaander"))
    answer = client.get(page("tables", private.league), HTTP_IF_NONE_MATCH=tag)
    assert answer.status_code == 404
