"""Reads for the competition and evening pages, with their joins."""

import datetime
from dataclasses import dataclass

from django.db.models import Count, Q

from clubs.models import Member
from clubs.permissions import Capability, roles_with

from . import draw, signals, words
from .models import Attendance, Competition, Evening, Round, Seat, Table


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


def next_club_night(*, competition: Competition, today: datetime.date) -> datetime.date:
    """The date a new evening most likely has: a week after the competition's last
    evening (moved on by weeks to today or later: clubs keep their weekday), or
    today when it has none; within the season."""
    last = competition.evenings.order_by("-date").values_list("date", flat=True).first()
    if last is None:
        return min(max(today, competition.start_date), competition.end_date)
    night = last + datetime.timedelta(weeks=1)
    if night < today:
        night += datetime.timedelta(weeks=-(-(today - night).days // 7))
    return night


@dataclass(frozen=True)
class ClubNights:
    """A club a user directs, with its evening(s) of today and its next one."""

    club: object
    today: list
    next: Evening | None


def evenings_to_direct(*, user, today: datetime.date) -> list[ClubNights]:
    """For each club where the user is a director (or admin) and that has an evening
    today or later: today's evenings and the next planned one. One query."""
    if not user.is_authenticated:
        return []
    evenings = (
        Evening.objects.filter(
            date__gte=today,
            competition__club__roles__user=user,
            competition__club__roles__role__in=roles_with(Capability.RUN_COMPETITIONS),
        )
        .select_related("competition__club")
        .order_by("competition__club__name", "date", "pk")
    )
    nights = {}
    for evening in evenings:
        club = evening.competition.club
        entry = nights.setdefault(club.pk, {"club": club, "today": [], "next": None})
        if evening.date == today:
            entry["today"].append(evening)
        elif entry["next"] is None and evening.status == Evening.Status.PLANNED:
            entry["next"] = evening
    return [ClubNights(**entry) for entry in nights.values()]


#: The attendance of a member who has none this evening (no status).
NO_ATTENDANCE = Attendance(status=None)


def evening_attendance(*, evening):
    """Every member of the club with their attendance this evening (``NO_ATTENDANCE``
    when they have none: its status is None)."""
    club = evening.competition.club
    attendances = {a.member_id: a for a in evening.attendances.all()}
    members = club.members.filter(Q(is_active=True) | Q(pk__in=attendances)).order_by("name")
    return [(member, attendances.get(member.pk, NO_ATTENDANCE)) for member in members]


def leave_after_choices(*, evening) -> list[int]:
    """The rounds a player can leave after, latest first: the rounds drawn so far
    (0: before round 1), never the evening's last round (then the evening is over)."""
    drawn = evening.rounds.count()
    last = min(drawn, evening.competition.rounds_per_evening - 1)
    return list(range(last, -1, -1))


def evening_rounds(*, evening):
    return evening.rounds.order_by("number")


def evening_unplayed_rounds(*, evening) -> list[int]:
    """The numbers of the rounds the competition plans that are not drawn yet."""
    drawn = evening.rounds.count()
    return list(range(drawn + 1, evening.competition.rounds_per_evening + 1))


def round_is_last(*, round_: Round) -> bool:
    return not round_.evening.rounds.filter(number__gt=round_.number).exists()


AWAY = (Attendance.Status.EXCUSED, Attendance.Status.LEFT)
"""Attendance that rules a member out as an invaller: called in absent, or left."""


def _substitute_pool(evening):
    """The club's active members (guests too) who can fill in this evening: not
    called in absent, not gone home."""
    away = Attendance.objects.filter(evening=evening, status__in=AWAY)
    return Member.objects.filter(club_id=evening.competition.club_id, is_active=True).exclude(
        pk__in=away.values("member_id")
    )


def substitute_candidates(*, round_: Round):
    """The members of the pool not drawn at a table in the round, and where the
    competition allows it those whose table of the round has finished (its result
    confirmed): whom the wedstrijdleider can choose as the substitute of a table
    of three (the service refuses one who already substitutes at another table)."""
    seated = Seat.objects.filter(round=round_, table__isnull=False, member__isnull=False)
    if round_.evening.competition.finished_may_substitute:
        seated = seated.exclude(table_id__in=signals.finished_tables(round_))
    return (
        _substitute_pool(round_.evening).exclude(pk__in=seated.values("member_id")).order_by("name")
    )


def free_substitutes(*, evening) -> int:
    """How many invallers a round about to be drawn can count on: the members of
    the pool who are not present to play (the present all get a seat when the
    round has tables of three)."""
    present = evening.attendances.filter(status=Attendance.Status.PRESENT)
    return _substitute_pool(evening).exclude(pk__in=present.values("member_id")).count()


@dataclass(frozen=True)
class DrawChoices:
    """What the draw button offers for the players present now.

    ``modes`` are the layouts for players left over that can be filled (empty when
    the count is a multiple of four: nothing is left over); ``preferred`` is the
    competition's own when it is offered; ``reason`` says in a sentence why a table
    of three is not offered ("" when it is, or nobody is left over). ``needs_pairs``:
    a pairs competition without pairs, which cannot draw until they are formed.
    """

    present: int
    modes: tuple[str, ...]
    preferred: str
    reason: str
    needs_pairs: bool = False


def draw_choices(*, evening) -> DrawChoices:
    """The layouts the next draw can offer, and why a table of three is not among them."""
    competition = evening.competition
    present = evening.attendances.filter(status=Attendance.Status.PRESENT).count()
    sitout, substitute = Competition.OddPlayers.SITOUT, Competition.OddPlayers.SUBSTITUTE
    if competition.kind == Competition.Kind.PAIRS and not competition.pairs.exists():
        return DrawChoices(present, (), competition.odd_players, words.no_pairs_yet(), True)
    if present < 4 or not present % 4 or competition.kind == Competition.Kind.PAIRS:
        return DrawChoices(present, (), competition.odd_players, "")
    free = free_substitutes(evening=evening)
    plan = draw.table_plan(present, draw.OddMode.SUBSTITUTE, substitutes=free)
    if not plan.fallback:
        modes = (sitout, substitute)
        preferred = competition.odd_players
    else:
        modes, preferred = (sitout,), sitout
    return DrawChoices(present, modes, preferred, words.table_of_three_refused(plan, free))


def round_plan(*, round_: Round):
    """The round's tables with their four seats in N E S W order, and its sit-outs.

    Each table comes with its game (scoring's row, read by the table's reverse
    relation ``game``, so this layer need not import it; None while it has none)."""
    seats = list(
        Seat.objects.filter(round=round_).select_related("member", "table__game").order_by("pk")
    )
    tables = {}
    sitouts = []
    for seat in seats:
        if seat.table_id is None:
            sitouts.append(seat)
        else:
            tables.setdefault(seat.table, {})[seat.position] = seat
    plan = []
    for table in sorted(tables, key=lambda t: t.number):
        by_position = tables[table]
        plan.append(
            {
                "table": table,
                "seats": [by_position.get(p) for p in Seat.ORDER],
                "game": getattr(table, "game", None),
            }
        )
    sitouts.sort(key=lambda s: s.player_name)
    return plan, sitouts


@dataclass(frozen=True)
class LatePair:
    """A pair that came after round 1, and where it sits in this round (or None)."""

    number: int
    names: str
    table: int | None


def round_late_pairs(*, round_: Round) -> list[LatePair]:
    """The pairs of a pairs competition that are present but were not in round 1.

    From round 2 on: the pairs with both players present now and neither drawn in
    round 1 (at a table or sitting out), each with the table it plays at in this
    round. Empty for round 1 and for individual competitions (no query then).
    """
    competition = round_.evening.competition
    if competition.kind != Competition.Kind.PAIRS or round_.number < 2:
        return []
    present = set(
        Attendance.objects.filter(
            evening_id=round_.evening_id, status=Attendance.Status.PRESENT
        ).values_list("member_id", flat=True)
    )
    seats = Seat.objects.filter(
        round__evening_id=round_.evening_id,
        round__number__in=[1, round_.number],
        member__isnull=False,
    ).values_list("round__number", "member_id", "table__number")
    first_round, table_of = set(), {}
    for number, member_id, table in seats:
        if number == 1:
            first_round.add(member_id)
        if number == round_.number:
            table_of[member_id] = table
    late = []
    for pair in competition.pairs.select_related("first", "second").order_by("number"):
        players = {pair.first_id, pair.second_id}
        if players <= present and not players & first_round:
            names = f"{pair.first.name} & {pair.second.name}"
            late.append(LatePair(pair.number, names, table_of.get(pair.first_id)))
    return late


@dataclass(frozen=True)
class Deletion:
    """What deleting evenings takes with it: for the confirmation page, the
    service's refusal and the club's log. ``evenings`` is 1 for an evening;
    ``confirmed`` counts the confirmed games (results that would be lost)."""

    evenings: int
    rounds: int
    tables: int
    attendances: int
    games: int
    confirmed: int
    hands: int
    adjustments: int

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def deletion(*, evenings) -> Deletion:
    """What goes with ``evenings`` (a query of evenings): ours counted here, the
    games, hands and adjustments by scoring (``signals.results_asked``)."""
    results = {"games": 0, "confirmed": 0, "hands": 0, "adjustments": 0}
    for answer in signals.answers(signals.results_asked, Evening, evenings=evenings):
        for key in results:
            results[key] += answer.get(key, 0)
    return Deletion(
        evenings=evenings.count(),
        rounds=Round.objects.filter(evening__in=evenings).count(),
        tables=Table.objects.filter(round__evening__in=evenings).count(),
        attendances=Attendance.objects.filter(evening__in=evenings).count(),
        **results,
    )


# --- The versions of the pages (``common.pagecache``; ``tournaments.versions``) ------------
# A league's competition and matchdays show what the leagues app keeps, which has no
# version: their pages are rendered every time (None).


def evening_version(*, club, pk):
    """The version of the club's evening ``pk``'s pages (its own and its
    competition's), or None (no such evening, a league's matchday)."""
    found = (
        Evening.objects.filter(competition__club=club, pk=pk)
        .exclude(competition__format=Competition.Format.LEAGUE)
        .values_list("version", "competition__version")
        .first()
    )
    return None if found is None else f"{found[0]}.{found[1]}"


def competition_version(*, club, pk=None):
    """The version of the club's competition ``pk``'s pages (None: its latest by start
    date, as the player page takes it), or None (no such competition, a league's)."""
    competitions = Competition.objects.filter(club=club)
    if pk is not None:
        competitions = competitions.filter(pk=pk)
    row = competitions.order_by("-start_date").values_list("version", "format").first()
    if row is None:
        return "none" if pk is None else None
    return None if row[1] == Competition.Format.LEAGUE else row[0]


def table_version(*, token):
    """``(version, club id)`` of the pages of the table behind the link ``token`` (its
    evening's, competition's and club's versions), or None (no such table, a
    league's)."""
    found = (
        Table.objects.filter(token=token)
        .exclude(round__evening__competition__format=Competition.Format.LEAGUE)
        .values_list(
            "round__evening__version",
            "round__evening__competition__version",
            "round__evening__competition__club__version",
            "round__evening__competition__club_id",
        )
        .first()
    )
    return None if found is None else (".".join(map(str, found[:3])), found[3])
