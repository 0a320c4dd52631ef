"""A whole league season played through the services, its tables against tables
computed here, independently, from the raw hands; then promotion and relegation."""

import datetime
from collections import defaultdict
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from leagues import selectors as league_selectors
from leagues import services as league_services
from leagues.models import League, LeagueMatch, LeagueTeam, TeamPlayer
from scoring import services as scoring_services
from scoring.demo import play_game
from scoring.models import Game
from tests import factories
from tests.scoring.helpers import game_totals
from tournaments.models import Seat, Table

from .conftest import build_league, generate, play_match

pytestmark = pytest.mark.django_db


# --- The independent count -------------------------------------------------------------------


def independent_matches(league):
    """[(home team pk, away team pk, [(home, away) per game])] of the confirmed matches,
    found through the seats: whose players sit at N/S and whose at E/W."""
    ruleset = league.competition.ruleset()
    team_of = dict(TeamPlayer.objects.filter(league=league).values_list("member_id", "team_id"))
    played = defaultdict(list)  # (evening, team, team) -> [(team at N/S, wij, zij)]
    tables = Table.objects.filter(round__evening__competition=league.competition).order_by("pk")
    for table in tables:
        seats = {s.position: s.member_id for s in Seat.objects.filter(table=table)}
        wij_team, zij_team = team_of[seats["N"]], team_of[seats["E"]]
        assert team_of[seats["S"]] == wij_team and team_of[seats["W"]] == zij_team
        wij, zij = game_totals(Game.objects.get(table=table), ruleset)
        key = (table.round.evening_id, frozenset((wij_team, zij_team)))
        played[key].append((wij_team, wij, zij))
    results = []
    for match in LeagueMatch.objects.filter(league=league, status="confirmed"):
        games = [
            (wij, zij) if wij_team == match.home_id else (zij, wij)
            for wij_team, wij, zij in played[
                (match.evening_id, frozenset((match.home_id, match.away_id)))
            ]
        ]
        assert len(games) == league.tables_per_match * league.games_per_table
        results.append((match.home_id, match.away_id, games))
    return results


def match_points(games, league):
    home = sum(a for a, _ in games)
    away = sum(b for _, b in games)
    gp_home = sum(2 if a > b else 1 if a == b else 0 for a, b in games)
    gp_away = sum(2 if b > a else 1 if a == b else 0 for a, b in games)
    score = (gp_home, gp_away) if league.win_by == "tables" else (home, away)
    if league.points_rule == "proportional":
        own, other = max(score[0], 0), max(score[1], 0)
        share = (
            Fraction(league.points_shared, 2)
            if own + other == 0
            else Fraction(league.points_shared * own, own + other)
        )
        points = (share, league.points_shared - share)
    elif score[0] > score[1]:
        points = (league.points_win, league.points_loss)
    elif score[0] < score[1]:
        points = (league.points_loss, league.points_win)
    else:
        points = (league.points_draw, league.points_draw)
    winner = 0 if score[0] > score[1] else 1 if score[1] > score[0] else None
    return home, away, gp_home, gp_away, points, winner


def independent_table(league, division):
    teams = {t.pk: t.name for t in LeagueTeam.objects.filter(division=division)}
    stats = {
        pk: {"p": 0, "w": 0, "d": 0, "l": 0, "mp": Fraction(0), "for": 0, "against": 0, "gp": 0}
        for pk in teams
    }
    played = []
    for home, away, games in independent_matches(league):
        if home not in teams:
            continue
        h, a, gph, gpa, points, winner = match_points(games, league)
        played.append((home, away, points))
        for pk, own, other, gp, mp, index in (
            (home, h, a, gph, points[0], 0),
            (away, a, h, gpa, points[1], 1),
        ):
            row = stats[pk]
            row["p"] += 1
            row["for"] += own
            row["against"] += other
            row["gp"] += gp
            row["mp"] += mp
            if winner is None:
                row["d"] += 1
            elif winner == index:
                row["w"] += 1
            else:
                row["l"] += 1

    def value(criterion, pk, group):
        row = stats[pk]
        if criterion == "head_to_head":
            return sum(
                pts[0] if h == pk else pts[1]
                for h, a, pts in played
                if pk in (h, a) and h in group and a in group
            )
        return {
            "point_difference": row["for"] - row["against"],
            "points_for": row["for"],
            "game_points": row["gp"],
            "wins": row["w"],
        }[criterion]

    # Refine an ordered list of groups, one criterion at a time.
    groups = [sorted(teams)]
    for criterion in ["match_points", *league.tie_breaks]:
        refined = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if criterion == "match_points":
                keys = {pk: stats[pk]["mp"] for pk in group}
            else:
                keys = {pk: value(criterion, pk, set(group)) for pk in group}
            for key in sorted(set(keys.values()), reverse=True):
                refined.append([pk for pk in group if keys[pk] == key])
        groups = refined
    expected, place = [], 1
    for group in groups:
        for pk in sorted(group, key=lambda pk: teams[pk]):
            row = stats[pk]
            expected.append(
                (
                    teams[pk],
                    place,
                    row["p"],
                    row["w"],
                    row["d"],
                    row["l"],
                    row["mp"],
                    row["for"],
                    row["against"],
                    row["gp"],
                )
            )
        place += len(group)
    return expected


def site_table(table):
    return [
        (
            line.team.name,
            line.place,
            line.played,
            line.won,
            line.drawn,
            line.lost,
            line.row.match_points,
            line.points_for,
            line.points_against,
            line.game_points_for,
        )
        for line in table.lines
    ]


# --- The season ---------------------------------------------------------------------------------

SETTINGS = {
    "classic": {},
    "tables-proportional": {
        "win_by": "tables",
        "points_rule": "proportional",
        "points_shared": 10,
        "tie_breaks": ["wins", "head_to_head", "game_points"],
    },
}


def play_league_season(rng, **settings):
    """Division 1: three teams (byes), random games, some matches drawn on purpose.
    Division 2: four teams, every match drawn: they end equal on everything."""
    world = build_league(divisions=(3, 4), **settings)
    world.league.divisions.filter(level=1).update(relegate=1)
    world.league.divisions.filter(level=2).update(promote=1)
    generate(world, seed=5)
    matches = list(LeagueMatch.objects.filter(league=world.league).order_by("date", "pk"))
    same_sheet = play_game(world.league.competition.ruleset(), rng)
    for index, match in enumerate(matches):
        if match.division.level == 2:
            play_match(world, match, rng, mirror=True, rows=same_sheet)
        else:
            play_match(world, match, rng, mirror=index % 5 == 0)
    # A verzaken in one game: 162 + 100 for the other team, outside the game total.
    top_match = next(m for i, m in enumerate(matches) if m.division.level == 1 and i % 5)
    game = Game.objects.filter(table__league_slot__match=top_match).first()
    scoring_services.adjustment_record(
        evening=game.table.round.evening,
        kind="director",
        points=262,
        reason="verzaakt",
        by=world.organiser,
        game=game,
        team="B",
    )
    return world


@pytest.mark.parametrize("name", SETTINGS)
def test_league_tables_match_an_independent_count(rng, name):
    world = play_league_season(rng, **SETTINGS[name])
    league = League.objects.get(pk=world.league.pk)
    tables = league_selectors.division_tables(league=league)
    assert [t.division.level for t in tables] == [1, 2]
    for table in tables:
        expected = independent_table(league, table.division)
        assert site_table(table) == expected
        assert table.finished
        assert table.counted == table.matches
    top, bottom = tables
    # Draws happened, and division 2 ends with four teams sharing first place.
    assert any(line.drawn for line in top.lines)
    assert {line.place for line in bottom.lines} == {1}
    assert all(line.shared for line in bottom.lines)
    # Every team played every other team twice.
    assert {line.played for line in top.lines} == {4}
    assert {line.played for line in bottom.lines} == {6}


def test_only_matches_both_captains_confirmed_count(rng):
    world = build_league(divisions=(3,))
    generate(world)
    first, second = LeagueMatch.objects.filter(league=world.league).order_by("date", "pk")[:2]
    play_match(world, first, rng)
    play_match(world, second, rng, confirm=False)
    league_services.match_confirm(match=second, by=world.captains[second.home_id])
    table = league_selectors.division_tables(league=world.league)[0]
    assert table.counted == 1
    assert table.provisional == 1
    assert sum(line.played for line in table.lines) == 2
    lines = league_selectors.league_schedule(league=world.league)
    by_match = {line.match.pk: line for line in lines}
    assert by_match[first.pk].counted
    assert by_match[second.pk].outcome is not None and not by_match[second.pk].counted


def test_a_correction_after_confirmation_changes_the_table(rng):
    world = build_league(divisions=(2,))
    generate(world)
    match = LeagueMatch.objects.filter(league=world.league).first()
    play_match(world, match, rng)
    before = league_selectors.division_tables(league=world.league)[0]
    points_before = {line.team.pk: line.points_for for line in before.lines}
    game = Game.objects.filter(table__league_slot__match=match).first()
    slot = game.table.league_slot
    scoring_services.adjustment_record(
        evening=game.table.round.evening,
        kind="director",
        points=100,
        reason="telfout",
        by=world.organiser,
        game=game,
        team=slot.home_side,
    )
    after = league_selectors.division_tables(league=world.league)[0]
    points_after = {line.team.pk: line.points_for for line in after.lines}
    assert points_after[match.home_id] == points_before[match.home_id] + 100
    assert points_after[match.away_id] == points_before[match.away_id]


def test_promotion_and_relegation_seed_the_next_season(rng):
    world = play_league_season(rng)
    league = world.league
    top_division, bottom_division = league.divisions.order_by("level")
    # Division 2 is a four-way tie for the promotion place: the organisers decide.
    with pytest.raises(ValidationError) as info:
        league_services.league_next_season(
            league=league,
            by=world.organiser,
            season="2027-2028",
            start_date=datetime.date(2027, 9, 1),
            end_date=datetime.date(2028, 6, 30),
        )
    assert info.value.code == "line_tie"
    top = independent_table(league, top_division)
    names = {team.name: team for team in world.all_teams}
    lots = {names[row[0]].pk: index for index, row in enumerate(top, 1)}
    winner_of_lots = world.teams[1][2]
    lots.update({team.pk: 2 for team in world.teams[1]})
    lots[winner_of_lots.pk] = 1
    for offset, team in enumerate(t for t in world.teams[1] if t != winner_of_lots):
        lots[team.pk] = 2 + offset
    # Every team goes along when the next season is started by someone who may enrol
    # every club: here the site operator (see test_enrolment for a club's director).
    operator = factories.user("operator", is_superuser=True)
    new = league_services.league_next_season(
        league=league,
        by=operator,
        season="2027-2028",
        start_date=datetime.date(2027, 9, 1),
        end_date=datetime.date(2028, 6, 30),
        lots=lots,
    )
    relegated = names[top[-1][0]]
    levels = {
        team.previous_id: team.division.level
        for team in LeagueTeam.objects.filter(league=new).select_related("division")
    }
    expected = {team.pk: 1 for team in world.teams[0]}
    expected.update({team.pk: 2 for team in world.teams[1]})
    expected[relegated.pk] = 2
    expected[winner_of_lots.pk] = 1
    assert levels == expected
    assert new.previous == league
    assert new.competition.ruleset_preset == league.competition.ruleset_preset
    assert new.competition.hands_per_game == league.competition.hands_per_game
    assert [(d.level, d.promote, d.relegate) for d in new.divisions.order_by("level")] == [
        (1, 0, 1),
        (2, 1, 0),
    ]
    # Players and captains go along; nothing is scheduled yet.
    copy = LeagueTeam.objects.get(league=new, previous=relegated)
    assert set(copy.players.values_list("member_id", flat=True)) == {
        m.pk for m in world.players[relegated.pk]
    }
    assert list(copy.captains.all()) == [world.captains[relegated.pk]]
    assert not new.matches.exists()


def test_the_next_season_waits_for_every_match(world, rng):
    match = LeagueMatch.objects.filter(league=world.league).first()
    play_match(world, match, rng)
    with pytest.raises(ValidationError) as info:
        league_services.league_next_season(
            league=world.league,
            by=world.organiser,
            season="2027-2028",
            start_date=datetime.date(2027, 9, 1),
            end_date=datetime.date(2028, 6, 30),
        )
    assert "not confirmed" in str(info.value)


def test_club_ranking_and_history_follow_the_tables(rng):
    world = play_league_season(rng)
    tables = league_selectors.division_tables(league=world.league)
    overall = {}
    offset = 0
    for table in tables:
        for line in table.lines:
            overall[line.team.pk] = offset + line.place
        offset += len(table.lines)
    ranking = league_selectors.club_ranking(league=world.league)
    for line in ranking:
        assert [position for position, _team in line.teams] == sorted(
            overall[team.pk] for team in world.all_teams if team.club_id == line.club.pk
        )
    keys = [tuple(p for p, _t in line.teams) for line in ranking]
    longest = max(len(k) for k in keys)
    padded = [k + (999,) * (longest - len(k)) for k in keys]
    assert padded == sorted(padded)
    club = world.clubs[0]
    history = league_selectors.club_history(club=club, leagues=League.objects.all())
    assert [(h.team.name, h.line.place) for h in history] == [
        (team.name, next(line.place for t in tables for line in t.lines if line.team == team))
        for team in sorted(
            (t for t in world.all_teams if t.club_id == club.pk), key=lambda t: t.division.level
        )
    ]
    assert all(h.finished for h in history)


def test_match_points_are_summed_over_all_tables_and_games(rng):
    world = build_league(divisions=(2,), tables=3, games=2)
    generate(world)
    match = LeagueMatch.objects.filter(league=world.league).first()
    play_match(world, match, rng)
    results = independent_matches(world.league)
    assert len(results) == 1
    home, away, games = results[0]
    assert len(games) == 6
    sheet = league_selectors.match_sheet(match=LeagueMatch.objects.get(pk=match.pk))
    assert (sheet.outcome.home_points, sheet.outcome.away_points) == (
        sum(a for a, _ in games),
        sum(b for _, b in games),
    )
    # Each pair sits once as wij and once as zij over the two games.
    sides = defaultdict(list)
    for table in sheet.tables:
        sides[("home", table.home_pair)].append(table.home_side)
        sides[("away", table.away_pair)].append(table.away_side)
    assert all(sorted(v) == ["A", "B"] for v in sides.values())
