"""Data migrations keep what every competition had: 0003 moves its hands per game into
its rule-set overrides, 0011 turns its side rankings' keys into definitions."""

import pytest

from tests import migrating
from tests.migrating import migrate

pytestmark = pytest.mark.django_db(transaction=True)
newest_migrations_afterwards = migrating.newest_migrations_afterwards

BEFORE = [("tournaments", "0002_leagues")]
AFTER = [("tournaments", "0003_competition_hands_per_game_into_ruleset")]


def test_hands_per_game_becomes_an_override_only_where_it_differs_from_the_preset():
    apps = migrate(BEFORE)
    Club = apps.get_model("clubs", "Club")
    Competition = apps.get_model("tournaments", "Competition")
    club = Club.objects.create(name="KC", slug="kc")
    rows = {
        "boompje": ("rotterdam", {}, 16),
        "twelve": ("amsterdam", {"pit_bonus": 50}, 12),
        "single": ("single-deal", {}, 1),
        "single-16": ("single-deal", {}, 16),  # made through the old form: 16 hands
    }
    for name, (preset, overrides, hands) in rows.items():
        Competition.objects.create(
            club=club,
            name=name,
            start_date="2026-09-01",
            end_date="2027-05-31",
            ruleset_preset=preset,
            ruleset_overrides=overrides,
            hands_per_game=hands,
        )
    try:
        apps = migrate(AFTER)
        Competition = apps.get_model("tournaments", "Competition")
        stored = dict(Competition.objects.values_list("name", "ruleset_overrides"))
        assert stored == {
            "boompje": {},
            "twelve": {"pit_bonus": 50, "hands_per_game": 12},
            "single": {},
            "single-16": {"hands_per_game": 16},
        }
        apps = migrate(BEFORE)  # and back
        Competition = apps.get_model("tournaments", "Competition")
        back = {c.name: (c.ruleset_overrides, c.hands_per_game) for c in Competition.objects.all()}
        assert back == {name: (overrides, hands) for name, (_, overrides, hands) in rows.items()}
    finally:
        Competition.objects.all().delete()
        Club.objects.all().delete()


def test_side_rankings_become_definitions_with_what_the_keys_meant():
    """Migration 0011: a list of keys becomes a list of definitions (every counting
    evening, no minimum), in the order shown; back, each definition its key."""
    before = [("tournaments", "0010_leagues_move_to_their_own_app")]
    after = [("tournaments", "0011_side_ranking_definitions")]
    apps = migrate(before)
    Club = apps.get_model("clubs", "Club")
    Competition = apps.get_model("tournaments", "Competition")
    club = Club.objects.create(name="KC", slug="kc")
    rows = {"both": ["marsen", "points"], "points": ["points"], "none": []}
    for name, keys in rows.items():
        Competition.objects.create(
            club=club,
            name=name,
            start_date="2026-09-01",
            end_date="2027-05-31",
            side_rankings=keys,
        )
    try:
        apps = migrate(after)
        Competition = apps.get_model("tournaments", "Competition")
        stored = dict(Competition.objects.values_list("name", "side_rankings"))
        points = {"kind": "points", "best_of": None, "min_attendance": 0}
        marsen = {"kind": "marsen", "best_of": None, "min_attendance": 0}
        assert stored == {"both": [points, marsen], "points": [points], "none": []}
        apps = migrate(before)  # and back
        Competition = apps.get_model("tournaments", "Competition")
        back = dict(Competition.objects.values_list("name", "side_rankings"))
        assert back == {"both": ["points", "marsen"], "points": ["points"], "none": []}
    finally:
        Competition.objects.all().delete()
        Club.objects.all().delete()
