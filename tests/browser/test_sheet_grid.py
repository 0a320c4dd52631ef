"""The director's grid in the browser, typed as the score sheet writes a row: a pit
is 162 | 100 | M (262, not 362), and a match to 1500 takes declarations only."""

import pytest
from django.utils import translation

from scoring.messages import SHEET_BONUS_MESSAGES
from scoring.models import Game, Hand
from tests import factories
from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)


def open_grid(page, live_server, table):
    page.goto(f"{live_server.url}/clubs/de-boom/tables/{table.pk}/sheet/")


def start(page, live_server, director, preset):
    """A drawn table of a competition under ``preset``, its grid open for the director."""
    club, user = director
    table = factories.drawn_round(club, user, players=4, ruleset_preset=preset).table
    login(page, live_server, "leider")
    open_grid(page, live_server, table)
    return table


def type_pit(page, number, team, roem):
    """Row ``number``: ``team`` played and took every trick, ``roem`` in its roem column."""
    side = "a" if team == "A" else "b"
    page.select_option(f"select[name=h{number}-playing]", team)
    page.fill(f"input[name=h{number}-points_{side}]", "162")
    page.fill(f"input[name=h{number}-roem_{side}]", roem)
    page.fill(f"input[name=h{number}-mark_{side}]", "M")  # the club's default marks


def save(page):
    with page.expect_navigation():
        page.click("button:has-text('Tellijst opslaan')")


@pytest.fixture
def director(transactional_db):
    club = factories.club(name="De Boom", slug="de-boom")
    return club, factories.role(club, "director", factories.user("leider"))


def test_a_pit_typed_as_the_sheet_writes_it_is_stored_as_262(page, live_server, shot, director):
    table = start(page, live_server, director, "rotterdam")
    type_pit(page, 1, "A", "100")  # as the filled sheet writes a pit: 162 | 100 | M
    assert page.input_value("input[name=h1-points_b]") == "0"
    type_pit(page, 2, "B", "120")  # a pit with 20 roem: 162 | 120 | M
    shot(page, "typed")
    save(page)
    hands = list(Hand.objects.order_by("number").values_list("score_a", "score_b", "roem_a"))
    assert hands == [(262, 0, 0), (0, 282, 0)]
    game = Game.objects.get(pk=table.game.pk)
    assert (game.total_a, game.total_b, game.marsen_a, game.marsen_b) == (262, 282, 1, 1)
    # The grid shows the rows again as the sheet writes them, with the totals.
    open_grid(page, live_server, table)
    assert page.input_value("input[name=h1-roem_a]") == "100"
    assert page.input_value("input[name=h2-roem_b]") == "120"
    status = page.locator("main p:has(.badge)").inner_text()
    assert "wij 262" in status and "zij 282" in status
    assert page.input_value("input[name=h1-mark_a]") == "M"
    shot(page, "stored")


def test_a_pit_with_less_than_the_bonus_is_refused_and_says_how(page, live_server, shot, director):
    start(page, live_server, director, "rotterdam")
    type_pit(page, 1, "A", "20")
    save(page)
    with translation.override("nl"):
        message = str(SHEET_BONUS_MESSAGES["pit"]) % {"bonus": 100, "example": 120}
    errors = page.locator(".row-errors").inner_text()
    assert message in errors, errors
    # The keyboard starts at the wrong field.
    assert page.evaluate("document.activeElement.name") == "h1-roem_a"
    assert not Hand.objects.exists()
    shot(page, "refused")


def test_a_match_to_1500_takes_declarations_only(page, live_server, shot, director):
    start(page, live_server, director, "match-1500")
    assert page.locator("input[name=h1-roem_a]").count() == 0
    page.select_option("select[name=h1-playing]", "A")
    page.fill("input[name=h1-points_a]", "100")
    page.fill("input[name=h1-declared_a]", "20")
    page.fill("input[name=h1-declared_b]", "50")
    shot(page, "declared")
    save(page)
    hand = Hand.objects.get()
    # B's run of four beats A's run of three: only B's counts (a total would give 120/112).
    assert (hand.score_a, hand.score_b) == (100, 112)
