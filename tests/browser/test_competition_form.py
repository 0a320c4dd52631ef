"""The rule set on the competition form in the browser: choosing a preset sets the
fields the director did not change to that preset's values (static/js/ruleset-form.js)."""

import pytest

from scoring.rules import get_ruleset
from tests import factories
from tests.browser.conftest import login
from tournaments.models import Competition

pytestmark = pytest.mark.django_db(transaction=True)


def test_choosing_a_preset_sets_the_fields_and_keeps_the_directors_changes(page, live_server, shot):
    club = factories.club(name="KC De Boom", slug="de-boom")
    factories.role(club, "director", factories.user("leider"))
    login(page, live_server, "leider")
    page.goto(f"{live_server.url}/clubs/de-boom/competitions/new/")
    assert page.input_value("#id_hands_per_game") == "16"
    assert page.locator("#ruleset-changed").is_hidden()

    page.select_option("#id_ruleset_preset", "single-deal")
    assert page.input_value("#id_hands_per_game") == "1"
    assert page.input_value("#id_on_tie") == "draw"
    assert page.input_value("#id_ruleset_base") == "single-deal"
    assert page.locator("#ruleset-changed").is_visible()

    page.fill("#id_hands_per_game", "3")
    page.select_option("#id_ruleset_preset", "match-500")
    assert page.input_value("#id_hands_per_game") == "3"  # the director's own
    assert page.input_value("#id_game_end") == "target"
    assert page.input_value("#id_target_score") == "500"
    assert page.input_value("#id_play_rule") == "amsterdam"
    assert page.is_checked("#id_roefel")
    shot(page, "ruleset-form")

    page.fill("#id_name", "Zomerpartijen")
    page.fill("#id_start_date", "2027-06-01")
    page.fill("#id_end_date", "2027-08-31")
    page.click("form.stacked button[type=submit]")
    page.wait_for_load_state()
    competition = Competition.objects.get(name="Zomerpartijen")
    assert competition.ruleset() == get_ruleset("match-500").replace(hands_per_game=3)
    words = page.locator(".ranking-rules").inner_text()
    assert "500" in words and "roefel" in words
