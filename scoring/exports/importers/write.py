"""Writing: the service that stores a checked plan, all or nothing
(:func:`results_import_apply`).

It plans the file again inside one transaction, with the club (and the
competition) locked, and stores every evening, round, table, seat, game, hand,
adjustment, attendance, audit entry and log line in bulk.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, Member
from clubs.permissions import Capability, require
from clubs.versions import clubs_touch
from common.tabular import ImportRejected, Limits, Problem
from common.text import name_key
from scoring.models import Adjustment, AuditEntry, Game, Hand
from scoring.results.services import evening_totals_store
from scoring.services import game_counts, games_create, sitout_adjustment
from tournaments.models import Attendance, Competition, Evening, EveningLog, Round, Seat, Table

from ..handlog import NAMES, POSITION
from .plan import plan_import
from .values import ImportResult


@transaction.atomic
def results_import_apply(
    *,
    club: Club,
    competition: Competition | None = None,
    new_competition: dict | None = None,
    data: bytes,
    filename: str = "",
    by=None,
    create_members: bool = False,
    limits: Limits | None = None,
    name_choices: dict | None = None,
) -> ImportResult:
    """Store a hand log's evenings in the competition: all of them, or none.

    ``by`` is the user (one who may import results: ``Capability.IMPORT_RESULTS``), or None for the
    command line. With ``competition`` None, ``new_competition`` (``name``,
    ``ruleset_preset``, optional other fields) is created first, its season
    spanning the file's dates, in the same transaction. ``name_choices``: the answers to
    the preview's questions about names close to members' (:class:`NearName`). Raises
    :class:`ImportRejected` with every problem; nothing is then changed.
    """
    if by is not None:
        require(by, club, Capability.IMPORT_RESULTS)
    Club.objects.select_for_update().get(pk=club.pk)  # one import per club at a time
    if competition is None:
        fields = dict(new_competition or {})
        preset = fields.pop("ruleset_preset", club.ruleset_preset)
        probe = Competition(
            club=club, ruleset_preset=preset, ruleset_overrides=dict(club.ruleset_overrides)
        )
        ruleset = probe.ruleset()
    else:
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        if competition.format == Competition.Format.LEAGUE:
            # Its evenings and tables follow the league's matches, which other clubs share.
            raise ImportRejected(
                [
                    Problem(
                        _(
                            "This competition belongs to a league: its evenings follow the "
                            "league's matches, so no results are imported into it."
                        )
                    )
                ]
            )
        ruleset = competition.ruleset()
    preview = plan_import(
        data,
        filename,
        club=club,
        competition=competition,
        ruleset=ruleset,
        create_members=create_members,
        limits=limits,
        name_choices=dict(name_choices or {}),
    )
    if preview.problems:
        raise ImportRejected(preview.problems)
    if competition is None:
        competition = _create_competition(club, preview, preset=preset, **fields)
    return _write(preview, club=club, competition=competition, by=by, filename=filename)


def _create_competition(club, preview, *, name, preset, **fields):
    from tournaments.services import COMPETITION_FIELDS

    unknown = set(fields) - set(COMPETITION_FIELDS)
    if unknown:
        raise ValueError(f"a new competition does not take {sorted(unknown)}")
    first = preview.first_date or timezone.localdate()
    last = preview.last_date or first
    rounds = max((max(e.rounds, default=1) for e in preview.evenings), default=1)
    fields.setdefault("start_date", first)
    fields.setdefault("end_date", last)
    fields.setdefault("rounds_per_evening", min(max(rounds, 3), 12))
    competition = Competition(
        club=club,
        name=name,
        ruleset_preset=preset,
        ruleset_overrides=dict(club.ruleset_overrides),
        **fields,
    )
    competition.full_clean()
    competition.save()
    return competition


def _write(preview, *, club, competition, by, filename) -> ImportResult:
    now = timezone.now()
    user = by if by is not None and by.is_authenticated else None
    ruleset = competition.ruleset()
    short_name = filename if len(filename) <= 80 else filename[:79] + "…"
    confirmed_by = _("import")
    actor = (user.get_username() if user else _("command line"))[:150]
    reason = (_("Imported from %(file)s") % {"file": short_name})[:300]

    members = dict(preview._members)
    added = []
    if preview.new_members:
        added = [Member(club=club, name=name) for name in preview.new_members]
        for member in added:
            member.full_clean(exclude=["club"], validate_unique=False)
        added = Member.objects.bulk_create(added)
        for member in added:
            members[name_key(member.name)] = member.pk
    for key, same in preview._aliases.items():  # one new member under two names
        members[key] = members[same]

    new_evenings = [
        Evening(
            competition=competition,
            date=plan.date,
            status=Evening.Status.FINISHED,
            note=(_("Imported from %(file)s") % {"file": short_name})[:200],
        )
        for plan in preview.evenings
        if plan.existing is None
    ]
    created = iter(Evening.objects.bulk_create(new_evenings))
    evenings = []
    for plan in preview.evenings:
        if plan.existing is not None:
            evening = plan.existing
            evening.status = Evening.Status.FINISHED
            evening.save(update_fields=["status"])
        else:
            evening = next(created)
        evenings.append(evening)

    rounds = Round.objects.bulk_create(
        Round(evening=evening, number=number)
        for plan, evening in zip(preview.evenings, evenings, strict=True)
        for number in plan.rounds
    )
    round_of = {(r.evening_id, r.number): r for r in rounds}
    games_plan = [
        (evening, game)
        for plan, evening in zip(preview.evenings, evenings, strict=True)
        for game in plan.games
    ]
    tables = Table.objects.bulk_create(
        (
            Table(round=round_of[(evening.pk, game.round)], number=game.table)
            for evening, game in games_plan
        ),
        batch_size=2000,
    )
    seats, game_totals = [], []  # each game's own fields
    for table, (_evening, game) in zip(tables, games_plan, strict=True):
        for key, name in zip(NAMES, game.names, strict=True):
            seats.append(
                Seat(
                    round=table.round,
                    table=table,
                    position=POSITION[key],
                    member_id=members[name_key(name)],
                )
            )
        hands = game.hands
        result = game.result
        game_totals.append(
            {
                "hands_entered": len(hands),
                "total_a": result.totals[0],
                "total_b": result.totals[1],
                "winner": result.winner or "",
                **game_counts(hands, ruleset),
            }
        )
    adjustments, present = [], set()
    for plan, evening in zip(preview.evenings, evenings, strict=True):
        for total in plan.totals:
            member_id = members[name_key(total.name)]
            present.add((evening.pk, member_id))
            adjustments.append(
                Adjustment(
                    evening=evening,
                    round=round_of[(evening.pk, total.round)] if total.round else None,
                    kind=Adjustment.Kind.TOTALS,
                    member_id=member_id,
                    points=total.points,
                    marsen=total.marsen,
                    # A round is a game; an evening's total its competition's rounds.
                    games=1 if total.round else competition.rounds_per_evening,
                    reason=reason,
                    created_by=user,
                )
            )
        for sitout in plan.sitouts:
            round_ = round_of[(evening.pk, sitout.round)]
            member_id = members[name_key(sitout.name)]
            present.add((evening.pk, member_id))
            seats.append(Seat(round=round_, member_id=member_id))
            adjustments.append(
                sitout_adjustment(
                    round_=round_,
                    member_id=member_id,
                    points=sitout.points,
                    marsen=sitout.marsen,
                    by=user,
                )
            )
    present.update((seat.round.evening_id, seat.member_id) for seat in seats)
    # Who played was there: the evening's attendance says so, as a club night's does.
    Attendance.objects.bulk_create(
        (
            Attendance(evening_id=evening_id, member_id=member_id)
            for evening_id, member_id in sorted(present)
        ),
        batch_size=4000,
        ignore_conflicts=True,
    )
    Seat.objects.bulk_create(seats, batch_size=4000)
    games = games_create(
        tables=tables,
        ruleset=ruleset,
        each=game_totals,
        status=Game.Status.CONFIRMED,
        version=1,
        confirmed_by=confirmed_by,
        confirmed_at=now,
    )
    Hand.objects.bulk_create(
        (
            Hand(
                game=game_obj,
                number=hand.hand,
                playing=hand.playing,
                trump=hand.trump,
                points_a=hand.points_a,
                points_b=hand.points_b,
                roem_a=hand.roem_a,
                roem_b=hand.roem_b,
                declared_a=hand.declared_a,
                declared_b=hand.declared_b,
                pit=hand.pit,
                score_a=hand.score_a,
                score_b=hand.score_b,
                nat=hand.nat,
                verzaakt=hand.verzaakt,
                entered_by=user,
                entered_via="import",
            )
            for game_obj, (_evening, game) in zip(games, games_plan, strict=True)
            for hand in game.hands
        ),
        batch_size=4000,
    )
    Adjustment.objects.bulk_create(adjustments)
    AuditEntry.objects.bulk_create(
        (
            AuditEntry(
                game=game_obj,
                action=AuditEntry.Action.CREATE,
                user=user,
                actor=actor,
                after={
                    "hands": game_obj.hands_entered,
                    "total_a": game_obj.total_a,
                    "total_b": game_obj.total_b,
                },
                reason=reason,
            )
            for game_obj in games
        ),
        batch_size=2000,
    )
    EveningLog.objects.bulk_create(
        EveningLog(
            evening=evening,
            user=user,
            summary=(
                ngettext(
                    "%(count)s player's total imported from %(file)s",
                    "%(count)s players' totals imported from %(file)s",
                    len(plan.totals),
                )
                % {"count": len(plan.totals), "file": short_name}
                if plan.totals
                else ngettext(
                    "%(count)s game imported from %(file)s",
                    "%(count)s games imported from %(file)s",
                    len(plan.games),
                )
                % {"count": len(plan.games), "file": short_name}
            )[:300],
        )
        for plan, evening in zip(preview.evenings, evenings, strict=True)
    )
    # The rows above were written in bulk and sent no signals: the evenings' totals
    # are stored here, in the import's transaction, as every other change stores them.
    # (Which gives the evenings and the competition new versions of their pages; the
    # club's is new for the members added in bulk.)
    evening_totals_store([evening.pk for evening in evenings])
    clubs_touch([club.pk])
    return ImportResult(
        competition=competition,
        evenings=evenings,
        games=len(games),
        hands=preview.hands,
        sitouts=preview.sitouts,
        new_members=added,
        skipped=list(preview.skipped),
        totals=preview.totals,
    )
