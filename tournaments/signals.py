"""What the tournaments layer tells, and asks, the layers above it.

A round's games, a sit-out's score and the hands played belong to scoring
(``scoring/services.py`` is their only writer), which stands on tournaments: so
tournaments does not import them. Its services send these signals instead,
synchronously and inside their own transaction; scoring connects its receivers
in ``ScoringConfig.ready()`` and they call ``scoring.services`` and
``scoring.selectors``. A receiver that raises undoes the whole change (the draw
with its tables and seats, say), so every write stays in one transaction.

Events (a receiver writes what follows from the change):

- ``round_drawn``: a round's tables and seats are stored. Arguments ``round_``,
  ``sitouts`` (the member ids sitting out, in the draw's order) and ``by``: every
  table gets its game by the competition's rule set, every sit-out its score.
- ``round_sitouts_changed``: who sits out in ``round_`` changed (a swap): the
  member ids ``sitting_out`` now and ``back_in`` play now; the sit-out scores
  follow the players, ``by`` records the new ones.
- ``round_deleting``: ``round_`` is about to be taken back (no hand is entered
  in it); what hangs on its tables and seats goes first.
- ``ruleset_changing``: ``competition``'s rule set may change (its settings are
  about to be saved with rule fields), sent before its row is locked: the games that
  would follow are locked first, in the order a hand's entry takes its locks (the
  game, then its evening, then the competition's version), so a rule-set change and
  a competition's first hand at the same instant wait for each other instead of
  deadlocking.
- ``ruleset_changed``: ``competition`` plays by another ``ruleset`` (a
  ``Ruleset`` of the core) and has no hand yet; its games follow.
- ``evenings_deleting``: the ``evenings`` (a query) are about to be deleted with
  their rounds, tables and seats; their games (with the hands and the audit) and
  their adjustments go first.

Questions (the service reads every receiver's answer with ``answers()``):

- ``play_asked``: with ``competition=`` or ``round_=``: is a hand entered there?
  (True or False.)
- ``open_games_asked``: with ``evening=``: how many of its games are not
  confirmed? (A number.)
- ``finished_tables_asked``: with ``round_=`` and ``lock=`` (table ids): which of its
  tables have finished, their result confirmed? (A set of table ids.) The games of
  the ``lock`` tables are locked until the transaction ends, so their answer holds
  for it (scoring refuses to take a confirmation away while a player of that
  table substitutes elsewhere in the round).
- ``results_asked``: with ``evenings=`` (a query): what results hang on them? (A
  dict of counts: ``games``, ``confirmed`` games, ``hands``, ``adjustments``.)
"""

from django.dispatch import Signal

round_drawn = Signal()
round_sitouts_changed = Signal()
round_deleting = Signal()
ruleset_changing = Signal()
ruleset_changed = Signal()
evenings_deleting = Signal()

play_asked = Signal()
open_games_asked = Signal()
finished_tables_asked = Signal()
results_asked = Signal()


def answers(signal, sender, **kwargs) -> list:
    """Every receiver's answer to a question signal (none while no receiver is connected)."""
    return [answer for _receiver, answer in signal.send(sender=sender, **kwargs)]


def finished_tables(round_, *, lock=()) -> set[int]:
    """The ids of ``round_``'s tables whose result is confirmed (``finished_tables_asked``);
    the games of the tables in ``lock`` are locked until the transaction ends."""
    return set().union(
        *answers(finished_tables_asked, sender=type(round_), round_=round_, lock=tuple(lock))
    )
