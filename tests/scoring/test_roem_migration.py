"""Migration scoring 0006 stores each game's roem as the roem each team banked: a nat
hand's roem goes where the game's rule set says (Issue 19)."""

import pytest

from scoring import rules
from tests import migrating
from tests.migrating import migrate

pytestmark = pytest.mark.django_db(transaction=True)
newest_migrations_afterwards = migrating.newest_migrations_afterwards

BEFORE = [("scoring", "0005_adjustment_marsen")]
AFTER = [("scoring", "0006_game_roem_banked")]


def test_a_nat_games_roem_moves_to_the_team_that_banked_it():
    apps = migrate(BEFORE)
    Club = apps.get_model("clubs", "Club")
    club = Club.objects.create(name="KC", slug="kc")
    competition = apps.get_model("tournaments", "Competition").objects.create(
        club=club, name="Winter", start_date="2026-09-01", end_date="2027-05-31"
    )
    evening = apps.get_model("tournaments", "Evening").objects.create(
        competition=competition, date="2026-10-06"
    )
    round_ = apps.get_model("tournaments", "Round").objects.create(evening=evening, number=1)
    Table = apps.get_model("tournaments", "Table")
    Game = apps.get_model("scoring", "Game")
    Hand = apps.get_model("scoring", "Hand")
    games = {}
    for number, preset in enumerate(("rotterdam", "match-1500"), start=1):
        table = Table.objects.create(round=round_, number=number)
        # As stored before: the roem as entered, 20 for the nat team A, 50 for B.
        games[preset] = Game.objects.create(
            table=table, ruleset=rules.get_ruleset(preset).to_dict(), roem_a=20, roem_b=50
        )
        Hand.objects.create(
            game=games[preset], number=1, playing="A", points_a=60, points_b=102,
            roem_a=20, roem_b=50, score_a=0, score_b=232, nat=True,
        )  # fmt: skip
    try:
        apps = migrate(AFTER)
        Game = apps.get_model("scoring", "Game")
        stored = {g.pk: (g.roem_a, g.roem_b) for g in Game.objects.all()}
        # Rotterdam: all roem to the defenders. match-1500: each keeps its own.
        assert stored[games["rotterdam"].pk] == (0, 70)
        assert stored[games["match-1500"].pk] == (20, 50)
    finally:
        for model in ("scoring.Hand", "scoring.Game", "tournaments.Table", "tournaments.Round",
                      "tournaments.Evening", "tournaments.Competition", "clubs.Club"):  # fmt: skip
            apps.get_model(*model.split(".")).objects.all().delete()
