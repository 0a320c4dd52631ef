"""The table's phone through a boompje (Issue 18): after a save the next hand's form is
in view and ready for digits; a refused hand comes back to the form and nothing is sent
behind it; a conflict shows the server's score sheet; mistakes are announced beside
their field. A 390x844 phone, in Dutch.
"""

import pytest

from scoring.models import Game, Hand
from scoring.services import HandInput, hand_record
from tests import factories
from tests.browser.test_accessibility import audit
from tests.browser.test_offline_entry import enter, open_entry, queued

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(club, drawn_evening):
    director = factories.role(club, "director")
    return drawn_evening(club, director).tables[0]


def in_viewport(page, selector):
    return page.evaluate(
        """selector => {
            const box = document.querySelector(selector).getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
        }""",
        selector,
    )


def focused_name(page):
    return page.evaluate("() => document.activeElement && document.activeElement.name")


def test_after_a_save_the_next_hand_is_in_view_with_the_focus_on_the_team(
    phone, live_server, table, shot
):
    open_entry(phone, live_server, table)
    for number, points in enumerate((100, 70, 120), start=1):
        enter(phone, "A", points)
        phone.wait_for_selector(f"#hand-{number}", state="attached")
        phone.wait_for_function(
            "n => document.querySelector('#hand-form [name=number]').value === String(n)",
            arg=number + 1,
        )
        phone.wait_for_function("() => document.activeElement.name === 'playing'")
        assert in_viewport(phone, "fieldset.playing"), f"no team buttons after hand {number}"
        assert in_viewport(phone, "[name=points_a]")
        assert in_viewport(phone, "#entry-news"), "the 'saved' message is off screen"
        assert phone.inner_text("#entry-news").startswith(f"Spel {number} opgeslagen")
        assert phone.get_attribute("#entry-news", "role") == "status"
        assert focused_name(phone) == "playing"
        shot(phone, f"after-hand-{number}")
    # An ordinary hand: team, digits, save, and nothing else.
    phone.locator("fieldset.playing label.segment").nth(1).tap()
    assert focused_name(phone) == "points_a"  # the tap on the team goes on to the points
    phone.keyboard.type("60")
    phone.click("button.save")
    phone.wait_for_selector("#hand-4", state="attached")
    assert Hand.objects.get(number=4).points_a == 60


def test_a_refused_hand_comes_back_to_the_form_and_nothing_behind_it_is_sent(
    phone, live_server, table, shot
):
    open_entry(phone, live_server, table)
    phone.context.set_offline(True)
    enter(phone, "A", 100, roem_a=30)  # roem of 30 does not exist: the server refuses it
    enter(phone, "B", 70)  # hand 2, kept behind it
    assert queued(phone).count() == 2
    # The scorer starts typing hand 3 when the connection returns.
    phone.locator("fieldset.playing input[value=B]").check(force=True)
    phone.fill("[name=points_a]", "44")
    phone.context.set_offline(False)

    roem = phone.locator("[name=roem_a]")
    phone.wait_for_function(
        "() => document.querySelector('[name=roem_a]').getAttribute('aria-invalid') === 'true'"
    )
    shot(phone, "refused-hand-back-on-the-form")
    assert roem.input_value() == "30"
    assert phone.input_value("[name=points_a]") == "100"
    note = phone.locator(".field.wij .field-error")
    assert note.get_attribute("role") == "alert"
    assert note.get_attribute("id") in roem.get_attribute("aria-describedby").split()
    assert "Spel 1 van 16" in phone.inner_text("#hand-status")
    assert phone.inner_text("button.save").strip() == "Spel 1 opslaan"
    assert focused_name(phone) == "roem_a"
    assert audit(phone) == []
    assert queued(phone).count() == 1 and queued(phone, "refused").count() == 1
    phone.wait_for_timeout(300)
    assert Hand.objects.count() == 0  # nothing sent behind the refused hand

    roem.fill("20")
    assert roem.get_attribute("aria-invalid") is None
    assert phone.locator(".field-error").count() == 0
    phone.click("button.save")
    # The hand being typed comes back after the correction.
    assert phone.input_value("[name=points_a]") == "44"
    assert phone.locator("fieldset.playing input[value=B]").is_checked()
    phone.wait_for_function("() => document.querySelectorAll('#on-phone-hands li').length === 2")
    phone.click("button.save")
    phone.wait_for_selector("#hand-3", state="attached")
    assert list(Hand.objects.order_by("number").values_list("number", "roem_a", "points_a")) == [
        (1, 20, 100),
        (2, 0, 70),
        (3, 0, 44),
    ]


def test_a_conflict_refreshes_the_score_sheet_and_waits_for_the_scorers_choice(
    phone, live_server, table, shot
):
    open_entry(phone, live_server, table)
    enter(phone, "A", 100)
    phone.wait_for_selector("#hand-1", state="attached")
    # Another phone at the table stores hand 2 meanwhile.
    hand_record(
        game=Game.objects.get(pk=table.game.pk),
        data=HandInput(playing="B", points_a=60, points_b=102),
        number=2,
    )
    enter(phone, "A", 120)
    phone.wait_for_selector("#on-phone-refusal:not([hidden])")
    phone.wait_for_selector("#score-sheet #hand-2")
    assert "102" in phone.inner_text("#score-sheet #hand-2")
    shot(phone, "conflict-sheet-refreshed")
    assert audit(phone) == []
    # Nothing can be typed behind the refused hand until the scorer chooses.
    assert phone.locator("#hand-form").is_hidden()
    assert "Spel 2 van 16" in phone.inner_text("#hand-status")
    phone.click("#on-phone-refusal button[data-action=renumber]")
    phone.wait_for_selector("#hand-3", state="attached")
    assert list(Hand.objects.order_by("number").values_list("number", "points_a")) == [
        (1, 100),
        (2, 60),
        (3, 120),
    ]


def test_a_mistake_is_announced_next_to_its_field_and_cleared_when_fixed(phone, live_server, table):
    open_entry(phone, live_server, table)
    phone.locator("fieldset.keeper input[value=A]").check(force=True)
    phone.click("button.save")
    playing = phone.locator("fieldset.playing")
    assert playing.locator(".field-error[role=alert]").count() == 1
    assert playing.get_attribute("aria-describedby") == "problem-playing"
    points = phone.locator("[name=points_a]")
    assert points.get_attribute("aria-invalid") == "true"
    error_id = phone.locator(".field.wij .field-error").get_attribute("id")
    assert error_id in points.get_attribute("aria-describedby").split()
    assert focused_name(phone) == "playing"
    phone.locator("fieldset.playing input[value=A]").check(force=True)
    assert playing.locator(".field-error").count() == 0
    phone.fill("[name=points_b]", "62")  # the other field fixes both
    assert points.get_attribute("aria-invalid") is None
    assert phone.locator(".invalid").count() == 0
