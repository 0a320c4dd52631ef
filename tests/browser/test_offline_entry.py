"""A table's phone when the hall's Wi-Fi drops: hands are kept on the phone, survive a
reload without a connection (the service worker keeps the page) and are sent once
each, in order, when the connection returns. A hand entered meanwhile on another
device is shown beside the phone's and never stored over.

This also covers the page's scripts (static/js/entry/): the queue in localStorage,
the entry ids, the conflict panel, resending after a lost answer.
"""

import json
import re

import pytest

from scoring import rules
from scoring.models import Game, Hand
from scoring.services import HandInput, hand_record
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)

# (playing, card points wij, roem wij, roem zij): made, nat, made with roem, pit...
PLAN = [
    ("A", 100, 0, 0),
    ("B", 70, 0, 20),
    ("A", 120, 50, 0),
    ("A", 80, 0, 0),  # nat: wij played and took 80 of 162
    ("B", 0, 0, 0),  # pit for zij
]


@pytest.fixture
def table(club, drawn_evening):
    director = factories.role(club, "director")
    return drawn_evening(club, director).tables[0]


def open_entry(page, live_server, table):
    page.goto(f"{live_server.url}/t/{table.token}/")
    page.wait_for_selector("#hand-form")


def wait_offline_ready(page):
    """The service worker controls the page and keeps it and its files."""
    page.wait_for_selector("html[data-offline-ready]", state="attached")


def enter(page, playing, points_a, roem_a=0, roem_b=0):
    keeper = page.locator("fieldset.keeper")
    if keeper.count() and keeper.is_visible():
        page.locator("fieldset.keeper input[value=A]").check(force=True)
    page.locator(f"fieldset.playing input[value={playing}]").check(force=True)
    if playing == "B" and points_a == 0:
        open_more(page)
        page.locator("fieldset.pit-choice label.segment").nth(2).click()  # beside the bar
    else:
        page.fill("[name=points_a]", str(points_a))
    page.fill("[name=roem_a]", str(roem_a) if roem_a else "")
    page.fill("[name=roem_b]", str(roem_b) if roem_b else "")
    page.click("button.save")


def open_more(page):
    """Unfold the less common fields of the hand form: pit, verzaakt, trump."""
    more = page.locator("details.more-fields")
    if more.get_attribute("open") is None:
        more.locator("summary").click()


def queued(page, state="queued"):
    return page.locator(f"#on-phone-hands li[data-state={state}]")


def planned_totals():
    ruleset = rules.get_ruleset("rotterdam")
    scores = [
        rules.score_hand(
            ruleset,
            playing=playing,
            points=(points_a, 162 - points_a),
            roem=(roem_a, roem_b),
            pit="B" if (playing == "B" and points_a == 0) else None,
        ).scores
        for playing, points_a, roem_a, roem_b in PLAN
    ]
    return sum(s[0] for s in scores), sum(s[1] for s in scores)


def test_hands_entered_offline_survive_a_reload_and_are_sent_once_in_order(
    phone, live_server, table, shot
):
    context = phone.context
    open_entry(phone, live_server, table)
    wait_offline_ready(phone)
    for number, (playing, points_a, roem_a, roem_b) in enumerate(PLAN[:2], start=1):
        enter(phone, playing, points_a, roem_a, roem_b)
        phone.wait_for_selector(f"#hand-{number}")  # saved, and the page shows it
    assert Hand.objects.count() == 2
    shot(phone, "two-hands-online")

    context.set_offline(True)
    for index, (playing, points_a, roem_a, roem_b) in enumerate(PLAN[2:], start=3):
        enter(phone, playing, points_a, roem_a, roem_b)
        assert queued(phone).count() == index - 2
    assert phone.inner_text("button.save").endswith("6")
    assert "6" in phone.inner_text("#hand-status")
    assert phone.is_visible("#on-phone.is-offline")
    shot(phone, "three-hands-kept-offline")
    assert Hand.objects.count() == 2
    key = f"klaverjas.entry.{table.token}"
    kept = json.loads(phone.evaluate("key => localStorage.getItem(key)", key))
    assert [hand["number"] for hand in kept["queue"]] == [3, 4, 5]
    ids = [hand["id"] for hand in kept["queue"]]
    assert len(set(ids)) == 3 and all(re.fullmatch(r"[0-9a-f-]{32,36}", i) for i in ids)

    phone.reload()  # without a connection: the service worker's copy of the page
    phone.wait_for_selector("html[data-offline-copy]", state="attached")
    assert queued(phone).count() == 3
    assert [queued(phone).nth(i).get_attribute("data-number") for i in range(3)] == [
        "3",
        "4",
        "5",
    ]
    assert phone.locator("#hand-2").count() == 1  # the stored hands as last loaded
    assert phone.inner_text("button.save").endswith("6")
    shot(phone, "reloaded-offline")
    assert Hand.objects.count() == 2

    context.set_offline(False)
    # Sent in order; then the page is loaded from the server again.
    phone.wait_for_selector("#hand-5")
    phone.wait_for_selector("html:not([data-offline-copy])", state="attached")
    assert queued(phone).count() == 0
    shot(phone, "back-online-all-sent")

    hands = list(Hand.objects.order_by("number"))
    assert [h.number for h in hands] == [1, 2, 3, 4, 5]
    assert [(h.playing, h.points_a, h.roem_a, h.roem_b) for h in hands] == PLAN
    assert len({h.client_id for h in hands}) == 5 and all(hands[i].client_id for i in range(5))
    game = Game.objects.get(pk=table.game.pk)
    assert (game.total_a, game.total_b) == planned_totals()
    assert game.hands_entered == 5 and game.version == 5
    assert (
        phone.evaluate("key => localStorage.getItem(key)", key) is None
    )  # nothing left on the phone


def test_a_hand_entered_meanwhile_on_another_device_is_shown_beside_the_phones(
    phone, live_server, table, shot
):
    open_entry(phone, live_server, table)
    wait_offline_ready(phone)
    enter(phone, "A", 100)
    phone.wait_for_selector("#hand-1")

    phone.context.set_offline(True)
    enter(phone, "A", 120, roem_a=20)  # the phone's hand 2, kept offline
    assert queued(phone).count() == 1
    # Meanwhile another phone at the table enters hand 2 differently.
    hand_record(
        game=Game.objects.get(pk=table.game.pk),
        data=HandInput(playing="B", points_a=60, points_b=102),
        number=2,
    )
    phone.context.set_offline(False)

    refusal = phone.locator("#on-phone-refusal")
    refusal.wait_for()
    text = refusal.inner_text()
    shot(phone, "conflict-both-versions")
    assert "2" in text
    assert "120" in refusal.locator("dd.mine").inner_text()
    assert "60" in refusal.locator("dd.stored").inner_text()
    assert queued(phone, "refused").count() == 1
    # Nothing was stored over the other device's hand, nor after it.
    hands = list(Hand.objects.order_by("number"))
    assert [(h.number, h.playing, h.points_a) for h in hands] == [(1, "A", 100), (2, "B", 60)]

    # The scorer keeps the other device's hand: the phone drops its own and the
    # page shows the server's.
    refusal.locator("button[data-action=drop]").click()
    phone.wait_for_selector("#hand-2")
    phone.wait_for_selector("#on-phone-refusal", state="hidden")
    assert queued(phone).count() == 0 and queued(phone, "refused").count() == 0
    shot(phone, "conflict-resolved")
    assert Hand.objects.count() == 2


def test_a_conflicting_hand_can_be_saved_as_the_next_one(phone, live_server, table, shot):
    open_entry(phone, live_server, table)
    phone.context.set_offline(True)
    enter(phone, "A", 110)
    hand_record(
        game=Game.objects.get(pk=table.game.pk),
        data=HandInput(playing="A", points_a=90, points_b=72),
        number=1,
        keeper="A",
    )
    phone.context.set_offline(False)
    phone.locator("#on-phone-refusal button[data-action=renumber]").click()
    phone.wait_for_selector("#hand-2")
    assert list(Hand.objects.order_by("number").values_list("number", "points_a")) == [
        (1, 90),
        (2, 110),
    ]
    shot(phone, "saved-as-next")


def test_a_lost_answer_is_sent_again_and_stored_once(browser, live_server, table, shot):
    """The server stores the hand but the phone never hears it: it sends again with
    the same entry id and the server answers that it has it. As on the club laptop's
    plain http: no service worker and no crypto.randomUUID (the queue needs neither)."""
    context = browser.new_context(
        locale="en-US", viewport={"width": 390, "height": 844}, service_workers="block"
    )
    # Plain http on the club laptop's network is no secure context: no randomUUID.
    context.add_init_script("delete Crypto.prototype.randomUUID")
    page = context.new_page()
    page.set_default_timeout(15_000)
    answers = []

    def lose_first_answer(route):
        response = route.fetch()  # the server stores it ...
        answers.append(response.status)
        if len(answers) == 1:
            route.abort("connectionreset")  # ... and the answer is lost
        else:
            route.fulfill(response=response)

    try:
        page.route(re.compile(r".*/hands\.json$"), lose_first_answer)
        open_entry(page, live_server, table)
        enter(page, "A", 100)
        page.wait_for_selector("#hand-1", timeout=30_000)
        assert answers == [201, 200]
        assert Hand.objects.count() == 1
        assert re.fullmatch(r"[0-9a-f]{32}", Hand.objects.get().client_id)
        assert queued(page).count() == 0
        shot(page, "resent-once")
    finally:
        context.close()


def test_a_mistake_is_shown_on_the_form_and_nothing_is_kept(phone, live_server, table):
    open_entry(phone, live_server, table)
    phone.locator("fieldset.keeper input[value=A]").check(force=True)
    phone.locator("fieldset.playing input[value=A]").check(force=True)
    phone.fill("[name=points_a]", "100")
    phone.fill("[name=points_b]", "70")
    phone.click("button.save")
    assert phone.locator(".field.wij.invalid").count() == 1
    assert "162" in phone.inner_text(".field.wij .field-error")
    assert queued(phone).count() == 0
    # A rule only the server knows (roem of 30): the hand comes back to the form.
    phone.fill("[name=points_b]", "")
    phone.fill("[name=roem_a]", "30")
    phone.click("button.save")
    phone.wait_for_selector(".field.wij.invalid >> [name=roem_a]")
    assert phone.input_value("[name=roem_a]") == "30"
    phone.fill("[name=roem_a]", "20")
    phone.click("button.save")
    phone.wait_for_selector("#hand-1")
    assert list(Hand.objects.values_list("roem_a", flat=True)) == [20]


def test_without_javascript_the_page_is_still_a_plain_form(browser, live_server, table, shot):
    context = browser.new_context(locale="en-US", java_script_enabled=False)
    page = context.new_page()
    try:
        open_entry(page, live_server, table)
        page.locator("fieldset.keeper input[value=A]").check(force=True)
        page.locator("fieldset.playing input[value=A]").check(force=True)
        page.fill("[name=points_a]", "100")
        page.click("button.save")
        page.wait_for_selector("#hand-1")
        assert page.locator("#on-phone").is_hidden()
        shot(page, "no-javascript")
    finally:
        context.close()
    assert Hand.objects.get().points_a == 100


def test_the_round_page_codes_open_the_tables_on_a_phone(page, phone, live_server, table, shot):
    club = table.round.evening.competition.club
    factories.role(club, "scorer", factories.user("teller"))
    from tests.browser.conftest import login

    login(page, live_server, "teller")
    page.goto(f"{live_server.url}/clubs/{club.slug}/rounds/{table.round.pk}/qr/")
    cards = page.locator(".qr-card")
    assert cards.count() == 2
    assert page.locator(".qr-card svg.qr-code").first.bounding_box()["width"] > 150
    shot(page, "round-qr-codes")
    link = cards.first.locator(".qr-url a").get_attribute("href")
    assert link == f"{live_server.url}/t/{table.token}/"
    phone.goto(link)
    phone.wait_for_selector("#hand-form")


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
