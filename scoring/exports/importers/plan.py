"""Planning: the checked games, sit-outs and totals as evenings to add
(:func:`plan_import`, :func:`results_import_preview`).

An evening already stored with the same results is skipped, one with other
results refused, a planned one without rounds filled. Nothing is written.
"""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club
from common.tabular import Limits, Problem
from common.text import name_key
from scoring import rules
from scoring.models import Adjustment, Hand
from scoring.services import HAND_INPUTS
from tournaments.models import Competition, Evening, Round, Seat, Table

from ..handlog import NAMES, POSITION
from .check import check_rows, game_where
from .read import read_file
from .values import EveningPlan, ResultsPreview


def _evening_fingerprint(games, sitouts, totals, *, marsen, who):
    """What an evening holds, comparable between the file and the database; without
    ``marsen`` (a file without the sit-out marsen column, as exported before it
    was added) a sit-out's marsen are left out of the comparison. ``who`` names a
    player: a member by id (:func:`_who`), so a close name answered as a member is
    that member, not the name the club has for them."""
    return (
        frozenset((t.round, who(t.name), t.points, t.marsen) for t in totals),
        frozenset(
            (
                game.round,
                game.table,
                tuple(who(n) for n in game.names),
                tuple(hand.inputs() for hand in game.hands),
            )
            for game in games
        ),
        frozenset((s.round, who(s.name), s.points, s.marsen if marsen else None) for s in sitouts),
    )


def _who(members, guess=None):
    """A player of the file as the database knows them: the member's id, else the
    name (a substitute, or a member still to be added). ``guess`` (name key ->
    member id) stands in for close names the preview has not had answered."""
    guess = guess or {}

    def who(name):
        key = name_key(name)
        member = members.get(key) or guess.get(key)
        return member if member is not None else ("name", key)

    return who


def _same_evening(stored, plan, preview, *, marsen):
    """Whether the file's evening is the stored one. In the preview a close name not
    answered yet may be any of its members: the evening is the same when one
    answer makes it so (applying compares again with the answers given)."""
    members = preview._members
    pending = {
        key: pks
        for key, pks in preview._pending.items()
        if any(
            name_key(name) == key
            for name in (
                *(t.name for t in plan.totals),
                *(s.name for s in plan.sitouts),
                *(n for g in plan.games for n in g.names),
            )
        )
    }
    keys = sorted(pending)
    answers = [{}]
    for key in keys[:4]:  # a few close names at most; more is not asked for at once
        answers = [{**done, key: pk} for done in answers for pk in pending[key]][:64]
    return any(
        stored
        == _evening_fingerprint(
            plan.games, plan.sitouts, plan.totals, marsen=marsen, who=_who(members, guess)
        )
        for guess in answers
    )


def _stored_fingerprints(evenings, *, marsen=True):
    """The fingerprint of each stored evening: {evening_id: fingerprint}."""
    ids = [evening.pk for evening in evenings]
    names = defaultdict(dict)  # table id -> position -> member id, or ("name", substitute)
    for table_id, position, member_id, substitute in Seat.objects.filter(
        round__evening_id__in=ids, table__isnull=False
    ).values_list("table_id", "position", "member_id", "substitute"):
        names[table_id][position] = (
            member_id if member_id is not None else ("name", name_key(substitute))
        )
    hands = defaultdict(list)
    for row in (
        Hand.objects.filter(game__table__round__evening_id__in=ids)
        .order_by("number")
        .values_list(
            "game__table_id",
            "number",
            *HAND_INPUTS,
        )
    ):
        hands[row[0]].append(tuple(row[1:]))
    games = defaultdict(set)
    for table_id, evening_id, round_number, table_number in Table.objects.filter(
        round__evening_id__in=ids
    ).values_list("pk", "round__evening_id", "round__number", "number"):
        seats = names.get(table_id, {})
        games[evening_id].add(
            (
                round_number,
                table_number,
                tuple(seats.get(POSITION[key], ("name", "")) for key in NAMES),
                tuple(hands.get(table_id, ())),
            )
        )
    sitouts, totals = defaultdict(set), defaultdict(set)
    for evening_id, kind, round_number, member_id, points, count in Adjustment.objects.filter(
        evening_id__in=ids,
        kind__in=[Adjustment.Kind.SITOUT, Adjustment.Kind.TOTALS],
        member__isnull=False,
    ).values_list("evening_id", "kind", "round__number", "member_id", "points", "marsen"):
        if kind == Adjustment.Kind.TOTALS:
            totals[evening_id].add((round_number, member_id, points, count))
        else:
            sitouts[evening_id].add((round_number, member_id, points, count if marsen else None))
    return {pk: (frozenset(totals[pk]), frozenset(games[pk]), frozenset(sitouts[pk])) for pk in ids}


def _plan_evenings(games, sitouts, preview, competition, *, totals=()):
    """Group by date; skip evenings already imported, refuse ones that differ."""
    title = preview.columns
    by_date = {}
    for game in games.values():
        by_date.setdefault(game.date, EveningPlan(game.date)).games.append(game)
    for sitout in sitouts:
        by_date.setdefault(sitout.date, EveningPlan(sitout.date)).sitouts.append(sitout)
    for total in totals:
        by_date.setdefault(total.date, EveningPlan(total.date)).totals.append(total)
    first_rows = {}
    for evening in by_date.values():
        rows = [g.first_row for g in evening.games] + [s.row for s in evening.sitouts]
        first_rows[evening.date] = min(rows + [t.row for t in evening.totals])
    if by_date:
        preview.first_date, preview.last_date = min(by_date), max(by_date)
    existing = {}
    if competition is not None and competition.pk is not None:
        existing = {
            e.date: e
            for e in Evening.objects.filter(competition=competition, date__in=list(by_date))
        }
        outside = [d for d in by_date if not competition.start_date <= d <= competition.end_date]
        for day in sorted(outside):
            preview.add(
                Problem(
                    _("%(date)s is outside the season of %(competition)s (%(start)s to %(end)s).")
                    % {
                        "date": day.isoformat(),
                        "competition": competition.name,
                        "start": competition.start_date.isoformat(),
                        "end": competition.end_date.isoformat(),
                    },
                    row=first_rows[day],
                    column=title["date"],
                )
            )
    with_rounds = set(  # or with imported totals: an evening with results
        Round.objects.filter(evening__in=existing.values()).values_list("evening_id", flat=True)
    ) | set(
        Adjustment.objects.filter(
            evening__in=existing.values(), kind=Adjustment.Kind.TOTALS
        ).values_list("evening_id", flat=True)
    )
    marsen = "sitout_marsen" in title
    stored = _stored_fingerprints(
        [e for e in existing.values() if e.pk in with_rounds], marsen=marsen
    )
    plans = []
    for day in sorted(by_date):
        plan = by_date[day]
        plan.games.sort(key=lambda g: (g.round, g.table))
        plan.sitouts.sort(key=lambda s: (s.round, s.name))
        plan.totals.sort(key=lambda t: (t.round or 0, -t.points, t.row))
        evening = existing.get(day)
        if evening is None:
            plans.append(plan)
        elif evening.pk not in with_rounds:
            plan.existing = evening
            plans.append(plan)
        elif _same_evening(stored[evening.pk], plan, preview, marsen=marsen):
            preview.skipped.append(day)
        else:
            preview.add(
                Problem(
                    _(
                        "%(competition)s already has an evening on %(date)s with other "
                        "results. Remove that evening first, or leave its rows out of "
                        "the file."
                    )
                    % {"competition": competition.name, "date": day.isoformat()},
                    row=first_rows[day],
                    column=title["date"],
                )
            )
    preview.evenings = plans


def plan_import(
    data, filename, *, club, competition, ruleset, create_members, limits=None, name_choices=None
) -> ResultsPreview:
    """Read, check and plan a file: the preview, with every problem. Writes nothing."""
    preview = ResultsPreview(filename=filename)
    rows = read_file(data, filename, preview, ruleset, limits=limits)
    if rows is None:
        return preview.finish()
    hands, sitouts, totals, bad_games = rows
    games = check_rows(
        hands,
        sitouts,
        totals,
        bad_games,
        preview,
        ruleset,
        club=club,
        create_members=create_members,
        name_choices=name_choices,
    )
    _plan_evenings(games, sitouts, preview, competition, totals=totals)
    short = [
        game
        for evening in preview.evenings
        for game in evening.games
        if game.result is not None and not game.result.complete
    ]
    for game in short[:20]:
        preview.warnings.append(
            _(
                "The game at %(where)s ends after %(hands)s hands at %(a)s–%(b)s, before "
                "the end the rule set plays to; it is imported as it is."
            )
            % {
                "where": game_where(game),
                "hands": len(game.hands),
                "a": game.result.totals[0],
                "b": game.result.totals[1],
            }
        )
    if len(short) > 20:
        preview.warnings.append(
            _("… and %(count)s more games like that.") % {"count": len(short) - 20}
        )
    if preview.skipped:
        preview.warnings.append(
            ngettext(
                "%(count)s evening is already in the competition with the same "
                "results; it is skipped: %(dates)s.",
                "%(count)s evenings are already in the competition with the same "
                "results; they are skipped: %(dates)s.",
                len(preview.skipped),
            )
            % {
                "count": len(preview.skipped),
                "dates": ", ".join(d.isoformat() for d in preview.skipped),
            }
        )
    return preview.finish()


def results_import_preview(
    *,
    club: Club | None,
    competition: Competition | None,
    data: bytes,
    filename: str = "",
    ruleset: rules.Ruleset | None = None,
    create_members: bool = False,
    limits: Limits | None = None,
) -> ResultsPreview:
    """Read and check a hand log against the club and competition; changes nothing.

    ``competition`` may be None (it is to be created): then ``ruleset`` is the
    rule set it will play, and the season is the file's dates. ``limits``:
    :data:`PAGE_LIMITS` for a web request, :data:`LIMITS` when None.
    """
    if ruleset is None:
        ruleset = competition.ruleset() if competition is not None else rules.DEFAULT_RULESET
    return plan_import(
        data,
        filename,
        club=club,
        competition=competition,
        ruleset=ruleset,
        create_members=create_members,
        limits=limits,
    )
