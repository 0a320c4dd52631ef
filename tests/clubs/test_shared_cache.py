"""Several boxes, one cache: ``DJANGO_CACHE_URL`` names it, and the brakes count there
together, so a limit holds for the whole site and not per box.

The cross-box tests use the Redis this machine kind runs on 127.0.0.1:6379 and separate
processes (each a box: its own Python, its own locks). Without a Redis there they are
skipped, with the reason, except under CI, where they fail.
"""

import os
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured

from clubs import auth
from config.settings.base import cache_from_url
from tests.needs import REDIS_URL, needs_redis, redis_forget

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "url, backend, location",
    [
        ("redis://127.0.0.1:6379/0", "redis.RedisCache", "redis://127.0.0.1:6379/0"),
        ("rediss://:secret@cache.example.org:6380/2", "redis.RedisCache", None),
        ("file:///srv/klaverjas/cache", "filebased.FileBasedCache", "/srv/klaverjas/cache/p"),
    ],
)
def test_the_cache_url_names_django_s_own_backends(url, backend, location):
    cache = cache_from_url(url, prefix="p")
    assert cache["BACKEND"] == f"django.core.cache.backends.{backend}"
    assert cache["LOCATION"] == (location or url)


@pytest.mark.parametrize(
    "url", ["memcached://127.0.0.1:11211", "redis://", "file://relative/path", "127.0.0.1:6379"]
)
def test_another_cache_url_is_a_clear_error(url):
    with pytest.raises(ImproperlyConfigured, match="DJANGO_CACHE_URL must be"):
        cache_from_url(url, prefix="p")


def test_the_site_without_a_cache_url_counts_in_the_data_folder(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", "from config.settings import base; print(base.CACHES['throttle'])"],
        cwd=ROOT,
        env={**os.environ, "DJANGO_CACHE_URL": "", "KLAVERJAS_DATA_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "FileBasedCache" in out and str(tmp_path / "throttle") in out


@pytest.fixture
def redis_throttle(settings):
    """The throttle cache in Redis, under a prefix of the test's own. Afterwards only its
    own keys are deleted: the cache's ``clear()`` empties the whole Redis database, the
    counts of another test process's boxes too (``test_six_boxes_...`` on the other
    SQLite process then saw its count wiped and let eleven tries through)."""
    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {**settings.CACHES, "throttle": cache_from_url(REDIS_URL, prefix=prefix)}
    yield caches["throttle"]
    redis_forget(f"*{prefix}*")


@needs_redis
def test_a_count_in_redis_lasts_its_window_and_clears(redis_throttle):
    key = uuid.uuid4().hex
    assert [auth.throttle_allowed([(key, 3)], window=60) for _ in range(4)] == [1, 1, 1, 0]
    auth.throttle_clear(key)
    assert auth.throttle_allowed([(key, 3)], window=60)
    assert redis_throttle.get(auth.COUNTING_PREFIX + key) is None  # the counting key is back


@needs_redis
def test_a_taken_counting_key_holds_up_only_its_own_key_and_then_refuses(
    redis_throttle, monkeypatch
):
    """A flood on one address cannot slow everyone's brakes: a try waits only for
    tries of its own keys, and a key that stays taken refuses the try (not a 500)."""
    monkeypatch.setattr(auth, "COUNTING_SECONDS", 0.3)
    stuck, free = uuid.uuid4().hex, uuid.uuid4().hex
    redis_throttle.add(auth.COUNTING_PREFIX + stuck, "someone else", timeout=30)
    assert auth.throttle_allowed([(free, 3)], window=60)
    assert not auth.throttle_allowed([(free, 3), (stuck, 3)], window=60)
    # the refused try counted nothing and gave back the key it had taken
    assert redis_throttle.get(free)[0] == 1
    assert redis_throttle.get(auth.COUNTING_PREFIX + free) is None


BOX = textwrap.dedent(
    """
    import os, sys, time
    import django
    django.setup()
    from clubs.auth import throttle_allowed
    key, start = sys.argv[1], float(sys.argv[2])
    while time.time() < start:
        time.sleep(0.001)
    print(sum(throttle_allowed([(key, 5)], window=60) for _ in range(20)))
    """
)


@pytest.mark.slow
@needs_redis
def test_six_boxes_trying_at_once_get_five_tries_together_not_five_each():
    key = f"box-test-{uuid.uuid4().hex}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DJANGO_CACHE_URL": REDIS_URL,
        "DJANGO_SECRET_KEY": "x" * 50,
    }
    start = time.time() + 3  # every box has started Django by then
    boxes = [
        subprocess.Popen(
            [sys.executable, "-c", BOX, key, str(start)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    allowed = [int(box.communicate(timeout=60)[0]) for box in boxes]
    assert sum(allowed) == 5, allowed
    assert all(box.returncode == 0 for box in boxes)


@pytest.mark.parametrize(
    "url",
    [
        "reddis://:s3cret-pw@cache:6379/0",
        "redis://user:s3cret-pw@/0",
        "http://:s3cret-pw@x",
        "redis:/:s3cret-pw@cache",
    ],
)
def test_a_wrong_cache_url_is_refused_without_its_password(url):
    with pytest.raises(ImproperlyConfigured) as refused:
        cache_from_url(url, prefix="p")
    assert "s3cret-pw" not in str(refused.value)
