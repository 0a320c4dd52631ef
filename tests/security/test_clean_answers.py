"""Requests that were a server error (500) get a clear answer: a 4xx, or the form
with its error, and nothing changes.

- deeply nested JSON, and a multipart body, posted to a table's ``hands.json``;
- ``?per_page=`` below one, huge or not a number on every paginated table (one
  helper, ``common.tables.configure_table``, reads it for all of them);
- two "Start a club" at once with the same short name (on PostgreSQL the second
  insert met the unique index: an ``IntegrityError``).
"""

import threading
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from clubs.models import Club, ClubRole
from common import tables as common_tables
from scoring.models import AuditEntry, Game, Hand
from tests import factories
from tests.scoring.test_offline import Phone, hand

pytestmark = pytest.mark.django_db
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def director(club):
    return factories.role(club, "director")


@pytest.fixture
def play(club, director, drawn_evening):
    return drawn_evening(club, director)


@pytest.fixture
def table(play):
    return play.tables[0]


def nothing_stored(table):
    game = Game.objects.get(pk=table.game.pk)
    return (Hand.objects.count(), AuditEntry.objects.count(), game.version) == (0, 0, 0)


# --- hands.json ------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [10_000, 100_000])
def test_deeply_nested_json_to_hands_json_is_a_400(table, depth):
    phone = Phone(table)
    response = phone.send("[" * depth + "]" * depth)
    assert response.status_code == 400
    body = response.json()
    assert not body["ok"]
    assert body["errors"]["__all__"][0]["message"] == "Send one hand as a JSON object."
    nested = '{"client_id": "x", "number": ' + "[" * depth + "]" * depth + "}"
    assert phone.send(nested).status_code == 400
    assert nothing_stored(table)


@pytest.mark.parametrize(
    "content_type",
    ["multipart/form-data; boundary=grens", "application/x-www-form-urlencoded"],
)
def test_hands_json_sent_as_a_form_is_a_400(table, content_type):
    phone = Phone(table)
    body = (
        '--grens\r\nContent-Disposition: form-data; name="client_id"\r\n\r\nabc\r\n--grens--\r\n'
        if content_type.startswith("multipart")
        else "client_id=abc&number=1"
    )
    response = phone.client.post(
        phone.url, body, content_type=content_type, headers={"X-CSRFToken": phone.token}
    )
    assert response.status_code == 400
    assert response.json()["errors"]["__all__"][0]["message"] == "Send one hand as a JSON object."
    assert nothing_stored(table)


def test_a_hand_as_json_still_is_stored(table):
    assert Phone(table).send(hand()).status_code == 201


# --- ?per_page= ------------------------------------------------------------------------------

PER_PAGE = ["-1", "0", "-0", "9" * 40, str(2**63), "abc", "1.5", "", "²"]


@pytest.fixture
def pages(club, play, director):
    """The paginated tables: the member list (many members) and an evening's audit."""
    factories.members(club, 60)
    for game in play.games:
        factories.hands(game, 3, keeper="A")
    client = Client()
    client.force_login(director)
    members = reverse("clubs:member-list", kwargs={"club": club.slug})
    audit = reverse("scoring:evening-audit", kwargs={"club": club.slug, "pk": play.evening.pk})
    return client, {"members": members, "audit": audit}


#: The context name of each page's paginated table.
TABLE = {"members": "table", "audit": "entries"}


def rows(response, page):
    """The rows the page shows of its table."""
    return len(response.context[TABLE[page]].page.object_list)


@pytest.mark.parametrize("value", PER_PAGE)
@pytest.mark.parametrize("page", ["members", "audit"])
def test_a_per_page_that_is_no_page_size_shows_the_usual_page(pages, page, value):
    client, urls = pages
    usual = client.get(urls[page])
    asked = client.get(urls[page], {"per_page": value})
    assert (usual.status_code, asked.status_code) == (200, 200)
    if value.startswith("9") or value == str(2**63):
        assert rows(asked, page) >= rows(usual, page)  # the largest page, not a 500
    else:
        assert rows(asked, page) == rows(usual, page)


@pytest.mark.parametrize("page", ["members", "audit"])
def test_a_per_page_in_range_is_taken_and_a_huge_one_is_capped(pages, page, monkeypatch):
    client, urls = pages
    assert rows(client.get(urls[page], {"per_page": "2"}), page) == 2
    monkeypatch.setattr("common.tables.PER_PAGE_MAX", 3)
    assert rows(client.get(urls[page], {"per_page": "9" * 40}), page) == 3


@pytest.mark.parametrize("value", ["-1", "0", "9" * 40, "abc"])
def test_a_page_number_past_the_end_or_no_number_shows_a_page(pages, value):
    client, urls = pages
    assert client.get(urls["members"], {"page": value, "per_page": "7"}).status_code == 200


def test_every_table_page_reads_its_query_through_the_one_helper():
    """django-tables2's ``RequestConfig`` reads ``?per_page=`` as ``int()`` and
    passes 0 or -1 to the paginator: only ``common.tables`` may call it."""
    callers = [
        str(path.relative_to(ROOT))
        for folder in ("clubs", "common", "tournaments", "scoring", "leagues", "config")
        for path in (ROOT / folder).rglob("*.py")
        if "RequestConfig(" in path.read_text()
    ]
    assert callers == ["common/tables.py"]
    assert common_tables.PER_PAGE_MAX >= 50


# --- Two "Start a club" at once --------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_clubs_started_at_once_with_one_name_make_one_club_and_a_form_error():
    """Both forms see the short name free; the second insert meets the unique index
    (PostgreSQL waits for the first to commit, then refuses): a form error, not a 500."""
    users = [factories.user(f"oprichter{n}", is_staff=True) for n in (1, 2)]
    barrier = threading.Barrier(2)
    answers, failures = [], []
    lock = threading.Lock()

    from clubs import forms

    real_clean_slug = forms.ClubCreateForm.clean_slug

    def clean_slug_together(self):
        slug = real_clean_slug(self)  # the short name is free for both ...
        barrier.wait(timeout=30)  # ... and both insert it at once
        return slug

    def start(user):
        try:
            client = Client()
            client.force_login(user)
            response = client.post(
                reverse("clubs:club-create"),
                {"name": "De Zwarte Boer", "slug": "", "ruleset_preset": "rotterdam"},
                **ENGLISH,
            )
            with lock:
                answers.append(response)
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(repr(exc))
        finally:
            connection.close()

    forms.ClubCreateForm.clean_slug = clean_slug_together
    try:
        threads = [threading.Thread(target=start, args=(user,)) for user in users]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        forms.ClubCreateForm.clean_slug = real_clean_slug
    assert failures == []
    assert sorted(response.status_code for response in answers) == [200, 302]
    refused = next(response for response in answers if response.status_code == 200)
    assert "Another club already uses this short name." in refused.text
    club = Club.objects.get()
    assert club.slug == "de-zwarte-boer"
    assert ClubRole.objects.filter(club=club).count() == 1


# --- One hand sent twice at once -------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_one_hand_sent_twice_at_once_is_stored_once_and_answered_created_once(
    club, drawn_evening, monkeypatch
):
    """Both requests look the entry id up before either has stored it (a barrier
    after the look-up makes sure); the game's lock lets one store it, and the
    other must hear that it was already stored (it heard 201 "created" too)."""
    from scoring import selectors

    director = factories.role(club, "director")
    table = drawn_evening(club, director).tables[0]
    phones = [Phone(table), Phone(table)]
    data = hand()
    barrier = threading.Barrier(2)
    real_lookup = selectors.hand_by_client_id

    def lookup_together(**kwargs):
        found = real_lookup(**kwargs)
        barrier.wait(timeout=30)
        return found

    monkeypatch.setattr(selectors, "hand_by_client_id", lookup_together)
    answers, failures = [], []
    lock = threading.Lock()

    def send(phone):
        try:
            response = phone.send(data)
            with lock:
                answers.append((response.status_code, response.json()))
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    answers.sort(key=lambda answer: answer[0])
    assert [(status, body["created"]) for status, body in answers] == [(200, False), (201, True)]
    assert answers[0][1]["hand"] == answers[1][1]["hand"]
    assert answers[0][1]["version"] == answers[1][1]["version"] == 1
    assert list(Hand.objects.values_list("client_id", flat=True)) == [data["client_id"]]
    assert AuditEntry.objects.filter(action="create").count() == 1


@pytest.mark.django_db
def test_a_short_name_taken_between_the_forms_checks_gets_the_same_form_error(client, monkeypatch):
    """The other club is stored after the form's own check and before the model's
    uniqueness check (the second of two at once, on a slow machine): the same words."""
    from clubs import forms

    real_clean_slug = forms.ClubCreateForm.clean_slug

    def taken_meanwhile(self):
        slug = real_clean_slug(self)
        factories.club(name="Eerder", slug=slug)
        return slug

    monkeypatch.setattr(forms.ClubCreateForm, "clean_slug", taken_meanwhile)
    client.force_login(factories.user("oprichter", is_staff=True))
    response = client.post(
        reverse("clubs:club-create"),
        {"name": "De Zwarte Boer", "slug": "", "ruleset_preset": "rotterdam"},
        **ENGLISH,
    )
    assert response.status_code == 200
    assert "Another club already uses this short name." in response.text
    assert list(Club.objects.values_list("name", flat=True)) == ["Eerder"]
