"""Hands sent by the page's script: ``/t/<token>/hands.json`` and the service worker.

A phone keeps hands while the hall's Wi-Fi is gone and sends them when it
returns, perhaps more than once (the answer to the first send was lost): the
entry id makes every send after the first harmless. A hand number entered
meanwhile on another device is a conflict with the stored hand in the answer,
never a hand stored over it.
"""

import json
import threading
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.models import AuditEntry, Game, Hand
from tests import factories
from tests.scoring.test_table_entry import entry_url
from tournaments.models import Evening

pytestmark = pytest.mark.django_db


def hand(number=1, **fields):
    """A hand as the script sends it: wij played and made 100 against 62."""
    data = {
        "client_id": str(uuid.uuid4()),
        "number": number,
        "keeper": "A",
        "playing": "A",
        "points_a": 100,
        "points_b": 62,
        "roem_a": 0,
        "roem_b": 0,
        "pit": "",
        "trump": "",
    }
    data.update(fields)
    return data


class Phone:
    """A phone at the table: the page first (for the CSRF cookie), then JSON posts."""

    def __init__(self, table):
        self.client = Client(enforce_csrf_checks=True)
        self.client.cookies["django_language"] = "en"
        self.url = entry_url(table, "table-hands-json")
        self.client.get(entry_url(table))
        self.token = self.client.cookies["csrftoken"].value

    def send(self, data, *, csrf=True):
        headers = {"X-CSRFToken": self.token} if csrf else {}
        body = data if isinstance(data, str) else json.dumps(data)
        return self.client.post(self.url, body, content_type="application/json", headers=headers)


@pytest.fixture
def phone(table):
    return Phone(table)


def test_a_hand_is_stored_and_answered_with_its_banked_scores(phone, table):
    response = phone.send(hand(roem_a=20))
    assert response.status_code == 201
    body = response.json()
    assert body["ok"] and body["created"]
    assert body["hand"] | {"text": ""} == {
        "number": 1,
        "playing": "A",
        "points_a": 100,
        "points_b": 62,
        "roem_a": 20,
        "roem_b": 0,
        "pit": "",
        "trump": "",
        "score_a": 120,
        "score_b": 62,
        "nat": False,
        "verzaakt": "",
        "text": "",
    }
    game = Game.objects.get(pk=table.game.pk)
    assert body["version"] == game.version == 1
    assert (game.total_a, game.total_b, game.scorer_team) == (120, 62, "A")
    stored = Hand.objects.get()
    assert stored.entered_via == "table" and str(table.number) in AuditEntry.objects.get().actor


def test_the_same_hand_sent_three_times_is_stored_once(phone, table):
    data = hand()
    statuses = [phone.send(data).status_code for _ in range(3)]
    assert statuses == [201, 200, 200]
    assert Hand.objects.count() == 1
    assert AuditEntry.objects.filter(action="create").count() == 1
    again = phone.send(data).json()
    assert not again["created"] and again["hand"]["number"] == 1
    assert Game.objects.get(pk=table.game.pk).version == 1


def test_a_resend_after_more_hands_still_finds_the_first(phone, table):
    first = hand(1)
    assert phone.send(first).status_code == 201
    assert phone.send(hand(2)).status_code == 201
    resent = phone.send(first)
    assert resent.status_code == 200
    assert resent.json()["hand"]["number"] == 1
    assert Hand.objects.count() == 2


def test_a_resend_after_the_evening_closed_is_still_answered_as_stored(phone, play):
    data = hand()
    phone.send(data)
    Evening.objects.filter(pk=play.evening.pk).update(status=Evening.Status.FINISHED)
    assert phone.send(data).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_same_hand_from_two_threads_at_once_is_stored_once(club, drawn_evening):
    director = factories.role(club, "director")
    table = drawn_evening(club, director).tables[0]
    phones = [Phone(table), Phone(table)]
    rounds = 6
    statuses = []
    barrier = threading.Barrier(2)
    lock = threading.Lock()
    failures = []

    def send(phone, sends):
        try:
            for data in sends:
                barrier.wait(timeout=30)
                status = phone.send(data).status_code
                with lock:
                    statuses.append((data["number"], status))
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(repr(exc))
        finally:
            connection.close()

    sends = [hand(number) for number in range(1, rounds + 1)]
    threads = [threading.Thread(target=send, args=(phone, sends)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    assert not any(thread.is_alive() for thread in threads)
    for number in range(1, rounds + 1):
        answers = sorted(status for n, status in statuses if n == number)
        # One of the two stores it; the other finds it stored, also when both
        # looked before either had stored it (the game's lock decides).
        assert answers == [200, 201], (number, answers)
    hands = list(Hand.objects.order_by("number"))
    assert [h.number for h in hands] == list(range(1, rounds + 1))
    assert [h.client_id for h in hands] == [data["client_id"] for data in sends]
    game = Game.objects.get(pk=table.game.pk)
    assert (game.hands_entered, game.version, game.total_a) == (rounds, rounds, 100 * rounds)
    assert AuditEntry.objects.filter(action="create").count() == rounds


def test_a_hand_number_entered_on_another_device_is_a_conflict_with_both_versions(phone, table):
    factories.hands(table.game, 1, points_a=90, keeper="A")  # the other device: hand 1, wij 90
    mine = hand(1, points_a=120, points_b=42)
    response = phone.send(mine)
    assert response.status_code == 409
    body = response.json()
    assert not body["ok"]
    assert body["errors"]["__all__"][0]["code"] == "conflict"
    assert "1" in body["errors"]["__all__"][0]["message"]
    assert body["current"]["number"] == 1
    assert (body["current"]["points_a"], body["current"]["score_a"]) == (90, 90)
    assert body["state"] == {"status": "open", "version": 1, "hands": 1, "next_number": 2}
    # Not stored over the other, nor as another hand.
    assert list(Hand.objects.values_list("number", "points_a")) == [(1, 90)]
    assert Hand.objects.filter(client_id=mine["client_id"]).count() == 0


def test_a_hand_after_a_gap_is_refused_with_the_next_number(phone, table):
    factories.hands(table.game, 2, keeper="A")
    response = phone.send(hand(5))
    assert response.status_code == 422
    body = response.json()
    assert "3" in body["errors"]["__all__"][0]["message"]
    assert body["state"]["next_number"] == 3 and body["current"] is None
    assert Hand.objects.count() == 2


FIELD_ERRORS = [
    ("roem_30", {"roem_a": 30}, "roem_a"),
    ("sum_not_162", {"points_b": 61}, "points_a"),
    ("no_team", {"playing": ""}, "playing"),
    ("unknown_trump", {"trump": "X"}, "trump"),
    ("text_points", {"points_a": "honderd"}, "points_a"),
    ("nested_points", {"points_a": {"a": 1}}, "points_a"),
    ("no_client_id", {"client_id": None}, "client_id"),
    ("no_number", {"number": None}, "number"),
    ("no_keeper", {"keeper": ""}, "keeper"),
]


@pytest.mark.parametrize(
    ("case", "fields", "field"), FIELD_ERRORS, ids=[c[0] for c in FIELD_ERRORS]
)
def test_a_wrong_hand_is_422_with_field_errors(phone, case, fields, field):
    response = phone.send(hand(**fields))
    assert response.status_code == 422
    body = response.json()
    assert body["errors"].get(field), body["errors"]
    assert body["errors"][field][0]["message"]
    assert not Hand.objects.exists()


def test_the_keeper_is_asked_once(phone, table):
    assert phone.send(hand(1)).status_code == 201
    assert phone.send(hand(2, keeper=None)).status_code == 201
    assert Game.objects.get(pk=table.game.pk).scorer_team == "A"


def test_a_complete_game_takes_no_more_hands(phone, table):
    factories.hands(table.game, 16, keeper="A")
    response = phone.send(hand(17))
    assert response.status_code == 422
    body = response.json()
    assert "complete" in body["errors"]["__all__"][0]["message"]
    assert body["state"]["status"] == "complete" and body["state"]["next_number"] is None
    assert Hand.objects.count() == 16


def test_a_closed_evening_is_403(phone, play):
    Evening.objects.filter(pk=play.evening.pk).update(status=Evening.Status.FINISHED)
    response = phone.send(hand())
    assert response.status_code == 403
    assert response.json()["errors"]["__all__"][0]["code"] == "closed"
    assert not Hand.objects.exists()


def test_without_the_csrf_token_nothing_is_stored(phone):
    response = phone.send(hand(), csrf=False)
    assert response.status_code == 403
    assert not Hand.objects.exists()


@pytest.mark.parametrize("body", ["not json", "[1, 2]", '"hand"', "\xff"])
def test_a_body_that_is_no_json_object_is_400(phone, body):
    response = phone.send(body)
    assert response.status_code == 400
    assert response.json()["ok"] is False
    assert not Hand.objects.exists()


def test_hands_json_takes_posts_only(client, table):
    assert client.get(entry_url(table, "table-hands-json")).status_code == 405


def test_an_unknown_table_link_is_404(phone):
    phone.url = "/t/bestaat-niet/hands.json"
    assert phone.send(hand()).status_code == 404


def test_one_table_link_stores_only_in_its_own_game(club, director, play):
    first, second = play.tables
    Phone(first).send(hand(game=second.game.pk, table=second.pk))
    assert Hand.objects.get().game_id == first.game.pk


# table; hand by entry id; savepoint; game locked; entry id; hands; hand inserted;
# game updated; the evening locked, it and its competition given new versions of their
# pages and its stored totals thrown away; audit entry; release; then the page as it is
# now for the phone (table, seats, hands): the same for every hand.
JSON_SAVE_QUERIES = 17


@pytest.mark.parametrize("hands_before", [0, 9], ids=["hand_1", "hand_10"])
def test_storing_a_hand_takes_a_constant_number_of_queries(
    phone, table, hands_before, django_assert_num_queries
):
    factories.hands(table.game, hands_before, keeper="A")
    with django_assert_num_queries(JSON_SAVE_QUERIES):
        response = phone.send(hand(hands_before + 1))
    assert response.status_code == 201


# --- The page and the service worker -----------------------------------------------------


def test_the_page_gives_its_script_what_it_needs_to_work_offline(client, table):
    factories.hands(table.game, 5, keeper="A")
    response = client.get(entry_url(table))
    config = json.loads(
        response.text.split('id="entry-config" type="application/json">')[1].split("</script>")[0]
    )
    assert config["token"] == table.token
    assert config["handsUrl"] == entry_url(table, "table-hands-json")
    assert config["pageUrl"] == entry_url(table)
    assert (config["swUrl"], config["swScope"]) == ("/t/sw.js", "/t/")
    assert (config["version"], config["nextNumber"], config["length"]) == (5, 6, 16)
    # Hand n is dealt by the ((n - 1) % 4)-th of the first four dealers: N E S W.
    seats = [seat.player_name for seat in response.context["state"].seats]
    assert [name for name, _seat in config["dealers"]] == seats
    assert reverse("javascript-catalog") in response.text
    assert 'id="on-phone"' in response.text


def test_the_service_worker_is_served_under_the_table_links(client):
    response = client.get(reverse("scoring:entry-sw"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/t/"
    assert "no-cache" in response["Cache-Control"]
    source = response.content.decode()
    assert "data-offline-copy" in source and "networkFirst" in source
    # It caches pages, scripts and styles only, never hands or previews.
    assert "hands.json" not in source and source.count('request.method === "GET"') == 2


# --- Hostile entry ids: checked before the lookup (PostgreSQL refuses NUL in text) ------


@pytest.mark.parametrize(
    "client_id",
    ["x\x00y", "\x00", "x\ny", "x\ty", "x\x1by", "a" * 65, "a" * 100_000],
    ids=["nul", "only-nul", "line-break", "tab", "escape", "65-chars", "100k-chars"],
)
def test_an_entry_id_with_a_control_character_or_too_long_is_refused(phone, client_id):
    """A NUL byte in the entry id was a 500 on PostgreSQL (the id was looked up
    before the form checked it); SQLite answered 422. Now 422 on both, nothing stored."""
    response = phone.send(hand(client_id=client_id))
    assert response.status_code == 422
    assert "client_id" in response.json()["errors"]
    assert Hand.objects.count() == 0


@pytest.mark.parametrize("field", ["keeper", "playing", "pit", "trump", "number", "points_a"])
def test_a_nul_byte_in_any_field_of_a_sent_hand_is_refused(phone, field):
    response = phone.send(hand(**{field: "x\x00y"}))
    assert response.status_code == 422
    assert Hand.objects.count() == 0


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e999", '"²"'])
def test_a_hand_number_that_is_no_ascii_number_is_refused(phone, number):
    """``_asked_number`` called ``int()`` on what the JSON held: ``Infinity`` (which
    Python's JSON reader takes) was an OverflowError (500)."""
    body = json.dumps(hand()).replace('"number": 1', f'"number": {number}')
    response = phone.send(body)
    assert response.status_code == 422
    assert Hand.objects.count() == 0


def test_an_entry_id_that_is_clean_still_makes_a_resend_harmless(phone):
    data = hand(client_id="telefoon-1:hand-1")
    assert [phone.send(data).status_code for _ in range(2)] == [201, 200]
