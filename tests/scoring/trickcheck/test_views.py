"""The trick checker's pages: the rule set on the page as JSON, for anyone."""

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from scoring.rules import PRESET_NAMES
from scoring.trickcheck.views import SERVICE_WORKER
from tests import factories

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[3] / "static"


def page_data(response):
    match = re.search(
        r'<script id="ruleset" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match, "the rule set is on the page as JSON"
    return json.loads(match.group(1))


def test_anyone_gets_the_presets_default_rotterdam(client):
    response = client.get(reverse("trickcheck:check"))
    assert response.status_code == 200
    data = page_data(response)
    assert data["fixed"] is False
    assert data["selected"] == "rotterdam"
    assert [r["key"] for r in data["rulesets"]] == list(PRESET_NAMES)
    amsterdam = data["rulesets"][1]
    assert amsterdam["play_rule"] == "amsterdam"
    assert set(amsterdam) == {
        "key",
        "label",
        "name",
        "nat_basis",
        "nat_roem",
        "pit_bonus",
        "play_rule",
        "roem_rule",
        "low_fours",
    }
    assert data["table"] is None


@pytest.mark.parametrize(("asked", "selected"), [("amsterdam", "amsterdam"), ("nope", "rotterdam")])
def test_a_preset_can_be_asked_for(client, asked, selected):
    response = client.get(reverse("trickcheck:check"), {"rules": asked})
    assert page_data(response)["selected"] == selected


def test_the_page_loads_its_rules_core_ui_and_the_js_catalog(client):
    html = client.get(reverse("trickcheck:check")).content.decode()
    assert "js/trickcheck-core.js" in html
    assert "js/trickcheck.js" in html
    assert "css/trickcheck.css" in html
    assert reverse("javascript-catalog") in html


def test_assets_come_from_the_site_only():
    for name in ("js/trickcheck-core.js", "js/trickcheck.js", "css/trickcheck.css"):
        text = (STATIC / name).read_text()
        assert "http://" not in text and "https://" not in text, name
        assert "import " not in text and "require(" not in text.replace("typeof module", ""), name


def test_a_tables_link_gives_its_rules_names_forehand_and_entry_page(
    client, django_assert_num_queries
):
    club = factories.club()
    table = factories.drawn_round(
        club, players=4, ruleset_preset="amsterdam", ruleset_overrides={"pit_bonus": 50}
    ).table
    url = reverse("trickcheck:check")
    with django_assert_num_queries(3):  # table with its game, seats, hands
        response = client.get(url, {"table": table.token})
    assert response.status_code == 200
    data = page_data(response)
    assert data["fixed"] is True
    [rules] = data["rulesets"]
    assert rules["play_rule"] == "amsterdam"
    assert rules["pit_bonus"] == 50
    assert "Wintercompetitie" in rules["label"]
    table_data = data["table"]
    assert table_data["entry_url"] == reverse("scoring:table-entry", kwargs={"token": table.token})
    assert table_data["hand"] == 1
    assert table_data["leader"] == 1  # North deals hand 1: East leads
    assert table_data["can_copy"] is True
    assert sorted(table_data["names"]) == ["0", "1", "2", "3"]
    assert 'name="robots" content="noindex' in response.content.decode()


def test_an_unknown_table_is_not_found(client):
    response = client.get(reverse("trickcheck:check"), {"table": "no-such-table"})
    assert response.status_code == 404


def test_a_closed_evening_offers_no_copy(client):
    from tournaments.models import Evening

    club = factories.club()
    table = factories.drawn_round(club, players=4).table
    Evening.objects.filter(pk=table.round.evening_id).update(status=Evening.Status.FINISHED)
    data = page_data(client.get(reverse("trickcheck:check"), {"table": table.token}))
    assert data["table"]["can_copy"] is False


def test_a_clubs_page_uses_the_clubs_rules(client):
    club = factories.club(ruleset_preset="match-1500")
    response = client.get(reverse("trickcheck:club-check", kwargs={"club": club.slug}))
    assert response.status_code == 200
    [rules] = page_data(response)["rulesets"]
    assert rules["roem_rule"] == "declared"
    assert rules["nat_roem"] == "kept_by_each"
    assert club.name in rules["label"]


def test_a_private_clubs_checker_is_not_found_for_strangers(client):
    club = factories.club(results_public=False)
    response = client.get(reverse("trickcheck:club-check", kwargs={"club": club.slug}))
    assert response.status_code == 404


def test_the_club_page_links_to_the_checker(client):
    club = factories.club()
    html = client.get(club.get_absolute_url()).content.decode()
    assert reverse("trickcheck:club-check", kwargs={"club": club.slug}) in html


def test_the_table_link_include(client):
    from django.template.loader import render_to_string

    club = factories.club()
    table = factories.drawn_round(club, players=4).table
    html = render_to_string("scoring/trickcheck/table_link.html", {"table": table})
    assert f"{reverse('trickcheck:check')}?table={table.token}" in html


def test_the_service_worker_is_served_for_the_checkers_pages(client):
    response = client.get(reverse("trickcheck:service-worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == reverse("trickcheck:check")
    assert response.content.decode() == SERVICE_WORKER
    assert "no-cache" in response["Cache-Control"]
