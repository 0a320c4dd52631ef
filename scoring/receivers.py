"""Scoring's answers to ``tournaments.signals``: the games, sit-out scores and hands
of the rounds the tournaments layer draws, swaps, takes back and asks about.

Connected in ``ScoringConfig.ready()``. Each receiver only calls a service (the
writes, inside the sender's transaction) or a selector (the answers).

And the stored evening totals (:class:`~scoring.models.EveningTotals`) thrown away
whenever anything below their evening is saved or deleted, inside the same
transaction: the evening itself, a round, table, seat or game, or members
merged (``clubs.signals.members_merged``, an update that sends no model signal).
"""

from django.db.models.signals import post_delete, post_save

from clubs import signals as club_signals
from tournaments import signals
from tournaments.models import Evening, Round, Seat, Table

from . import selectors, services
from .models import EveningTotals, Game


def round_drawn(sender, *, round_, sitouts, by, **kwargs):
    services.round_games_create(round_=round_, sitouts=sitouts, by=by)


def round_sitouts_changed(sender, *, round_, sitting_out, back_in, by, **kwargs):
    services.sitout_adjustments_move(round_=round_, sitting_out=sitting_out, back_in=back_in, by=by)


def round_deleting(sender, *, round_, **kwargs):
    services.round_games_delete(round_=round_)


def ruleset_changed(sender, *, competition, ruleset, **kwargs):
    services.competition_games_ruleset_set(competition=competition, ruleset=ruleset)


def play_asked(sender, *, competition=None, round_=None, **kwargs) -> bool:
    return selectors.play_entered(competition=competition, round_=round_)


def open_games_asked(sender, *, evening, **kwargs) -> int:
    return selectors.evening_open_game_count(evening=evening)


def _forget(evenings):
    EveningTotals.objects.filter(evening_id__in=evenings).delete()


def evening_saved(sender, instance, **kwargs):
    _forget([instance.pk])


def round_changed(sender, instance, **kwargs):
    _forget([instance.evening_id])


def table_or_seat_changed(sender, instance, **kwargs):
    _forget(Round.objects.filter(pk=instance.round_id).values("evening_id"))


def game_saved(sender, instance, **kwargs):
    _forget(Round.objects.filter(tables=instance.table_id).values("evening_id"))


def members_merged(sender, *, keep, **kwargs):
    _forget(Evening.objects.filter(competition__club_id=keep.club_id).values("pk"))


def connect():
    signals.round_drawn.connect(round_drawn, dispatch_uid="scoring.round_drawn")
    signals.round_sitouts_changed.connect(
        round_sitouts_changed, dispatch_uid="scoring.round_sitouts_changed"
    )
    signals.round_deleting.connect(round_deleting, dispatch_uid="scoring.round_deleting")
    signals.ruleset_changed.connect(ruleset_changed, dispatch_uid="scoring.ruleset_changed")
    signals.play_asked.connect(play_asked, dispatch_uid="scoring.play_asked")
    signals.open_games_asked.connect(open_games_asked, dispatch_uid="scoring.open_games_asked")
    # The stored evening totals. A hand changes only with its game's totals (the
    # services save both; the admin shows hands read-only), and games and hands are
    # deleted only with their round or table, so neither needs more receivers (a
    # delete receiver would also slow every cascade down to one signal a row).
    post_save.connect(evening_saved, sender=Evening, dispatch_uid="scoring.totals.evening")
    post_save.connect(round_changed, sender=Round, dispatch_uid="scoring.totals.round")
    post_delete.connect(round_changed, sender=Round, dispatch_uid="scoring.totals.round-")
    for model in (Table, Seat):
        uid = f"scoring.totals.{model._meta.model_name}"
        post_save.connect(table_or_seat_changed, sender=model, dispatch_uid=uid)
        post_delete.connect(table_or_seat_changed, sender=model, dispatch_uid=uid + "-")
    post_save.connect(game_saved, sender=Game, dispatch_uid="scoring.totals.game")
    club_signals.members_merged.connect(members_merged, dispatch_uid="scoring.totals.merged")
