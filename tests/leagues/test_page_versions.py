"""A league's pages answer 304 until something they show changes (``leagues.versions``).

Each kind of change a league's pages show gives the league's pages a new version: the
league's own rows (through the services, which the admin's saves share: the receivers
are on the models), its competition's (a hand at a matchday), its clubs' (a name).
"""

import datetime

import pytest
from django.contrib.auth.models import update_last_login
from django.urls import reverse

from leagues import selectors
from leagues import services as league_services
from leagues.models import League, LeagueMatch
from tests import factories
from tests.leagues.conftest import build_league, generate, seat
from tournaments.models import Evening

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
    page does not tell a stranger that the page is unchanged (the team's and the
    match's pages too)."""
    private = build_league(public=False, club_name="Besloten Bond")
    generate(private)
    addresses = [
        page("tables", private.league),
        team_page(private, private.teams[0][0]),
        match_page(private, first_match(private)),
    ]
    client.force_login(private.organiser)
    tags = {address: client.get(address)["ETag"] for address in addresses}
    client.force_login(factories.user("buitenstaander"))
    for address, tag in tags.items():
        assert client.get(address, HTTP_IF_NONE_MATCH=tag).status_code == 404, address


def test_another_leagues_team_or_match_is_not_found_here(client, world):
    """The team and the match are looked for in the league of the address: another
    league's ids answer 404, before any version is read."""
    other = build_league(club_name="Andere Bond")
    generate(other)
    wrong = [
        team_page(world, other.teams[0][0]),
        match_page(world, first_match(other)),
    ]
    for address in wrong:
        assert client.get(address).status_code == 404, address


def team_page(world, team):
    return reverse("leagues:team-detail", kwargs={"pk": world.league.pk, "team": team.pk})


def match_page(world, match):
    return reverse("leagues:match-detail", kwargs={"pk": world.league.pk, "match": match.pk})


def test_the_team_and_match_pages_answer_304_until_the_league_changes(client, world):
    team, match = world.teams[0][0], first_match(world)

    def rename_home_team(world):
        league_services.team_update(team=match.home, by=world.organiser, name="Thuisploeg")

    for address, change, shown in [
        (team_page(world, team), change_team, "Hernoemd"),
        (match_page(world, match), rename_home_team, "Thuisploeg"),
    ]:
        first = client.get(address)
        assert first.status_code == 200 and "public" in first["Cache-Control"]
        assert client.get(address, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        change(world)
        changed = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])
        assert changed.status_code == 200
        assert shown in changed.content.decode()


def test_a_new_line_up_of_a_seated_match_is_shown_at_once(client, world):
    """The seats are deleted and inserted in bulk (no model signal): the line-up itself
    gives the league a new version."""
    match = seat(world, first_match(world))
    address = match_page(world, match)
    first = client.get(address)
    team = match.home
    players = world.lineup(team)
    others = [p for p in world.players[team.pk] if p not in players]  # the reserve
    assert others[0].name not in first.content.decode()
    league_services.match_lineup_set(
        match=match, side="home", players=[others[0], *players[1:]], by=world.captains[team.pk]
    )
    changed = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert others[0].name in changed.content.decode()


def test_a_viewer_made_captain_gets_the_captains_team_and_match_pages(client, world):
    """The pages show a captain their forms: the version says which sides the viewer
    captains. The team's club's directors get pages of their own, never a 304 (the
    page lists the club's members and accounts to choose from)."""
    match = first_match(world)
    team = match.home
    user = factories.role(team.club, "member", factories.user("aanvoerder"))
    client.force_login(user)
    before = {a: client.get(a) for a in (team_page(world, team), match_page(world, match))}
    league_services.team_captain_add(team=team, user=user, by=world.directors[team.club_id])
    lineup = reverse(
        "leagues:match-lineup",
        kwargs={
            "pk": world.league.pk,
            "match": match.pk,
            "side": "home",
        },
    )
    for address, answer in before.items():
        assert "private" in answer["Cache-Control"]
        changed = client.get(address, HTTP_IF_NONE_MATCH=answer["ETag"])
        assert changed.status_code == 200, address
    assert lineup in client.get(match_page(world, match)).content.decode()

    client.force_login(world.directors[team.club_id])
    director = client.get(team_page(world, team))
    assert director.status_code == 200 and "ETag" not in director


def test_a_renamed_captain_is_renamed_on_the_team_page(client, world):
    team = world.teams[0][0]
    captain = world.captains[team.pk]
    first = client.get(team_page(world, team))
    assert captain.get_username() in first.content.decode()
    captain.username = "hernoemde-aanvoerder"
    captain.save()
    changed = client.get(team_page(world, team), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert "hernoemde-aanvoerder" in changed.content.decode()


def test_a_deleted_captains_name_leaves_the_team_page(client, world):
    """The cascade that drops the account's captaincy sends no signal of its own."""
    team = world.teams[0][0]
    captain = world.captains[team.pk]
    first = client.get(team_page(world, team))
    assert captain.get_username() in first.content.decode()
    captain.delete()
    changed = client.get(team_page(world, team), HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert captain.get_username() not in changed.content.decode()


def test_a_new_line_up_gives_the_matchday_evening_a_new_version(world):
    """The evening's tables and board name the players: the bulk-written seats touch it."""
    match = seat(world, first_match(world))
    evening = Evening.objects.get(pk=match.evening_id)
    team = match.home
    players = world.lineup(team)
    reserve = next(p for p in world.players[team.pk] if p not in players)
    league_services.match_lineup_set(
        match=match, side="home", players=[reserve, *players[1:]], by=world.captains[team.pk]
    )
    assert Evening.objects.get(pk=evening.pk).version != evening.version


def test_a_login_touches_no_league(world):
    captain = world.captains[world.teams[0][0].pk]
    before = version(world)
    update_last_login(None, captain)
    assert version(world) == before
