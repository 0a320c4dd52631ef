"""League services on the real database: who may do what, and the schedule's rules."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from leagues import services
from leagues.models import LeagueMatch, MatchTable, TeamPlayer
from scoring import services as scoring_services
from scoring.models import Game
from tests import factories
from tournaments.models import Competition, Evening, Round, Seat

from .conftest import build_league, generate, play_match, seat

pytestmark = pytest.mark.django_db


def first_match(world):
    return LeagueMatch.objects.filter(league=world.league).order_by("date", "pk").first()


# --- Setting up --------------------------------------------------------------------------------


def test_a_league_owns_a_league_competition_of_the_organising_club(world):
    competition = world.league.competition
    assert competition.format == Competition.Format.LEAGUE
    assert competition.club.name == "Bond"
    assert competition.hands_per_game == 4
    assert [d.name for d in world.league.divisions.all()] == ["Division 1"]


def test_schedule_gives_every_division_a_double_round_robin(db):
    world = build_league(divisions=(5, 4))
    matches = generate(world)
    assert len(matches) == 5 * 4 + 4 * 3
    for division_teams in world.teams:
        pairs = {
            (m.home_id, m.away_id)
            for m in LeagueMatch.objects.filter(division=division_teams[0].division)
        }
        assert pairs == {(a.pk, b.pk) for a in division_teams for b in division_teams if a != b}
    # Matchday n of every division is on the same date, a week apart.
    dates = dict(LeagueMatch.objects.values_list("matchday", "date").distinct())
    assert dates[1] == datetime.date(2026, 9, 15)
    assert all(dates[n + 1] - dates[n] == datetime.timedelta(days=7) for n in range(1, 10))
    assert max(dates) == 10  # five teams: ten matchdays with a bye each
    # No team plays twice on one date; every pair of teams meets on two dates.
    playing = [
        (date, team)
        for date, home, away in LeagueMatch.objects.values_list("date", "home_id", "away_id")
        for team in (home, away)
    ]
    assert len(playing) == len(set(playing))


def test_schedule_outside_the_season_is_refused_and_changes_nothing(world):
    before = set(LeagueMatch.objects.values_list("pk", flat=True))
    with pytest.raises(ValidationError) as info:
        services.schedule_generate(
            league=world.league, by=world.organiser, start_date=datetime.date(2027, 6, 1)
        )
    assert "outside the season" in str(info.value)
    assert set(LeagueMatch.objects.values_list("pk", flat=True)) == before


def test_schedule_cannot_be_redone_once_a_match_is_seated(world):
    seat(world, first_match(world))
    with pytest.raises(ValidationError):
        generate(world)


def test_a_player_plays_for_one_team_per_league(world):
    home, away = world.teams[0][:2]
    member = world.players[home.pk][0]
    with pytest.raises(ValidationError) as info:
        services.team_player_add(team=away, member=member, by=world.directors[away.club_id])
    assert "not of the team's club" in str(info.value)
    # The database holds it even past the service.
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamPlayer.objects.create(team=away, league=world.league, member=member)


def test_a_player_of_two_teams_of_one_club_in_one_league_is_refused(db):
    world = build_league(divisions=(2, 2))
    first, second = world.teams[0][0], world.teams[1][0]
    assert first.club == second.club
    member = world.players[first.pk][0]
    with pytest.raises(ValidationError) as info:
        services.team_player_add(team=second, member=member, by=world.directors[second.club_id])
    assert "already plays for a team in this league" in str(info.value)


# --- Line-ups and seating ---------------------------------------------------------------------


def test_line_ups_seat_the_match_as_rounds_of_the_matchday_evening(world):
    match = seat(world, first_match(world))
    assert match.status == LeagueMatch.Status.SEATED
    assert match.evening.date == match.date
    assert match.evening.competition == world.league.competition
    slots = list(MatchTable.objects.filter(match=match).order_by("table_number"))
    assert [(s.table_number, s.home_side) for s in slots] == [(1, "A"), (2, "B")]
    home_players = world.lineup(match.home)
    away_players = world.lineup(match.away)
    seats = {
        (s.table.number, s.position): s.member
        for s in Seat.objects.filter(round__evening=match.evening)
    }
    # Table 1: home pair 1 at N/S (wij); table 2: home pair 2 at E/W (zij).
    assert [seats[(1, p)] for p in "NESW"] == [
        home_players[0],
        away_players[0],
        home_players[1],
        away_players[1],
    ]
    assert [seats[(2, p)] for p in "NESW"] == [
        away_players[2],
        home_players[2],
        away_players[3],
        home_players[3],
    ]
    games = Game.objects.filter(table__league_slot__match=match)
    assert games.count() == 2
    assert all(g.ruleset["hands_per_game"] == 4 for g in games)


def test_two_matches_on_one_date_share_the_matchday_evening(world):
    day_one = LeagueMatch.objects.filter(league=world.league, matchday=1)
    first, second = [seat(world, m) for m in day_one]
    assert first.evening == second.evening
    assert Round.objects.filter(evening=first.evening).count() == 2
    assert Evening.objects.filter(competition=world.league.competition).count() == 1


def test_a_line_up_needs_two_players_per_table_of_the_team(world):
    match = first_match(world)
    captain = world.captains[match.home_id]
    players = world.players[match.home_id]
    with pytest.raises(ValidationError) as info:
        services.match_lineup_set(match=match, side="home", players=players[:3], by=captain)
    assert "Choose 4 players" in str(info.value)
    with pytest.raises(ValidationError):
        services.match_lineup_set(match=match, side="home", players=[players[0]] * 4, by=captain)
    stranger = world.players[match.away_id][0]
    with pytest.raises(ValidationError) as info:
        services.match_lineup_set(
            match=match, side="home", players=[*players[:3], stranger], by=captain
        )
    assert stranger.name in str(info.value)
    assert not Seat.objects.exists()


def test_a_captain_sets_only_their_own_teams_line_up(world):
    match = first_match(world)
    home_captain = world.captains[match.home_id]
    with pytest.raises(PermissionDenied):
        services.match_lineup_set(
            match=match, side="away", players=world.lineup(match.away), by=home_captain
        )


def test_a_line_up_can_change_until_the_first_hand(world, rng):
    match = seat(world, first_match(world))
    players = world.players[match.home_id]
    captain = world.captains[match.home_id]
    changed = [players[4], *players[1:4]]
    services.match_lineup_set(match=match, side="home", players=changed, by=captain)
    seated = set(
        Seat.objects.filter(table__league_slot__match=match).values_list("member_id", flat=True)
    )
    assert players[4].pk in seated and players[0].pk not in seated
    assert Seat.objects.filter(table__league_slot__match=match).count() == 8
    game = Game.objects.filter(table__league_slot__match=match).first()
    from scoring.demo import play_game

    row = play_game(world.league.competition.ruleset(), rng)[0]
    scoring_services.hand_record(game=game, data=row)
    with pytest.raises(ValidationError) as info:
        services.match_lineup_set(match=match, side="home", players=players[:4], by=captain)
    assert "started" in str(info.value)


# --- Confirmation and permissions -------------------------------------------------------------


def test_the_match_is_confirmed_when_both_captains_confirm(world, rng):
    match = play_match(world, first_match(world), rng, confirm=False)
    home_captain = world.captains[match.home_id]
    away_captain = world.captains[match.away_id]
    match = services.match_confirm(match=match, by=home_captain)
    assert match.status == LeagueMatch.Status.SEATED
    assert match.confirmed_home_by == home_captain
    with pytest.raises(ValidationError):
        services.match_confirm(match=match, by=home_captain)
    match = services.match_confirm(match=match, by=away_captain)
    assert match.status == LeagueMatch.Status.CONFIRMED
    assert match.log.count() >= 4  # two line-ups, two confirmations


def test_a_captain_confirms_only_their_teams_matches(world, rng):
    match = play_match(world, first_match(world), rng, confirm=False)
    outsiders = [t for t in world.all_teams if t.pk not in (match.home_id, match.away_id)]
    other_captain = world.captains[outsiders[0].pk]
    with pytest.raises(PermissionDenied):
        services.match_confirm(match=match, by=other_captain)
    with pytest.raises(PermissionDenied):
        services.match_confirm(match=match, by=other_captain, side="home")
    home_captain = world.captains[match.home_id]
    with pytest.raises(PermissionDenied):
        services.match_confirm(match=match, by=home_captain, side="away")
    # A club director of the home team's club is not its captain either.
    director = factories.role(match.home.club, "director")
    with pytest.raises(PermissionDenied):
        services.match_confirm(match=match, by=director, side="home")
    match.refresh_from_db()
    assert match.confirmed_home_at is None and match.confirmed_away_at is None


def test_organisers_may_confirm_for_a_team_but_must_say_which(world, rng):
    match = play_match(world, first_match(world), rng, confirm=False)
    with pytest.raises(ValidationError):
        services.match_confirm(match=match, by=world.organiser)
    match = services.match_confirm(match=match, by=world.organiser, side="away")
    assert match.confirmed_away_by == world.organiser


def test_a_match_is_confirmed_only_after_all_its_games(world, rng):
    match = seat(world, first_match(world))
    with pytest.raises(ValidationError) as info:
        services.match_confirm(match=match, by=world.captains[match.home_id])
    assert "2 games of this match are not confirmed" in str(info.value)


def test_organisers_reopen_a_confirmed_match_with_a_reason(world, rng):
    match = play_match(world, first_match(world), rng)
    with pytest.raises(ValidationError):
        services.match_reopen(match=match, by=world.organiser, reason=" ")
    with pytest.raises(PermissionDenied):
        services.match_reopen(match=match, by=world.captains[match.home_id], reason="protest")
    match = services.match_reopen(match=match, by=world.organiser, reason="protest")
    assert match.status == LeagueMatch.Status.SEATED
    assert match.confirmed_home_at is None


def test_another_leagues_organiser_cannot_change_this_one(world):
    other = build_league(divisions=(2,), club_name="Andere Bond")
    named = factories.user("federation-secretary")
    other.league.organisers.add(named)
    match = first_match(world)
    division = world.league.divisions.get()
    for intruder in (other.organiser, named):
        attempts = [
            lambda u=intruder: services.league_update(league=world.league, by=u, name="Overname"),
            lambda u=intruder: services.division_create(
                league=world.league, by=u, name="Extra", level=2
            ),
            lambda u=intruder: services.team_create(
                league=world.league, division=division, club=other.clubs[0], name="X", by=u
            ),
            lambda u=intruder: services.schedule_generate(
                league=world.league, by=u, start_date=datetime.date(2026, 9, 15)
            ),
            lambda u=intruder: services.match_move(
                match=match, date=datetime.date(2026, 9, 16), by=u
            ),
            lambda u=intruder: services.match_lineup_set(
                match=match, side="home", players=world.lineup(match.home), by=u
            ),
            lambda u=intruder: services.match_confirm(match=match, by=u, side="home"),
        ]
        for attempt in attempts:
            with pytest.raises(PermissionDenied):
                attempt()
    world.league.refresh_from_db()
    assert world.league.name == "Regiocompetitie"
    # A named organiser of this league may, as the organising club's directors may.
    mine = factories.user("secretary")
    world.league.organisers.add(mine)
    services.match_move(match=match, date=match.date + datetime.timedelta(days=1), by=mine)


def test_captains_and_club_directors_keep_the_player_list(world):
    team = world.teams[0][0]
    newcomer = factories.member(team.club, "Nieuwe Speler")
    services.team_player_add(team=team, member=newcomer, by=world.captains[team.pk])
    other_captain = world.captains[world.teams[0][1].pk]
    with pytest.raises(PermissionDenied):
        services.team_player_add(team=team, member=factories.member(team.club), by=other_captain)
    with pytest.raises(PermissionDenied):
        services.team_captain_add(team=team, user=factories.user(), by=world.captains[team.pk])
    director = factories.role(team.club, "director")
    vice = factories.role(team.club, "member", factories.user("vice"))
    services.team_captain_add(team=team, user=vice, by=director)
    assert team.captains.count() == 2
    # The league's organisers are not the team's club: its lists are not theirs.
    for organiser in (world.organiser, world.directors[world.teams[0][1].club_id]):
        with pytest.raises(PermissionDenied):
            services.team_player_add(team=team, member=factories.member(team.club), by=organiser)
        with pytest.raises(PermissionDenied):
            services.team_captain_add(team=team, user=vice, by=organiser)


def test_rules_and_format_are_fixed_once_a_match_is_seated(world):
    services.league_update(league=world.league, by=world.organiser, tables_per_match=3)
    services.league_update(league=world.league, by=world.organiser, tables_per_match=2)
    seat(world, first_match(world))
    with pytest.raises(ValidationError):
        services.league_update(league=world.league, by=world.organiser, tables_per_match=3)
    with pytest.raises(ValidationError):
        services.league_update(league=world.league, by=world.organiser, hands_per_game=16)
    # How matches score may still change.
    league = services.league_update(league=world.league, by=world.organiser, points_win=3)
    assert league.points_win == 3


def test_unknown_tie_breaks_are_refused(world):
    with pytest.raises(ValidationError):
        services.league_update(league=world.league, by=world.organiser, tie_breaks=["luck"])


# --- Moving a match ---------------------------------------------------------------------------


def test_a_seated_match_moves_with_its_tables(world):
    day_one = list(LeagueMatch.objects.filter(league=world.league, matchday=1))
    moving = seat(world, day_one[0])
    staying = seat(world, day_one[1])
    old_evening = moving.evening
    new_date = moving.date + datetime.timedelta(days=2)
    moved = services.match_move(match=moving, date=new_date, by=world.organiser)
    assert moved.date == new_date and moved.evening.date == new_date
    assert set(
        Round.objects.filter(tables__league_slot__match=moved).values_list("evening", flat=True)
    ) == {moved.evening_id}
    staying.refresh_from_db()
    assert staying.evening == old_evening
    # Moving the other one too leaves the old evening empty: it goes.
    services.match_move(match=staying, date=new_date, by=world.organiser)
    assert not Evening.objects.filter(pk=old_evening.pk).exists()


def test_a_match_cannot_move_into_a_week_a_team_plays_already(world):
    match = first_match(world)
    next_week = (
        LeagueMatch.objects.filter(league=world.league, matchday=2, home=match.home).first()
        or LeagueMatch.objects.filter(league=world.league, matchday=2, away=match.home).first()
    )
    with pytest.raises(ValidationError) as info:
        services.match_move(
            match=match, date=next_week.date + datetime.timedelta(days=1), by=world.organiser
        )
    assert "already plays in that week" in str(info.value)


def test_a_started_match_stays_on_its_date(world, rng):
    match = play_match(world, first_match(world), rng, confirm=False)
    with pytest.raises(ValidationError):
        services.match_move(
            match=match, date=match.date + datetime.timedelta(days=1), by=world.organiser
        )


def test_a_match_cannot_move_outside_the_season(world):
    with pytest.raises(ValidationError):
        services.match_move(
            match=first_match(world), date=datetime.date(2027, 8, 1), by=world.organiser
        )


@pytest.mark.parametrize(
    "tie_breaks, message",
    [
        (["wins", "wins"], "Each tie-break once."),
        (["wins", "marsen"], "Unknown tie-break."),
        ({"wins": 1}, "Unknown tie-break."),
    ],
)
def test_the_admin_refuses_a_bad_league_tie_break_order_and_saves_nothing(
    client, world, tie_breaks, message
):
    import json

    from django.urls import reverse

    from tests.tournaments.test_competition_rules import admin_change_errors

    league = world.league
    change = reverse("admin:leagues_league_change", args=[league.pk])
    errors = admin_change_errors(client, change, tie_breaks=json.dumps(tie_breaks))
    assert errors["tie_breaks"] == [message]
    league.refresh_from_db()
    assert league.tie_breaks == ["head_to_head", "point_difference", "points_for"]
    assert admin_change_errors(client, change, tie_breaks='["wins", "points_for"]') is None
    league.refresh_from_db()
    assert league.tie_breaks == ["wins", "points_for"]


def test_the_league_service_refuses_a_bad_tie_break_order_through_the_model(world):
    with pytest.raises(ValidationError) as info:
        services.league_update(league=world.league, by=world.organiser, tie_breaks=["wins", "wins"])
    assert info.value.message_dict == {"tie_breaks": ["Each tie-break once."]}
    world.league.refresh_from_db()
    assert world.league.tie_breaks == ["head_to_head", "point_difference", "points_for"]


def test_a_captain_or_organiser_for_another_club_is_not_one_clubs_alone(db):
    """Club A may not reset the password of an account that acts for club C in a
    league (a captain of C's team, an organiser of C's league): the account is also
    C's person, and its new owner would act for C."""
    from clubs import services as club_services
    from clubs.permissions import account_confined_to

    league_services = services

    a, c = factories.club(name="Club A"), factories.club(name="Club C")
    admin_a, admin_c = factories.role(a, "admin"), factories.role(c, "admin")
    league = league_services.league_create(
        club=c,
        by=admin_c,
        name="Bond C",
        season="2026-2027",
        start_date=datetime.date(2026, 9, 1),
        end_date=datetime.date(2027, 6, 30),
        hands_per_game=4,
        tables_per_match=2,
        games_per_table=1,
    )
    organiser = factories.role(a, "member", factories.user("organisator"))
    assert account_confined_to(organiser, a)
    league.organisers.add(organiser)
    assert not account_confined_to(organiser, a)
    with pytest.raises(PermissionDenied):
        club_services.password_link_create(club=a, user=organiser, by=admin_a)

    captain = factories.role(a, "member", factories.user("aanvoerder"))
    team = league_services.team_create(
        league=league, division=league.divisions.get(), club=c, name="C1", by=admin_c
    )
    assert account_confined_to(captain, a)
    team.captains.add(captain)
    assert not account_confined_to(captain, a)


def test_no_results_are_imported_into_a_league_competition(world):
    """Its evenings follow the league's matches, which the other clubs share."""
    from common.tabular import ImportRejected
    from scoring.exports import importers
    from tournaments.models import Evening

    competition = world.league.competition
    evenings = Evening.objects.filter(competition=competition).count()
    with pytest.raises(ImportRejected) as info:
        importers.results_import_apply(
            club=competition.club, competition=competition, data=b"datum\r\n", filename="x.csv"
        )
    assert "belongs to a league" in info.value.problems[0].message
    assert Evening.objects.filter(competition=competition).count() == evenings
