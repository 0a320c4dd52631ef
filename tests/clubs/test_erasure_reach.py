"""Issue 24: forgetting a person reaches only what is theirs, and breaks nothing.

Forgetting a member rewrites the rows the member's club owns, never another
club's rows reached through a league team or a player; it replaces names as
whole words and numbers as whole values, in people's text only (never a JSON
key, a rule set or a choice), and fits every text to its column. What names the
member in another club's game (a confirmation, the audit's "who") is erased
through the member's own seat. A closed or deleted account's username leaves the
log lines about it.
"""

import random

import pytest
from django.contrib.auth import get_user_model
from django.db import models
from django.test import Client
from django.urls import reverse

from clubs import services
from clubs.models import ClubLog
from leagues.models import LeagueLog, LeagueMatch, LeagueTeam
from scoring.demo import play_game
from scoring.models import Adjustment, AuditEntry, Game, Hand
from tests import factories
from tests.leagues.conftest import build_league, generate, seat
from tests.scoring.conftest import play_season  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def _match_of(club):
    return (
        LeagueMatch.objects.filter(home__club=club).first()
        or LeagueMatch.objects.filter(away__club=club).first()
    )


@pytest.fixture
def league_world():
    """A league of the Bond with teams of other clubs; club A's admin; a seated match of A."""
    world = build_league(divisions=(2,))
    a = world.clubs[0]
    admin_a = factories.role(a, "admin", factories.user("admin-a"))
    generate(world)
    match = seat(world, _match_of(a))
    return world, a, admin_a, match


def test_forgetting_in_one_club_writes_nothing_into_another_clubs_league(league_world):
    world, a, admin_a, match = league_world
    assert world.league.club != a
    line = LeagueLog.objects.create(
        league=world.league,
        match=match,
        user=world.organiser,
        summary="Uitslag gecorrigeerd door de wedstrijdleider van de Bond",
    )
    game = Game.objects.filter(table__league_slot__match=match).first()
    adjustment = Adjustment.objects.create(
        evening=match.evening,
        game=game,
        kind=Adjustment._meta.get_field("kind").choices[0][0],
        team="A",
        points=10,
        reason="Straf voor de tafel",
    )
    seat_b = game.table.seats.exclude(member__club=a).first()
    type(seat_b).objects.filter(pk=seat_b.pk).update(substitute="de invaller")
    teams = {t.pk: t.name for t in LeagueTeam.objects.all()}
    victim = factories.member(a, "de")

    services.member_forget(member=victim, by=admin_a, confirm_name=victim.name, name="HACKED-BY-A")

    line.refresh_from_db()
    adjustment.refresh_from_db()
    seat_b.refresh_from_db()
    assert line.summary == "Uitslag gecorrigeerd door de wedstrijdleider van de Bond"
    assert adjustment.reason == "Straf voor de tafel"
    assert seat_b.substitute == "de invaller"
    assert {t.pk: t.name for t in LeagueTeam.objects.all()} == teams


def test_a_name_is_replaced_as_a_whole_word_only():
    club = factories.club(name="Club", slug="club-words")
    admin = factories.role(club, "admin", factories.user("adm-words"))
    other = factories.member(club, "Jan Jansen")
    jan = factories.member(club, "Jan")
    cup = factories.competition(club, name="Jansen-beker")
    line = ClubLog.objects.create(
        club=club, user=admin, action="club_update", summary="Jan won, Janneke and Jan-Willem too"
    )

    services.member_forget(member=jan, by=admin, confirm_name=jan.name, name="Oud lid")

    cup.refresh_from_db()
    other.refresh_from_db()
    line.refresh_from_db()
    assert cup.name == "Jansen-beker"
    assert other.name == "Jan Jansen"
    assert line.summary == "Oud lid won, Janneke and Jan-Willem too"


def test_a_name_with_spaces_and_non_ascii_letters_is_replaced_as_a_whole():
    club = factories.club(name="Club", slug="club-accents")
    admin = factories.role(club, "admin", factories.user("adm-accents"))
    person = factories.member(club, "Zoë 't Hart")
    line = ClubLog.objects.create(
        club=club,
        user=admin,
        action="club_update",
        summary="Zoë 't Hart en Zoë 't Harte speelden",
        detail={"Zoë 't Hart": "Zoë 't Hart"},
    )

    services.member_forget(member=person, by=admin, confirm_name=person.name, name="Oud lid")

    line.refresh_from_db()
    assert line.summary == "Oud lid en Zoë 't Harte speelden"
    assert line.detail == {"Zoë 't Hart": "Oud lid"}  # a key is never rewritten


def test_a_number_that_names_a_rule_set_leaves_every_game_working(play_season):  # noqa: F811
    club = factories.club(name="Club X", slug="clubx")
    admin = factories.role(club, "admin", factories.user("admx"))
    season, _members, _evenings, _director = play_season(club, evenings=1, players=8, rounds=1)
    game = Game.objects.filter(table__round__evening__competition__club=club).first()
    preset = game.ruleset["name"]
    person = factories.member(club, "Nieuw Lid", membership_number=preset)

    services.member_forget(member=person, by=admin, confirm_name=person.name)

    game.refresh_from_db()
    assert game.ruleset["name"] == preset
    client = Client(raise_request_exception=False)
    client.force_login(admin)
    for url in [
        reverse("scoring:table-entry", kwargs={"token": game.table.token}),
        reverse("scoring:game-sheet", kwargs={"club": club.slug, "pk": game.pk}),
        reverse("results:standings", kwargs={"club": club.slug, "pk": season.pk}),
    ]:
        assert client.get(url).status_code == 200, url


def test_a_long_replacement_fits_every_column_and_the_page_answers(client):
    club = factories.club(name="Club", slug="club-long")
    admin = factories.role(club, "admin", factories.user("adm-long"))
    ClubLog.objects.create(club=club, user=admin, action="club_update", summary="e " * 145)
    person = factories.member(club, "e")
    client.raise_request_exception = False
    client.force_login(admin)

    response = client.post(
        reverse("clubs:member-forget", kwargs={"club": club.slug, "pk": person.pk}),
        {"name": "X" * 120, "confirm_name": "e"},
    )

    assert response.status_code == 302
    person.refresh_from_db()
    assert person.name == "X" * 120
    summaries = list(ClubLog.objects.values_list("summary", flat=True))
    assert all(len(s) <= 300 for s in summaries)
    assert any(s.startswith("X" * 120 + " " + "X" * 120) and s.endswith("…") for s in summaries)


def test_the_name_leaves_other_clubs_games_the_member_sat_in(league_world):
    world, a, admin_a, match = league_world
    game = Game.objects.filter(table__league_slot__match=match).first()
    jan = game.table.seats.filter(member__club=a).first().member
    rows = play_game(world.league.competition.ruleset(), random.Random(1))
    factories.game_played(game, rows, by=world.organiser, confirmed_by=jan.name)
    other_game = Game.objects.exclude(table__seats__member=jan).exclude(pk=game.pk).first()
    Game.objects.filter(pk=other_game.pk).update(confirmed_by=jan.name)  # a namesake elsewhere
    name = jan.name

    services.member_forget(member=jan, by=admin_a, confirm_name=jan.name)

    hits = []
    for model in (Game, AuditEntry):
        for f in model._meta.concrete_fields:
            if isinstance(f, (models.CharField, models.TextField)):
                found = model._base_manager.filter(**{f"{f.attname}__contains": name})
                hits += [
                    (model._meta.label, f.name, pk) for pk in found.values_list("pk", flat=True)
                ]
    assert hits == [("scoring.Game", "confirmed_by", other_game.pk)]  # not the member's seat
    game.refresh_from_db()
    assert game.confirmed_by and name not in game.confirmed_by


def _invited(club, admin, username, role="member", member=None, password="pw-Klaver-9"):
    user = factories.user(username, password=password)
    invitation = services.invitation_create(club=club, role=role, member=member, by=admin)
    services.invitation_accept(token=invitation.token, user=user)
    return user


def test_a_closed_accounts_username_leaves_the_club_log():
    club = factories.club(name="Club", slug="club-user")
    admin = factories.role(club, "admin", factories.user("adm-user"))
    person = factories.member(club, "Jan Jansen")
    account = _invited(club, admin, "jan.jansen", member=person)
    services.password_link_create(club=club, user=account, by=admin)

    services.member_forget(member=person, by=admin, confirm_name=person.name)

    assert not any("jan.jansen" in s for s in ClubLog.objects.values_list("summary", flat=True))
    account.refresh_from_db()
    assert account.get_username() == f"closed-{account.pk}"
    assert not get_user_model().objects.filter(username="jan.jansen").exists()


def test_a_deleted_accounts_username_leaves_club_and_league_logs(league_world):
    world, a, admin_a, _match = league_world
    user = _invited(a, admin_a, "piet.pietersen", role="scorer")
    from leagues import services as league_services

    team = LeagueTeam.objects.filter(club=a).first()
    league_services.team_captain_add(team=team, user=user, by=admin_a)  # the team club's admin
    assert LeagueLog.objects.filter(summary__contains="piet.pietersen").exists()
    keep = LeagueLog.objects.create(league=world.league, summary="piet.pietersenx stays")

    services.account_delete(user=user, by=user, password="pw-Klaver-9")

    assert not ClubLog.objects.filter(summary__contains="piet.pietersen").exists()
    assert not LeagueLog.objects.exclude(pk=keep.pk).filter(summary__contains="piet").exists()
    keep.refresh_from_db()
    assert keep.summary == "piet.pietersenx stays"


def test_the_forget_page_says_what_becomes_of_the_username():
    club = factories.club(name="Club", slug="club-page")
    admin = factories.role(club, "admin", factories.user("adm-page"))
    person = factories.member(club, "Jan Jansen")
    account = _invited(club, admin, "jan.jansen", member=person)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(admin)
    page = client.get(reverse("clubs:member-forget", kwargs={"club": club.slug, "pk": person.pk}))
    assert f"Its username jan.jansen becomes closed-{account.pk}" in page.text


def test_settings_choices_and_hand_inputs_keep_a_value_that_equals_a_name_or_number(
    play_season,  # noqa: F811
):
    club = factories.club(name="Club Y", slug="cluby")
    admin = factories.role(club, "admin", factories.user("admy"))
    _season, _members, _evenings, _director = play_season(club, evenings=1, players=8, rounds=1)
    hand = Hand.objects.filter(game__table__round__evening__competition__club=club).first()
    Hand.objects.filter(pk=hand.pk).update(declared_a="20")
    line = ClubLog.objects.create(club=club, user=admin, action="club_update", summary="x")
    person = factories.member(club, "club_update", membership_number="20")

    services.member_forget(member=person, by=admin, confirm_name=person.name)

    hand.refresh_from_db()
    line.refresh_from_db()
    assert hand.declared_a == "20"
    assert line.action == "club_update"


def test_a_username_that_is_an_ordinary_word_leaves_lines_not_about_it(league_world):
    world, a, admin_a, _match = league_world
    user = _invited(a, admin_a, "de", role="scorer")
    team = LeagueTeam.objects.filter(club=a).first()
    from leagues import services as league_services

    league_services.team_captain_add(team=team, user=user, by=admin_a)  # the team club's admin
    other = ClubLog.objects.create(
        club=a, user=admin_a, action="club_update", summary="Op de avond"
    )
    league_line = LeagueLog.objects.create(league=world.league, summary="Uitslag door de leider")
    captain_line = LeagueLog.objects.exclude(pk=league_line.pk).latest("pk")
    assert captain_line.summary.startswith("de ")  # "de is captain of ..."
    accepted = ClubLog.objects.get(club=a, user=user, action=ClubLog.Action.INVITATION_ACCEPT)

    services.account_delete(user=user, by=user, password="pw-Klaver-9")

    other.refresh_from_db()
    league_line.refresh_from_db()
    accepted.refresh_from_db()
    assert other.summary == "Op de avond"
    assert league_line.summary == "Uitslag door de leider"
    assert not accepted.summary.startswith("de ")  # the line about the account loses it
    captain_line.refresh_from_db()
    assert not captain_line.summary.startswith("de ")  # and so does the sentence naming it
