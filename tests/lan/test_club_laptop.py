"""Club-laptop mode serves the site to another host on the hall's network.

The "other host" is a network namespace this test makes itself, joined to the
laptop by a veth pair with addresses of its own choosing (a /30 link-local
to the test); no traffic goes anywhere else. Skipped, with a clear reason,
where the test may not create a namespace (not root, no iproute2); under
CI=true that is a failure.
"""

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.needs import missing

ROOT = Path(__file__).resolve().parents[2]
LAPTOP, PHONE = "10.203.113.1", "10.203.113.2"

pytestmark = pytest.mark.slow


def run(*args, check=True):
    return subprocess.run(args, capture_output=True, text=True, timeout=30, check=check)


@pytest.fixture
def phone_namespace():
    if shutil.which("ip") is None or os.geteuid() != 0:
        missing("creating a network namespace needs root and iproute2")
    name = f"kjphone{uuid.uuid4().hex[:6]}"
    host_if, ns_if = f"kj{name[-6:]}a", f"kj{name[-6:]}b"
    if run("ip", "netns", "add", name, check=False).returncode != 0:
        missing("this machine does not allow creating a network namespace")
    try:
        run("ip", "link", "add", host_if, "type", "veth", "peer", "name", ns_if)
        run("ip", "link", "set", ns_if, "netns", name)
        run("ip", "addr", "add", f"{LAPTOP}/30", "dev", host_if)
        run("ip", "link", "set", host_if, "up")
        run("ip", "netns", "exec", name, "ip", "addr", "add", f"{PHONE}/30", "dev", ns_if)
        run("ip", "netns", "exec", name, "ip", "link", "set", ns_if, "up")
        run("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up")
        yield name
    finally:
        run("ip", "link", "del", host_if, check=False)
        run("ip", "netns", "del", name, check=False)


def fetch_from(namespace, url):
    code = (
        "import urllib.request, sys\n"
        f"r = urllib.request.urlopen({url!r}, timeout=5)\n"
        "sys.stdout.write(str(r.status) + '\\n' + r.read().decode())\n"
    )
    return run("ip", "netns", "exec", namespace, sys.executable, "-c", code, check=False)


@pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")),
    reason="the club laptop runs SQLite; this runs in the SQLite leg only",
)
def test_lan_mode_serves_the_site_to_a_phone_on_the_hall_network(phone_namespace, tmp_path):
    port = "8765"
    log = tmp_path / "server.log"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))},
        "KLAVERJAS_DATA_DIR": str(tmp_path),
        # Its own static files: the other test processes' middleware reads the
        # project's staticfiles/ while this one would be rewriting it.
        "KLAVERJAS_STATIC_ROOT": str(tmp_path / "static"),
    }
    server = subprocess.Popen(
        [sys.executable, "scripts/lan.py", "--port", port, "--workers", "2"],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        result = None
        while time.monotonic() < deadline:
            result = fetch_from(phone_namespace, f"http://{LAPTOP}:{port}/")
            if result.returncode == 0:
                break
            if server.poll() is not None:
                break
            time.sleep(1)
        assert result is not None and result.returncode == 0, log.read_text()[-2000:]
        status, _, body = result.stdout.partition("\n")
        assert status == "200"
        assert "Klaverjas" in body
        css = fetch_from(phone_namespace, f"http://{LAPTOP}:{port}/static/css/site.css")
        assert css.stdout.startswith("200")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    assert f"http://{LAPTOP}:{port}/" in log.read_text()
