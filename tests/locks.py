"""Waiting in a test until another connection waits for a row lock (PostgreSQL), so
that the test can let the holder go at exactly that moment."""

import time

from django.db import connection


def lock_waiters() -> int:
    """How many of the test database's sessions wait for a lock now (read afresh: the
    statistics are kept once per transaction otherwise)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def until_lock_waiters(count: int, *, what: str, seconds: float = 30) -> None:
    """Return once ``count`` sessions wait for a lock; fail saying ``what`` never did."""
    deadline = time.monotonic() + seconds
    while lock_waiters() < count:
        if time.monotonic() > deadline:
            raise AssertionError(what)
        time.sleep(0.02)
