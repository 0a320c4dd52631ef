"""Deleting an evening or a competition without the admin (issue 25): what goes is
counted first, confirmed results go only when the wedstrijdleider types the date or
the name exactly, everything in one transaction, logged in the club's log."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from clubs.models import ClubLog, Member
from scoring import services as scoring_services
from scoring.models import Adjustment, AuditEntry, Game, Hand
from tests import factories
from tests.scoring.test_table_entry import names_of
from tournaments import services
from tournaments.models import (
    Attendance,
    Competition,
    Evening,
    EveningLog,
    Pair,
    Period,
    Round,
    Seat,
    Table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def director(club):
    return factories.role(club, "director")


@pytest.fixture
def played(club, director, drawn_evening):
    """9 players (two tables, one sitting out with an adjustment), table 1's game
    confirmed after 16 hands, table 2's with 3 hands entered."""
    play = drawn_evening(club, director, players=9)
    first, second = play.tables
    game = factories.hands(first.game, 16, keeper="A")
    scoring_services.game_confirm(game=game, name=names_of(first).b[0])
    factories.hands(second.game, 3, keeper="A")
    return play


def rows(evening):
    """The rows that hang on ``evening``, per model."""
    return {
        "rounds": Round.objects.filter(evening=evening).count(),
        "tables": Table.objects.filter(round__evening=evening).count(),
        "seats": Seat.objects.filter(round__evening=evening).count(),
        "games": Game.objects.filter(table__round__evening=evening).count(),
        "hands": Hand.objects.filter(game__table__round__evening=evening).count(),
        "audit": AuditEntry.objects.filter(game__table__round__evening=evening).count(),
        "adjustments": Adjustment.objects.filter(evening=evening).count(),
        "attendance": Attendance.objects.filter(evening=evening).count(),
        "log": EveningLog.objects.filter(evening=evening).count(),
    }


def test_the_count_says_what_goes(played):
    from tournaments import selectors

    deleting = selectors.deletion(evenings=Evening.objects.filter(pk=played.evening.pk))
    assert (deleting.rounds, deleting.tables, deleting.games, deleting.confirmed) == (1, 2, 2, 1)
    assert (deleting.hands, deleting.adjustments, deleting.attendances) == (19, 1, 9)


def test_an_evening_without_confirmed_results_goes_without_typing(club, director, drawn_evening):
    play = drawn_evening(club, director, players=8)
    factories.hands(play.tables[0].game, 2, keeper="A")
    evening = play.evening
    deleting = services.evening_delete(evening=evening, by=director)
    assert (deleting.games, deleting.hands, deleting.confirmed) == (2, 2, 0)
    assert not Evening.objects.filter(pk=evening.pk).exists()
    assert set(rows(evening).values()) == {0}
    assert club.members.count() == 8  # the players stay
    entry = ClubLog.objects.get(club=club, action="evening_delete")
    assert entry.user == director and entry.detail["hands"] == 2
    assert "2 rounds" not in entry.summary and "1 round, 2 tables, 2 games" in entry.summary


@pytest.mark.parametrize("typed", ["", "6 oktober", "2026-10-6", "x"])
def test_confirmed_results_are_refused_unless_the_date_is_typed_exactly(played, director, typed):
    before = rows(played.evening)
    with pytest.raises(ValidationError) as info:
        services.evening_delete(evening=played.evening, by=director, typed=typed)
    date = played.evening.date.isoformat()
    assert info.value.message_dict["typed"] == [
        f"1 confirmed game would be lost. Type {date} exactly to delete it all the same."
    ]
    assert rows(played.evening) == before
    assert not ClubLog.objects.filter(action="evening_delete").exists()


def test_the_exact_date_deletes_the_evening_with_its_results(club, played, director):
    evening = played.evening
    other = factories.evening(evening.competition, present=factories.members(club, 4))
    services.evening_delete(evening=evening, by=director, typed=f" {evening.date.isoformat()} ")
    assert set(rows(evening).values()) == {0}
    assert Evening.objects.filter(pk=other.pk).exists()  # only this evening
    assert Competition.objects.filter(pk=evening.competition_id).exists()


def test_another_clubs_director_or_a_scorer_may_not_delete(club, other_club, played):
    before = rows(played.evening)
    date = played.evening.date.isoformat()
    for user in (factories.role(other_club, "director"), factories.role(club, "scorer")):
        with pytest.raises(PermissionDenied):
            services.evening_delete(evening=played.evening, by=user, typed=date)
        with pytest.raises(PermissionDenied):
            services.competition_delete(
                competition=played.season, by=user, typed=played.season.name
            )
    assert rows(played.evening) == before


def test_the_clubs_admin_may(club, played):
    admin = factories.role(club, "admin")
    services.evening_delete(evening=played.evening, by=admin, typed=played.evening.date.isoformat())
    assert not Evening.objects.filter(pk=played.evening.pk).exists()


def test_a_competition_goes_with_its_evenings_pairs_and_periods_when_its_name_is_typed(
    club, played, director
):
    season = played.season
    season.name = "Winter 2026"
    season.save()
    Period.objects.create(
        competition=season,
        name="Najaar",
        start_date=season.start_date,
        end_date=season.start_date + datetime.timedelta(days=60),
    )
    first, second = club.members.all()[:2]
    Pair.objects.create(competition=season, number=1, first=first, second=second)
    factories.evening(season, present=[first])
    with pytest.raises(ValidationError) as info:
        services.competition_delete(competition=season, by=director, typed="winter 2026")
    assert "Type Winter 2026 exactly" in info.value.message_dict["typed"][0]
    assert Evening.objects.filter(competition=season).count() == 2
    deleting = services.competition_delete(competition=season, by=director, typed="Winter 2026")
    assert deleting.evenings == 2 and deleting.confirmed == 1
    assert not Competition.objects.filter(pk=season.pk).exists()
    assert not Evening.objects.filter(competition_id=season.pk).exists()
    assert not Pair.objects.exists() and not Period.objects.exists()
    assert set(rows(played.evening).values()) == {0}
    assert Member.objects.filter(club=club).count() == 9
    entry = ClubLog.objects.get(action="competition_delete")
    assert entry.summary.startswith("Competition Winter 2026 deleted: 2 evenings")


def test_the_confirmation_page_says_what_goes_and_an_empty_post_deletes_nothing(
    client, club, played, director
):
    client.force_login(director)
    url = reverse("tournaments:evening-delete", kwargs={"club": club.slug, "pk": played.evening.pk})
    page = client.get(url).content.decode()
    for words in ("1 round", "2 tables", "2 games (1 confirmed)", "19 hands", "1 adjustment"):
        assert words in page
    assert 'name="typed"' in page
    assert client.post(url).status_code == 200  # no confirmation button: nothing happens
    assert Evening.objects.filter(pk=played.evening.pk).exists()
    response = client.post(url, {"confirm": "1", "typed": "nee"})
    text = response.content.decode()
    assert 'id="id_typed_error"' in text and 'aria-invalid="true"' in text
    assert Evening.objects.filter(pk=played.evening.pk).exists()
    response = client.post(url, {"confirm": "1", "typed": played.evening.date.isoformat()})
    assert response.status_code == 302
    assert response.url == played.season.get_absolute_url()
    assert not Evening.objects.filter(pk=played.evening.pk).exists()


def test_the_competition_page_links_the_deletion_for_a_director_only(client, club, played):
    client.force_login(factories.role(club, "member"))
    url = reverse(
        "tournaments:competition-delete", kwargs={"club": club.slug, "pk": played.season.pk}
    )
    assert url not in client.get(played.season.get_absolute_url()).content.decode()
    client.force_login(factories.role(club, "director"))
    assert url in client.get(played.season.get_absolute_url()).content.decode()
    response = client.post(url, {"confirm": "1", "typed": played.season.name})
    assert response.status_code == 302 and response.url == club.get_absolute_url()


def test_a_leagues_competition_and_evenings_are_not_deleted_here():
    from leagues.models import LeagueMatch
    from tests.leagues.conftest import build_league, generate, seat

    world = build_league(divisions=(4,))
    generate(world)
    match = LeagueMatch.objects.filter(league=world.league).first()
    seat(world, match)
    match.refresh_from_db()
    competition, evening = world.league.competition, match.evening
    for delete in (
        lambda: services.competition_delete(
            competition=competition, by=world.organiser, typed=competition.name
        ),
        lambda: services.evening_delete(
            evening=evening, by=world.organiser, typed=evening.date.isoformat()
        ),
    ):
        with pytest.raises(ValidationError) as info:
            delete()
        assert "league" in info.value.messages[0]
    assert Evening.objects.filter(pk=evening.pk).exists()
