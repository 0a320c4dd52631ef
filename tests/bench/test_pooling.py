"""Many boxes on one PostgreSQL: the site behind PgBouncer in transaction pooling, and with
Django's own connection pool (``DJANGO_DB_POOLING``, see ``config.settings.base``).

Each runs the load test's short form (``bench/load.py``: gunicorn, phones saving hands,
readers, confirmations, then the ORM checks every hand is stored exactly once) with the
database reached that way. PgBouncer is Debian's (``apt-get install pgbouncer``), started
here on a port of its own on 127.0.0.1, in front of the suite's PostgreSQL. PostgreSQL
only: these run on the PostgreSQL leg of ``make test``.
"""

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.bench.test_load_short import play_under_load
from tests.needs import missing

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 90
PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"

pytestmark = [pytest.mark.slow, pytest.mark.database]


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def pgbouncer(postgres_url):
    """A PgBouncer in transaction pooling in front of the suite's PostgreSQL; its URL.

    PgBouncer refuses to run as root: as root (CI's containers) it is started as
    ``nobody`` (its ``--user``), with its files in a folder that user can use.
    """
    if not os.path.exists(PGBOUNCER):
        missing("PgBouncer is not installed (apt-get install pgbouncer)")
    folder = tempfile.mkdtemp(prefix="klaverjas-pgbouncer-")  # 0700
    tmp_path = Path(folder)
    as_root = ["--user", "nobody"] if os.geteuid() == 0 else []
    if as_root:  # nobody's own folder, for its log and pid file; no other user may write there
        nobody = pwd.getpwnam("nobody")
        os.chown(folder, nobody.pw_uid, nobody.pw_gid)
    server = urlsplit(postgres_url)
    user = server.username or "postgres"
    port = _free_port()
    (tmp_path / "users.txt").write_text(f'"{user}" ""\n')
    (tmp_path / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"* = host={server.hostname} port={server.port or 5432}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\n"
        f"unix_socket_dir =\nauth_type = trust\nauth_file = {tmp_path / 'users.txt'}\n"
        "pool_mode = transaction\ndefault_pool_size = 2\nmax_client_conn = 200\n"
        "server_reset_query =\nignore_startup_parameters = extra_float_digits,options\n"
        f"logfile = {tmp_path / 'pgbouncer.log'}\npidfile = {tmp_path / 'pgbouncer.pid'}\n"
    )
    process = subprocess.Popen([PGBOUNCER, *as_root, str(tmp_path / "pgbouncer.ini")])
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise AssertionError("PgBouncer did not start") from None
                time.sleep(0.05)
        yield urlunsplit(server._replace(netloc=f"{user}@127.0.0.1:{port}"))
        log = (tmp_path / "pgbouncer.log").read_text()
        assert not [line for line in log.splitlines() if " ERROR " in line], log[-2000:]
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def _load(tmp_path, url, pooling, template, *, tables, hands):
    return play_under_load(
        tmp_path,
        *("--backends", "postgres", "--database-url", url),
        tables=tables,
        hands=hands,
        env={"DJANGO_DB_POOLING": pooling, **template},
    )


def test_an_evening_behind_pgbouncer_in_transaction_pooling_loses_nothing(
    tmp_path, pgbouncer, postgres_template
):
    """Eight phones at once through two server connections: nothing outlives its
    transaction on a server connection, and every lock is a transaction's."""
    _load(tmp_path, pgbouncer, "pgbouncer", postgres_template, tables=8, hands=6)


def test_an_evening_with_django_s_own_pool_loses_nothing(tmp_path, postgres_url, postgres_template):
    _load(tmp_path, postgres_url, "pool", postgres_template, tables=4, hands=4)
