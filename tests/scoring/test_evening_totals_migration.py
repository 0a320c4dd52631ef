"""Migration scoring 0010 throws away the stored evening totals of the old layout (a
player's game sums only), and going back throws away those of the new one: the
standings store them again on their next read, never reading one layout as the other."""

import pytest

from tests import migrating
from tests.migrating import migrate

pytestmark = pytest.mark.django_db(transaction=True)
newest_migrations_afterwards = migrating.newest_migrations_afterwards

OLD = [("scoring", "0009_evening_totals")]
NEW = [("scoring", "0010_evening_totals_with_adjustments")]


def stored_evening(apps):
    club = apps.get_model("clubs", "Club").objects.create(name="KC", slug="kc")
    competition = apps.get_model("tournaments", "Competition").objects.create(
        club=club, name="Winter", start_date="2026-09-01", end_date="2027-05-31"
    )
    evening = apps.get_model("tournaments", "Evening").objects.create(
        competition=competition, date="2026-10-06", status="finished"
    )
    apps.get_model("scoring", "EveningTotals").objects.create(evening=evening, sums=b"\0" * 36)


def test_the_stored_totals_of_either_layout_are_thrown_away_on_the_way_through():
    try:
        apps = migrate(OLD)
        stored_evening(apps)
        apps = migrate(NEW)
        assert not apps.get_model("scoring", "EveningTotals").objects.exists()
        assert apps.get_model("tournaments", "Evening").objects.count() == 1
        apps.get_model("scoring", "EveningTotals").objects.create(
            evening=apps.get_model("tournaments", "Evening").objects.get(), sums=b"\0" * 44
        )
        apps = migrate(OLD)
        assert not apps.get_model("scoring", "EveningTotals").objects.exists()
    finally:
        for model in ("scoring.EveningTotals", "tournaments.Evening", "tournaments.Competition",
                      "clubs.Club"):  # fmt: skip
            apps.get_model(*model.split(".")).objects.all().delete()
