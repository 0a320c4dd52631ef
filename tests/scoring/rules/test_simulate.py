"""Properties over thousands of simulated legal deals, and of score_hand itself.

Each deal is replayed card by card: every card must be among legal_cards, and the
naive reference implementations of the benchmark (strings, no tables) must agree
on legal cards (both play rules), winners, points and roem.
"""

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.rules import naive_legal_cards, naive_trick
from scoring.rules import (
    HAND_TOTAL,
    IN_TRICK_MIN_POINTS,
    IN_TRICK_PIT_TOTALS,
    IN_TRICK_TEAM_TOTALS,
    PRESET_NAMES,
    Chooser,
    InvalidHand,
    PlayRule,
    RoemKind,
    RoemRule,
    Seat,
    Suit,
    Team,
    declared_roem,
    get_ruleset,
    legal_cards,
    score_hand,
    simulate_deal,
    trick_points,
    trick_roem,
    trick_winner,
)
from scoring.rules.simulate import _GOOD_TRUMP, _suit_value

PROPERTY = settings(
    max_examples=300,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def check_deal(deal):
    """Every rule a played deal must obey; returns nothing, asserts everything."""
    ruleset = deal.ruleset
    trump = deal.trump
    assert sorted(c for hand in deal.hands for c in hand) == list(range(32))
    assert all(len(hand) == 8 and list(hand) == sorted(hand) for hand in deal.hands)
    assert deal.playing is Team.of_seat(deal.chooser)
    assert deal.tricks[0].leader == deal.forehand == (deal.dealer + 1) % 4

    held = [set(hand) for hand in deal.hands]
    tricks_won = {Team.A: 0, Team.B: 0}
    points = {Team.A: 0, Team.B: 0}
    roem = {Team.A: 0, Team.B: 0}
    leader = deal.forehand
    for number, trick in enumerate(deal.tricks, start=1):
        assert trick.leader == leader
        for i, card in enumerate(trick.cards):
            seat = trick.seat_of(i)
            legal = legal_cards(sorted(held[seat]), trick.cards[:i], trump, ruleset)
            assert card in legal
            if ruleset.play_rule is PlayRule.ROTTERDAM:
                naive = naive_legal_cards(
                    [str(c) for c in sorted(held[seat])],
                    [str(c) for c in trick.cards[:i]],
                    str(trump),
                )
                assert sorted(map(str, legal)) == sorted(naive)
            held[seat].remove(card)
        winner, naive_points, naive_roem = naive_trick([str(c) for c in trick.cards], str(trump))
        assert trick_winner(trick.cards, trump) == winner
        assert trick.winner == trick.seat_of(winner)
        bonus = 10 if number == 8 else 0
        assert trick.points == trick_points(trick.cards, trump) + bonus == naive_points + bonus
        if ruleset.roem_rule is RoemRule.IN_TRICK:
            assert trick.roem == trick_roem(trick.cards, trump) == naive_roem
        else:
            assert trick.roem == 0
        tricks_won[trick.team] += 1
        points[trick.team] += trick.points
        roem[trick.team] += trick.roem
        leader = trick.winner
    assert not any(held)

    assert sum(deal.points) == HAND_TOTAL
    assert deal.points == (points[Team.A], points[Team.B])
    assert deal.pit == next((t for t in Team if tricks_won[t] == 8), None)
    if ruleset.roem_rule is RoemRule.IN_TRICK:
        assert deal.roem == (roem[Team.A], roem[Team.B])
        for team in Team:
            total = deal.roem[team.index]
            if deal.pit is None:
                assert total in IN_TRICK_TEAM_TOTALS
                assert deal.points[team.index] >= IN_TRICK_MIN_POINTS[total]
        assert sum(deal.roem) in IN_TRICK_PIT_TOTALS
    else:
        # "No trick, no roem" first: against a pit only the pit team's runs compare.
        expected = declared_roem(deal.hands, trump, deal.playing, deal.pit)
        for team in Team:
            mine = expected[team.index]
            assert tricks_won[team] or not mine
            assert deal.declarations[team.index] == mine
            assert deal.roem[team.index] == sum(d.points for d in mine)
        with_runs = [t for t in Team if any(d.kind is not RoemKind.STUK for d in expected[t.index])]
        assert len(with_runs) <= 1

    # The trump choice: roefel, a good suit named in turn, or the forced chooser.
    order = [(deal.forehand + i) % 4 for i in range(4)]
    if deal.roefel:
        assert trump is Suit.CLUBS and deal.chooser == deal.forehand
    elif deal.forced:
        forced = deal.forehand if ruleset.all_pass_chooser is Chooser.FOREHAND else deal.dealer
        assert deal.chooser == forced
    else:
        count, value = _suit_value(list(deal.hands[deal.chooser]), trump)
        assert count >= 3 and value >= _GOOD_TRUMP
        for seat in order[: order.index(deal.chooser)]:
            for suit in range(4):
                count, value = _suit_value(list(deal.hands[seat]), suit)
                assert count < 3 or value < _GOOD_TRUMP

    # score_hand accepts what the deal produced, and swapping A and B swaps the result.
    result = deal.score()
    a_roem, b_roem = deal.roem_entry()
    swapped = score_hand(
        ruleset,
        playing=deal.playing.other,
        points=deal.points[::-1],
        roem=(b_roem, a_roem),
        pit=None if deal.pit is None else deal.pit.other,
    )
    assert swapped == result.swapped()
    assert result.roem == deal.roem
    # Totals, as a paper score sheet writes them, are accepted too (declared roem).
    totals = score_hand(
        ruleset, playing=deal.playing, points=deal.points, roem=deal.roem, pit=deal.pit
    )
    assert totals == result


@PROPERTY
@given(
    seed=st.integers(0, 2**64 - 1),
    preset=st.sampled_from(PRESET_NAMES),
    dealer=st.integers(0, 3),
    hand_number=st.sampled_from([None, 1, 2]),
)
def test_simulated_deals_are_legal_deals_worth_162_that_score_hand_accepts(
    seed, preset, dealer, hand_number
):
    check_deal(simulate_deal(preset, seed=seed, dealer=dealer, hand_number=hand_number))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_thousands_of_deals_per_preset_add_up_and_score_symmetrically(preset):
    ruleset = get_ruleset(preset)
    rng = random.Random(preset)
    outcomes = set()
    for i in range(500):
        deal = simulate_deal(ruleset, rng=rng, dealer=i % 4)
        assert sum(deal.points) == 162
        result = deal.score()
        outcomes.add((result.nat, result.pit is not None))
        assert result.swapped().swapped() == result
        if i % 3 == 0:
            check_deal(deal)
    assert (False, False) in outcomes and (True, False) in outcomes


def test_roefel_is_clubs_for_the_forehand_on_hand_one_where_the_ruleset_says():
    for seed in range(20):
        deal = simulate_deal("match-500", seed=seed, dealer=seed % 4, hand_number=1)
        assert deal.roefel and deal.trump is Suit.CLUBS and deal.chooser == deal.forehand
        assert not simulate_deal("match-500", seed=seed, hand_number=2).roefel
        assert not simulate_deal("rotterdam", seed=seed, hand_number=1).roefel


@pytest.mark.parametrize(
    ("preset", "chooser"), [("rotterdam", "forehand"), ("match-1500", "dealer")]
)
def test_when_all_four_pass_the_rulesets_chooser_names_trump(preset, chooser):
    rng = random.Random(3)
    forced = [d for d in (simulate_deal(preset, rng=rng, dealer=1) for _ in range(400)) if d.forced]
    assert forced
    for deal in forced:
        assert deal.chooser == (deal.forehand if chooser == "forehand" else deal.dealer)


def test_a_seed_gives_the_same_deal_and_a_deal_is_immutable():
    one = simulate_deal(seed=42)
    assert one == simulate_deal(seed=42)
    assert one.dealer is Seat.NORTH and one.forehand is Seat.EAST
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.trump = Suit.HEARTS
    with pytest.raises(ValueError, match="dealer"):
        simulate_deal(dealer=4)


# --- score_hand on any input ---------------------------------------------------------------------


def documented_verdict(preset, points, roem, pit):
    """Whether an in-trick entry is possible by the rules and tables documented in
    scoring.rules.roem and InvalidHand; an oracle written from the docs."""
    a, b = points
    if a < 0 or b < 0 or a + b != 162 or 1 in (a, b):
        return False
    if pit is not None and points[Team(pit).index] != 162:
        return False
    if min(roem) < 0:
        return False
    if pit is not None:
        winner = Team(pit).index
        return roem[1 - winner] == 0 and roem[winner] in IN_TRICK_PIT_TOTALS
    for value, have in zip(roem, points, strict=True):
        if value not in IN_TRICK_TEAM_TOTALS or have < IN_TRICK_MIN_POINTS[value]:
            return False
    return sum(roem) in IN_TRICK_PIT_TOTALS


ROEM_VALUES = st.one_of(st.sampled_from(sorted(IN_TRICK_PIT_TOTALS)), st.integers(-30, 800))


@PROPERTY
@given(
    preset=st.sampled_from(["rotterdam", "amsterdam", "match-500", "single-deal"]),
    playing=st.sampled_from("AB"),
    a=st.one_of(st.integers(-3, 165), st.sampled_from([0, 1, 81, 82, 161, 162])),
    roem=st.tuples(ROEM_VALUES, ROEM_VALUES),
    pit=st.sampled_from([None, None, "A", "B"]),
)
def test_score_hand_rejects_exactly_what_the_documented_bounds_rule_out(
    preset, playing, a, roem, pit
):
    ruleset = get_ruleset(preset)
    points = (a, 162 - a) if a % 7 else (a, 160 - a)  # now and then a bad sum
    verdict = documented_verdict(preset, points, roem, pit)
    try:
        result = score_hand(ruleset, playing=playing, points=points, roem=roem, pit=pit)
    except InvalidHand as error:
        assert not verdict, str(error)
        assert error.field in {"points", "roem", "pit"}
        # The slow path (roem given per trick) reaches the same verdict.
        with pytest.raises(InvalidHand):
            score_hand(ruleset, playing=playing, points=points, roem=((roem[0],), roem[1]), pit=pit)
        return
    assert verdict
    assert sum(result.scores) >= 162
    swapped = score_hand(
        ruleset,
        playing=Team(playing).other,
        points=points[::-1],
        roem=roem[::-1],
        pit=None if pit is None else Team(pit).other,
    )
    assert swapped == result.swapped()
    assert result.nat or result.scores == (
        points[0] + roem[0] + (100 if pit == "A" else 0),
        points[1] + roem[1] + (100 if pit == "B" else 0),
    )
