"""Who enrols a club's team in a league, and who sees that club's people (issue 24).

A league organiser may not reach into a club that is not theirs: a team of club B
is enrolled only by a director of club B who may also manage the league (a named
organiser); its players and captains come from club B only; and the candidate
lists on a team page (member names, usernames) are shown only to the team's
managers.
"""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from leagues import services
from leagues.models import LeagueTeam, TeamPlayer
from tests import factories

from .conftest import SEASON_END, SEASON_START

pytestmark = pytest.mark.django_db

SECRET_MEMBER = "Geheime Gerda"
SECRET_ADMIN = "victim-admin"


def url(name, league, **kwargs):
    return reverse(f"leagues:{name}", kwargs={"pk": league.pk, **kwargs})


@pytest.fixture
def scene(db):
    """A fresh sign-up's club with a public league, and a private club nobody invited."""
    attacker_club = factories.club(name="Attacker", slug="att")
    victim = factories.club(name="Victim", slug="vic", results_public=False)
    evil = factories.role(attacker_club, "admin", factories.user("evil"))
    victim_admin = factories.role(victim, "admin", factories.user(SECRET_ADMIN))
    secret = factories.member(victim, SECRET_MEMBER, email="gerda@example.org")
    league = services.league_create(
        club=attacker_club,
        by=evil,
        name="Evil League",
        season="2026-2027",
        start_date=SEASON_START,
        end_date=SEASON_END,
        hands_per_game=4,
        divisions=1,
        tables_per_match=2,
        games_per_table=1,
        is_public=True,
    )
    return {
        "club": attacker_club,
        "victim": victim,
        "evil": evil,
        "victim_admin": victim_admin,
        "secret": secret,
        "league": league,
        "division": league.divisions.get(),
    }


def _nothing_of_the_victim(scene):
    assert not LeagueTeam.objects.filter(club=scene["victim"]).exists()
    assert not TeamPlayer.objects.filter(member=scene["secret"]).exists()
    assert not scene["victim_admin"].captained_teams.exists()


def test_an_organiser_cannot_enrol_another_club_in_the_service(scene):
    with pytest.raises(PermissionDenied):
        services.team_create(
            league=scene["league"],
            division=scene["division"],
            club=scene["victim"],
            name="Victim 1",
            by=scene["evil"],
        )
    _nothing_of_the_victim(scene)


def test_an_organiser_cannot_enrol_another_club_through_the_page(client, scene):
    client.force_login(scene["evil"])
    page = client.get(url("team-create", scene["league"]))
    assert page.status_code == 200
    assert "Victim" not in page.text  # not offered
    response = client.post(
        url("team-create", scene["league"]),
        {"club": scene["victim"].pk, "division": scene["division"].pk, "name": "Victim 1"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["club"]
    _nothing_of_the_victim(scene)


def test_an_organiser_cannot_fill_their_own_team_with_another_clubs_people(client, scene):
    own = services.team_create(
        league=scene["league"],
        division=scene["division"],
        club=scene["club"],
        name="Attacker 1",
        by=scene["evil"],
    )
    with pytest.raises(ValidationError):
        services.team_player_add(team=own, member=scene["secret"], by=scene["evil"])
    with pytest.raises(ValidationError):
        services.team_captain_add(team=own, user=scene["victim_admin"], by=scene["evil"])
    client.force_login(scene["evil"])
    client.post(
        url("team-player-add", scene["league"], team=own.pk), {"member": scene["secret"].pk}
    )
    client.post(
        url("team-captain-add", scene["league"], team=own.pk), {"user": scene["victim_admin"].pk}
    )
    _nothing_of_the_victim(scene)
    # No page the attacker or a visitor opens names the victim's people.
    anonymous = Client()
    for address in (
        own.get_absolute_url(),
        url("team-create", scene["league"]),
        url("league-detail", scene["league"]),
        url("schedule", scene["league"]),
        url("tables", scene["league"]),
        url("club-ranking", scene["league"]),
    ):
        for visitor in (client, anonymous):
            text = visitor.get(address).content.decode()
            assert SECRET_MEMBER not in text, address
            assert SECRET_ADMIN not in text, address


def test_the_victims_club_can_still_be_deleted(scene):
    with pytest.raises(PermissionDenied):
        services.team_create(
            league=scene["league"],
            division=scene["division"],
            club=scene["victim"],
            name="Victim 1",
            by=scene["evil"],
        )
    services.club_delete_check(club=scene["victim"])  # no league holds it


def test_the_organising_clubs_director_enrols_their_own_club(client, scene):
    client.force_login(scene["evil"])
    response = client.post(
        url("team-create", scene["league"]),
        {"club": scene["club"].pk, "division": scene["division"].pk, "name": "Attacker 1"},
    )
    team = LeagueTeam.objects.get(name="Attacker 1")
    assert response["Location"] == team.get_absolute_url()
    assert team.club == scene["club"]


def test_a_named_organiser_who_directs_club_b_enrols_club_b(client, scene):
    league, victim = scene["league"], scene["victim"]
    director_b = factories.role(victim, "director", factories.user("director-b"))
    # A director of club B who is no organiser of the league enrols nothing in it.
    with pytest.raises(PermissionDenied):
        services.team_create(
            league=league, division=scene["division"], club=victim, name="B 1", by=director_b
        )
    services.league_organiser_add(league=league, user=director_b, by=scene["evil"])
    client.force_login(director_b)
    page = client.get(url("team-create", league))
    assert "Victim" in page.text and "Attacker" not in page.text  # only club B is theirs
    # Not the organising club's team: that is its own directors'.
    response = client.post(
        url("team-create", league),
        {"club": scene["club"].pk, "division": scene["division"].pk, "name": "A 1"},
    )
    assert response.status_code == 200
    assert not LeagueTeam.objects.filter(name="A 1").exists()
    response = client.post(
        url("team-create", league),
        {"club": victim.pk, "division": scene["division"].pk, "name": "B 1"},
    )
    team = LeagueTeam.objects.get(name="B 1")
    assert response["Location"] == team.get_absolute_url()
    assert team.club == victim


def test_the_candidate_lists_are_the_team_managers_only(client, scene):
    league, victim = scene["league"], scene["victim"]
    director_b = factories.role(victim, "director", factories.user("director-b"))
    services.league_organiser_add(league=league, user=director_b, by=scene["evil"])
    team = services.team_create(
        league=league, division=scene["division"], club=victim, name="B 1", by=director_b
    )
    address = team.get_absolute_url()
    # The team's club's director sees the club's members and accounts to choose from.
    client.force_login(director_b)
    text = client.get(address).content.decode()
    assert SECRET_MEMBER in text and SECRET_ADMIN in text
    # Anonymous visitors and another club's people see the (empty) team, not the lists.
    stranger = factories.role(factories.club("Derde"), "admin", factories.user("stranger"))
    anonymous, other = Client(), Client()
    other.force_login(stranger)
    for visitor in (anonymous, other):
        response = visitor.get(address)
        assert response.status_code == 200
        assert SECRET_MEMBER not in response.content.decode()
        assert SECRET_ADMIN not in response.content.decode()
    # Players and captains come from club B only.
    services.team_player_add(team=team, member=scene["secret"], by=director_b)
    services.team_captain_add(team=team, user=scene["victim_admin"], by=director_b)
    outsider = factories.user("outsider")
    with pytest.raises(ValidationError):
        services.team_captain_add(team=team, user=outsider, by=director_b)
    assert not team.captains.filter(pk=outsider.pk).exists()


def test_the_next_season_carries_over_only_the_teams_its_maker_may_enrol(scene):
    league, victim = scene["league"], scene["victim"]
    director_b = factories.role(victim, "director", factories.user("director-b"))
    services.league_organiser_add(league=league, user=director_b, by=scene["evil"])
    own = services.team_create(
        league=league, division=scene["division"], club=scene["club"], name="A 1", by=scene["evil"]
    )
    services.team_create(
        league=league, division=scene["division"], club=victim, name="B 1", by=director_b
    )
    new = services.league_next_season(
        league=league,
        by=scene["evil"],
        season="2027-2028",
        start_date=datetime.date(2027, 9, 1),
        end_date=datetime.date(2028, 6, 30),
    )
    assert list(LeagueTeam.objects.filter(league=new).values_list("previous", flat=True)) == [
        own.pk
    ]
    # Club B's director, an organiser of the new season too, enrols club B again.
    assert director_b in new.organisers.all()
    services.team_create(
        league=new, division=new.divisions.get(), club=victim, name="B 1", by=director_b
    )


def test_the_next_season_page_names_the_teams_left_for_their_clubs(client, scene):
    league, victim = scene["league"], scene["victim"]
    director_b = factories.role(victim, "director", factories.user("director-b"))
    services.league_organiser_add(league=league, user=director_b, by=scene["evil"])
    services.team_create(
        league=league, division=scene["division"], club=victim, name="B 1", by=director_b
    )
    client.force_login(scene["evil"])
    response = client.post(
        reverse("leagues:next-season", kwargs={"pk": league.pk}),
        {"season": "2027-2028", "start_date": "2027-09-01", "end_date": "2028-06-30"},
        follow=True,
    )
    assert response.status_code == 200
    new = response.context["league"]
    assert new.previous == league and not new.teams.exists()
    warnings = [str(m) for m in response.context["messages"] if m.level_tag == "warning"]
    assert len(warnings) == 1 and "B 1 (Division 1)" in warnings[0]


def test_an_organiser_of_another_club_sees_no_lists_of_a_team(client, scene):
    """Club B's team in club A's league: A's directors organise the league, but the
    team page's lists of B's members and accounts are B's, and so are its writes."""
    league, victim = scene["league"], scene["victim"]
    director_b = factories.role(victim, "director", factories.user("director-b"))
    services.league_organiser_add(league=league, user=director_b, by=scene["evil"])
    team = services.team_create(
        league=league, division=scene["division"], club=victim, name="B 1", by=director_b
    )
    client.force_login(scene["evil"])
    text = client.get(team.get_absolute_url()).content.decode()
    assert SECRET_MEMBER not in text and SECRET_ADMIN not in text
    client.post(url("team-player-add", league, team=team.pk), {"member": scene["secret"].pk})
    client.post(url("team-captain-add", league, team=team.pk), {"user": scene["victim_admin"].pk})
    assert not team.players.exists()
    assert not team.captains.exists()
