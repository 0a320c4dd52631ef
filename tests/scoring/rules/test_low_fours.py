"""Four 7s, 8s or 9s as 100 roem (the rule set's ``low_fours``): the roem of a trick,
the bounds ``score_hand`` checks, and the tables derived the same way as the
standard ones."""

import random

import pytest

from scoring.rules import (
    CARDS,
    RULESETS,
    InvalidHand,
    InvalidRuleset,
    get_ruleset,
    score_hand,
    score_trick,
    trick_roem,
    trick_roem_detail,
)
from scoring.rules.roem import (
    IN_TRICK_MAX_LOW_FOURS,
    IN_TRICK_MIN_POINTS_LOW_FOURS,
    IN_TRICK_PIT_TOTALS_LOW_FOURS,
    derive_in_trick_min_points,
    derive_whole_deal_totals,
    describe_roem,
    roem_points,
)

LOW_FOURS = get_ruleset("rotterdam").replace(low_fours=True)


def test_every_preset_leaves_low_fours_off():
    assert {name: r.low_fours for name, r in RULESETS.items()} == dict.fromkeys(RULESETS, False)


def test_low_fours_is_stored_as_an_override_and_must_be_a_bool():
    assert LOW_FOURS.overrides() == {"low_fours": True}
    with pytest.raises(InvalidRuleset):
        get_ruleset("rotterdam").replace(low_fours="yes")


@pytest.mark.parametrize(
    ("cards", "name"),
    [("7C 7D 7H 7S", "sevens"), ("8C 8D 8H 8S", "eights"), ("9C 9D 9H 9S", "nines")],
)
def test_four_low_cards_are_100_only_where_the_rule_set_says_so(cards, name):
    assert trick_roem(cards, "H") == 0
    assert trick_roem(cards, "H", low_fours=True) == 100
    assert score_trick(cards.split(), "H", low_fours=True).roem == 100
    assert describe_roem(trick_roem_detail(cards, "H", low_fours=True)) == f"four {name}"


def test_the_other_fours_do_not_change():
    assert trick_roem("JC JD JH JS", "H", low_fours=True) == 200
    assert trick_roem("AC AD AH AS", "H", low_fours=True) == 100


def test_the_fast_roem_count_agrees_with_the_itemised_one_under_low_fours():
    rng = random.Random(19)
    for _ in range(2000):
        trick = rng.sample(CARDS, rng.randint(1, 4))
        trump = rng.randrange(4)
        items = trick_roem_detail(trick, trump, low_fours=True)
        assert roem_points(trick, trump, True) == sum(i.points for i in items)
    quads = [[CARDS[s * 8 + r] for s in range(4)] for r in range(3)]
    assert [roem_points(q, 0, True) for q in quads] == [100, 100, 100]


def test_the_low_fours_tables_match_a_fresh_count():
    assert derive_in_trick_min_points(low_fours=True) == IN_TRICK_MIN_POINTS_LOW_FOURS
    assert derive_whole_deal_totals(low_fours=True) == IN_TRICK_PIT_TOTALS_LOW_FOURS
    assert max(IN_TRICK_PIT_TOTALS_LOW_FOURS) == IN_TRICK_MAX_LOW_FOURS == 900


def _hand(ruleset, points_a, roem, pit=None):
    return score_hand(ruleset, playing="A", points=(points_a, 162 - points_a), roem=roem, pit=pit)


@pytest.mark.parametrize(
    ("points_a", "roem", "pit"),
    [
        # Four 7s in a trick with 0 card points: 100 roem without a card point.
        (0, (100, 0), None),
        # Three low fours, in tricks of 12 card points (the four 9s, one of trump): 300.
        (150, (0, 300), None),
        # A pit with all eight fours of a kind: 900.
        (162, (900, 0), "A"),
        # Seven fours without pit: 800 (the eighth trick is the last four: 100).
        (54, (100, 800), None),
    ],
)
def test_hands_only_low_fours_make_are_accepted_where_the_field_is_on(points_a, roem, pit):
    result = _hand(LOW_FOURS, points_a, roem, pit)
    assert tuple(result.roem) == roem
    with pytest.raises(InvalidHand):
        _hand(get_ruleset("rotterdam"), points_a, roem, pit)


def test_low_fours_still_refuse_what_no_deal_makes():
    with pytest.raises(InvalidHand):
        _hand(LOW_FOURS, 162, (910, 0), "A")
    with pytest.raises(InvalidHand):
        _hand(LOW_FOURS, 100, (0, 800), None)  # 800 needs seven tricks and 108 card points
    with pytest.raises(InvalidHand):
        _hand(LOW_FOURS, 100, (30, 0), None)
