"""A table's link after its evening is closed: it says only that. Whoever kept the
link (a photo of the QR code, a phone passed around) sees no hands and no names
of a private club; a club with public results gets a link to them. Reopening the
evening does not reopen the writing of a confirmed table."""

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Game, Hand
from tests import factories
from tests.scoring.test_table_entry import entry_url, hand_data, names_of
from tournaments import services as tournament_services
from tournaments.models import Evening

pytestmark = pytest.mark.django_db


def confirm_all(play):
    for table in play.tables:
        game = factories.hands(table.game, 16, keeper="A")
        services.game_confirm(game=game, name=names_of(table).east)


def close(play, director):
    tournament_services.evening_set_status(
        evening=play.evening, status=Evening.Status.FINISHED, by=director
    )


def player_names(play):
    return [name for table in play.tables for name in names_of(table).a + names_of(table).b]


def test_a_closed_evenings_link_shows_no_hands_and_no_names(client, play, director):
    club = play.evening.competition.club
    club.results_public = False
    club.save()
    confirm_all(play)
    close(play, director)
    table = play.tables[0]
    page = client.get(entry_url(table))
    assert page.status_code == 200
    assert "Deze avond is afgesloten" in page.text
    for name in player_names(play):
        assert name not in page.text
    assert "162" not in page.text and 'id="hand-' not in page.text
    assert (
        reverse(
            "results:evening",
            kwargs={"club": play.evening.competition.club.slug, "pk": play.evening.pk},
        )
        not in page.text
    )


def test_a_closed_evenings_link_points_a_public_club_to_its_results(client, play, director):
    club = play.evening.competition.club
    club.results_public = True
    club.save()
    confirm_all(play)
    close(play, director)
    page = client.get(entry_url(play.tables[0]))
    result = reverse("results:evening", kwargs={"club": club.slug, "pk": play.evening.pk})
    assert f'href="{result}"' in page.text
    for name in player_names(play):
        assert name not in page.text


def test_writing_to_a_closed_evening_answers_without_hands_or_names(play, director):
    table = play.tables[0]
    factories.hands(table.game, 3, keeper="A")
    Evening.objects.filter(pk=play.evening.pk).update(status=Evening.Status.FINISHED)
    client = Client()
    for name in ("table-hand", "table-undo", "table-confirm"):
        response = client.post(entry_url(table, name), hand_data(table.game))
        assert response.status_code == 403, name
        for player in player_names(play):
            assert player not in response.text, name
    body = {"client_id": uuid.uuid4().hex, "number": 4, "keeper": "A", "playing": "A"}
    response = client.post(
        entry_url(table, "table-hands-json"), json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 403
    answer = response.json()
    assert answer["errors"]["__all__"][0]["code"] == "closed"
    assert "state" not in answer and "current" not in answer
    assert Hand.objects.count() == 3


def test_the_trick_checker_opened_from_a_closed_tables_link_shows_no_names(client, play):
    table = play.tables[0]
    checker = reverse("trickcheck:check")
    assert names_of(table).north in client.get(checker, {"table": table.token}).text
    Evening.objects.filter(pk=play.evening.pk).update(status=Evening.Status.FINISHED)
    page = client.get(checker, {"table": table.token})
    for name in player_names(play):
        assert name not in page.text


def test_reopening_the_evening_does_not_reopen_a_confirmed_table(client, play, director):
    confirm_all(play)
    close(play, director)
    tournament_services.evening_set_status(
        evening=play.evening, status=Evening.Status.IN_PLAY, by=director
    )
    table = play.tables[0]
    game = Game.objects.get(pk=table.game.pk)
    page = client.get(entry_url(table))
    assert page.status_code == 200
    assert page.context["hand_form"] is None and not page.context["can_undo"]
    assert client.post(entry_url(table, "table-hand"), hand_data(game)).status_code == 422
    assert client.post(entry_url(table, "table-undo"), {"version": game.version}).status_code in (
        409,
        422,
    )
    body = {
        "client_id": uuid.uuid4().hex,
        "number": 17,
        "keeper": "A",
        "playing": "A",
        "points_a": 100,
        "points_b": 62,
    }
    response = client.post(
        entry_url(table, "table-hands-json"), json.dumps(body), content_type="application/json"
    )
    assert response.status_code in (409, 422)
    assert Hand.objects.filter(game=game).count() == 16
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED and game.hands_entered == 16
