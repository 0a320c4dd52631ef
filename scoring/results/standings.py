"""Reads for results and standings: evening results, season standings, player pages.

Every number comes from the totals stored on games and from adjustments, summed
by the database in a fixed number of queries, whatever the size of the season;
``scoring.results.ranking`` then applies the club's settings in Python. Nothing here
re-scores a hand.

A player's evening (an :class:`~scoring.results.ranking.EveningLine`):

- each game played: the game total of the player's team (N/S: wij, E/W: zij),
  plus the adjustments given to that team in that game (a director's score);
- each round sat out: the sit-out score (an adjustment recorded by the draw),
  counted as a game, so averages are fair to players who sat out;
- an imported total (a club's old sheet of evening totals, ``Adjustment.Kind.TOTALS``):
  its points and marsen, counted as the games it stands for;
- personal adjustments (a -100 verzaken penalty, a director's correction);
- a player who called in absent: the competition's absence policy (nothing,
  the evening's lowest total, or the absence score per round), counted as the
  evening's rounds for the average but not as attendance;
- a player who left early (after round N): the competition's leaving policy
  (keep the rounds played, the leaving score per round missed, or the evening's
  lowest total and no place on the evening);
- with tables of three, a player left over who sat out: the sit-out score, or
  (``left_over`` "lowest") the evening's lowest total and no place.

"The evening's lowest total" is the lowest of those who played the whole evening;
it stands for a leaver's or left-over player's games, and their own personal
adjustments (a verzaken penalty) are added to it.
"""

from collections import defaultdict
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import repeat

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import (
    BinaryField,
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Q,
    Subquery,
    Sum,
    When,
)
from django.db.models.functions import Coalesce

from clubs.models import Member
from tournaments.models import Attendance, Competition, Evening, Round, Seat

from ..models import Adjustment, EveningTotals, Game
from ..selectors import evening_progress
from .ranking import (
    Basis,
    EveningLine,
    PrizeRule,
    RankedLine,
    RankingSettings,
    prize_keys,
    prize_places,
    rank_evening,
    rank_season,
)

TEAM_A = Seat.SEATS_OF["A"]
#: A player's adjustments that are games played: a sit-out, an imported total.
_PLAYED_KINDS = (Adjustment.Kind.SITOUT, Adjustment.Kind.TOTALS)


def _per_team(a, b):
    return Case(When(position__in=TEAM_A, then=F(a)), default=F(b), output_field=IntegerField())


@dataclass(slots=True)
class Tally:
    """A player's evening while it is being added up."""

    points: int = 0
    games: int = 0
    marsen: int = 0
    #: Hands the player's team defended and took every trick (not a mars).
    tegenpit: int = 0
    nat: int = 0
    nat_defending: int = 0
    roem: int = 0
    #: Hands that ended because the player's team reneged (not nat).
    verzaken: int = 0
    personal: int = 0
    played: bool = False
    rounds: dict = field(default_factory=dict)
    #: False for a player scored the evening's lowest total for leaving early or for
    #: being left over: they count for the season but take no place on the evening.
    placed: bool = True

    def line(self, evening_id):
        # Positional, in EveningLine's field order (``_stored_lines`` makes the same
        # lines from the stored columns of these names).
        return EveningLine(
            evening_id, self.points, self.games, self.marsen, self.nat, self.roem, self.played
        )

    def evening_line(self, evening_id):
        """The line the evening ranks: one without a place there (``placed`` False)
        is listed as not played, so it takes no place, prize or poedelprijs."""
        line = self.line(evening_id)
        return line if self.placed else line._replace(played=False)

    def row(self):
        """The tally as stored: :data:`~scoring.models.EveningTotals.COLUMNS` after the member."""
        return (
            self.points,
            self.games,
            self.marsen,
            self.tegenpit,
            self.nat,
            self.nat_defending,
            self.roem,
            self.verzaken,
            self.personal,
            int(self.played),
        )


def _fetch(values_queryset):
    """The rows of a ``values()`` aggregate as tuples (in the order of its
    ``values()`` names, then its annotations), straight from the cursor.

    The ORM builds the query; the rows skip its per-value converters, which cost
    more than the database's own work on a season of 4,000 player-evenings. Only
    for integers and plain text (a member's name), whose database values need no
    conversion.
    """
    query = values_queryset.query
    try:
        sql, params = query.sql_with_params()
    except EmptyResultSet:
        return []
    with connections[values_queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _game_sums(evening_ids, *, confirmed_only=False, by_round=False):
    """Per player and evening (and round, ``by_round``): the sums of the games the
    player's team played, as ``(member_id, evening_id, [round number,] points,
    games, marsen, tegenpit, nat, nat_defending, roem, verzaken)`` rows, in one query."""
    seats = Seat.objects.filter(
        round__evening_id__in=evening_ids, table__isnull=False, member__isnull=False
    )
    if confirmed_only:
        seats = seats.filter(table__game__status=Game.Status.CONFIRMED)
    group = ["member_id", "round__evening_id"] + (["round__number"] if by_round else [])
    rows = seats.values(*group).annotate(
        points=Coalesce(Sum(_per_team("table__game__total_a", "table__game__total_b")), 0),
        games=Count("pk"),
        marsen=Coalesce(Sum(_per_team("table__game__marsen_a", "table__game__marsen_b")), 0),
        tegenpit=Coalesce(Sum(_per_team("table__game__tegenpit_a", "table__game__tegenpit_b")), 0),
        nat=Coalesce(Sum(_per_team("table__game__nat_a", "table__game__nat_b")), 0),
        nat_defending=Coalesce(Sum(_per_team("table__game__nat_b", "table__game__nat_a")), 0),
        roem=Coalesce(Sum(_per_team("table__game__roem_a", "table__game__roem_b")), 0),
        verzaken=Coalesce(Sum(_per_team("table__game__verzaken_a", "table__game__verzaken_b")), 0),
    )
    return _fetch(rows)


def stored_evening_rows(evening_ids, *, known=None) -> dict:
    """``{evening_id: EveningTotals.columns(...)}``: each player's tally of the evenings
    of ``evening_ids`` that have their totals stored (:class:`~scoring.models.EveningTotals`),
    by column (``played`` 1 or 0). A read only reads: the totals are stored by the change
    that makes them (``scoring.results.services.evening_totals_store``, in its
    transaction), so an evening left out here has none (not finished, or finished by a
    write that stores none, as a results import) and the caller sums it in memory
    (:func:`evening_tallies`, :func:`_stored_lines`) without storing anything.

    ``known``: ``{evening_id: sums}`` already read with the evenings
    (:func:`counted_evenings`); then nothing is read here.
    """
    if known is None:
        stored = dict(
            EveningTotals.objects.filter(evening_id__in=evening_ids).values_list(
                "evening_id", "sums"
            )
        )
    else:
        stored = {e: known[e] for e in evening_ids if e in known}
    return {evening_id: EveningTotals.columns(sums) for evening_id, sums in stored.items()}


def evening_sums(evening_ids) -> dict:
    """``{evening_id: sums}``: each player's tally of each of ``evening_ids`` (confirmed
    games and the adjustments), summed now and packed as
    :class:`~scoring.models.EveningTotals` keeps it: what its one writer stores
    (``scoring.results.services.evening_totals_store``)."""
    tallies = _tallies(evening_ids, confirmed_only=True)
    return {
        evening_id: EveningTotals.pack(
            (member_id, *tally.row()) for member_id, tally in tallies[evening_id].items()
        )
        for evening_id in evening_ids
    }


def evening_tallies(
    evening_ids, *, confirmed_only=False, by_round=False, finished=None, known=None
):
    """{evening_id: {member_id: Tally}} for the given evenings, in constant queries.

    ``finished``: the finished evenings among them, when only confirmed games count
    (the season standings, a player's season): their tallies are kept in
    :class:`~scoring.models.EveningTotals`, read instead of summed again (``known``: as
    :func:`stored_evening_rows`); one without stored totals is summed in memory.
    """
    if finished is None:
        return _tallies(evening_ids, confirmed_only=confirmed_only, by_round=by_round)
    assert confirmed_only and not by_round, "only confirmed games' totals are stored"
    evening_ids, finished = list(evening_ids), set(finished)
    stored = stored_evening_rows([e for e in evening_ids if e in finished], known=known)
    tallies = _tallies([e for e in evening_ids if e not in stored], confirmed_only=True)
    for evening_id, columns in stored.items():
        tallies[evening_id] = defaultdict(
            Tally,
            {
                member_id: Tally(*row[:-1], bool(row[-1]))
                for member_id, *row in zip(*columns.values(), strict=True)
            },
        )
    return tallies


def _stored_lines(evening_ids, *, known=None):
    """``{member_id: [EveningLine, ...]}`` of finished evenings, in their order, made
    straight from their stored tallies' columns (``known``: as
    :func:`stored_evening_rows`): the lines :meth:`Tally.line` makes, without making a
    season's 4,000 tallies first (only where nothing but the stored tallies counts: no
    wegstrepen, absences or pairs)."""
    stored = stored_evening_rows(evening_ids, known=known)
    rest = _tallies([e for e in evening_ids if e not in stored], confirmed_only=True)
    line = partial(tuple.__new__, EveningLine)
    per_key = defaultdict(list)
    for evening_id in evening_ids:
        columns = stored.get(evening_id)
        if columns is None:  # none stored: summed in memory
            for member_id, tally in rest[evening_id].items():
                per_key[member_id].append(tally.line(evening_id))
            continue
        numbers = [columns[name] for name in EveningLine._fields[1:-1]]
        made = map(line, zip(repeat(evening_id), *numbers, map(bool, columns["played"])))
        for member_id, evening_line in zip(columns["member"], made, strict=True):
            per_key[member_id].append(evening_line)
    return per_key


def _tallies(evening_ids, *, confirmed_only=False, by_round=False):
    """:func:`evening_tallies`, summed now."""
    tallies = defaultdict(lambda: defaultdict(Tally))
    if not evening_ids:
        return tallies
    for (
        member_id,
        evening_id,
        *number,
        points,
        games,
        marsen,
        tegenpit,
        nat,
        defending,
        roem,
        verzaken,
    ) in _game_sums(evening_ids, confirmed_only=confirmed_only, by_round=by_round):
        tally = tallies[evening_id][member_id]
        tally.points += points
        tally.games += games
        tally.marsen += marsen
        tally.tegenpit += tegenpit
        tally.nat += nat
        tally.nat_defending += defending
        tally.roem += roem
        tally.verzaken += verzaken
        tally.played = True
        if by_round:
            tally.rounds[number[0]] = points

    # Every adjustment of the evenings in one query: a player's own (sit-out, absence,
    # penalty, correction) and a team's in a game (added to the game's players).
    adjustments = Adjustment.objects.filter(evening_id__in=evening_ids).filter(
        Q(member__isnull=False) | Q(game__isnull=False)
    )
    sitout_rounds = defaultdict(int)
    personal_rounds = defaultdict(int)
    team_adjustments = []
    for (
        evening_id,
        member_id,
        kind,
        number,
        points,
        marsen,
        games,
        table_id,
        status,
        team,
    ) in _fetch(
        adjustments.values_list(
            "evening_id",
            "member_id",
            "kind",
            "round__number",
            "points",
            "marsen",
            "games",
            "game__table_id",
            "game__status",
            "team",
        )
    ):
        if member_id is not None:
            tally = tallies[evening_id][member_id]
            tally.points += points
            tally.marsen += marsen or 0
            if kind not in _PLAYED_KINDS:
                tally.personal += points
                if by_round and number:  # a round's penalty stands in its column
                    personal_rounds[(evening_id, member_id, number)] += points
            else:  # a sit-out is a game; an imported total the games it stands for
                tally.games += games if kind == Adjustment.Kind.TOTALS else 1
                tally.played = True
                if by_round and number:
                    sitout_rounds[(evening_id, member_id, number)] += points
        if table_id is not None and (not confirmed_only or status == Game.Status.CONFIRMED):
            team_adjustments.append((evening_id, table_id, team, points))
    for (evening_id, member_id, number), points in sitout_rounds.items():
        tallies[evening_id][member_id].rounds[number] = points
    for (evening_id, member_id, number), points in personal_rounds.items():
        rounds = tallies[evening_id][member_id].rounds
        rounds[number] = rounds.get(number, 0) + points
    if team_adjustments:
        tables = {table_id for _e, table_id, _t, _p in team_adjustments}
        players = defaultdict(list)
        for table_id, position, member_id in Seat.objects.filter(
            table_id__in=tables, member__isnull=False
        ).values_list("table_id", "position", "member_id"):
            players[(table_id, "A" if position in TEAM_A else "B")].append(member_id)
        for evening_id, table_id, team, points in team_adjustments:
            for member_id in players[(table_id, team)]:
                tallies[evening_id][member_id].points += points
    return tallies


def _apply_substitutes(competition, tallies, evening_ids, *, confirmed_only=True):
    """Wegstrepen: each confirmed game a member played as a substitute replaces
    their lowest own game of that evening (points, marsen and tegenpit) when it
    scored more.

    Only where the competition allows it; otherwise a substitute's game counts
    for nobody but the three drawn players (``evening_tallies`` skips it). Each
    substitute game strikes a different own game, the lowest first. Returns
    ``{(evening_id, member_id): [(round struck, round played as substitute), ...]}``.
    """
    if not competition.substitute_strikes_lowest:
        return {}
    seats = Seat.objects.filter(round__evening_id__in=evening_ids, substitute_member__isnull=False)
    if confirmed_only:
        seats = seats.filter(table__game__status=Game.Status.CONFIRMED)
    # Each game as (points, marsen, round, tegenpit): the lowest points go first,
    # the round (one game per round) settles the order before the tegenpit.
    played = defaultdict(list)
    for evening_id, member_id, number, points, marsen, tegenpit in seats.values_list(
        "round__evening_id",
        "substitute_member_id",
        "round__number",
        _per_team("table__game__total_a", "table__game__total_b"),
        _per_team("table__game__marsen_a", "table__game__marsen_b"),
        _per_team("table__game__tegenpit_a", "table__game__tegenpit_b"),
    ):
        played[(evening_id, member_id)].append((points or 0, marsen or 0, number, tegenpit or 0))
    if not played:
        return {}
    own = Seat.objects.filter(
        round__evening_id__in={e for e, _m in played},
        member_id__in={m for _e, m in played},
        table__isnull=False,
    )
    if confirmed_only:
        own = own.filter(table__game__status=Game.Status.CONFIRMED)
    games = defaultdict(list)
    for evening_id, member_id, number, points, marsen, tegenpit in own.values_list(
        "round__evening_id",
        "member_id",
        "round__number",
        _per_team("table__game__total_a", "table__game__total_b"),
        _per_team("table__game__marsen_a", "table__game__marsen_b"),
        _per_team("table__game__tegenpit_a", "table__game__tegenpit_b"),
    ):
        games[(evening_id, member_id)].append((points or 0, marsen or 0, number, tegenpit or 0))
    struck = {}
    for key, substitute_games in played.items():
        lowest_first = sorted(games.get(key, []))
        for (points, marsen, number, tegenpit), (low_points, low_marsen, low_number, low_tp) in zip(
            sorted(substitute_games, reverse=True), lowest_first, strict=False
        ):
            if points <= low_points:
                break
            tally = tallies[key[0]][key[1]]
            tally.points += points - low_points
            tally.marsen += marsen - low_marsen
            tally.tegenpit += tegenpit - low_tp
            if low_number in tally.rounds:
                tally.rounds[low_number] = points
            struck.setdefault(key, []).append((low_number, number))
    return struck


def _apply_absences(competition, tallies, evening_ids):
    """Score late arrivals, players who left early, players left over and players
    who called in absent, as the competition says.

    A player whose first round is not round 1 arrived late: each round missed
    scores the late arrival score (when the club gives one), counted as a game.
    A player who left after round N (their attendance says so; from before the
    round was recorded: their last round) follows the leaving policy: keeps the
    rounds played, scores the leaving score for each round drawn after N, or gets
    the evening's lowest score without a place. A player left over who sat out a
    round where tables of three are the rule gets, when the club says so, the
    evening's lowest score without a place. "The evening's lowest score" is the
    lowest of the players who played the whole evening: not one who left early,
    arrived late, was left over or missed a round.

    The evening's lowest replaces what the player scored in games only: their own
    adjustments (a verzaken penalty, a director's score for them) are added to it,
    so that leaving early does not take a penalty away. The lowest itself is the
    lowest total on the evening's list, its player's own adjustments included.
    """
    policy = competition.absence_policy
    late_score = competition.late_score
    leaving = competition.leaving_policy
    left_over = competition.left_over_lowest
    if (
        policy == Competition.AbsencePolicy.NOTHING
        and late_score is None
        and leaving == Competition.LeavingPolicy.KEEP
        and not left_over
    ):
        return
    rounds = dict(
        Round.objects.filter(evening_id__in=evening_ids)
        .values("evening_id")
        .annotate(n=Count("pk"))
        .values_list("evening_id", "n")
    )
    seated_rounds = (
        Seat.objects.filter(round__evening_id__in=evening_ids, member__isnull=False)
        .values("round__evening_id", "member_id")
        .annotate(first=Min("round__number"), last=Max("round__number"))
        .values_list("round__evening_id", "member_id", "first", "last")
    )
    late = defaultdict(dict)  # evening -> {member: rounds missed}
    last_round = defaultdict(dict)  # evening -> {member: last round with a place}
    for evening_id, member_id, first, last in seated_rounds:
        last_round[evening_id][member_id] = last
        if first > 1:
            late[evening_id][member_id] = first - 1
    statuses = defaultdict(dict)
    left_after = defaultdict(dict)  # evening -> {member: the last round played}
    for evening_id, member_id, status, after in Attendance.objects.filter(
        evening_id__in=evening_ids
    ).values_list("evening_id", "member_id", "status", "left_after"):
        statuses[evening_id][member_id] = status
        if status == Attendance.Status.LEFT:
            left_after[evening_id][member_id] = (
                after if after is not None else last_round[evening_id].get(member_id, 0)
            )
    sat_out = defaultdict(set)  # evening -> {member left over}
    if left_over:
        for evening_id, member_id in Adjustment.objects.filter(
            evening_id__in=evening_ids, kind=Adjustment.Kind.SITOUT, member__isnull=False
        ).values_list("evening_id", "member_id"):
            sat_out[evening_id].add(member_id)
    for evening_id in evening_ids:
        count = rounds.get(evening_id, 0)
        members = tallies[evening_id]
        gone = left_after[evening_id]
        whole = [
            tally
            for member_id, tally in members.items()
            if tally.played
            and tally.games >= count
            and member_id not in late[evening_id]
            and member_id not in gone
            and member_id not in sat_out[evening_id]
        ]
        lowest = min((t.points for t in whole), default=None)
        if late_score is not None:
            for member_id, missed in late[evening_id].items():
                tally = members[member_id]
                tally.points += late_score * missed
                tally.games += missed
                for number in range(1, missed + 1):
                    tally.rounds.setdefault(number, late_score)
        without_place = set(sat_out[evening_id])
        for member_id, after in gone.items():
            tally = members.get(member_id)
            if tally is None or not tally.played:
                continue  # left before playing: nothing to score
            if leaving == Competition.LeavingPolicy.FIXED:
                for number in range(after + 1, count + 1):
                    tally.points += competition.leaving_score
                    tally.games += 1
                    tally.rounds[number] = competition.leaving_score
            elif leaving == Competition.LeavingPolicy.LOWEST:
                without_place.add(member_id)
        if lowest is not None:
            for member_id in without_place:
                tally = members[member_id]
                # The lowest stands for the games; the player's own adjustments
                # (a verzaken penalty, a director's score) are still theirs.
                tally.points = lowest + tally.personal
                tally.games, tally.placed, tally.rounds = count, False, {}
        if policy == Competition.AbsencePolicy.NOTHING or not count:
            continue
        if policy == Competition.AbsencePolicy.LOWEST:
            if lowest is None:
                continue
            points = lowest
        elif competition.absence_unit == Competition.AbsenceUnit.EVENING:
            points = competition.absence_score
        else:
            points = competition.absence_score * count
        for member_id, status in statuses[evening_id].items():
            if status != Attendance.Status.EXCUSED:
                continue
            tally = members[member_id]
            if not tally.played:
                tally.points, tally.games = points, count


def _names(member_ids):
    return dict(_fetch(Member.objects.filter(pk__in=member_ids).values_list("pk", "name")))


def _pair_tallies(competition, tallies):
    """Per pair: the games (and byes) they shared, plus both players' penalties.

    Partners sit in the same team in every game, so the pair's games are one
    player's; the other's personal adjustments are added to them.
    """
    pairs = list(competition.pairs.values_list("pk", "first_id", "second_id"))
    result = defaultdict(dict)
    for evening_id, members in tallies.items():
        for pair_id, first, second in pairs:
            one, two = members.get(first), members.get(second)
            if one is None or two is None:
                one = one or two
                if one is not None:
                    result[evening_id][pair_id] = one
                continue
            result[evening_id][pair_id] = replace(
                one, points=one.points + two.personal, personal=one.personal + two.personal
            )
    return result


def head_to_head(evening_ids):
    """h2h(a, b): a's team points minus b's in the confirmed games where a and b were
    opponents."""
    seats = Seat.objects.filter(
        round__evening_id__in=evening_ids,
        table__isnull=False,
        member__isnull=False,
        table__game__status=Game.Status.CONFIRMED,
    ).values_list(
        "table_id", "position", "member_id", "table__game__total_a", "table__game__total_b"
    )
    tables = defaultdict(lambda: ([], [], 0, 0))
    for table_id, position, member_id, total_a, total_b in seats:
        a, b, _ta, _tb = tables[table_id]
        (a if position in TEAM_A else b).append(member_id)
        tables[table_id] = (a, b, total_a or 0, total_b or 0)
    diff = defaultdict(int)
    for a, b, total_a, total_b in tables.values():
        for x in a:
            for y in b:
                diff[(x, y)] += total_a - total_b
                diff[(y, x)] += total_b - total_a
    return lambda p, q: diff.get((p, q), 0)


@dataclass(frozen=True)
class Standings:
    competition: Competition
    lines: list[RankedLine]
    names: dict
    evenings: list
    settings: RankingSettings
    period: object = None
    #: The periods the season is counted by (``Competition.best_periods``), in order;
    #: empty for a season counted by its evenings and for a period's own standings.
    periods: list = field(default_factory=list)

    @property
    def ranked(self):
        return [line for line in self.lines if line.rank is not None]

    @property
    def unranked(self):
        return [line for line in self.lines if line.rank is None]


def counted_evenings(competition, period=None):
    """The finished evenings that count, by date, each with its stored tallies'
    ``stored_sums`` (:class:`~scoring.models.EveningTotals`; None when none are
    stored: then they are summed in memory) and ``from_totals`` (its scores are
    imported totals per player, not hands), read in the same query."""
    evenings = Evening.objects.filter(
        competition=competition, counts_for_ranking=True, status=Evening.Status.FINISHED
    ).annotate(
        stored_sums=Subquery(
            EveningTotals.objects.filter(evening_id=OuterRef("pk")).values("sums"),
            output_field=BinaryField(),
        ),
        from_totals=Exists(
            Adjustment.objects.filter(evening_id=OuterRef("pk"), kind=Adjustment.Kind.TOTALS)
        ),
    )
    if period is not None:
        evenings = evenings.filter(date__gte=period.start_date, date__lte=period.end_date)
    return list(evenings.order_by("date"))


def ranking_settings(competition):
    return RankingSettings.of(
        basis=competition.ranking_basis,
        best_of=competition.best_of,
        min_attendance=competition.min_attendance,
        tie_breaks=competition.tie_breaks,
        average_unit=competition.average_unit,
        best_periods=competition.best_periods,
    )


def season_periods(competition, evenings):
    """The periods a season is counted by and each evening's period:
    ``(periods, {evening_id: period_id})``; ``([], None)`` for a season counted
    by its evenings."""
    if not competition.ranks_by_periods():
        return [], None
    periods = list(competition.periods.order_by("start_date"))
    period_of = {}
    for evening in evenings:
        for period in periods:
            if period.start_date <= evening.date <= period.end_date:
                period_of[evening.pk] = period.pk
                break
    return periods, period_of


def side_ranking_settings(side) -> RankingSettings:
    """A side ranking's definition (``Competition.side_ranking_definitions``) as
    ranking settings: its kind's basis, its own best N and minimum, no tie-breaks."""
    return RankingSettings.of(
        basis=side.basis, best_of=side.best_of, min_attendance=side.min_attendance
    )


def side_standings(*, competition: Competition, period=None) -> list[tuple[str, Standings]]:
    """The competition's side rankings (puntenkampioen, most marsen), in its order,
    each by its own definition."""
    return [
        (
            str(side.kind),
            season_standings(
                competition=competition, period=period, settings=side_ranking_settings(side)
            ),
        )
        for side in competition.side_ranking_definitions()
    ]


def season_standings(
    *, competition: Competition, period=None, settings: RankingSettings | None = None
) -> Standings:
    """The standings of a competition (or one of its periods) by its own settings,
    or by ``settings`` (a side ranking)."""
    evenings = counted_evenings(competition, period)
    ids = [e.pk for e in evenings]
    known = {e.pk: e.stored_sums for e in evenings if e.stored_sums is not None}
    pairs = competition.kind == Competition.Kind.PAIRS
    if (
        pairs
        or competition.substitute_strikes_lowest
        or competition.absence_policy != Competition.AbsencePolicy.NOTHING
        or competition.late_score is not None
        or competition.leaving_policy != Competition.LeavingPolicy.KEEP
        or competition.left_over_lowest
    ):
        tallies = evening_tallies(ids, confirmed_only=True, finished=ids, known=known)
        _apply_substitutes(competition, tallies, ids)
        _apply_absences(competition, tallies, ids)
        if pairs:
            tallies = _pair_tallies(competition, tallies)
        per_key = defaultdict(list)
        for evening_id in ids:
            for key, tally in tallies.get(evening_id, {}).items():
                per_key[key].append(tally.line(evening_id))
    else:  # the stored tallies are the lines: no 4,000 tallies made in between
        per_key = _stored_lines(ids, known=known)
    own = ranking_settings(competition)
    periods, period_of = [], None
    if settings is None:
        settings = own
        if period is None:  # a period's own standings are its best evenings
            periods, period_of = season_periods(competition, evenings)
    else:
        settings = replace(settings, tie_breaks=own.tie_breaks, average_unit=own.average_unit)
    names = _pair_names(competition) if pairs else _names(per_key)
    h2h = head_to_head(ids) if "head_to_head" in competition.tie_breaks and not pairs else None
    lines = rank_season(
        per_key, settings, h2h=h2h, name=lambda key: names.get(key, ""), period_of=period_of
    )
    return Standings(competition, lines, names, evenings, settings, period, periods)


def _pair_names(competition):
    return {
        pair.pk: f"{pair.first.name} & {pair.second.name}"
        for pair in competition.pairs.select_related("first", "second")
    }


@dataclass(frozen=True)
class EveningResult:
    """An evening's ranked lines, final once the evening is closed.

    Until then the result is provisional: only confirmed games count, players are
    ranked on their points per confirmed game (so a table still playing does not
    pull its players down), players without a confirmed game are listed unranked,
    absences are not yet scored, and nobody has won a prize. ``tables`` says how
    far every table is.
    """

    evening: Evening
    lines: list[RankedLine]
    names: dict
    rounds: dict  # key -> {round number: points}
    round_numbers: list
    tallies: dict
    final: bool = True
    tables: list = field(default_factory=list)  # scoring.selectors.TableProgress
    prize_rule: str = PrizeRule.WINNER
    prize_places: int | None = None
    struck: dict = field(default_factory=dict)  # (evening, member) -> [(struck, as sub)]

    @property
    def winners(self):
        if not self.final:
            return set()
        return {line.key for line in self.lines if line.rank == 1}

    @property
    def prizes(self):
        """Who wins a prize by the competition's prize rule (the winners included);
        only players who played take one, and only once the evening is final."""
        if not self.final:
            return set()
        ranked = [line for line in self.lines if line.rank is not None]
        return prize_keys(ranked, prize_places(self.prize_rule, len(ranked), self.prize_places))

    @property
    def poedel(self):
        """The poedelprijs: the lowest score among the ranked players who played the
        whole evening (as many games as the most: not one who left early or arrived
        late with the rounds played only) and win no other prize; shared when equal.
        When the last place wins a prize (the formule van 4), it goes to the lowest
        place above it that wins none; nobody has it when every place wins a prize."""
        ranked = [line for line in self.lines if line.rank is not None]
        if not self.final or len(ranked) < 2:
            return set()
        most = max(line.games for line in ranked)
        prizes = self.prizes
        eligible = [line for line in ranked if line.games == most and line.key not in prizes]
        if not eligible:
            return set()
        lowest = min(line.points for line in eligible)
        return {line.key for line in eligible if line.points == lowest}

    @property
    def confirmed(self):
        return sum(1 for t in self.tables if t.missing is None)

    @property
    def unconfirmed(self):
        """The tables still playing or waiting for their confirmation."""
        return [t for t in self.tables if t.missing is not None]


def evening_result(*, evening: Evening) -> EveningResult:
    """One evening, live while it is played: every player's confirmed rounds, ranked.

    Provisional until the evening is closed (see :class:`EveningResult`).
    """
    competition = evening.competition
    final = evening.status == Evening.Status.FINISHED
    tallies = evening_tallies([evening.pk], confirmed_only=True, by_round=True)
    struck = _apply_substitutes(competition, tallies, [evening.pk])
    members = tallies[evening.pk]
    if final:
        _apply_absences(competition, tallies, [evening.pk])
        tables = []
    else:
        seated = Seat.objects.filter(round__evening=evening, member__isnull=False)
        for member_id in seated.values_list("member_id", flat=True).distinct():
            # Listed, unranked, until one of their games is confirmed.
            members.setdefault(member_id, Tally())
        tables = evening_progress(evening=evening, with_adjustments=False).tables
    pairs = competition.kind == Competition.Kind.PAIRS
    if pairs:
        members = _pair_tallies(competition, {evening.pk: members}).get(evening.pk, {})
        names = _pair_names(competition)
    else:
        names = _names(members)
    h2h = head_to_head([evening.pk]) if "head_to_head" in competition.tie_breaks else None
    lines = rank_evening(
        {key: tally.evening_line(evening.pk) for key, tally in members.items()},
        tie_breaks=competition.tie_breaks,
        h2h=None if pairs else h2h,
        name=lambda key: names.get(key, ""),
        basis=Basis.TOTAL if final else Basis.AVERAGE,
    )
    round_numbers = sorted({n for tally in members.values() for n in tally.rounds})
    return EveningResult(
        evening=evening,
        lines=lines,
        names=names,
        rounds={key: tally.rounds for key, tally in members.items()},
        round_numbers=round_numbers,
        tallies=members,
        final=final,
        tables=tables,
        prize_rule=competition.prize_rule,
        prize_places=competition.prize_places,
        struck=struck,
    )


PARTNER = Seat.PARTNER_OF


@dataclass(frozen=True)
class PlayerEvening:
    evening: Evening
    points: int
    games: int
    rank: int | None
    players: int
    #: How the evening counts in the standings: COUNTED, DROPPED (outside the best
    #: N) or NOT_COUNTED (an evening that does not count, or is not closed yet).
    counts: str = "not_counted"


COUNTED, DROPPED, NOT_COUNTED = "counted", "dropped", "not_counted"


@dataclass(frozen=True)
class Partner:
    name: str
    games: int
    points: int

    @property
    def average(self):
        return self.points / self.games if self.games else 0


@dataclass(frozen=True)
class PlayerStats:
    member: Member
    evenings: list
    games: int
    points: int
    marsen: int
    nat: int
    nat_defending: int
    roem: int
    partners: list
    #: Hands the player's team ended by reneging (verzaken is not nat).
    verzaken: int = 0
    #: The player's own verzaken penalties (a club that punishes the player):
    #: how many, and their points (-100 each by default).
    penalties: int = 0
    penalty_points: int = 0
    #: Hands the player's team defended and took every trick (counted apart from marsen).
    tegenpit: int = 0
    #: The player's line in the season standings (None in a pairs competition or
    #: before the first counting evening): the totals that decide the ranking.
    standing: RankedLine | None = None
    #: A season counted by periods: ``(period, PeriodResult or None)`` for each of
    #: its periods, in order (None: the player has no evening in it).
    periods: list = field(default_factory=list)
    #: What the average divides by (``Competition.AverageUnit``).
    average_unit: str = "game"

    @property
    def average(self):
        """Points per game, or per evening played (the competition's average unit)."""
        if self.average_unit == Competition.AverageUnit.EVENING:
            return self.points / len(self.evenings) if self.evenings else 0
        return self.points / self.games if self.games else 0

    @property
    def best(self):
        return max(self.evenings, key=lambda e: e.points, default=None)

    @property
    def worst(self):
        return min(self.evenings, key=lambda e: e.points, default=None)


def player_stats(*, member: Member, competition: Competition) -> PlayerStats:
    """A player's season: evenings with their place, totals, and partners.

    The totals count every evening played (confirmed games), also those that do not
    count for the ranking; ``standing`` is the player's line in the standings, and
    each evening says whether it counted there.
    """
    evenings = list(
        Evening.objects.filter(competition=competition)
        .exclude(status=Evening.Status.PLANNED)
        .order_by("date")
    )
    ids = [e.pk for e in evenings]
    finished = [e.pk for e in evenings if e.status == Evening.Status.FINISHED]
    tallies = evening_tallies(ids, confirmed_only=True, finished=finished)
    _apply_substitutes(competition, tallies, ids)
    _apply_absences(competition, tallies, ids)
    standing = None
    periods = []
    if competition.kind != Competition.Kind.PAIRS:
        table = season_standings(competition=competition)
        standing = next((line for line in table.lines if line.key == member.pk), None)
        results = {r.period: r for r in standing.periods} if standing else {}
        periods = [(period, results.get(period.pk)) for period in table.periods]
    counted = set(standing.counted) if standing else set()
    dropped = set(standing.dropped) if standing else set()
    own = []
    totals = Tally()
    for evening in evenings:
        players = tallies.get(evening.pk, {})
        mine = players.get(member.pk)
        if mine is None:
            continue
        ranked = rank_evening(
            {key: t.evening_line(evening.pk) for key, t in players.items()},
            tie_breaks=competition.tie_breaks,
        )
        rank = next(line.rank for line in ranked if line.key == member.pk)
        counts = (
            COUNTED if evening.pk in counted else DROPPED if evening.pk in dropped else NOT_COUNTED
        )
        ranked_players = sum(1 for line in ranked if line.rank is not None)
        own.append(PlayerEvening(evening, mine.points, mine.games, rank, ranked_players, counts))
        for name in EveningTotals.SUMS:
            setattr(totals, name, getattr(totals, name) + getattr(mine, name))
    return PlayerStats(
        member=member,
        evenings=own,
        games=totals.games,
        points=totals.points,
        marsen=totals.marsen,
        tegenpit=totals.tegenpit,
        nat=totals.nat,
        nat_defending=totals.nat_defending,
        roem=totals.roem,
        verzaken=totals.verzaken,
        **_penalties(member, ids),
        partners=_partners(member, ids),
        standing=standing,
        periods=periods,
        average_unit=competition.average_unit,
    )


def _penalties(member, evening_ids):
    """The player's own verzaken penalties over the evenings: count and points, net
    of withdrawals (a hand undone or corrected gives its penalty back with an
    adjustment of the opposite points: that one is not a penalty, and takes one away)."""
    sums = Adjustment.objects.filter(
        evening_id__in=evening_ids, member=member, kind=Adjustment.Kind.VERZAKEN
    ).aggregate(
        given=Count("pk", filter=Q(points__lt=0)),
        withdrawn=Count("pk", filter=Q(points__gt=0)),
        penalty_points=Coalesce(Sum("points"), 0),
    )
    return {
        "penalties": max(sums["given"] - sums["withdrawn"], 0),
        "penalty_points": sums["penalty_points"],
    }


def _partners(member, evening_ids):
    """Who the player sat with, how often, and the points they made together."""
    tables = Seat.objects.filter(
        round__evening_id__in=evening_ids, member=member, table__isnull=False
    ).values("table_id")
    seats = Seat.objects.filter(table_id__in=tables).values_list(
        "table_id",
        "position",
        "member_id",
        "member__name",
        "substitute",
        "table__game__total_a",
        "table__game__total_b",
    )
    by_table = defaultdict(dict)
    for table_id, position, member_id, name, substitute, total_a, total_b in seats:
        by_table[table_id][position] = (member_id, name or substitute, total_a, total_b)
    together = defaultdict(lambda: [0, 0])
    for places in by_table.values():
        mine = next(p for p, seat in places.items() if seat[0] == member.pk)
        partner = places.get(PARTNER[mine])
        if partner is None:
            continue
        _id, name, total_a, total_b = partner
        entry = together[name]
        entry[0] += 1
        entry[1] += (total_a if mine in TEAM_A else total_b) or 0
    partners = [Partner(name, games, points) for name, (games, points) in together.items()]
    partners.sort(key=lambda p: (-p.games, -p.average, p.name))
    return partners


def chart_points(evenings, *, width=600, height=160, pad=24):
    """Coordinates for a small SVG line chart of a player's evening totals."""
    if not evenings:
        return None
    values = [e.points for e in evenings]
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    points = []
    for index, evening in enumerate(evenings):
        x = pad + index * step
        y = height - pad - (evening.points - low) / span * (height - 2 * pad)
        points.append({"x": round(x, 1), "y": round(y, 1), "evening": evening})
    return {
        "width": width,
        "height": height,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
        "low": low,
        "high": high,
    }
