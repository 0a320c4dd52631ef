"""The demo that `make run` loads: realistic, consistent, and safe to load twice."""

import io

import pytest
from django.core.management import call_command
from django.db.models import F, Sum

from clubs.models import Club, Member
from scoring.models import Game, Hand
from tournaments.models import Evening

pytestmark = pytest.mark.django_db


def test_demo_loads_a_played_season_once_and_prints_the_login():
    out = io.StringIO()
    call_command("demo", stdout=out)
    assert "demo / klaverjas" in out.getvalue()
    counts = (Club.objects.count(), Member.objects.count(), Hand.objects.count())
    call_command("demo", stdout=io.StringIO())
    assert (Club.objects.count(), Member.objects.count(), Hand.objects.count()) == counts

    finished = Evening.objects.filter(status=Evening.Status.FINISHED)
    assert finished.count() >= 3
    assert Evening.objects.filter(status=Evening.Status.PLANNED).exists()
    assert Hand.objects.count() >= finished.count() * 3 * 3 * 16
    # Every hand is a real deal: 162 card points, roem in tens, some nat and pit.
    assert not Hand.objects.exclude(points_a=162 - F("points_b")).exists()
    assert Hand.objects.filter(nat=True).exists()
    assert Hand.objects.exclude(pit="").exists()
    assert Hand.objects.filter(roem_a__gt=0).exists()
    # Stored totals are the sums of the hands, and every game is confirmed.
    for game in Game.objects.annotate(a=Sum("hands__score_a"), b=Sum("hands__score_b")):
        assert (game.total_a, game.total_b) == (game.a, game.b)
        assert game.status == Game.Status.CONFIRMED
        assert game.hands_entered >= 16
