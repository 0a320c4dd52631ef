"""Declared roem and verzaken together on the phone (match-1500): the verzaakt choice
beside the declaration buttons, online and kept offline, and the trick checker's
"record as verzaken" link in a declared-roem match."""

from urllib.parse import parse_qs, urlsplit

import pytest

from scoring.models import Game, Hand
from tests.browser.test_offline_entry import open_more

from .test_trickcheck import setup, tap
from .test_verzaken_roefel import open_entry, page, phone, table_of  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def _declare(screen, team, *items):
    for item in items:
        screen.click(f".declare-buttons[data-for=id_declared_{team}] button[data-declare='{item}']")


def test_a_declared_verzaken_hand_is_tapped_in_and_the_preview_says_what_counts(
    phone,  # noqa: F811
    live_server,
    club,
    shot,
):
    table = table_of(club, ruleset_preset="match-1500")
    open_entry(phone, live_server, table)
    phone.locator("fieldset.keeper input[value=A]").check(force=True)
    phone.locator("fieldset.playing input[value=A]").check(force=True)
    open_more(phone)
    phone.locator("fieldset.verzaakt-choice label.segment").nth(1).click()
    assert phone.is_disabled("[name=points_a]") and phone.is_disabled("[name=points_b]")
    _declare(phone, "a", "20")
    _declare(phone, "b", "50", "stuk")
    assert phone.input_value("[name=declared_b]") == "50+stuk"
    phone.wait_for_function(
        "() => document.querySelector('#preview').textContent.includes('zij 70')"
    )
    assert phone.inner_text("#preview") == (
        "wij verzaakt: wij bank 0, zij bank 332 · roem that counts: wij 0, zij 70"
    )
    shot(phone, "declared-verzaken-preview")
    phone.click("button.save")
    phone.wait_for_selector("#hand-1")
    hand = Hand.objects.get()
    assert (hand.verzaakt, hand.declared_a, hand.declared_b) == ("A", "20", "50+stuk")
    assert (hand.points_a, hand.points_b, hand.score_a, hand.score_b) == (0, 162, 0, 332)
    assert phone.inner_text("#hand-1 td.wij .verzaakt [aria-hidden]") == "V"
    assert "(50+stuk)" in phone.inner_text("#hand-1 td.zij")
    shot(phone, "declared-verzaken-on-the-sheet")


def test_a_declared_verzaken_hand_kept_offline_is_sent_with_both(
    phone,  # noqa: F811
    live_server,
    club,
    shot,
):
    table = table_of(club, ruleset_preset="match-1500")
    open_entry(phone, live_server, table)
    phone.wait_for_selector("html[data-offline-ready]", state="attached")
    phone.context.set_offline(True)
    phone.locator("fieldset.keeper input[value=A]").check(force=True)
    phone.locator("fieldset.playing input[value=B]").check(force=True)
    open_more(phone)
    phone.locator("fieldset.verzaakt-choice label.segment").nth(2).click()
    _declare(phone, "a", "50")
    _declare(phone, "b", "50", "stuk")
    phone.click("button.save")
    kept = phone.locator("#on-phone-hands li[data-state=queued]")
    kept.first.wait_for()
    assert "declared 50–50+stuk, zij verzaakt" in kept.first.inner_text()
    assert phone.input_value("[name=declared_b]") == ""  # the form is ready for hand 2
    assert not phone.is_checked("fieldset.verzaakt-choice input[value=B]")
    shot(phone, "declared-verzaken-kept-offline")
    assert not Hand.objects.exists()
    phone.context.set_offline(False)
    phone.wait_for_selector("#hand-1")
    hand = Hand.objects.get()
    # Equal runs go to zij, who played and reneged: its run and stuk go to wij.
    assert (hand.verzaakt, hand.declared_a, hand.declared_b) == ("B", "50", "50+stuk")
    assert (hand.score_a, hand.score_b) == (332, 0)
    game = Game.objects.get(pk=table.game.pk)
    assert (game.total_a, game.total_b, game.verzaken_b) == (332, 0, 1)


def test_the_trick_checkers_verzaken_link_opens_a_declared_entry_page(
    page,  # noqa: F811
    live_server,
    club,
):
    table = table_of(club, ruleset_preset="match-1500")
    page.goto(f"{live_server.url}/trickcheck/?table={table.token}")
    page.wait_for_selector("#tc-grid button")
    setup(page, trump="S", leader="E", playing="A")
    tap(page, "AD 7C 7D 8D")  # East leads A♦, South plays 7♣
    tap(page, "TD 9D QD KD")  # ... and later a ♦: South reneged, team A
    link = page.locator("#tc-record-verzaken")
    query = parse_qs(urlsplit(link.get_attribute("href")).query, keep_blank_values=True)
    # The hand did not finish: no declarations are known yet; the scorer writes them.
    assert query["verzaakt"] == ["A"] and "declared_a" not in query
    link.click()
    page.wait_for_selector("#hand-form")
    assert page.is_checked("fieldset.verzaakt-choice input[value=A]")
    # entry/form.js (deferred) locks the card points of a form that starts verzaakt.
    page.wait_for_selector("[name=points_a]:disabled", timeout=5000)
    assert page.input_value("[name=declared_a]") == ""
    assert page.locator(".declare-buttons").first.is_visible()
