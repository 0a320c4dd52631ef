"""The tournaments layer tells scoring what it drew, swapped, took back and changed
(``tournaments.signals``); scoring's receivers write the games and sit-out scores in
the same transaction, so a failing receiver undoes the whole change."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from scoring import services as scoring_services
from scoring.models import Adjustment, Game
from tests import factories
from tournaments import services, signals
from tournaments.models import Evening, EveningLog, Round, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening_of_nine(club):
    competition = factories.competition(
        club, ruleset_preset="rotterdam", sitout_score=4000, sitout_mars=True
    )
    members = factories.members(club, 9)
    return factories.evening(competition, datetime.date(2026, 9, 8), present=members)


def test_a_draw_of_nine_gives_two_games_by_the_competitions_rules_and_one_sitout_score(
    evening_of_nine, director
):
    round_ = services.round_draw(evening=evening_of_nine, by=director, seed=3)
    games = list(Game.objects.filter(table__round=round_).order_by("table__number"))
    assert [g.table.number for g in games] == [1, 2]
    expected = evening_of_nine.competition.ruleset().to_dict()
    assert all(g.ruleset == expected and g.status == "open" for g in games)
    sitout = Seat.objects.get(round=round_, table__isnull=True)
    adjustment = Adjustment.objects.get(round=round_)
    assert (adjustment.member_id, adjustment.kind, adjustment.points, adjustment.marsen) == (
        sitout.member_id,
        "sitout",
        4000,
        1,
    )
    assert adjustment.created_by == director


def test_a_failing_receiver_rolls_the_whole_draw_back(evening_of_nine, director):
    def refuse(sender, **kwargs):
        # Runs after scoring's receiver: its games and sit-out score go back too.
        assert Game.objects.filter(table__round=kwargs["round_"]).count() == 2
        raise ValidationError("nee")

    signals.round_drawn.connect(refuse, dispatch_uid="test.refuse")
    try:
        with pytest.raises(ValidationError):
            services.round_draw(evening=evening_of_nine, by=director, seed=3)
    finally:
        signals.round_drawn.disconnect(dispatch_uid="test.refuse")
    assert not Round.objects.exists()
    assert not Table.objects.exists()
    assert not Seat.objects.exists()
    assert not Game.objects.exists()
    assert not Adjustment.objects.exists()
    assert not EveningLog.objects.exists()
    evening_of_nine.refresh_from_db()
    assert evening_of_nine.status == Evening.Status.PLANNED


def test_a_failing_scoring_service_rolls_the_draw_back(evening_of_nine, director, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(scoring_services, "round_games_create", broken)
    with pytest.raises(RuntimeError):
        services.round_draw(evening=evening_of_nine, by=director, seed=3)
    assert not Round.objects.exists()
    assert not Seat.objects.exists()


def test_taking_a_round_back_removes_its_games_and_sitout_score(evening_of_nine, director):
    round_ = services.round_draw(evening=evening_of_nine, by=director, seed=3)
    services.round_delete(round_=round_, by=director)
    assert not Game.objects.exists()
    assert not Adjustment.objects.exists()
    assert not Table.objects.exists()


def test_a_hand_entered_fixes_the_round_and_the_rule_set(evening_of_nine, director):
    round_ = services.round_draw(evening=evening_of_nine, by=director, seed=3)
    competition = evening_of_nine.competition
    assert services.competition_has_play(competition) is False
    game = Game.objects.filter(table__round=round_).order_by("table__number").first()
    scoring_services.hand_record(
        game=game,
        data=scoring_services.HandInput(playing="A", trump="H", points_a=100, points_b=62),
        by=director,
    )
    assert services.competition_has_play(competition) is True
    with pytest.raises(ValidationError):
        services.round_delete(round_=round_, by=director)
    assert Game.objects.filter(table__round=round_).count() == 2


def test_closing_an_evening_counts_the_games_not_confirmed(evening_of_nine, director):
    services.round_draw(evening=evening_of_nine, by=director, seed=3)
    with pytest.raises(ValidationError) as info:
        services.evening_set_status(evening=evening_of_nine, status="finished", by=director)
    assert "2" in str(info.value)
    evening_of_nine.refresh_from_db()
    assert evening_of_nine.status == Evening.Status.IN_PLAY
