"""Small helpers of the scoring tests (the set-ups are fixtures in conftest.py)."""

from scoring.models import Game
from tournaments.models import Seat


def round_one_points(first_round):
    """{member id: points} of every player seated at a table in ``first_round``."""
    points = {}
    for game in Game.objects.filter(table__round=first_round):
        for seat in Seat.objects.filter(table=game.table):
            points[seat.member_id] = game.total_a if seat.position in "NS" else game.total_b
    return points
