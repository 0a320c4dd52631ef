"""League pages through the test client: who sees what, forms, and pinned query counts."""

import datetime

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.models import League, LeagueMatch, LeagueTeam
from tests import factories
from tests.tournaments.test_pages import as_the_browser_sends
from tournaments.models import Seat

from .conftest import SEASON_END, SEASON_START, build_league, generate, play_match, seat

pytestmark = pytest.mark.django_db


def url(name, league=None, **kwargs):
    if league is not None:
        kwargs["pk"] = league.pk
    return reverse(f"leagues:{name}", kwargs=kwargs)


def first_match(world):
    return LeagueMatch.objects.filter(league=world.league).order_by("date", "pk").first()


@pytest.fixture
def played(world, rng):
    """Two matches played and confirmed, one played but waiting for the captains."""
    matches = list(LeagueMatch.objects.filter(league=world.league).order_by("date", "pk")[:3])
    play_match(world, matches[0], rng)
    play_match(world, matches[1], rng)
    play_match(world, matches[2], rng, confirm=False)
    return world


def public_urls(world):
    league = world.league
    match = first_match(world)
    team = world.teams[0][0]
    division = team.division
    return [
        url("league-list"),
        url("league-detail", league),
        url("schedule", league),
        url("tables", league),
        url("division-table", league, division=division.pk),
        url("club-ranking", league),
        url("team-detail", league, team=team.pk),
        url("match-detail", league, match=match.pk),
        url("club-history", club=team.club.slug),
    ]


def file_urls(world):
    league = world.league
    match = first_match(world)
    return [
        url("tables-xlsx", league),
        url("tables-pdf", league),
        url("schedule-xlsx", league),
        url("schedule-pdf", league),
        url("match-form-pdf", league, match=match.pk),
    ]


def manage_urls(world):
    league = world.league
    division = world.teams[0][0].division
    return [
        url("league-edit", league),
        url("division-create", league),
        url("division-edit", league, division=division.pk),
        url("team-create", league),
        url("schedule-generate", league),
        url("next-season", league),
    ]


def test_a_public_league_is_everyones(client, played):
    for address in public_urls(played):
        response = client.get(address)
        assert response.status_code == 200, address
    for address in file_urls(played):
        response = client.get(address)
        assert response.status_code == 200, address
        assert "attachment" in response["Content-Disposition"]


def test_a_private_league_is_its_clubs_people_only(client, db, rng):
    world = build_league(divisions=(3,), public=False)
    generate(world)
    league_url = url("league-detail", world.league)
    assert client.get(league_url).status_code == 404
    assert client.get(url("league-list")).content.count(b"Regiocompetitie") == 0
    stranger = factories.user("stranger")
    client.force_login(stranger)
    assert client.get(league_url).status_code == 404
    assert client.get(url("tables-xlsx", world.league)).status_code == 404
    # A member of a playing club, and a captain, see it.
    member = factories.role(world.clubs[1], "member")
    client.force_login(member)
    assert client.get(league_url).status_code == 200
    assert b"Regiocompetitie" in client.get(url("league-list")).content
    client.force_login(world.captains[world.teams[0][2].pk])
    assert client.get(url("tables", world.league)).status_code == 200


def test_management_pages_are_the_organisers(client, world):
    for address in manage_urls(world):
        response = client.get(address)
        assert response.status_code == 302 and "/login" in response["Location"], address
    client.force_login(world.captains[world.teams[0][0].pk])
    for address in manage_urls(world):
        assert client.get(address).status_code == 403, address
    client.force_login(world.organiser)
    for address in manage_urls(world):
        assert client.get(address).status_code == 200, address


def test_a_director_creates_a_league_from_the_club_page(client, db):
    club = factories.club("De Bond")
    director = factories.role(club, "director")
    client.force_login(director)
    response = client.post(
        url("league-create", club=club.slug),
        {
            "name": "Regio Zuid",
            "season": "2026-2027",
            "start_date": "2026-09-01",
            "end_date": "2027-06-30",
            "ruleset_preset": "rotterdam",
            "hands_per_game": 16,
            "tables_per_match": 2,
            "games_per_table": 2,
            "win_by": "tables",
            "points_rule": "fixed",
            "points_win": 2,
            "points_draw": 1,
            "points_loss": 0,
            "points_shared": 10,
            "is_public": "on",
            "tie_break_1": "wins",
            "tie_break_2": "point_difference",
            "divisions": 2,
        },
    )
    league = League.objects.get(name="Regio Zuid")
    assert response.status_code == 302 and response["Location"] == league.get_absolute_url()
    assert league.tie_breaks == ["wins", "point_difference"]
    assert league.competition.club == club
    assert league.divisions.count() == 2
    # The same tie-break twice is a form error, not a league.
    response = client.post(
        url("league-create", club=club.slug),
        {"name": "Dubbel", "tie_break_1": "wins", "tie_break_2": "wins"},
    )
    assert response.status_code == 200
    assert not League.objects.filter(name="Dubbel").exists()
    scorer = factories.role(club, "scorer")
    client.force_login(scorer)
    assert client.get(url("league-create", club=club.slug)).status_code == 403


def test_organisers_add_a_team_and_generate_the_schedule(client, db):
    world = build_league(divisions=(2,))
    # Club A's director, a named organiser, enrols club A's second team.
    client.force_login(world.directors[world.clubs[0].pk])
    division = world.teams[0][0].division
    response = client.post(
        url("team-create", world.league),
        {"name": "Klaverclub C 1", "club": world.clubs[0].pk, "division": division.pk},
    )
    team = LeagueTeam.objects.get(name="Klaverclub C 1")
    assert response["Location"] == team.get_absolute_url()
    response = client.post(
        url("schedule-generate", world.league),
        {"start_date": "2026-09-15", "interval_days": 7, "skip": "2026-09-22\n2026-09-29"},
    )
    assert response.status_code == 302
    dates = sorted(set(LeagueMatch.objects.values_list("date", flat=True)))
    assert dates[:2] == [datetime.date(2026, 9, 15), datetime.date(2026, 10, 6)]
    assert LeagueMatch.objects.count() == 6


def test_a_captain_sets_the_line_up_and_confirms_from_the_match_page(client, world, rng):
    match = first_match(world)
    captain = world.captains[match.home_id]
    client.force_login(captain)
    page = client.get(url("match-detail", world.league, match=match.pk))
    assert url("match-lineup", world.league, match=match.pk, side="home") in page.text
    assert url("match-lineup", world.league, match=match.pk, side="away") not in page.text
    assert (
        client.get(url("match-lineup", world.league, match=match.pk, side="away")).status_code
        == 403
    )
    players = world.lineup(match.home)
    data = {f"pair_{p}_{s}": players[2 * p + s - 3].pk for p in (1, 2) for s in (1, 2)}
    response = client.post(url("match-lineup", world.league, match=match.pk, side="home"), data)
    assert response.status_code == 302
    assert Seat.objects.filter(member__in=players).count() == 4
    # The rest is played; then the confirm button confirms for the captain's team.
    play_match(world, match, rng, confirm=False)
    page = client.get(url("match-detail", world.league, match=match.pk))
    assert "Confirm for" in page.text
    client.post(url("match-confirm", world.league, match=match.pk), {"side": "home"})
    match.refresh_from_db()
    assert match.confirmed_home_by == captain and match.confirmed_away_at is None


def test_table_links_are_shown_to_captains_and_organisers_only(client, world):
    match = seat(world, first_match(world))
    token = match.tables.first().table.token
    address = url("match-detail", world.league, match=match.pk)
    assert token not in client.get(address).text
    client.force_login(
        world.captains[
            [t for t in world.all_teams if t.pk not in (match.home_id, match.away_id)][0].pk
        ]
    )
    assert token not in client.get(address).text
    client.force_login(world.captains[match.away_id])
    assert token in client.get(address).text
    client.force_login(world.organiser)
    assert token in client.get(address).text


def test_names_are_escaped(client, world):
    team = world.teams[0][0]
    team.name = "<script>alert('x')</script>"
    team.save()
    page = client.get(url("tables", world.league))
    assert "<script>alert" not in page.text
    assert "&lt;script&gt;" in page.text


def test_the_club_page_include_links_to_the_leagues(client, world):
    from django.template.loader import render_to_string

    club = world.clubs[0]
    html = render_to_string("leagues/club_links.html", {"club": club, "can_manage": True})
    assert url("league-list") in html
    assert url("club-history", club=club.slug) in html
    assert url("league-create", club=club.slug) in html


@pytest.mark.parametrize(
    "name, queries",
    [("tables", 7), ("schedule", 5), ("club-ranking", 7)],  # 1 of them: the page's version
)
def test_league_pages_query_counts_do_not_grow_with_the_league(
    client, db, rng, django_assert_num_queries, name, queries
):
    small = build_league(divisions=(2,), club_name="Kleine Bond")
    generate(small)
    play_match(small, first_match(small), rng)
    large = build_league(divisions=(3, 4), club_name="Grote Bond")
    generate(large)
    for match in LeagueMatch.objects.filter(league=large.league).order_by("date", "pk")[:4]:
        play_match(large, match, rng)
    for world in (small, large):
        with django_assert_num_queries(queries):
            assert client.get(url(name, world.league)).status_code == 200


def test_match_page_query_count_is_fixed(client, world, rng, django_assert_num_queries):
    match = play_match(world, first_match(world), rng)
    client.force_login(world.organiser)
    with django_assert_num_queries(15):  # 1 of them: the page's version
        assert client.get(url("match-detail", world.league, match=match.pk)).status_code == 200


def test_organisers_edit_the_settings_and_a_division(client, world):
    client.force_login(world.organiser)
    page = client.get(url("league-edit", world.league))
    form = page.context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(points_win=3, tie_break_1="wins", tie_break_2="", tie_break_3="")
    data["is_public"] = "on"
    response = client.post(url("league-edit", world.league), data)
    assert response.status_code == 302, response.context["form"].errors
    world.league.refresh_from_db()
    assert world.league.points_win == 3
    assert world.league.tie_breaks == ["wins"]
    division = world.league.divisions.get()
    response = client.post(
        url("division-edit", world.league, division=division.pk),
        {"name": "Hoofdklasse", "level": 1, "promote": 0, "relegate": 2},
    )
    assert response.status_code == 302
    division.refresh_from_db()
    assert (division.name, division.relegate) == ("Hoofdklasse", 2)


def test_in_dutch_the_league_edit_form_shows_its_dates_and_saves_them_unchanged(client, world):
    client.force_login(world.organiser)
    dutch = {"accept-language": "nl"}
    with translation.override("nl"):
        page = client.get(url("league-edit", world.league), headers=dutch)
        assert f'value="{SEASON_START.isoformat()}"' in page.text
        assert f'value="{SEASON_END.isoformat()}"' in page.text
        data = as_the_browser_sends(
            page.wsgi_request.path, page.text, url("league-edit", world.league)
        )
        response = client.post(url("league-edit", world.league), data, headers=dutch)
    assert response.status_code == 302, response.context["form"].errors
    world.league.competition.refresh_from_db()
    competition = world.league.competition
    assert (competition.start_date, competition.end_date) == (SEASON_START, SEASON_END)


def test_a_match_moves_from_its_page(client, world):
    match = first_match(world)
    client.force_login(world.organiser)
    new_date = match.date + datetime.timedelta(days=1)
    client.post(url("match-move", world.league, match=match.pk), {"date": new_date.isoformat()})
    match.refresh_from_db()
    assert match.date == new_date
    # A captain has no move button and no right.
    client.force_login(world.captains[match.home_id])
    assert (
        "Move the match" not in client.get(url("match-detail", world.league, match=match.pk)).text
    )
    response = client.post(
        url("match-move", world.league, match=match.pk), {"date": match.date.isoformat()}
    )
    assert response.status_code == 403
