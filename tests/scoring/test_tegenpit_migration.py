"""Migration scoring 0008 counts a stored defenders' pit as tegenpit, no longer as
that team's mars (Issue 19)."""

import pytest

from scoring import rules
from tests import migrating
from tests.migrating import migrate

pytestmark = pytest.mark.django_db(transaction=True)
newest_migrations_afterwards = migrating.newest_migrations_afterwards

BEFORE = [("scoring", "0007_hand_verzaakt")]
AFTER = [("scoring", "0008_game_tegenpit_counts")]


def test_a_stored_defenders_pit_moves_from_marsen_to_tegenpit():
    apps = migrate(BEFORE)
    club = apps.get_model("clubs", "Club").objects.create(name="KC", slug="kc")
    competition = apps.get_model("tournaments", "Competition").objects.create(
        club=club, name="Winter", start_date="2026-09-01", end_date="2027-05-31"
    )
    evening = apps.get_model("tournaments", "Evening").objects.create(
        competition=competition, date="2026-10-06"
    )
    round_ = apps.get_model("tournaments", "Round").objects.create(evening=evening, number=1)
    table = apps.get_model("tournaments", "Table").objects.create(round=round_, number=1)
    Game = apps.get_model("scoring", "Game")
    Hand = apps.get_model("scoring", "Hand")
    # As counted before: both pits of zij were marsen of zij.
    game = Game.objects.create(table=table, ruleset=rules.get_ruleset("rotterdam").to_dict(),
                               marsen_b=2)  # fmt: skip
    Hand.objects.create(
        game=game, number=1, playing="A", points_a=0, points_b=162, pit="B",
        score_a=0, score_b=262, nat=True,
    )  # fmt: skip
    Hand.objects.create(
        game=game, number=2, playing="B", points_a=0, points_b=162, pit="B",
        score_a=0, score_b=262, nat=False,
    )  # fmt: skip
    try:
        apps = migrate(AFTER)
        stored = apps.get_model("scoring", "Game").objects.get(pk=game.pk)
        assert (stored.marsen_a, stored.marsen_b, stored.tegenpit_a, stored.tegenpit_b) == (
            0, 1, 0, 1,
        )  # fmt: skip
    finally:
        for model in ("scoring.Hand", "scoring.Game", "tournaments.Table", "tournaments.Round",
                      "tournaments.Evening", "tournaments.Competition", "clubs.Club"):  # fmt: skip
            apps.get_model(*model.split(".")).objects.all().delete()
