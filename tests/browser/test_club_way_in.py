"""Issue 20 in the browser: a second club started on the site, a tournament director
invited by link who makes an account and sets up an evening, a member who logs in
through an invitation and sees their own results, and a member forgotten without
any standing changing."""

import datetime
import random

import pytest

from clubs.models import Club, ClubRole, Member
from scoring.demo import play_evening
from scoring.results import standings
from tests import factories
from tests.browser.conftest import login
from tournaments.models import Evening

pytestmark = pytest.mark.django_db(transaction=True)


def _lines(season):
    result = standings.season_standings(competition=season)
    return [(line.rank, line.key, line.points, line.games) for line in result.lines]


def _accept(page, url, username):
    page.goto(url)
    page.fill("#id_username", username)
    page.fill("#id_password1", "Klaverjas-2026!")
    page.fill("#id_password2", "Klaverjas-2026!")
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")


def _invite(page, live_server, slug, role, member=None):
    page.goto(f"{live_server.url}/clubs/{slug}/roles/")
    page.select_option("select[name=role]", role)
    if member is not None:
        page.select_option("select[name=member]", str(member.pk))
    with page.expect_navigation():
        page.click("form[action$='/invitations/new/'] button[type=submit]")
    assert page.locator("svg.qr-code").count() == 1
    return page.input_value("input.invitation-link")


def test_a_second_club_starts_invites_and_forgets_through_the_site(
    browser, page, live_server, shot
):
    factories.club(name="De Hoge Troef", slug="de-hoge-troef")  # the demo
    factories.user("beheer", is_superuser=True)
    login(page, live_server, "beheer")
    page.goto(f"{live_server.url}/")
    with page.expect_navigation():
        page.click("a[href='/new-club/']")
    page.fill("#id_name", "De Tweede Boom")
    page.select_option("#id_ruleset_preset", "amsterdam")
    shot(page, "new-club")
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")
    club = Club.objects.get(slug="de-tweede-boom")
    assert page.url.endswith("/clubs/de-tweede-boom/")
    assert page.locator(".first-steps li").count() == 5
    shot(page, "first-steps")

    # A tournament director by link: makes an account and sets up an evening.
    players = factories.members(club, 9)
    season = factories.competition(club, name="Wintercompetitie")
    link = _invite(page, live_server, club.slug, "director")
    shot(page, "invitation")
    director = browser.new_context(locale="nl-NL")
    director_page = director.new_page()
    _accept(director_page, link, "leider")
    assert ClubRole.objects.get(club=club, user__username="leider").role == "director"
    director_page.goto(
        f"{live_server.url}/clubs/{club.slug}/competitions/{season.pk}/evenings/new/"
    )
    with director_page.expect_navigation():
        director_page.click("form button[type=submit].primary")
    assert Evening.objects.filter(competition=season).count() == 1
    director.close()

    # Evenings are played; a member logs in through an invitation and sees them.
    leider = ClubRole.objects.get(club=club, user__username="leider").user
    play_evening(season, datetime.date(2026, 9, 8), players, leider, random.Random(8))
    link = _invite(page, live_server, club.slug, "member", member=players[2])
    player = browser.new_context(locale="nl-NL")
    player_page = player.new_page()
    _accept(player_page, link, "speler")
    player_page.goto(f"{live_server.url}/my-results/")
    body = player_page.inner_text("main") if player_page.locator("main").count() else ""
    body = body or player_page.inner_text("body")
    assert players[2].name in body and "Wintercompetitie" in body
    shot(player_page, "my-results")
    player.close()

    # Forget a member: the standings stay the same.
    before = _lines(season)
    page.goto(f"{live_server.url}/clubs/{club.slug}/members/{players[5].pk}/forget/")
    page.fill("#id_name", "oud-lid 17")
    page.fill("#id_confirm_name", players[5].name)  # erasing asks for the name (issue 25)
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")
    assert Member.objects.get(pk=players[5].pk).name == "oud-lid 17"
    assert _lines(season) == before
    shot(page, "forgotten")
