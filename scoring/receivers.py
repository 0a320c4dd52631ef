"""Scoring's answers to ``tournaments.signals``: the games, sit-out scores and hands
of the rounds the tournaments layer draws, swaps, takes back and asks about.

Connected in ``ScoringConfig.ready()``. Each receiver only calls a service (the
writes, inside the sender's transaction) or a selector (the answers).

And the stored evening totals (:class:`~scoring.models.EveningTotals`) stored again
(a finished evening's) or thrown away (any other's) whenever anything below their
evening is saved or deleted, inside the same transaction and after the change
(``scoring.results.services.evening_totals_store``): the evening itself, a round,
table, seat, game or adjustment, or members merged (``clubs.signals.members_merged``,
an update that sends no model signal). A row that may move to another evening locks
its old and new evening before it is saved and stores both after.
"""

from django.db.models import Q
from django.db.models.signals import post_delete, post_save, pre_save

from clubs import signals as club_signals
from tournaments import signals
from tournaments.models import Evening, Round, Seat, Table

from . import selectors, services
from .models import Adjustment, Game
from .results import services as totals


def round_drawn(sender, *, round_, sitouts, by, **kwargs):
    services.round_games_create(round_=round_, sitouts=sitouts, by=by)


def round_sitouts_changed(sender, *, round_, sitting_out, back_in, by, **kwargs):
    services.sitout_adjustments_move(round_=round_, sitting_out=sitting_out, back_in=back_in, by=by)


def round_deleting(sender, *, round_, **kwargs):
    services.round_games_delete(round_=round_)


def evenings_deleting(sender, *, evenings, **kwargs):
    services.evenings_results_delete(evenings=evenings)


def ruleset_changing(sender, *, competition, **kwargs):
    services.competition_games_lock(competition=competition)


def ruleset_changed(sender, *, competition, ruleset, **kwargs):
    services.competition_games_ruleset_set(competition=competition, ruleset=ruleset)


def play_asked(sender, *, competition=None, round_=None, **kwargs) -> bool:
    return selectors.play_entered(competition=competition, round_=round_)


def finished_tables_asked(sender, *, round_, lock=(), **kwargs) -> set[int]:
    return selectors.round_finished_tables(round_=round_, lock=lock)


def open_games_asked(sender, *, evening, **kwargs) -> int:
    return selectors.evening_open_game_count(evening=evening)


def results_asked(sender, *, evenings, **kwargs) -> dict:
    return selectors.evenings_result_counts(evenings=evenings)


def evening_saved(sender, instance, raw=False, **kwargs):
    """The evening finished (its totals stored), reopened (thrown away) or changed."""
    if not raw:  # loaddata and archives bring their rows as they were
        totals.evening_totals_store([instance.pk])


def _before_save(instance, *evening_sets):
    """Before a row below an evening is saved: its evenings (its new one, and its old
    one when it moves) locked, to store their totals after the save (:func:`_saved`)."""
    instance._totals_evenings = totals.evenings_lock(*evening_sets)


def _saved(sender, instance, raw=False, **kwargs):
    if not raw:
        totals.evening_totals_store(locked=instance.__dict__.pop("_totals_evenings", None))


def round_saving(sender, instance, raw=False, **kwargs):
    """Before a round is saved: its evening, and its old evening when it moves (a
    league match moved to another matchday)."""
    if not raw:
        _before_save(
            instance,
            [instance.evening_id],
            Round.objects.filter(pk=instance.pk).values("evening_id"),
        )


def round_deleted(sender, instance, **kwargs):
    totals.evening_totals_store([instance.evening_id])


def table_or_seat_saving(sender, instance, raw=False, **kwargs):
    """Before a table or seat is saved: its round's evening, and that of the round it
    was in (the admin may move it)."""
    if not raw:
        _before_save(
            instance,
            Round.objects.filter(pk=instance.round_id).values("evening_id"),
            sender.objects.filter(pk=instance.pk).values("round__evening_id"),
        )


def game_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        totals.evening_totals_store(
            Round.objects.filter(tables=instance.table_id).values("evening_id")
        )


def adjustment_saving(sender, instance, raw=False, **kwargs):
    """Before an adjustment is saved: its evening, and its old evening when it moves
    (the admin may move it)."""
    if not raw:
        _before_save(
            instance,
            [instance.evening_id],
            Adjustment.objects.filter(pk=instance.pk).values("evening_id"),
        )


def adjustment_deleted(sender, instance, **kwargs):
    totals.evening_totals_store([instance.evening_id])


def members_merged(sender, *, keep, **kwargs):
    """Every evening ``keep`` now played in or has an adjustment in (also other clubs' league
    evenings)."""
    totals.evening_totals_store(
        Seat.objects.filter(Q(member=keep) | Q(substitute_member=keep)).values("round__evening_id"),
        Adjustment.objects.filter(member=keep).values("evening_id"),
    )


def connect():
    signals.round_drawn.connect(round_drawn, dispatch_uid="scoring.round_drawn")
    signals.round_sitouts_changed.connect(
        round_sitouts_changed, dispatch_uid="scoring.round_sitouts_changed"
    )
    signals.round_deleting.connect(round_deleting, dispatch_uid="scoring.round_deleting")
    signals.ruleset_changing.connect(ruleset_changing, dispatch_uid="scoring.ruleset_changing")
    signals.ruleset_changed.connect(ruleset_changed, dispatch_uid="scoring.ruleset_changed")
    signals.play_asked.connect(play_asked, dispatch_uid="scoring.play_asked")
    signals.open_games_asked.connect(open_games_asked, dispatch_uid="scoring.open_games_asked")
    signals.finished_tables_asked.connect(
        finished_tables_asked, dispatch_uid="scoring.finished_tables_asked"
    )
    signals.evenings_deleting.connect(evenings_deleting, dispatch_uid="scoring.evenings_deleting")
    signals.results_asked.connect(results_asked, dispatch_uid="scoring.results_asked")
    # The stored evening totals. A hand changes only with its game's totals (the
    # services save both; the admin shows hands and games read-only); games, hands,
    # tables and seats are deleted only with their round (the admin may not delete
    # them one by one), so only a round's deletion needs a receiver: one on every
    # seat would turn each cascade (a club deleted) into a signal and a query a row.
    post_save.connect(evening_saved, sender=Evening, dispatch_uid="scoring.totals.evening")
    pre_save.connect(round_saving, sender=Round, dispatch_uid="scoring.totals.round")
    post_save.connect(_saved, sender=Round, dispatch_uid="scoring.totals.round+")
    post_delete.connect(round_deleted, sender=Round, dispatch_uid="scoring.totals.round-")
    for model in (Table, Seat):
        uid = f"scoring.totals.{model._meta.model_name}"
        pre_save.connect(table_or_seat_saving, sender=model, dispatch_uid=uid)
        post_save.connect(_saved, sender=model, dispatch_uid=f"{uid}+")
    post_save.connect(game_saved, sender=Game, dispatch_uid="scoring.totals.game")
    # Adjustments are few (a director's correction, a round's sit-outs): a receiver on
    # their deletion costs a club's deletion one query per adjustment, not per seat.
    pre_save.connect(adjustment_saving, sender=Adjustment, dispatch_uid="scoring.totals.adj")
    post_save.connect(_saved, sender=Adjustment, dispatch_uid="scoring.totals.adj+")
    post_delete.connect(adjustment_deleted, sender=Adjustment, dispatch_uid="scoring.totals.adj-")
    club_signals.members_merged.connect(members_merged, dispatch_uid="scoring.totals.merged")
