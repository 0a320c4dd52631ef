"""A player whose table has finished the round fills in at a table of three (a club
setting, ``finished_may_substitute``): "finished" means the table's result is
confirmed. What that game counts for follows the wegstrepen setting.

Seven players, two rounds of one hand, a table of three each round; team A is
North-South (N, S), team B East-West (E, W):

    round 1  table 1 A B C D: A plays 100 - 62      A, C 100   B, D 62
             table 1 confirmed, then D fills in at table 2 (W, with F)
             table 2 E F G D: B plays 40 - 122      E, G 40    F 122, D as substitute 122
    round 2  table 1 A B C E: A plays 90 - 72       A, C 90    B, E 72
             table 1 confirmed, then B fills in at table 2 (W, with F)
             table 2 D F G B: A plays 110 - 52      D, G 110   F 52, B as substitute 52

    own games   A 100 + 90 = 190   B 62 + 72 = 134   C 190   D 62 + 110 = 172
                E 40 + 72 = 112    F 122 + 52 = 174   G 40 + 110 = 150
    wegstrepen  D's 122 as substitute beats his lowest own 62 (round 1): 122 + 110 = 232;
                B's 52 as substitute is below his lowest own 62: B stays 134.
"""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models.query import QuerySet
from django.urls import reverse
from django.utils import translation

from scoring import services as scoring_services
from scoring.models import Game
from scoring.results import standings
from tests import factories
from tests.scoring.conftest import director, director_client
from tests.scoring.results.test_club_rules import by_name, check_in, configure
from tests.scoring.test_substitutes import empty_seat, seat
from tournaments import services

pytestmark = pytest.mark.django_db

__all__ = ["director", "director_client"]  # fixtures used by the tests below

NAMES = "ABCDEFG"
OWN = {"A": 190, "B": 134, "C": 190, "D": 172, "E": 112, "F": 174, "G": 150}


@pytest.fixture(autouse=True)
def in_english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def players(club):
    return factories.named_members(club, NAMES)


def play(game, director, playing, points_a, *, confirm=True):
    """One hand, the game's whole sheet; confirmed unless ``confirm`` is False."""
    row = factories.hand_input(playing, points_a)
    factories.game_played(game, [row], by=director, confirmed_by="Tegenpartij" if confirm else None)


def table(round_, number):
    return Game.objects.get(table__round=round_, table__number=number)


def start(monkeypatch, competition, players, director):
    evening = services.evening_create(
        competition=competition, date=datetime.date(2026, 10, 6), by=director
    )
    check_in(evening, players, NAMES, director)
    seat(monkeypatch, players, [["ABCD", "EFG-"], ["ABCE", "DFG-"]])
    return services.round_draw(evening=evening, by=director)


def the_evening(monkeypatch, competition, players, director):
    first = start(monkeypatch, competition, players, director)
    play(table(first, 1), director, "A", 100)
    services.seat_substitute_set(seat=empty_seat(first), member=players["D"], by=director)
    play(table(first, 2), director, "B", 40)
    second = services.round_draw(evening=first.evening, by=director)
    play(table(second, 1), director, "A", 90)
    services.seat_substitute_set(seat=empty_seat(second), member=players["B"], by=director)
    play(table(second, 2), director, "A", 110)
    return services.evening_set_status(evening=first.evening, status="finished", by=director)


def test_with_wegstrepen_the_finished_players_substitute_game_replaces_his_lowest(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client,
        club,
        odd_players="substitute",
        substitute_strikes_lowest=True,
        finished_may_substitute=True,
    )
    assert competition.finished_may_substitute  # set on the competition's settings page
    evening = the_evening(monkeypatch, competition, players, director)

    result = standings.evening_result(evening=evening)
    assert {name: line.points for name, line in by_name(result, players).items()} == {
        **OWN,
        "D": 232,
    }
    assert result.struck[(evening.pk, players["D"].pk)] == [(1, 1)]
    assert (evening.pk, players["B"].pk) not in result.struck
    season = by_name(standings.season_standings(competition=competition), players)
    assert season["D"].points == 232


def test_without_wegstrepen_the_finished_players_substitute_game_counts_for_nobody_else(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, odd_players="substitute", finished_may_substitute=True
    )
    evening = the_evening(monkeypatch, competition, players, director)
    result = standings.evening_result(evening=evening)
    assert {name: line.points for name, line in by_name(result, players).items()} == OWN
    assert result.struck == {}


def test_the_setting_is_stated_on_the_standings(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, odd_players="substitute", finished_may_substitute=True
    )
    sentence = (
        b"A player whose own table has finished the round (its result confirmed) may fill "
        b"in as the substitute at a table of three in that round."
    )
    page = reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk})
    assert sentence in director_client.get(page).content
    competition.finished_may_substitute = False
    competition.save()
    assert sentence not in director_client.get(page).content


def test_the_round_page_offers_the_player_once_his_table_is_confirmed(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, odd_players="substitute", finished_may_substitute=True
    )
    first = start(monkeypatch, competition, players, director)

    def candidates():
        page = director_client.get(first.get_absolute_url())
        return [member.name for member in page.context["substitute_candidates"]]

    assert candidates() == []  # all seven have a seat; no table has finished
    assert "its players can fill in" in director_client.get(first.get_absolute_url()).text
    play(table(first, 1), director, "A", 100, confirm=False)  # all hands in, not confirmed
    assert candidates() == []
    scoring_services.game_confirm(game=table(first, 1), name="Tegenpartij")
    assert candidates() == ["Speler A", "Speler B", "Speler C", "Speler D"]
    url = reverse("tournaments:seat-substitute", kwargs={"club": club.slug, "pk": first.pk})
    empty = empty_seat(first)
    director_client.post(url, {"seat": empty.pk, "member": players["D"].pk})
    empty.refresh_from_db()
    assert empty.substitute_member == players["D"]


def refused(empty, member, director):
    with pytest.raises(ValidationError) as info:
        services.seat_substitute_set(seat=empty, member=member, by=director)
    empty.refresh_from_db()
    assert empty.substitute_member is None
    return info.value.messages


def test_a_seated_player_is_refused_when_the_setting_is_off(
    monkeypatch, director_client, club, players, director
):
    competition = configure(director_client, club, odd_players="substitute")
    first = start(monkeypatch, competition, players, director)
    play(table(first, 1), director, "A", 100)
    assert refused(empty_seat(first), players["D"], director) == [
        "Speler D already plays at table 1 in this round. This competition does not let a "
        "player whose table has finished substitute (its settings can allow it)."
    ]
    page = director_client.get(first.get_absolute_url())
    assert list(page.context["substitute_candidates"]) == []


def test_a_player_whose_table_still_plays_is_refused(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, odd_players="substitute", finished_may_substitute=True
    )
    first = start(monkeypatch, competition, players, director)
    empty = empty_seat(first)
    still_playing = (
        "Speler D plays at table 1 in this round, which has not finished: a player may "
        "substitute once the result of their own table is confirmed."
    )
    assert refused(empty, players["D"], director) == [still_playing]
    play(table(first, 1), director, "A", 100, confirm=False)  # every hand in, not confirmed
    assert refused(empty, players["D"], director) == [still_playing]
    assert refused(empty, players["E"], director) == ["Speler E already plays at this table."]
    # Confirmed: D may fill in.
    scoring_services.game_confirm(game=table(first, 1), name="Tegenpartij")
    services.seat_substitute_set(seat=empty, member=players["D"], by=director)
    empty.refresh_from_db()
    assert empty.substitute_member == players["D"]


def test_only_the_evenings_own_club_directors_seat_the_substitute(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, odd_players="substitute", finished_may_substitute=True
    )
    first = start(monkeypatch, competition, players, director)
    play(table(first, 1), director, "A", 100)
    elsewhere = factories.club(slug="elders")
    for user in (factories.role(elsewhere, "director"), factories.role(club, "scorer")):
        with pytest.raises(PermissionDenied):
            services.seat_substitute_set(seat=empty_seat(first), member=players["D"], by=user)
    assert empty_seat(first).substitute_member is None


def substituting(monkeypatch, director_client, club, players, director):
    """Round 1 with table 1 confirmed (A plays 100 - 62) and D, of table 1, filling in
    at table 2."""
    competition = configure(
        director_client, club, odd_players="substitute", finished_may_substitute=True
    )
    first = start(monkeypatch, competition, players, director)
    play(table(first, 1), director, "A", 100)
    services.seat_substitute_set(seat=empty_seat(first), member=players["D"], by=director)
    return first


def test_seating_the_substitute_locks_his_own_tables_game(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, odd_players="substitute", finished_may_substitute=True
    )
    first = start(monkeypatch, competition, players, director)
    play(table(first, 1), director, "A", 100)
    locked = []
    real = QuerySet.select_for_update

    def spy(self, *args, **kwargs):
        query = real(self, *args, **kwargs)
        if self.model is Game:
            locked.append(query)
        return query

    monkeypatch.setattr(QuerySet, "select_for_update", spy)
    services.seat_substitute_set(seat=empty_seat(first), member=players["D"], by=director)
    # Only D's own table (table 1) is locked, not the table he fills in at.
    assert [set(query.values_list("table__number", flat=True)) for query in locked] == [{1}]


def test_a_correction_that_reopens_his_own_table_is_refused_while_he_substitutes(
    monkeypatch, director_client, club, players, director
):
    first = substituting(monkeypatch, director_client, club, players, director)
    own = table(first, 1)
    with pytest.raises(ValidationError) as info:
        scoring_services.game_enter_sheet(game=own, rows=[], by=director, reason="wrong table")
    assert info.value.messages == [
        "Speler D fills in as the substitute at table 2 in this round; seat another "
        "substitute there first. A correction that leaves this game incomplete takes its "
        "confirmation away, and Speler D would have to play on here."
    ]
    own.refresh_from_db()
    assert (own.status, own.hands_entered, own.total_a) == (Game.Status.CONFIRMED, 1, 100)
    assert empty_seat(first).substitute_member == players["D"]


def test_a_correction_that_keeps_his_table_complete_keeps_him_substituting(
    monkeypatch, director_client, club, players, director
):
    first = substituting(monkeypatch, director_client, club, players, director)
    own = table(first, 1)
    row = scoring_services.HandInput(playing="A", points_a=110, points_b=52)
    scoring_services.game_enter_sheet(game=own, rows=[row], by=director, reason="typo")
    own.refresh_from_db()
    # Still one hand of one: complete, so confirmed, now 110 - 52.
    assert (own.status, own.total_a, own.total_b) == (Game.Status.CONFIRMED, 110, 52)
    assert empty_seat(first).substitute_member == players["D"]


def test_once_another_substitute_is_seated_his_table_can_be_reopened(
    monkeypatch, director_client, club, players, director
):
    first = substituting(monkeypatch, director_client, club, players, director)
    guest = factories.member(club, "Speler H")  # not present, no seat this round
    services.seat_substitute_set(seat=empty_seat(first), member=guest, by=director)
    own = table(first, 1)
    scoring_services.game_enter_sheet(game=own, rows=[], by=director, reason="wrong table")
    own.refresh_from_db()
    assert (own.status, own.hands_entered) == (Game.Status.OPEN, 0)
