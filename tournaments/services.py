"""Every way competitions, evenings and rounds change.

Keyword-only, one transaction each, permission checked in the service itself.
A wedstrijdleider's mistake raises a translated ``ValidationError`` and
changes nothing.
"""

import random
from collections import Counter

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import ClubLog, Member
from clubs.permissions import Capability, require
from clubs.services import club_log_add

from . import draw, selectors, signals, words
from .models import (
    Attendance,
    Competition,
    Evening,
    EveningLog,
    Pair,
    Period,
    Round,
    Seat,
    Table,
)
from .versions import evenings_touch

RULE_FIELDS = ("ruleset_preset", "ruleset_overrides", "hands_per_game")
#: What a director sets of a competition, in the order its form shows them
#: (:class:`tournaments.forms.CompetitionForm` is made of them).
COMPETITION_FIELDS = (
    "name",
    "format",
    "kind",
    "start_date",
    "end_date",
    *RULE_FIELDS,
    "rounds_per_evening",
    "odd_players",
    "movement",
    "substitute_strikes_lowest",
    "finished_may_substitute",
    "sitout_score",
    "sitout_mars",
    "left_over",
    "late_score",
    "leaving_policy",
    "leaving_score",
    "absence_policy",
    "absence_score",
    "absence_unit",
    "prize_rule",
    "prize_places",
    "ranking_basis",
    "best_of",
    "best_periods",
    "min_attendance",
    "average_unit",
    "tie_breaks",
    "side_rankings",
)


def _clean_save(obj):
    obj.full_clean()
    obj.save()
    return obj


@transaction.atomic
def competition_create(*, club, by, **fields) -> Competition:
    require(by, club, Capability.RUN_COMPETITIONS)
    unknown = set(fields) - set(COMPETITION_FIELDS)
    if unknown:
        raise ValueError(f"competition_create does not take {sorted(unknown)}")
    fields.setdefault("ruleset_preset", club.ruleset_preset)
    fields.setdefault("ruleset_overrides", dict(club.ruleset_overrides))
    competition = Competition(club=club, **fields)
    return _clean_save(competition)  # clean(): the tie-breaks, the rule set through the core


def competition_has_play(competition):
    """Whether a hand is entered in the competition (scoring answers)."""
    return any(signals.answers(signals.play_asked, Competition, competition=competition))


@transaction.atomic
def competition_update(*, competition: Competition, by, **fields) -> Competition:
    """Change a competition's settings; its rule set is fixed once a hand is played."""
    require(by, competition.club, Capability.RUN_COMPETITIONS)
    unknown = set(fields) - set(COMPETITION_FIELDS)
    if unknown:
        raise ValueError(f"competition_update does not take {sorted(unknown)}")
    if set(fields) & set(RULE_FIELDS):  # its games before the competition, as a hand
        signals.ruleset_changing.send(Competition, competition=competition)
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    before = competition.ruleset()
    # All the overrides first, then a single rule field (hands_per_game) over them.
    for name in sorted(fields, key=lambda name: name != "ruleset_overrides"):
        setattr(competition, name, fields[name])
    competition.full_clean()  # checks the tie-breaks and, through the core, the rule set
    ruleset = competition.ruleset()
    if ruleset != before:
        if competition_has_play(competition):
            raise ValidationError(
                {
                    "ruleset_preset": _(
                        "The rule set is fixed once the first hand is played; "
                        "start a new competition to play by other rules."
                    )
                }
            )
        # Tables drawn before the change have not played yet: they play by the new rules.
        signals.ruleset_changed.send(Competition, competition=competition, ruleset=ruleset)
    competition.save()
    return competition


@transaction.atomic
def evening_create(*, competition: Competition, date, by, counts_for_ranking=True, note=""):
    require(by, competition.club, Capability.RUN_COMPETITIONS)
    if not competition.start_date <= date <= competition.end_date:
        raise ValidationError({"date": _("The date is outside the competition's season.")})
    evening = Evening(
        competition=competition, date=date, counts_for_ranking=counts_for_ranking, note=note
    )
    return _clean_save(evening)


@transaction.atomic
def evening_set_status(*, evening: Evening, status: str, by) -> Evening:
    require(by, evening.competition.club, Capability.RUN_COMPETITIONS)
    if status not in Evening.Status.values:
        raise ValidationError(_("Unknown status."))
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if status == Evening.Status.FINISHED:
        count = sum(signals.answers(signals.open_games_asked, Evening, evening=evening))
        if count:
            raise ValidationError(
                ngettext(
                    "%(count)s table has not confirmed its game yet.",
                    "%(count)s tables have not confirmed their game yet.",
                    count,
                )
                % {"count": count}
            )
    evening.status = status
    evening.save(update_fields=["status"])
    EveningLog.objects.create(
        evening=evening,
        user=by,
        summary=_("Status: %(status)s") % {"status": evening.get_status_display()},
    )
    return evening


def _check_evening_open(evening):
    if evening.status == Evening.Status.FINISHED:
        raise ValidationError(_("This evening is closed."))


@transaction.atomic
def attendance_set(*, evening: Evening, member: Member, status: str | None, by):
    """Check a player in (present), mark them left or called in, or undo (None)."""
    require(by, evening.competition.club, Capability.RUN_COMPETITIONS)
    _check_evening_open(evening)
    if member.club_id != evening.competition.club_id:
        raise ValidationError(_("This player is not of this club."))
    if status is None:
        Attendance.objects.filter(evening=evening, member=member).delete()
        evenings_touch([evening.pk])
        return None
    if status not in Attendance.Status.values:
        raise ValidationError(_("Unknown attendance status."))
    if status == Attendance.Status.LEFT:
        return _leave(evening, member, _last_round_seated(evening, member), by)
    attendance, _created = Attendance.objects.update_or_create(
        evening=evening, member=member, defaults={"status": status, "left_after": None}
    )
    return attendance


def _last_round_seated(evening, member):
    """The last round of the evening the member has a place in (0: none)."""
    rounds = Seat.objects.filter(round__evening=evening, member=member)
    return rounds.aggregate(last=Max("round__number"))["last"] or 0


@transaction.atomic
def attendance_leave(*, evening: Evening, member: Member, after_round: int, by) -> Attendance:
    """Record that a player left the evening after round ``after_round`` (0: before
    round 1): they are drawn no more, and the competition's leaving policy scores
    the rounds they missed. Logged on the evening."""
    require(by, evening.competition.club, Capability.RUN_COMPETITIONS)
    if member.club_id != evening.competition.club_id:
        raise ValidationError(_("This player is not of this club."))
    return _leave(evening, member, after_round, by)


def _leave(evening, member, after_round, by):
    evening = Evening.objects.select_for_update().select_related("competition").get(pk=evening.pk)
    _check_evening_open(evening)
    planned = evening.competition.rounds_per_evening
    if not isinstance(after_round, int) or not 0 <= after_round < planned:
        raise ValidationError(
            {
                "left_after": _(
                    "A player leaves early after round 0 to %(last)s: after the last "
                    "round the evening is over."
                )
                % {"last": planned - 1}
            }
        )
    later = (
        Seat.objects.filter(round__evening=evening, member=member, round__number__gt=after_round)
        .order_by("round__number")
        .values_list("round__number", flat=True)
        .first()
    )
    if later is not None:
        raise ValidationError(
            {
                "left_after": _(
                    "%(name)s has a place in round %(number)s. Take back that draw (or swap "
                    "them with a substitute) first, or choose a later round."
                )
                % {"name": member.name, "number": later}
            }
        )
    attendance = Attendance.objects.filter(evening=evening, member=member).first() or Attendance(
        evening=evening, member=member
    )
    attendance.status = Attendance.Status.LEFT
    attendance.left_after = after_round
    attendance.full_clean(validate_unique=False)
    attendance.save()
    EveningLog.objects.create(
        evening=evening,
        user=by,
        summary=_("%(name)s left after round %(number)s")
        % {"name": member.name, "number": after_round},
    )
    return attendance


@transaction.atomic
def attendance_all_present(*, evening: Evening, by) -> int:
    """Check in at once every active member (not the guests) who has no attendance
    this evening yet: one who called in absent, arrives late or left keeps it.
    Returns how many were checked in."""
    require(by, evening.competition.club, Capability.RUN_COMPETITIONS)
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    _check_evening_open(evening)
    members = evening.competition.club.members.filter(is_active=True, is_guest=False).exclude(
        attendances__evening=evening
    )
    checked_in = [
        Attendance(evening=evening, member=member, status=Attendance.Status.PRESENT)
        for member in members
    ]
    for attendance in checked_in:
        attendance.full_clean(exclude=["evening", "member"], validate_unique=False)
    Attendance.objects.bulk_create(checked_in)
    if checked_in:
        evenings_touch([evening.pk])  # a bulk insert sends no signal
        EveningLog.objects.create(
            evening=evening,
            user=by,
            summary=ngettext(
                "Everyone present: %(count)s player checked in",
                "Everyone present: %(count)s players checked in",
                len(checked_in),
            )
            % {"count": len(checked_in)},
        )
    return len(checked_in)


@transaction.atomic
def guest_check_in(*, evening: Evening, name: str, by) -> Attendance:
    """Add a guest (a new guest record of the club) and check them in."""
    require(by, evening.competition.club, Capability.RUN_COMPETITIONS)
    _check_evening_open(evening)
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": _("A guest needs a name.")})
    member = Member(club=evening.competition.club, name=name, is_guest=True)
    _clean_save(member)
    return Attendance.objects.create(evening=evening, member=member)


def _seat_history(competition, evening):
    """The draw's memory: who sat with whom this evening and this season."""
    seats = (
        Seat.objects.filter(round__evening__competition=competition)
        .values_list("round__evening_id", "round_id", "table_id", "position", "member_id")
        .order_by("round_id", "table_id")
    )
    tables = {}
    sitouts_evening, sitouts_season = Counter(), Counter()
    for evening_id, _round_id, table_id, position, member_id in seats:
        if member_id is None:
            continue
        if table_id is None:
            sitouts_season[member_id] += 1
            if evening_id == evening.pk:
                sitouts_evening[member_id] += 1
            continue
        tables.setdefault((evening_id, table_id), {})[position] = member_id
    partners, opponents, season_partners = Counter(), Counter(), Counter()
    threes_evening, threes_season = Counter(), Counter()
    for (evening_id, _table), by_seat in tables.items():
        if len(by_seat) < 4:  # a table of three: a substitute has the fourth seat
            threes_season.update(by_seat.values())
            if evening_id == evening.pk:
                threes_evening.update(by_seat.values())
        teams = [
            [by_seat.get("N"), by_seat.get("S")],
            [by_seat.get("E"), by_seat.get("W")],
        ]
        for team in teams:
            if None not in team:
                key = frozenset(team)
                season_partners[key] += 1
                if evening_id == evening.pk:
                    partners[key] += 1
        if evening_id == evening.pk:
            for a in teams[0]:
                for b in teams[1]:
                    if a is not None and b is not None:
                        opponents[frozenset((a, b))] += 1
    return draw.DrawHistory(
        partners=partners,
        opponents=opponents,
        season_partners=season_partners,
        sitouts_evening=sitouts_evening,
        sitouts_season=sitouts_season,
        threes_evening=threes_evening,
        threes_season=threes_season,
    )


@transaction.atomic
def round_draw(*, evening: Evening, by, seed=None, odd_mode=None) -> Round:
    """Draw the next round of an evening: its tables and seats; scoring adds the games
    and the sit-out scores (``signals.round_drawn``) in the same transaction."""
    competition = evening.competition
    require(by, competition.club, Capability.RUN_COMPETITIONS)
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    _check_not_league(competition)
    _check_evening_open(evening)
    number = evening.rounds.count() + 1
    if number > competition.rounds_per_evening:
        raise ValidationError(
            _("This evening has all its %(count)s rounds already.")
            % {"count": competition.rounds_per_evening}
        )
    present = list(
        evening.attendances.filter(status=Attendance.Status.PRESENT)
        .order_by("member_id")
        .values_list("member_id", flat=True)
    )
    rng = random.Random(seed)
    chosen, odd_mode = odd_mode, odd_mode or competition.odd_players
    if competition.kind == Competition.Kind.PAIRS and not competition.pairs.exists():
        raise ValidationError(words.no_pairs_yet())
    try:
        if competition.kind == Competition.Kind.PAIRS:
            result = _pairs_round(competition, evening, present, number)
        else:
            # Tables of three only as far as invallers can fill them: a layout the
            # wedstrijdleider chose is refused, the competition's own falls back to
            # sit-outs (the draw page offers only what can be filled).
            free = selectors.free_substitutes(evening=evening)
            plan = draw.table_plan(len(present), odd_mode, substitutes=free)
            if chosen and plan.fallback == plan.TOO_FEW_SUBSTITUTES:
                raise ValidationError(words.table_of_three_refused(plan, free))
            history = _seat_history(competition, evening)
            result = draw.individual_draw(
                present, history=history, rng=rng, odd_mode=odd_mode, substitutes=free
            )
    except draw.DrawError as exc:
        raise ValidationError(_draw_message(exc, len(present))) from exc
    round_ = Round.objects.create(evening=evening, number=number)
    _store_draw(round_, result)
    signals.round_drawn.send(Round, round_=round_, sitouts=list(result.sitouts), by=by)
    _measure(round_, evening)
    if evening.status == Evening.Status.PLANNED:
        evening.status = Evening.Status.IN_PLAY
        evening.save(update_fields=["status"])
    EveningLog.objects.create(
        evening=evening,
        user=by,
        summary=_("Round %(number)s drawn: %(tables)s tables, %(sitouts)s sitting out")
        % {"number": number, "tables": len(result.tables), "sitouts": len(result.sitouts)},
    )
    return round_


def _draw_message(exc, present):
    if getattr(exc, "code", "") == "too_few_players" and "pairs" in exc.params:
        return _(
            "At least 2 pairs with both players present are needed for a round; "
            "%(count)s are present."
        ) % {"count": exc.params["pairs"]}
    if getattr(exc, "code", "") == "too_few_players":
        return _("At least 4 present players are needed for a round; %(count)s are present.") % {
            "count": present
        }
    return _("The draw is not possible: %(reason)s") % {"reason": exc}


def _pairs_round(competition, evening, present, number):
    """A pair with a player missing keeps its place in the schedule as an empty slot.

    Every movement places the pairs of the evening once, when round 1 is drawn
    (both players present; a pair that called in absent, or checked in and left
    again before round 1, has no place: a pair that comes later is a late pair).
    The round robin puts them in the circle by number, so six pairs of seven fill
    three tables every round and only the absent pair sits out; the stay-and-move
    movements by number, or with an odd number by the sit-out rota of the evenings
    before (``draw.movement_positions``).
    Later rounds keep those places: a pair that checks in after round 1 changes no
    other pair's schedule. It takes the bye of an odd number of pairs when there
    is one (the first late pair: the empty staying place of the movements,
    ``draw.movement_join``, the circle's bye in the round robin); otherwise it has
    no place this evening (the round page says so).
    """
    here = set(present)
    pairs = [(pair.first_id, pair.second_id) for pair in competition.pairs.order_by("number")]
    movement = draw.Movement(competition.movement)
    if number == 1:  # the pairs here now: one that came and left again plays no part
        came = here
    else:  # the pairs of round 1, at a table or sitting out
        came = set(
            Seat.objects.filter(
                round__evening=evening, round__number=1, member__isnull=False
            ).values_list("member_id", flat=True)
        )
    late = [pair for pair in pairs if not set(pair) <= came]
    pairs = [pair for pair in pairs if set(pair) <= came]
    joining = _late_pair(evening, late, here) if number > 1 else None
    if movement is draw.Movement.ROUND_ROBIN:
        if joining and len(pairs) % 2:  # the circle's bye is its last place
            pairs.append(joining)
    else:
        earlier = Counter(
            Seat.objects.filter(
                round__evening__competition=competition,
                round__evening__date__lt=evening.date,
                table__isnull=True,
            ).values_list("member_id", flat=True)
        )
        pairs = draw.movement_positions(
            pairs, sitouts={pair: earlier[pair[0]] for pair in pairs}, movement=movement
        )
        pairs = draw.movement_join(pairs, joining, movement=movement)
    slots = [pair if set(pair) <= here else None for pair in pairs]
    return draw.pairs_draw(slots, round_number=number, movement=movement)


def _late_pair(evening, late, here):
    """The late pair that holds the empty place of an odd movement: the one seated
    in an earlier round of the evening (it keeps the place, also when it left),
    else the first present by number; None when no late pair is here."""
    seated = set(
        Seat.objects.filter(round__evening=evening, member__isnull=False).values_list(
            "member_id", flat=True
        )
    )
    return next((pair for pair in late if pair[0] in seated), None) or next(
        (pair for pair in late if set(pair) <= here), None
    )


def _store_draw(round_, result):
    seats = []
    for table_draw in result.tables:
        table = Table.objects.create(round=round_, number=table_draw.number)
        for position, member_id in zip(Seat.ORDER, table_draw.seats, strict=True):
            seats.append(
                Seat(
                    round=round_,
                    table=table,
                    position=position,
                    member_id=member_id,
                    substitute="" if member_id is not None else _("substitute"),
                )
            )
    for member_id in result.sitouts:
        seats.append(Seat(round=round_, member_id=member_id))
    Seat.objects.bulk_create(seats)


def _measure(round_, evening):
    """Store how many partner and opponent meetings of this round are repeats."""
    counts = draw.repeat_counts(_round_draws(evening))
    earlier = draw.repeat_counts(_round_draws(evening, before=round_.number))
    round_.partner_repeats = counts.partner_repeats - earlier.partner_repeats
    if evening.competition.kind == Competition.Kind.PAIRS:
        round_.partner_repeats = 0  # fixed pairs partner every round by design
    round_.opponent_repeats = counts.opponent_repeats - earlier.opponent_repeats
    round_.save(update_fields=["partner_repeats", "opponent_repeats"])


def _round_draws(evening, before=None):
    """The evening's rounds as the draw module's values, for measuring repeats."""
    seats = Seat.objects.filter(round__evening=evening, table__isnull=False)
    if before is not None:
        seats = seats.filter(round__number__lt=before)
    by_round = {}
    for round_id, number, position, member_id in seats.values_list(
        "round_id", "table__number", "position", "member_id"
    ):
        by_round.setdefault(round_id, {}).setdefault(number, {})[position] = member_id
    rounds = []
    for _round_id, tables in sorted(by_round.items()):
        rounds.append(
            draw.RoundDraw(
                tables=tuple(
                    draw.TableDraw(number=n, seats=tuple(seats.get(p) for p in Seat.ORDER))
                    for n, seats in sorted(tables.items())
                ),
                sitouts=(),
            )
        )
    return rounds


def _check_not_league(competition):
    if competition.format == Competition.Format.LEAGUE:
        raise ValidationError(
            _("This evening belongs to a league: its tables follow the league's matches.")
        )


def _check_round_untouched(round_):
    if any(signals.answers(signals.play_asked, Round, round_=round_)):
        raise ValidationError(
            _("Scores have been entered in this round; its tables are fixed now.")
        )


@transaction.atomic
def seat_swap(*, round_: Round, first: Seat, second: Seat, by) -> None:
    """Swap two players (or a player and a sit-out) before the round's first hand."""
    require(by, round_.evening.competition.club, Capability.RUN_COMPETITIONS)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    _check_not_league(round_.evening.competition)
    _check_evening_open(round_.evening)
    _check_round_untouched(round_)
    if first.round_id != round_.pk or second.round_id != round_.pk:
        raise ValidationError(_("Both places must be of this round."))
    if first.pk == second.pk:
        raise ValidationError(_("Choose two different places."))
    first = Seat.objects.get(pk=first.pk)
    second = Seat.objects.get(pk=second.pk)
    a = (first.member_id, first.substitute, first.substitute_member_id)
    b = (second.member_id, second.substitute, second.substitute_member_id)
    if (first.is_sitout and b[0] is None) or (second.is_sitout and a[0] is None):
        raise ValidationError(_("A substitute cannot sit out."))
    Seat.objects.filter(pk__in=[first.pk, second.pk]).delete()
    first.pk = second.pk = None
    first.member_id, first.substitute, first.substitute_member_id = b
    second.member_id, second.substitute, second.substitute_member_id = a
    Seat.objects.bulk_create([first, second])
    evenings_touch([round_.evening_id])  # a bulk insert sends no signal
    # Sit-out scores follow the player who now sits out.
    now_out = {s.member_id for s in (first, second) if s.is_sitout}
    was_out = {m for m in (a[0], b[0]) if m is not None} - now_out
    signals.round_sitouts_changed.send(
        Round, round_=round_, sitting_out=now_out, back_in=was_out, by=by
    )
    _measure(round_, round_.evening)
    names = [s.player_name for s in (first, second)]
    EveningLog.objects.create(
        evening=round_.evening,
        user=by,
        summary=_("Round %(number)s: %(a)s and %(b)s swapped")
        % {"number": round_.number, "a": names[1], "b": names[0]},
    )


@transaction.atomic
def seat_substitute_set(*, seat: Seat, member: Member, by) -> Seat:
    """Name the member who plays the empty seat of a table of three (the invaller).

    The substitute is a member of the competition's club (a guest has a member
    record too) who has no other seat at a table in that round, or, where the
    competition allows it (``finished_may_substitute``), whose own table in that
    round has finished: its result is confirmed, so it can no longer change
    under the player's feet. The choice is logged with the rule that says what
    the substitute's game counts for.
    """
    evening = seat.round.evening
    competition = evening.competition
    require(by, competition.club, Capability.RUN_COMPETITIONS)
    _check_not_league(competition)
    _check_evening_open(evening)
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    if seat.member_id is not None or seat.table_id is None:
        raise ValidationError(_("Only the empty seat of a table of three takes a substitute."))
    if member is None or member.club_id != competition.club_id:
        raise ValidationError(_("Choose the substitute from the club's members."))
    _check_free_to_substitute(seat, member, competition)
    seat.substitute_member = member
    seat.substitute = member.name
    _clean_save(seat)
    EveningLog.objects.create(
        evening=evening,
        user=by,
        summary=_("Round %(number)s, table %(table)s: %(name)s plays as substitute. %(rule)s")
        % {
            "number": seat.round.number,
            "table": seat.table.number,
            "name": member.name,
            "rule": competition.describe_substitutes(),
        },
    )
    return seat


def _check_free_to_substitute(seat, member, competition):
    """Refuse a member who substitutes at another table of the round, or who has a
    seat at a table of it, unless the competition lets a player whose own table
    has finished (its result confirmed) fill in and it has."""
    busy = Seat.objects.filter(round_id=seat.round_id, table__isnull=False).exclude(pk=seat.pk)
    elsewhere = busy.filter(substitute_member=member).select_related("table").first()
    if elsewhere is not None:
        raise ValidationError(
            _("%(name)s already plays as the substitute at table %(table)s in this round.")
            % {"name": member.name, "table": elsewhere.table.number}
        )
    own = busy.filter(member=member).select_related("table").first()
    if own is None:
        return
    where = {"name": member.name, "table": own.table.number}
    if not competition.finished_may_substitute:
        raise ValidationError(
            _(
                "%(name)s already plays at table %(table)s in this round. This competition "
                "does not let a player whose table has finished substitute (its settings "
                "can allow it)."
            )
            % where
        )
    if own.table_id == seat.table_id:
        raise ValidationError(_("%(name)s already plays at this table.") % where)
    # His own table's game is locked while he is seated here: a correction that
    # would take its confirmation away waits, and then sees him substituting.
    if own.table_id not in signals.finished_tables(seat.round, lock=[own.table_id]):
        raise ValidationError(
            _(
                "%(name)s plays at table %(table)s in this round, which has not finished: "
                "a player may substitute once the result of their own table is confirmed."
            )
            % where
        )


@transaction.atomic
def round_delete(*, round_: Round, by) -> None:
    """Take back the last draw of an evening while no hand of it is entered."""
    require(by, round_.evening.competition.club, Capability.RUN_COMPETITIONS)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    _check_not_league(round_.evening.competition)
    _check_evening_open(round_.evening)
    _check_round_untouched(round_)
    if round_.evening.rounds.filter(number__gt=round_.number).exists():
        raise ValidationError(_("Only the last round can be taken back."))
    signals.round_deleting.send(Round, round_=round_)
    round_.seats.all().delete()
    round_.tables.all().delete()
    evening = round_.evening
    number = round_.number
    round_.delete()
    EveningLog.objects.create(
        evening=evening, user=by, summary=_("Round %(number)s taken back") % {"number": number}
    )


@transaction.atomic
def pair_add(*, competition: Competition, first: Member, second: Member, by) -> Pair:
    """Add a fixed pair (koppel) to a pairs competition, numbered after the others."""
    require(by, competition.club, Capability.RUN_COMPETITIONS)
    if competition.kind != Competition.Kind.PAIRS:
        raise ValidationError(_("Only a pairs competition has fixed pairs."))
    for member in (first, second):
        if member.club_id != competition.club_id:
            raise ValidationError(_("This player is not of this club."))
    if first.pk == second.pk:
        raise ValidationError(_("A pair is two different players."))
    if competition.pairs.filter(_in_pair(first) | _in_pair(second)).exists():
        raise ValidationError(_("A player can be in one pair of a competition only."))
    number = (competition.pairs.aggregate(n=Max("number"))["n"] or 0) + 1
    return _clean_save(Pair(competition=competition, number=number, first=first, second=second))


def _in_pair(member):
    return Q(first=member) | Q(second=member)


@transaction.atomic
def pair_remove(*, pair, by) -> None:
    require(by, pair.competition.club, Capability.RUN_COMPETITIONS)
    if Seat.objects.filter(
        round__evening__competition=pair.competition, member__in=[pair.first, pair.second]
    ).exists():
        raise ValidationError(_("This pair has played; it stays in the competition."))
    pair.delete()


@transaction.atomic
def period_add(*, competition: Competition, name, start_date, end_date, by) -> Period:
    require(by, competition.club, Capability.RUN_COMPETITIONS)
    period = Period(competition=competition, name=name, start_date=start_date, end_date=end_date)
    period.full_clean()
    if not (
        competition.start_date <= start_date <= competition.end_date
        and competition.start_date <= end_date <= competition.end_date
    ):
        raise ValidationError(_("A period lies within the competition's season."))
    overlapping = competition.periods.filter(start_date__lte=end_date, end_date__gte=start_date)
    if overlapping.exists():
        raise ValidationError(_("Periods may not overlap."))
    period.save()
    return period


@transaction.atomic
def period_remove(*, period, by) -> None:
    require(by, period.competition.club, Capability.RUN_COMPETITIONS)
    period.delete()


# --- Deleting an evening or a competition ----------------------------------------------


def _check_typed(deleting, typed, expected, field):
    """Confirmed results go only when the wedstrijdleider typed ``expected`` exactly."""
    if deleting.confirmed and (typed or "").strip() != expected:
        raise ValidationError(
            {
                field: ngettext(
                    "%(count)s confirmed game would be lost. Type %(expected)s exactly "
                    "to delete it all the same.",
                    "%(count)s confirmed games would be lost. Type %(expected)s exactly "
                    "to delete them all the same.",
                    deleting.confirmed,
                )
                % {"count": deleting.confirmed, "expected": expected}
            }
        )


def _delete_evenings(evenings):
    """Every row of ``evenings`` (a query), children first: the relations that
    protect them (a game on its table, an adjustment on its evening, round or game,
    a table on its round, a round on its evening) are emptied on purpose here,
    scoring's through ``signals.evenings_deleting``; attendance and the evening
    log go with the evening (CASCADE)."""
    signals.evenings_deleting.send(Evening, evenings=evenings)
    Seat.objects.filter(round__evening__in=evenings).delete()
    Table.objects.filter(round__evening__in=evenings).delete()
    Round.objects.filter(evening__in=evenings).delete()
    evenings.delete()


def counts_words(counts):
    """ "3 rounds, 9 tables, 9 games (9 confirmed), 144 hands, 2 adjustments" for the
    log, from a deletion's counts (``Deletion.as_dict()``), in the active language."""
    words = [
        ngettext("%(count)s round", "%(count)s rounds", counts["rounds"])
        % {"count": counts["rounds"]},
        ngettext("%(count)s table", "%(count)s tables", counts["tables"])
        % {"count": counts["tables"]},
        ngettext("%(count)s game", "%(count)s games", counts["games"]) % {"count": counts["games"]}
        + " "
        + _("(%(count)s confirmed)") % {"count": counts["confirmed"]},
        ngettext("%(count)s hand", "%(count)s hands", counts["hands"]) % {"count": counts["hands"]},
        ngettext("%(count)s adjustment", "%(count)s adjustments", counts["adjustments"])
        % {"count": counts["adjustments"]},
    ]
    return ", ".join(words)


def evening_deleted_text(params):
    """The club log's line of a deleted evening (:mod:`clubs.log`)."""
    return _("Evening of %(date)s of %(competition)s deleted: %(counts)s") % {
        **params,
        "counts": counts_words(params["counts"]),
    }


def competition_deleted_text(params):
    """The club log's line of a deleted competition (:mod:`clubs.log`)."""
    return _("Competition %(name)s deleted: %(evenings)s evenings, %(counts)s") % {
        **params,
        "counts": counts_words(params["counts"]),
    }


@transaction.atomic
def evening_delete(*, evening: Evening, by, typed: str = "") -> selectors.Deletion:
    """Delete an evening with its rounds, tables, seats, games, hands, adjustments
    and attendance. While it has confirmed games the wedstrijdleider must type the
    evening's date (as 2026-10-06) exactly. Logged in the club's log."""
    club = evening.competition.club
    require(by, club, Capability.RUN_COMPETITIONS)
    evening = Evening.objects.select_for_update().select_related("competition").get(pk=evening.pk)
    _check_not_league(evening.competition)
    evenings = Evening.objects.filter(pk=evening.pk)
    deleting = selectors.deletion(evenings=evenings)
    _check_typed(deleting, typed, evening.date.isoformat(), "typed")
    _delete_evenings(evenings)
    club_log_add(
        club=club,
        by=by,
        action=ClubLog.Action.EVENING_DELETE,
        params={
            "date": evening.date.isoformat(),
            "competition": evening.competition.name,
            "counts": deleting.as_dict(),
        },
        detail={"evening": evening.pk, "competition": evening.competition_id, **deleting.as_dict()},
    )
    return deleting


@transaction.atomic
def competition_delete(*, competition: Competition, by, typed: str = "") -> selectors.Deletion:
    """Delete a competition with its evenings (each as :func:`evening_delete`), its
    pairs and its periods. While it has confirmed games the wedstrijdleider must
    type the competition's name exactly. Logged in the club's log."""
    club = competition.club
    require(by, club, Capability.RUN_COMPETITIONS)
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    _check_not_league(competition)
    evenings = Evening.objects.filter(competition=competition)
    deleting = selectors.deletion(evenings=evenings)
    _check_typed(deleting, typed, competition.name, "typed")
    _delete_evenings(evenings)
    name, pk = competition.name, competition.pk
    competition.delete()  # its pairs and periods go with it (CASCADE)
    club_log_add(
        club=club,
        by=by,
        action=ClubLog.Action.COMPETITION_DELETE,
        params={"name": name, "evenings": deleting.evenings, "counts": deleting.as_dict()},
        detail={"competition": pk, **deleting.as_dict()},
    )
    return deleting
