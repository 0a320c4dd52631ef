"""Two phones, one hand (issue 25): both teams entered hand 1 and the versions differ.
The second phone's answer names both versions; the table keeps the stored one or
replaces it with the phone's (``"replace": true`` on ``hands.json``, with the
version the phone saw), never stores the disputed hand twice by accident. A
replace is one service write, checked against the game's version, refused on a
confirmed game, and in the audit log. Every answer carries the page as it is now,
so the phone moves on without a reload.
"""

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import AuditEntry, Game, Hand
from scoring.services import HandInput
from tests import factories
from tests.scoring.test_offline import Phone, hand

pytestmark = pytest.mark.django_db


def conflict(table):
    """The first phone stored hand 1 (wij 90); the second sends its own hand 1."""
    factories.hands(table.game, 1, points_a=90, keeper="A")
    phone = Phone(table)
    mine = hand(1, points_a=120, points_b=42)
    return phone, mine, phone.send(mine)


def test_a_conflict_answer_names_both_versions_and_what_mine_would_bank(table):
    _phone, _mine, response = conflict(table)
    assert response.status_code == 409
    body = response.json()
    assert (body["current"]["score_a"], body["current"]["score_b"]) == (90, 72)
    assert body["mine"] == {"score_a": 120, "score_b": 42}
    assert body["state"]["version"] == 1
    assert 'id="hand-1"' in body["page"]["fragments"]["score-sheet"]


def test_replacing_stores_mine_as_that_hand_once(table):
    phone, mine, refused = conflict(table)
    version = refused.json()["state"]["version"]
    response = phone.send({**mine, "replace": True, "version": version})
    assert response.status_code == 201
    body = response.json()
    assert body["hand"]["number"] == 1 and body["hand"]["score_a"] == 120
    assert list(Hand.objects.values_list("number", "points_a")) == [(1, 120)]
    game = Game.objects.get(pk=table.game.pk)
    assert (game.total_a, game.total_b, game.hands_entered) == (120, 42, 1)
    assert game.version == version + 1
    entry = AuditEntry.objects.filter(game=game).latest("pk")
    assert entry.action == AuditEntry.Action.EDIT and entry.hand_number == 1
    assert (entry.before["points_a"], entry.after["points_a"]) == (90, 120)
    assert entry.reason
    # The page for the next hand comes with the answer.
    page = body["page"]
    assert page["config"]["nextNumber"] == 2 and page["save_label"] == "Save hand 2"
    assert "Hand <strong>2</strong> of 16" in page["fragments"]["hand-status"]
    assert body["message"] == "Hand 1 saved: wij 120, zij 42."


def test_a_replace_sent_twice_is_stored_once(table):
    phone, mine, refused = conflict(table)
    replace = {**mine, "replace": True, "version": refused.json()["state"]["version"]}
    assert phone.send(replace).status_code == 201
    again = phone.send(replace)
    assert again.status_code == 200 and not again.json()["created"]
    assert list(Hand.objects.values_list("number", "points_a")) == [(1, 120)]
    assert AuditEntry.objects.filter(action=AuditEntry.Action.EDIT).count() == 1


def test_a_replace_after_another_change_is_a_conflict_and_changes_nothing(table):
    phone, mine, refused = conflict(table)
    version = refused.json()["state"]["version"]
    factories.hands(
        table.game, 1, points_a=70, keeper="A"
    )  # hand 2, from the first phone meanwhile
    response = phone.send({**mine, "replace": True, "version": version})
    assert response.status_code == 409
    assert response.json()["state"]["version"] == version + 1
    assert list(Hand.objects.order_by("number").values_list("points_a", flat=True)) == [90, 70]


def test_a_replace_without_the_version_is_refused(table):
    phone, mine, _refused = conflict(table)
    response = phone.send({**mine, "replace": True})
    assert response.status_code == 422
    assert list(Hand.objects.values_list("points_a", flat=True)) == [90]


def test_a_confirmed_game_refuses_a_replace(table):
    game = factories.hands(table.game, 16, points_a=90, keeper="A")
    phone = Phone(table)  # opened while the sheet was open: a confirmed one has no form
    services.game_confirm(game=game, name=table.seats.first().player_name)
    game.refresh_from_db()
    response = phone.send(hand(1, points_a=120, points_b=42, replace=True, version=game.version))
    assert response.status_code == 422
    assert "confirmed" in response.json()["errors"]["__all__"][0]["message"]
    assert set(Hand.objects.values_list("points_a", flat=True)) == {90}


def test_another_tables_link_cannot_replace_this_tables_hand(play):
    first, second = play.tables
    factories.hands(first.game, 1, points_a=90, keeper="A")
    phone = Phone(second)
    response = phone.send(hand(1, points_a=120, points_b=42, replace=True, version=0))
    assert response.status_code == 422  # the second table has no hand 1
    assert list(Hand.objects.values_list("game_id", "points_a")) == [(first.game.pk, 90)]


def test_a_scorer_of_the_club_replaces_through_the_tables_link_and_is_named(club, table):
    scorer = factories.role(club, "scorer")
    factories.hands(table.game, 1, points_a=90, keeper="A")
    phone = Phone(table)
    phone.client.force_login(scorer)
    page = phone.client.get(
        reverse("scoring:table-score", kwargs={"club": club.slug, "pk": table.pk})
    )
    assert page.status_code == 302 and page.url.endswith(f"/t/{table.token}/")
    phone.client.get(page.url)
    phone.token = phone.client.cookies["csrftoken"].value  # rotated at login
    game = Game.objects.get(pk=table.game.pk)
    response = phone.send(hand(1, points_a=120, points_b=42, replace=True, version=game.version))
    assert response.status_code == 201
    assert AuditEntry.objects.filter(action=AuditEntry.Action.EDIT).get().user == scorer


def test_the_service_refuses_to_replace_a_hand_that_is_not_stored(table):
    game = factories.hands(table.game, 2, points_a=90, keeper="A")
    with pytest.raises(services.ValidationError):
        services.hand_replace(
            game=game,
            number=3,
            data=HandInput(playing="A", points_a=100, points_b=62),
            expected_version=game.version,
        )
    assert Hand.objects.count() == 2


def test_the_same_hand_from_the_second_phone_is_stored_once_without_a_conflict(table):
    factories.hands(table.game, 1, points_a=90, keeper="A")  # the first phone: hand 1, wij 90
    phone = Phone(table)
    response = phone.send(hand(1, points_a=90, points_b=72))
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] and not body["created"] and body["hand"]["number"] == 1
    assert body["page"]["config"]["nextNumber"] == 2
    assert list(Hand.objects.values_list("number", "points_a")) == [(1, 90)]


def test_a_different_hand_from_the_second_phone_is_still_a_conflict(table):
    factories.hands(table.game, 1, points_a=90, keeper="A")
    response = Phone(table).send(hand(1, points_a=90, points_b=72, roem_b=20))
    assert response.status_code == 409
