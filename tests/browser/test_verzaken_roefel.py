"""Verzaken and the roefel in the browser: the entry page's verzaakt choice, the
roefel fixed on hand 1 (and free again on hand 2 while offline), and the trick
checker's "record as verzaken" link."""

from urllib.parse import parse_qs, urlsplit

import pytest

from scoring.models import Game, Hand
from tests import factories
from tests.browser.test_offline_entry import open_more
from tournaments import services as tournament_services

from .test_trickcheck import setup, tap

pytestmark = pytest.mark.django_db(transaction=True)


def table_of(club, **competition):
    director = factories.role(club, "director")
    season = factories.competition(club, **competition)
    evening = factories.evening(season, present=factories.members(club, 4))
    round_ = tournament_services.round_draw(evening=evening, by=director, seed=1)
    return round_.tables.get()


def open_entry(page, live_server, table, query=""):
    page.goto(f"{live_server.url}/t/{table.token}/{query}")
    page.wait_for_selector("#hand-form")


def test_verzaakt_locks_the_card_points_and_saves_the_hand(phone, live_server, club, shot):
    table = table_of(club)
    open_entry(phone, live_server, table)
    phone.locator("fieldset.keeper input[value=A]").check(force=True)
    phone.locator("fieldset.playing input[value=A]").check(force=True)
    phone.fill("[name=points_a]", "100")
    open_more(phone)
    phone.locator("fieldset.verzaakt-choice label.segment").nth(2).click()
    assert phone.input_value("[name=points_a]") == ""
    assert phone.is_disabled("[name=points_a]") and phone.is_disabled("[name=points_b]")
    assert phone.is_disabled("fieldset.pit-choice input[value=A]")
    phone.fill("[name=roem_a]", "20")
    phone.wait_for_function("() => document.querySelector('#preview').textContent.includes('282')")
    assert phone.inner_text("#preview") == "zij verzaakt: wij bank 282, zij bank 0"
    shot(phone, "verzaakt-chosen")
    phone.click("button.save")
    phone.wait_for_selector("#hand-1")
    hand = Hand.objects.get()
    assert (hand.verzaakt, hand.points_a, hand.score_a, hand.score_b) == ("B", 162, 282, 0)
    assert phone.inner_text("#hand-1 td.zij .verzaakt [aria-hidden]") == "V"
    # Back to "no one": the card points are typed again.
    open_more(phone)
    phone.locator("fieldset.verzaakt-choice label.segment").nth(0).click()
    assert not phone.is_disabled("[name=points_a]")
    shot(phone, "verzaken-on-the-sheet")


def test_the_roefel_is_fixed_on_hand_one_and_free_on_hand_two_offline(
    phone, live_server, club, shot
):
    table = table_of(club, ruleset_preset="match-500")
    open_entry(phone, live_server, table)
    assert "clubs are trumps, the forehand plays (zij)" in phone.inner_text("#roefel-notice")
    assert phone.is_checked("fieldset.playing input[value=B]")
    assert phone.is_disabled("fieldset.playing input[value=A]")
    assert phone.input_value("[name=trump]") == "C"
    shot(phone, "roefel-fixed")

    phone.context.set_offline(True)
    phone.locator("fieldset.keeper input[value=A]").check(force=True)
    phone.fill("[name=points_a]", "62")
    phone.click("button.save")
    phone.wait_for_selector("#on-phone-hands li[data-state=queued]")
    # The form is for hand 2 now: no roefel, every team and suit can be chosen.
    assert phone.inner_text("button.save").endswith("2")
    assert phone.is_hidden("#roefel-notice")
    assert not phone.is_disabled("fieldset.playing input[value=A]")
    assert not phone.is_disabled("[name=trump] option[value=H]")
    shot(phone, "roefel-free-on-hand-two")

    phone.context.set_offline(False)
    phone.wait_for_selector("#hand-1")
    hand = Hand.objects.get()
    assert (hand.number, hand.playing, hand.trump) == (1, "B", "C")
    assert Game.objects.get(pk=table.game.pk).total_b == 100


def test_the_trick_checker_offers_to_record_a_renege_as_verzaken(page, live_server, club, shot):
    table = table_of(club)
    page.goto(f"{live_server.url}/trickcheck/?table={table.token}")
    page.wait_for_selector("#tc-grid button")
    setup(page, trump="S", leader="E", playing="A")
    tap(page, "AD 7C 7D 8D")  # East leads A♦, South plays 7♣
    tap(page, "TD 9D QD KD")  # ... and later a ♦: South reneged, team A
    link = page.locator("#tc-record-verzaken")
    assert link.get_attribute("data-team") == "A"
    assert link.inner_text() == "Record hand 1 as verzaken by wij"
    parts = urlsplit(link.get_attribute("href"))
    assert parts.path == f"/t/{table.token}/"
    query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    assert query == {
        "playing": "A",
        "verzaakt": "A",
        "roem_a": "0",
        "roem_b": "0",
        "trump": "S",
        "hand": "1",
    }
    shot(page, "record-as-verzaken")
    link.click()
    page.wait_for_selector("#hand-form")
    assert page.is_checked("fieldset.verzaakt-choice input[value=A]")
    # entry/form.js (deferred) locks the card points of a form that starts verzaakt.
    page.wait_for_selector("[name=points_a]:disabled", timeout=5000)
    assert page.input_value("[name=trump]") == "S"


# The page's words are checked in English, the site's second language.
@pytest.fixture
def page(browser):
    context = browser.new_context(locale="en-US", viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        locale="en-US",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
