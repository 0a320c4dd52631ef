"""The phone's queue and a busy database: a hand saved while another process holds
SQLite's write lock is answered 503; the phone keeps it and sends it again by
itself when the server says to (``Retry-After``), and it is stored once."""

import sqlite3

import pytest
from django.db import connection

from scoring.models import Game, Hand
from tests import factories
from tests.browser.test_offline_entry import enter, open_entry, queued
from tests.scoring.test_locked_database import short_busy_timeout  # noqa: F401

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's one-writer lock"),
]


@pytest.mark.usefixtures("short_busy_timeout")
def test_a_hand_refused_by_a_locked_database_is_sent_again_and_stored_once(
    phone, live_server, club, shot, drawn_evening
):
    table = drawn_evening(club, factories.role(club, "director")).tables[0]
    open_entry(phone, live_server, table)

    other_process = sqlite3.connect(connection.settings_dict["NAME"], timeout=5)
    other_process.execute("BEGIN EXCLUSIVE")
    try:
        with phone.expect_response(
            lambda r: r.url.endswith("/hands.json") and r.status == 503
        ) as busy:
            enter(phone, "A", 100)
        assert busy.value.headers["retry-after"] == "5"
        assert queued(phone).count() == 1
        shot(phone, "kept-while-the-database-is-busy")
        assert not Hand.objects.exists()
    finally:
        other_process.rollback()
        other_process.close()

    phone.wait_for_selector("#hand-1", timeout=20_000)  # sent again by itself
    assert queued(phone).count() == 0
    shot(phone, "stored-after-the-lock")
    assert Hand.objects.count() == 1
    assert Game.objects.get(pk=table.game.pk).hands_entered == 1
