"""Declared roem at the table (match-1500): the scorer taps what each team declared,
the preview says which roem counts, and a hand kept on the phone while offline
carries its declarations when it is sent."""

import pytest

from scoring.models import Game, Hand
from tests import factories
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(club):
    director = factories.role(club, "director")
    season = factories.competition(club, ruleset_preset="match-1500")
    members = factories.members(club, 4)
    evening = factories.evening(season, present=members)
    round_ = tournament_services.round_draw(evening=evening, by=director, seed=1)
    return round_.tables.select_related("game").get()


def _start(phone, live_server, table):
    phone.goto(f"{live_server.url}/t/{table.token}/")
    phone.wait_for_selector("#hand-form")
    phone.locator("fieldset.keeper input[value=A]").check(force=True)


def _tap(phone, team, *items):
    for item in items:
        phone.click(f".declare-buttons[data-for=id_declared_{team}] button[data-declare='{item}']")


def test_the_buttons_write_the_declarations_and_the_preview_says_what_counts(
    phone, live_server, table, shot
):
    _start(phone, live_server, table)
    phone.locator("fieldset.playing input[value=A]").check(force=True)
    phone.fill("[name=points_a]", "100")
    _tap(phone, "a", "20", "stuk")
    _tap(phone, "b", "50")
    assert phone.input_value("[name=declared_a]") == "20+stuk"
    assert phone.input_value("[name=declared_b]") == "50"
    preview = phone.locator("output.preview")
    preview.filter(has_text="120").wait_for()
    # "Gehaald: wij krijgen 120, zij krijgen 112 · roem die telt: wij 20, zij 50"
    text = preview.inner_text()
    assert "112" in text and "wij 20, zij 50" in text
    shot(phone, "declared-preview")
    _tap(phone, "a", "")  # clear
    assert phone.input_value("[name=declared_a]") == ""
    _tap(phone, "a", "20")
    phone.click("button.save")
    phone.wait_for_selector("#hand-1")
    hand = Hand.objects.get()
    assert (hand.declared_a, hand.declared_b, hand.score_a, hand.score_b) == ("20", "50", 100, 112)
    assert "(20)" in phone.inner_text("#hand-1") and "(50)" in phone.inner_text("#hand-1")
    shot(phone, "declared-saved")


def test_a_hand_kept_offline_is_sent_with_its_declarations(phone, live_server, table, shot):
    _start(phone, live_server, table)
    phone.wait_for_selector("html[data-offline-ready]", state="attached")
    phone.context.set_offline(True)
    phone.locator("fieldset.playing input[value=B]").check(force=True)
    phone.fill("[name=points_a]", "100")
    _tap(phone, "a", "50")
    _tap(phone, "b", "50")
    phone.click("button.save")
    kept = phone.locator("#on-phone-hands li[data-state=queued]")
    kept.first.wait_for()
    assert "50–50" in kept.first.inner_text()
    assert phone.input_value("[name=declared_a]") == ""  # the form is ready for hand 2
    shot(phone, "declared-kept-offline")
    assert not Hand.objects.exists()
    phone.context.set_offline(False)
    phone.wait_for_selector("#hand-1")
    hand = Hand.objects.get()
    # Equal runs go to zij, who played and is nat: zij keeps its 50.
    assert (hand.declared_a, hand.declared_b, hand.score_a, hand.score_b) == ("50", "50", 162, 50)
    game = Game.objects.get(pk=table.game.pk)
    assert (game.total_a, game.total_b) == (162, 50)


def test_the_trick_checker_copies_the_declarations_that_count_into_the_entry(
    phone, live_server, table, shot
):
    from urllib.parse import parse_qs, urlsplit

    from scoring.rules import format_declarations, simulate_deal
    from tests.browser.test_trickcheck import enter_deal

    deal = simulate_deal("match-1500", seed=4)  # zij's run and wij's stuk
    written = [format_declarations(deal.roem_entry()[i]) for i in (0, 1)]
    assert all(written)
    phone.goto(f"{live_server.url}/trickcheck/?table={table.token}")
    phone.wait_for_selector("#tc-grid button")
    enter_deal(phone, deal)
    copy = phone.locator("#tc-copy")
    query = parse_qs(urlsplit(copy.get_attribute("href")).query, keep_blank_values=True)
    assert [query["declared_a"][0], query["declared_b"][0]] == written
    copy.click()
    phone.wait_for_selector("#hand-form")
    assert [phone.input_value("[name=declared_a]"), phone.input_value("[name=declared_b]")] == (
        written
    )
    shot(phone, "copied-from-the-trick-checker")
    phone.locator("fieldset.keeper input[value=A]").check(force=True)
    phone.click("button.save")
    phone.wait_for_selector("#hand-1")
    hand = Hand.objects.get()
    assert (hand.score_a, hand.score_b) == deal.score().scores
    assert (hand.roem_a, hand.roem_b) == deal.roem
