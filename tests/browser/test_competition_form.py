"""The competition form in the browser: choosing a preset sets the fields the
director did not change to that preset's values (static/js/ruleset-form.js), and a
side ranking's numbers show only while it is ticked (static/js/side-rankings.js)."""

import pytest
from django.urls import reverse

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


def side_fields(page, kind):
    return page.locator(f"[data-side-ranking={kind}]")


def test_a_side_rankings_numbers_show_while_it_is_ticked(page, live_server, shot):
    club = factories.club(name="KC De Boom", slug="de-boom")
    factories.role(club, "director", factories.user("leider"))
    season = factories.competition(
        club, side_rankings=[{"kind": "points", "best_of": 6, "min_attendance": 4}]
    )
    login(page, live_server, "leider")
    edit = reverse("tournaments:competition-edit", kwargs={"club": club.slug, "pk": season.pk})
    page.goto(f"{live_server.url}{edit}")
    page.wait_for_load_state("load")  # the deferred script has run

    assert side_fields(page, "points").count() == 2
    assert side_fields(page, "marsen").count() == 2
    for field in ("#id_points_best_of", "#id_points_min_attendance"):
        assert page.locator(field).is_visible()
    for field in ("#id_marsen_best_of", "#id_marsen_min_attendance"):
        assert page.locator(field).is_hidden()
    shot(page, "marsen-not-ticked")

    page.check("input[name=side_rankings][value=marsen]")
    for field in ("#id_marsen_best_of", "#id_marsen_min_attendance"):
        assert page.locator(field).is_visible()
    # The labels still name their fields.
    assert page.get_by_label("Meeste marsen: aantal beste avonden dat telt").is_visible()
    page.fill("#id_marsen_best_of", "5")
    page.fill("#id_marsen_min_attendance", "3")
    page.fill("#id_points_best_of", "7")
    shot(page, "marsen-ticked")

    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")
    page.wait_for_load_state()
    season.refresh_from_db()
    assert season.side_rankings == [
        {"kind": "points", "best_of": 7, "min_attendance": 4},
        {"kind": "marsen", "best_of": 5, "min_attendance": 3},
    ]

    # Unticked again, its numbers hide and are not kept.
    page.goto(f"{live_server.url}{edit}")
    page.wait_for_load_state("load")
    assert page.locator("#id_marsen_best_of").is_visible()
    page.uncheck("input[name=side_rankings][value=points]")
    assert page.locator("#id_points_best_of").is_hidden()
    assert page.locator("#id_points_min_attendance").is_hidden()
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")
    season.refresh_from_db()
    assert season.side_rankings == [{"kind": "marsen", "best_of": 5, "min_attendance": 3}]


def test_without_javascript_every_side_rankings_numbers_show(browser, live_server):
    club = factories.club(name="KC De Boom", slug="de-boom")
    factories.role(club, "director", factories.user("leider"))
    context = browser.new_context(locale="nl-NL", java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        login(page, live_server, "leider")
        page.goto(f"{live_server.url}/clubs/de-boom/competitions/new/")
        for field in (
            "#id_points_best_of",
            "#id_points_min_attendance",
            "#id_marsen_best_of",
            "#id_marsen_min_attendance",
        ):
            assert page.locator(field).is_visible()
    finally:
        context.close()
