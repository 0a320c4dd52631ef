"""Scoring's answers to ``tournaments.signals``: the games, sit-out scores and hands
of the rounds the tournaments layer draws, swaps, takes back and asks about.

Connected in ``ScoringConfig.ready()``. Each receiver only calls a service (the
writes, inside the sender's transaction) or a selector (the answers).
"""

from tournaments import signals

from . import selectors, services


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


def connect():
    signals.round_drawn.connect(round_drawn, dispatch_uid="scoring.round_drawn")
    signals.round_sitouts_changed.connect(
        round_sitouts_changed, dispatch_uid="scoring.round_sitouts_changed"
    )
    signals.round_deleting.connect(round_deleting, dispatch_uid="scoring.round_deleting")
    signals.ruleset_changed.connect(ruleset_changed, dispatch_uid="scoring.ruleset_changed")
    signals.play_asked.connect(play_asked, dispatch_uid="scoring.play_asked")
    signals.open_games_asked.connect(open_games_asked, dispatch_uid="scoring.open_games_asked")
