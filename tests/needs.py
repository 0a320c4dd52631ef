"""What the suite needs from the machine, and what happens when it is missing.

A test whose tool is missing (Chromium, GNU gettext, a network namespace, ...)
is skipped with one clear line on a developer's machine; under ``CI=true`` the
same absence is a failure, so CI never passes by checking nothing.
"""

import os
import socket

import pytest

#: The Redis this machine kind runs (the shared cache of several boxes).
REDIS_URL = "redis://127.0.0.1:6379/0"


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def missing(reason: str):
    """Skip the test with ``reason``; under CI=true, fail it instead."""
    if in_ci():
        pytest.fail(f"{reason}; CI needs it.")
    pytest.skip(reason)


def redis_forget(pattern: str) -> None:
    """Delete the keys of :data:`REDIS_URL` that match ``pattern`` (a test's own prefix):
    never the whole database, which another test process may be counting in."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    try:
        for key in client.scan_iter(match=pattern):
            client.delete(key)
    finally:
        client.close()


def redis_answers() -> bool:
    """Whether the Redis of :data:`REDIS_URL` answers a PING."""
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


#: Marks a test that needs that Redis: skipped without it, but under CI=true it runs
#: (and fails).
needs_redis = pytest.mark.skipif(
    not redis_answers() and not in_ci(),
    reason="no Redis answers on 127.0.0.1:6379 (apt-get install redis-server to run these)",
)
