"""``scoring.services.games_create``: the one place games are made (a drawn round, a
league match seated, an imported evening)."""

import datetime

import pytest

from scoring import rules
from scoring import services as scoring_services
from scoring.models import Game
from tests import factories
from tournaments.models import Round, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(club):
    competition = factories.competition(club)
    evening = factories.evening(competition, datetime.date(2026, 9, 8))
    round_ = Round.objects.create(evening=evening, number=1)
    return [Table.objects.create(round=round_, number=n) for n in (1, 2)]


def test_every_game_keeps_the_rule_set_it_plays_and_its_own_fields(tables):
    ruleset = rules.RULESETS["amsterdam"]  # not the competition's: the one given
    games = scoring_services.games_create(
        tables=tables,
        ruleset=ruleset,
        each=[{"total_a": 1000}, {"total_a": 2000}],
        version=3,
    )
    stored = Game.objects.filter(pk__in=[g.pk for g in games]).order_by("table__number")
    assert [(g.table_id, g.total_a, g.version) for g in stored] == [
        (tables[0].pk, 1000, 3),
        (tables[1].pk, 2000, 3),
    ]
    assert all(g.ruleset == ruleset.to_dict() for g in stored)


def test_a_game_for_each_table_or_none(tables):
    with pytest.raises(ValueError):
        scoring_services.games_create(tables=tables, ruleset=rules.DEFAULT_RULESET, each=[{}])
    assert not Game.objects.exists()
