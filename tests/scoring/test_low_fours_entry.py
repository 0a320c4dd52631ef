"""A competition whose rule set scores four 7s, 8s or 9s as 100 roem accepts the hands
only those make; one without refuses them (the service the entry page calls)."""

import pytest
from django.core.exceptions import ValidationError

from scoring import services
from scoring.models import Game
from scoring.services import HandInput
from tests import factories

pytestmark = pytest.mark.django_db


#: Wij took a trick of four 7s (0 card points, 100 roem) and nothing else worth points.
SEVENS = HandInput(playing="B", points_a=0, points_b=162, roem_a=100)


def test_four_sevens_without_card_points_are_accepted_where_low_fours_is_on(club):
    game = factories.game(club, ruleset_overrides={"low_fours": True})
    services.hand_record(game=game, data=SEVENS)
    game = Game.objects.get(pk=game.pk)
    assert (game.roem_a, game.total_a, game.total_b) == (100, 100, 162)


def test_the_same_hand_is_refused_where_low_fours_is_off(club):
    game = factories.game(club)
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=game, data=SEVENS)
    assert list(info.value.message_dict) == ["roem_a"]
    assert Game.objects.get(pk=game.pk).hands_entered == 0
