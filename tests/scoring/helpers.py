"""Small helpers of the scoring tests (the set-ups are fixtures in conftest.py)."""

from scoring import rules
from scoring.models import Adjustment, Game, Hand
from tournaments.models import Seat


def game_totals(game, ruleset):
    """(wij, zij) of ``game`` counted here, independently of the stored totals: its
    raw hands scored again by the rules core under ``ruleset``, plus the team
    adjustments on the game."""
    totals = [0, 0]
    for hand in Hand.objects.filter(game=game).order_by("number"):
        scored = rules.score_hand(
            ruleset,
            playing=hand.playing,
            points=(hand.points_a, hand.points_b),
            roem=(hand.roem_a, hand.roem_b),
            pit=hand.pit or None,
        )
        totals[0] += scored.scores[0]
        totals[1] += scored.scores[1]
    for adjustment in Adjustment.objects.filter(game=game):
        totals["AB".index(adjustment.team)] += adjustment.points
    return totals


def round_one_points(first_round):
    """{member id: points} of every player seated at a table in ``first_round``."""
    points = {}
    for game in Game.objects.filter(table__round=first_round):
        for seat in Seat.objects.filter(table=game.table):
            points[seat.member_id] = game.total_a if seat.position in "NS" else game.total_b
    return points
