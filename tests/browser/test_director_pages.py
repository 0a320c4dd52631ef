"""The director's pages in the browser: the paper-sheet grid, questions before undoing."""

import pytest

from scoring.models import Hand
from tests import factories
from tests.browser.conftest import login
from tournaments.models import Round

pytestmark = pytest.mark.django_db(transaction=True)


def test_changing_one_teams_points_on_a_stored_row_moves_the_other(
    page, live_server, shot, drawn_evening
):
    club = factories.club(name="De Boom", slug="de-boom")
    director = factories.role(club, "director", factories.user("leider"))
    table = drawn_evening(club, director).tables[0]
    factories.hands(table.game, 2, keeper="A")  # two hands of 100 - 62
    login(page, live_server, "leider")
    page.goto(f"{live_server.url}/clubs/de-boom/tables/{table.pk}/sheet/")
    page.fill("input[name=h1-points_a]", "90")
    assert page.input_value("input[name=h1-points_b]") == "72"
    page.fill("input[name=h2-points_b]", "70")
    assert page.input_value("input[name=h2-points_a]") == "92"
    # Typed on both sides, a row is a cross-check: the first side stays as typed.
    page.fill("input[name=h2-points_a]", "93")
    page.fill("input[name=h2-points_b]", "69")
    assert page.input_value("input[name=h2-points_a]") == "93"
    page.fill("input[name=reason]", "Overgenomen van de tellijst")
    shot(page, "grid-corrected")
    with page.expect_navigation():
        page.click("button:has-text('Tellijst opslaan')")
    points = list(Hand.objects.order_by("number").values_list("points_a", "points_b"))
    assert points == [(90, 72), (93, 69)]


def test_taking_back_a_draw_asks_first_and_a_no_keeps_it(page, live_server, shot, drawn_evening):
    club = factories.club(name="De Boom", slug="de-boom")
    director = factories.role(club, "director", factories.user("leider"))
    round_ = drawn_evening(club, director).round
    login(page, live_server, "leider")
    page.goto(f"{live_server.url}{round_.get_absolute_url()}")
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.click("button:has-text('loting terugdraaien')")
    page.wait_for_timeout(300)
    assert Round.objects.filter(pk=round_.pk).exists()
    assert len(questions) == 1
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.click("button:has-text('loting terugdraaien')")
    assert not Round.objects.filter(pk=round_.pk).exists()
