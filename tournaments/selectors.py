"""Reads for the competition and evening pages, with their joins."""

from django.db.models import Count, Q

from scoring.models import Game

from .models import Attendance, Competition, Round, Seat


def club_competitions(*, club):
    """The club's own seasons and tournaments (a league's container is shown as the league)."""
    return (
        Competition.objects.filter(club=club)
        .exclude(format=Competition.Format.LEAGUE)
        .annotate(evening_count=Count("evenings"))
    )


def competition_evenings(*, competition):
    return competition.evenings.annotate(
        present=Count(
            "attendances",
            filter=Q(attendances__status=Attendance.Status.PRESENT),
            distinct=True,
        ),
        round_count=Count("rounds", distinct=True),
    )


def evening_attendance(*, evening):
    """Every member of the club with their attendance status this evening (or None)."""
    club = evening.competition.club
    status = dict(evening.attendances.values_list("member_id", "status"))
    members = club.members.filter(Q(is_active=True) | Q(pk__in=status)).order_by("name")
    return [(member, status.get(member.pk)) for member in members]


def evening_rounds(*, evening):
    return evening.rounds.order_by("number")


def evening_unplayed_rounds(*, evening) -> list[int]:
    """The numbers of the rounds the competition plans that are not drawn yet."""
    drawn = evening.rounds.count()
    return list(range(drawn + 1, evening.competition.rounds_per_evening + 1))


def round_is_last(*, round_: Round) -> bool:
    return not round_.evening.rounds.filter(number__gt=round_.number).exists()


def round_plan(*, round_: Round):
    """The round's tables with their four seats in N E S W order, and its sit-outs."""
    seats = list(Seat.objects.filter(round=round_).select_related("member", "table").order_by("pk"))
    tables = {}
    sitouts = []
    for seat in seats:
        if seat.table_id is None:
            sitouts.append(seat)
        else:
            tables.setdefault(seat.table, {})[seat.position] = seat
    games = {
        g.table_id: g
        for g in Game.objects.filter(table__round=round_).only(
            "table_id", "status", "hands_entered", "total_a", "total_b"
        )
    }
    plan = []
    for table in sorted(tables, key=lambda t: t.number):
        by_position = tables[table]
        plan.append(
            {
                "table": table,
                "seats": [by_position.get(p) for p in Seat.ORDER],
                "game": games.get(table.pk),
            }
        )
    sitouts.sort(key=lambda s: s.player_name)
    return plan, sitouts
