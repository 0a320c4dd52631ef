"""Issue 20, the way out: forgetting a person, ending a club, and who may do it."""

import datetime
import random

import pytest
from django.apps import apps
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from clubs import services
from clubs.models import Club, ClubLog, ClubRole, Invitation, Member
from scoring.demo import play_evening
from scoring.results import standings
from tests import factories
from tests.security.conftest import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def played(db):
    """A club with a played evening: 9 players (one sits out), an admin."""
    club = factories.club(name="De Klaverboer", results_public=False)
    admin = factories.role(club, "admin")
    players = [factories.member(club, f"Speler {n}", email=f"s{n}@example.org") for n in range(9)]
    season = factories.competition(club)
    play_evening(season, datetime.date(2026, 9, 8), players, admin, random.Random(5))
    play_evening(season, datetime.date(2026, 9, 15), players, admin, random.Random(6))
    return club, admin, players, season


def _lines(season):
    return [
        (line.rank, line.key, line.points, line.games, line.marsen, line.nat)
        for line in standings.season_standings(competition=season).lines
    ]


# --- Forget a person ------------------------------------------------------------------------


def test_forgetting_a_member_erases_the_person_and_keeps_the_standings(client, played):
    club, admin, players, season = played
    person = players[3]
    person.membership_number = "4711"
    person.phone = "06-12345678"
    person.user = factories.role(club, "member", factories.user("speler3"))
    person.save()
    services.member_merge(keep=person, remove=factories.member(club, "Speler 3 dubbel"), by=admin)
    services.invitation_create(club=club, role="member", member=person, by=admin)
    before = _lines(season)
    client.force_login(admin)
    response = client.post(
        reverse("clubs:member-forget", kwargs={"club": club.slug, "pk": person.pk}),
        {"name": "", "confirm_name": person.name},
    )
    assert response.status_code == 302
    person.refresh_from_db()
    assert person.name == f"former member {person.pk}"
    assert (person.membership_number, person.email, person.phone) == ("", "", "")
    assert person.user is None and not person.is_active
    assert not ClubRole.objects.filter(club=club, user__username="speler3").exists()
    assert _lines(season) == before
    assert not Invitation.objects.open().filter(member=person).exists()
    assert not Invitation.objects.filter(member=person).exists()
    entry = ClubLog.objects.get(club=club, action="member_forget")
    assert entry.user == admin and entry.created_at is not None
    every_log = " ".join(f"{e.summary} {e.detail}" for e in ClubLog.objects.filter(club=club))
    for erased in ("Speler 3", "s3@example.org", "4711", "06-12345678"):
        assert erased not in every_log


def test_a_forgotten_member_can_get_a_name_the_club_chooses(played):
    club, admin, players, season = played
    before = _lines(season)
    services.member_forget(
        member=players[0], by=admin, confirm_name=players[0].name, name="oud-lid 17"
    )
    players[0].refresh_from_db()
    assert players[0].name == "oud-lid 17"
    assert _lines(season) == before
    names = standings.season_standings(competition=season).names
    assert names[players[0].pk] == "oud-lid 17"


# --- End a club ----------------------------------------------------------------------------


def test_deleting_a_club_needs_its_exact_name(client, played):
    club, admin, _players, _season = played
    client.force_login(admin)
    url = reverse("clubs:club-delete", kwargs={"club": club.slug})
    response = client.post(url, {"confirm_name": "de klaverboer"})
    assert response.status_code == 200
    assert "Type the club&#x27;s name exactly" in response.content.decode()
    assert Club.objects.filter(pk=club.pk).exists()
    response = client.post(url, {"confirm_name": " De Klaverboer "})
    assert response.status_code == 302 and not Club.objects.filter(pk=club.pk).exists()


def test_deleting_a_club_leaves_no_row_of_it_and_keeps_the_other_club():
    a, b = build_world()
    services.invitation_create(club=a.club, role="scorer", by=a.admin)
    services.member_forget(member=a.members[1], by=a.admin, confirm_name=a.members[1].name)
    models = services.club_data_models()
    assert {m.__name__ for m, _p in models} >= {
        "Member", "ClubRole", "ClubLog", "Invitation", "Competition", "Evening", "Round",
        "Table", "Seat", "Game", "Hand", "Adjustment", "AuditEntry", "League", "LeagueMatch",
    }  # fmt: skip
    b_before = {m: services.club_rows(m, p, b.club.pk).count() for m, p in models}
    pk = a.club.pk
    services.club_delete(club=a.club, by=a.admin, confirm_name=a.club.name)
    assert not Club.objects.filter(pk=pk).exists()
    left = {m.__name__: services.club_rows(m, p, pk).count() for m, p in models}
    assert left == dict.fromkeys(left, 0)
    assert {m: services.club_rows(m, p, b.club.pk).count() for m, p in models} == b_before
    assert ClubRole.objects.filter(user=a.admin).count() == 0
    assert a.admin.__class__.objects.filter(pk=a.admin.pk).exists()  # the account stays


def test_every_club_model_is_found_by_the_deletion():
    """A model of any app with a foreign key path to Club is deleted with it."""
    found = {m for m, _p in services.club_data_models()}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if field.concrete and field.related_model is Club:
                assert model in found, model


def test_a_club_in_another_clubs_league_cannot_be_deleted_yet(played):
    from leagues.models import LeagueTeam

    club, admin, _players, _season = played
    a, _b = build_world()
    team = LeagueTeam.objects.filter(league__competition__club=a.club).first()
    LeagueTeam.objects.filter(pk=team.pk).update(club=club)
    with pytest.raises(ValidationError):
        services.club_delete(club=club, by=admin, confirm_name=club.name)
    assert Club.objects.filter(pk=club.pk).exists()


def test_a_club_organising_a_league_with_another_clubs_team_cannot_be_deleted_yet():
    from leagues.models import LeagueTeam

    a, b = build_world()
    team = LeagueTeam.objects.filter(league__competition__club=a.club).first()
    LeagueTeam.objects.filter(pk=team.pk).update(club=b.club)
    with translation.override("en"), pytest.raises(ValidationError) as info:
        services.club_delete(club=a.club, by=a.admin, confirm_name=a.club.name)
    assert "plays in a league with other clubs" in str(info.value)
    assert Club.objects.filter(pk=a.club.pk).exists()
    assert LeagueTeam.objects.filter(pk=team.pk, club=b.club).exists()


# --- Who may ---------------------------------------------------------------------------------

ROLES = ["anonymous", "no_role", "member", "scorer", "director", "admin", "other_admin"]


@pytest.fixture
def people(db):
    club = factories.club(name="De Hoge Troef", results_public=False)
    other = factories.club(name="Andere Club", results_public=True)
    users = {
        "anonymous": None,
        "no_role": factories.user(),
        "member": factories.role(club, "member"),
        "scorer": factories.role(club, "scorer"),
        "director": factories.role(club, "director"),
        "admin": factories.role(club, "admin"),
        "other_admin": factories.role(other, "admin"),
    }
    member = factories.member(club, "Anneke de Vries")
    invitation = services.invitation_create(club=club, role="scorer", by=users["admin"])
    return club, users, member, invitation


def _pages(club, users, member, invitation):
    def url(name, **kwargs):
        return reverse(f"clubs:{name}", kwargs={"club": club.slug, **kwargs})

    return {
        "invite": ("post", url("invitation-create"), {"role": "member"}),
        "invitation": ("get", url("invitation-detail", pk=invitation.pk), {}),
        "revoke": ("post", url("invitation-revoke", pk=invitation.pk), {}),
        "password": ("post", url("password-link", user_id=users["member"].pk), {}),
        "forget": ("post", url("member-forget", pk=member.pk), {"confirm_name": member.name}),
        "delete": ("post", url("club-delete"), {"confirm_name": club.name}),
    }


@pytest.mark.parametrize("who", ROLES)
def test_only_the_clubs_admin_invites_resets_forgets_and_deletes(client, people, who):
    club, users, member, invitation = people
    if users[who] is not None:
        client.force_login(users[who])
    answers = {}
    for name, (method, url, data) in _pages(club, users, member, invitation).items():
        answers[name] = getattr(client, method)(url, data).status_code
        if not Club.objects.filter(pk=club.pk).exists():
            break
    if who == "admin":
        assert answers == {
            "invite": 302, "invitation": 200, "revoke": 302, "password": 200, "forget": 302,
            "delete": 302,
        }  # fmt: skip
        return
    expected = {
        "anonymous": 404,  # a private club: to a stranger it does not exist
        "no_role": 404,
        "other_admin": 404,
        "member": 403,
        "scorer": 403,
        "director": 403,
    }[who]
    assert answers == dict.fromkeys(answers, expected)
    member.refresh_from_db()
    assert member.name == "Anneke de Vries"
    assert Invitation.objects.open().filter(pk=invitation.pk).exists()
    assert Invitation.objects.count() == 1


def test_services_refuse_anyone_but_the_clubs_admin(people):
    club, users, member, invitation = people
    for who in ("director", "other_admin"):
        by = users[who]
        with pytest.raises(PermissionDenied):
            services.invitation_create(club=club, role="member", by=by)
        with pytest.raises(PermissionDenied):
            services.member_forget(member=member, by=by, confirm_name=member.name)
        with pytest.raises(PermissionDenied):
            services.club_delete(club=club, by=by, confirm_name=club.name)
        with pytest.raises(PermissionDenied):
            services.password_link_create(club=club, user=users["member"], by=by)
    assert Member.objects.get(pk=member.pk).name == "Anneke de Vries"
