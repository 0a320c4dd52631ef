"""The league models moved from tournaments to their own app without touching a row:
the tables keep their names, the migrations move only Django's idea of the models."""

import pytest

from tests import migrating
from tests.migrating import migrate

pytestmark = pytest.mark.django_db(transaction=True)
newest_migrations_afterwards = migrating.newest_migrations_afterwards

#: Django's own apps at their newest, so the historical users and content types match the tables.
DJANGO = [
    ("contenttypes", "0002_remove_content_type_name"),
    ("auth", "0012_alter_user_first_name_max_length"),
]
BEFORE = [("tournaments", "0009_seat_substitute_member_and_wegstrepen"), *DJANGO]
AFTER = [("leagues", "0002_content_types_from_tournaments"), *DJANGO]


def league_rows(apps, app_label):
    League = apps.get_model(app_label, "League")
    LeagueTeam = apps.get_model(app_label, "LeagueTeam")
    return {
        "leagues": sorted(
            (league.name, league.season, league.competition.name, league.tie_breaks)
            for league in League.objects.all()
        ),
        "organisers": sorted(
            (league.name, user.username)
            for league in League.objects.all()
            for user in league.organisers.all()
        ),
        "teams": sorted(
            (team.name, team.club.slug, team.division.name, team.league.name)
            for team in LeagueTeam.objects.all()
        ),
        "captains": sorted(
            (team.name, user.username)
            for team in LeagueTeam.objects.all()
            for user in team.captains.all()
        ),
    }


def test_league_rows_from_before_the_move_read_back_unchanged_from_the_leagues_app():
    apps = migrate(BEFORE)
    Club = apps.get_model("clubs", "Club")
    Competition = apps.get_model("tournaments", "Competition")
    User = apps.get_model("auth", "User")
    League = apps.get_model("tournaments", "League")
    Division = apps.get_model("tournaments", "Division")
    LeagueTeam = apps.get_model("tournaments", "LeagueTeam")
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")

    home, away = (
        Club.objects.create(name="Home", slug="home"),
        Club.objects.create(name="Away", slug="away"),
    )
    secretary = User.objects.create(username="secretary")
    captain = User.objects.create(username="captain")
    competition = Competition.objects.create(
        club=home,
        name="Streekcompetitie",
        start_date="2026-09-01",
        end_date="2027-05-31",
        format="league",
    )
    league = League.objects.create(
        competition=competition, name="Streek", season="2026-2027", tie_breaks=["total"]
    )
    league.organisers.add(secretary)
    division = Division.objects.create(league=league, name="Hoofdklasse", level=1)
    for club, name in ((home, "Home 1"), (away, "Away 1")):
        team = LeagueTeam.objects.create(league=league, division=division, club=club, name=name)
        team.captains.add(captain)
    league_type = ContentType.objects.get_or_create(app_label="tournaments", model="league")[0]
    permission = Permission.objects.get_or_create(
        content_type=league_type, codename="change_league", defaults={"name": "Can change"}
    )[0]
    secretary.user_permissions.add(permission)
    before = league_rows(apps, "tournaments")
    assert before["teams"] == [
        ("Away 1", "away", "Hoofdklasse", "Streek"),
        ("Home 1", "home", "Hoofdklasse", "Streek"),
    ]

    try:
        apps = migrate(AFTER)
        assert league_rows(apps, "leagues") == before
        User = apps.get_model("auth", "User")
        moved = User.objects.get(username="secretary").user_permissions.get()
        assert (moved.content_type.app_label, moved.content_type.model) == ("leagues", "league")

        apps = migrate(BEFORE)  # and back
        assert league_rows(apps, "tournaments") == before
        ContentType = apps.get_model("contenttypes", "ContentType")
        assert ContentType.objects.filter(app_label="tournaments", model="league").exists()
    finally:
        # The league models where the database now has them: back in tournaments, or
        # still in leagues if going back failed.
        for model in ("LeagueTeam", "Division", "League"):
            try:
                models = apps.get_model("tournaments", model)
            except LookupError:
                models = apps.get_model("leagues", model)
            models.objects.all().delete()
        apps.get_model("tournaments", "Competition").objects.all().delete()
        apps.get_model("clubs", "Club").objects.all().delete()
        apps.get_model("auth", "User").objects.all().delete()


def test_the_moved_models_keep_their_tables():
    from django.apps import apps

    tables = {model._meta.db_table for model in apps.get_app_config("leagues").get_models()}
    assert tables == {
        "tournaments_league",
        "tournaments_division",
        "tournaments_leagueteam",
        "tournaments_teamplayer",
        "tournaments_leaguematch",
        "tournaments_matchtable",
        "tournaments_leaguelog",
    }
