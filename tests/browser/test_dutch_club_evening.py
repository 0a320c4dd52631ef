"""Issue 18's "Done when": one club evening in the browser, in Dutch, on the director's
pages, a table's phone (390x844) and the TV board.

The director sets up a competition and an evening (ISO date inputs), taps the players
present (no reload), draws round 1. Table 1's phone enters a whole boompje; hand 8 is
refused by the server while hand 9 waits behind it: hand 8 comes back on the form with
the message beside its field and hand 9 is not sent until it is fixed. After every save
the points field has the focus and is in view. The other team confirms; the director
corrects a hand in the grid (one team's points typed, the other's follow) with a reason.
Table 2 plays through the services. While it is unconfirmed the result is provisional
and names no winner; once it is confirmed and the evening closed, the result names the
winner, and the TV board shows every column at 1280x720 and 1920x1080.
"""

import pytest

from scoring import services
from scoring.models import Hand
from tests import factories
from tests.browser.conftest import login
from tests.browser.test_board import SCREENS, state
from tests.browser.test_offline_entry import enter, queued
from tests.browser.test_phone_entry import focused_name, in_viewport
from tests.scoring.test_table_entry import names_of
from tournaments.models import Competition, Table

pytestmark = pytest.mark.django_db(transaction=True)

#: Table 1's boompje: (playing, card points wij). Hand 8 goes with roem 30 (no such roem).
HANDS = [("A" if n % 2 == 0 else "B", 110 if n % 2 == 0 else 70) for n in range(16)]
REFUSED = 8


def test_a_club_evening_in_dutch_from_set_up_to_the_tv_board(
    page, phone, browser, live_server, shot
):
    club = factories.club(name="KC De Boom", slug="de-boom")
    factories.role(club, "director", factories.user("leider"))
    for n in range(1, 9):
        factories.member(club, f"Speler {n}")

    # --- Set up: a competition and an evening, the dates as ISO ---------------------------
    login(page, live_server, "leider")
    page.goto(f"{live_server.url}/clubs/de-boom/")
    page.click("text=Nieuwe competitie")
    page.fill("#id_name", "Wintercompetitie")
    for field, date in (("#id_start_date", "2026-09-01"), ("#id_end_date", "2027-05-31")):
        assert page.get_attribute(field, "type") == "date"
        page.fill(field, date)
        assert page.input_value(field) == date
    page.fill("#id_rounds_per_evening", "1")
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")
    season = Competition.objects.get(club=club)
    assert (str(season.start_date), str(season.end_date)) == ("2026-09-01", "2027-05-31")
    page.click("text=Nieuwe avond")
    assert page.get_attribute("#id_date", "type") == "date"
    page.fill("#id_date", "2026-10-06")
    assert page.input_value("#id_date") == "2026-10-06"
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")
    evening = season.evenings.get()
    assert str(evening.date) == "2026-10-06"

    # --- Attendance by tapping, without a reload ---------------------------------------------
    page.click("a.button:has-text('Aanwezigheid')")
    # A tap before the page's script runs is a plain post (and reloads): wait for it first.
    page.wait_for_url("**/attendance/")
    page.wait_for_load_state("load")
    page.evaluate("window.noReload = true")
    for n in range(1, 9):
        row = page.locator(f"#attendance li:has-text('Speler {n}')")
        assert row.locator("button[value=excused]").inner_text().strip() == "afmelden"
        toggle = row.locator("button.mark-present")
        assert toggle.inner_text().strip() == "Aanwezig"  # no tick while not present
        assert toggle.get_attribute("aria-pressed") == "false"
        toggle.click()
        row.locator(".badge.status-present").wait_for()
        assert row.locator("button.mark-present").get_attribute("aria-pressed") == "true"
        assert "✓" in row.locator("button.mark-present").inner_text()
    assert page.locator("#present-count").inner_text() == "8"
    assert page.evaluate("window.noReload") is True
    shot(page, "attendance")

    page.goto(f"{live_server.url}{evening.get_absolute_url()}")
    with page.expect_navigation():
        page.click("button:has-text('Ronde 1 loten')")
    tables = {t.number: t for t in Table.objects.filter(round__evening=evening)}
    assert len(tables) == 2
    entry = page.locator(f"a[href='/t/{tables[1].token}/']").first.get_attribute("href")

    # --- Table 1's phone: a boompje with a refused hand in the middle -----------------------
    phone.goto(live_server.url + entry)
    phone.wait_for_selector("#hand-form")
    for number, (playing, points_a) in enumerate(HANDS, start=1):
        if number == REFUSED:
            phone.context.set_offline(True)
            enter(phone, playing, points_a, roem_a=30)
            continue
        enter(phone, playing, points_a)
        if number == REFUSED + 1:
            assert queued(phone).count() == 2
            phone.context.set_offline(False)
            phone.wait_for_function(
                "() => document.querySelector('[name=roem_a]')"
                ".getAttribute('aria-invalid') === 'true'"
            )
            shot(phone, "refused-hand")
            assert phone.input_value("[name=roem_a]") == "30"
            assert phone.input_value("[name=points_a]") == str(HANDS[REFUSED - 1][1])
            note = phone.locator(".field.wij .field-error")
            assert note.get_attribute("role") == "alert" and note.inner_text().strip()
            assert phone.inner_text("button.save").strip() == f"Spel {REFUSED} opslaan"
            assert queued(phone, "refused").count() == 1
            phone.wait_for_timeout(300)
            assert Hand.objects.filter(game__table=tables[1]).count() == REFUSED - 1
            phone.fill("[name=roem_a]", "20")
            phone.click("button.save")
        phone.wait_for_selector(f"#hand-{number}", state="attached")
        if number < len(HANDS):
            phone.wait_for_function("() => document.activeElement.name === 'playing'")
            assert focused_name(phone) == "playing"  # the next hand starts at the team
            assert in_viewport(phone, "[name=points_a]"), f"points off screen after {number}"
    shot(phone, "phone-16-hands")
    stored = Hand.objects.filter(game__table=tables[1]).order_by("number")
    assert [(h.number, h.points_a, h.roem_a) for h in stored] == [
        (n, points_a, 20 if n == REFUSED else 0)
        for n, (_playing, points_a) in enumerate(HANDS, start=1)
    ]

    confirm = phone.locator("#confirm-form")
    confirm.locator("label.segment").first.tap()
    with phone.expect_navigation():
        confirm.locator("button[type=submit]").tap()
    assert "Bevestigd" in phone.inner_text("#hand-status")

    # --- The director corrects hand 3 in the grid --------------------------------------------
    page.goto(f"{live_server.url}/clubs/de-boom/tables/{tables[1].pk}/sheet/")
    page.fill("input[name=h3-points_b]", "62")
    assert page.input_value("input[name=h3-points_a]") == "100"
    page.fill("input[name=reason]", "Verkeerd overgenomen")
    with page.expect_navigation():
        page.click("button:has-text('Tellijst opslaan')")
    assert Hand.objects.get(game__table=tables[1], number=3).points_a == 100
    row = page.locator(f"#table-{tables[1].pk}")
    assert "gecorrigeerd door leider: Verkeerd overgenomen" in row.inner_text()
    shot(page, "corrected")

    # --- Table 2 plays through the services; unconfirmed, the result is provisional ----------
    game = factories.hands(tables[2].game, 16, keeper="A")
    result_url = f"{live_server.url}/clubs/de-boom/evenings/{evening.pk}/result/"
    page.goto(result_url)
    shot(page, "provisional-result")
    assert page.inner_text("h1").startswith("Voorlopige uitslag")
    assert "1 van 2 tafels bevestigd" in page.inner_text(".live")
    assert page.locator("tr.winner, .badge:has-text('winnaar')").count() == 0

    # --- All confirmed, the evening closed: the result names the winner ---------------------
    services.game_confirm(game=game, name=names_of(tables[2]).b[0])
    page.goto(f"{live_server.url}{evening.get_absolute_url()}")
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
    with page.expect_navigation():
        page.click("button:has-text('Avond afsluiten')")
    assert len(questions) == 1
    page.goto(result_url)
    shot(page, "final-result")
    assert page.inner_text("h1").startswith("Uitslag")
    assert page.locator(".live").count() == 0
    # Table 2's wij made every hand (1600 against 992): both its players win the evening.
    winners = page.locator("tr:has(.badge:text-is('winnaar')) td a").all_inner_texts()
    assert sorted(winners) == sorted(names_of(tables[2]).a)

    # --- The TV board shows every column on both screens -----------------------------------
    for screen in SCREENS:
        context = browser.new_context(locale="nl-NL", viewport=screen)
        try:
            board = context.new_page()
            board.goto(result_url + "?board=1")
            board.wait_for_selector("[data-board-ready]", state="attached")
            seen = state(board)
            shot(board, f"board-{screen['width']}x{screen['height']}")
            assert seen["overflow"] <= 0 and seen["headsVisible"], (screen, seen)
            assert seen["rows"] == 8
        finally:
            context.close()
