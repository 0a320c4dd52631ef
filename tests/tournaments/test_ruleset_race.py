"""A rule-set change and a competition's first hand at the same instant, on two
connections (PostgreSQL: its row locks; SQLite's one write lock lets no two writers
overlap at all).

A hand's entry locks its game, then its evening, then writes the competition's page
version. The change of the rule set updates the competition's games: had it locked the
competition first, each would wait for the other's lock and PostgreSQL would end one
of them with a deadlock (the director's save or the table's hand refused with a server
error). It locks the games first, so it waits for the hand and then refuses, as for
any competition with play."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction

from scoring.models import Hand
from scoring.services import hand_record
from tests import factories
from tests.locks import until_lock_waiters
from tournaments.models import Evening
from tournaments.services import competition_update

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks: the PostgreSQL leg runs it"
    ),
]


def test_a_rule_set_change_during_the_first_hand_waits_for_it_and_then_refuses(club):
    director = factories.role(club, "director")
    drawn = factories.drawn_round(club, director, players=4)
    other = "amsterdam" if drawn.season.ruleset_preset != "amsterdam" else "rotterdam"
    release, held = threading.Event(), threading.Event()
    outcome = {}

    def in_thread(name, work):
        def run():
            try:
                outcome[name] = work()
            except Exception as exc:  # noqa: BLE001 - the outcome is what the test reads
                outcome[name] = exc
            finally:
                connection.close()

        thread = threading.Thread(target=run)
        thread.start()
        return thread

    def hold_the_evening():
        # Holds the hand between its game's lock and its evening's: the instant the
        # director's save comes in.
        with transaction.atomic():
            Evening.objects.select_for_update().get(pk=drawn.evening.pk)
            held.set()
            release.wait(30)

    def first_hand():
        return hand_record(game=drawn.game, data=factories.hand_input(), number=1, keeper="A")

    def change_the_rules():
        return competition_update(competition=drawn.season, by=director, ruleset_preset=other)

    holder = in_thread("holder", hold_the_evening)
    assert held.wait(10)
    hand = in_thread("hand", first_hand)
    until_lock_waiters(1, what="the hand never waited at its evening")  # its game locked
    change = in_thread("change", change_the_rules)
    until_lock_waiters(2, what="the rule-set change never waited")
    release.set()
    for thread in (holder, hand, change):
        thread.join(30)
        assert not thread.is_alive()

    assert isinstance(outcome["hand"], Hand), outcome["hand"]
    assert isinstance(outcome["change"], ValidationError), outcome["change"]
    assert "ruleset_preset" in outcome["change"].message_dict
    drawn.season.refresh_from_db()
    assert drawn.season.ruleset_preset != other
    assert Hand.objects.filter(game=drawn.game).count() == 1
