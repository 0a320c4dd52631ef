"""Serve the site to the club hall's network: ``make lan``.

Finds the laptop's addresses, prints the links to open on the phones, then
runs gunicorn (a production server, not runserver) with the club-laptop
settings. ``--port`` changes the port; ``--dry-run`` prints and stops.

It refuses to start while an account logs in with a published password (the
demo's ``demo`` / ``klaverjas``, from ``make run``): on the hall's Wi-Fi anyone
could log in with it as the site's operator. It says how to make the club's own
operator and remove the demo (``manage.py demo --check``).
"""

import argparse
import contextlib
import os
import socket
import subprocess
import sys


def lan_addresses():
    """IPv4 addresses of this machine other than loopback (asks the system, sends nothing)."""
    found = []
    try:
        output = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=5
        ).stdout
        found += output.split()
    except (OSError, subprocess.SubprocessError):
        pass
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    seen = []
    for address in found:
        if ":" in address or address.startswith("127.") or address in seen:
            continue
        seen.append(address)
    return seen


def no_published_password(python, env):
    """Whether no account logs in with a published password; if one does, say what to do."""
    check = subprocess.run(
        [python, "manage.py", "demo", "--check"], env=env, capture_output=True, text=True
    )
    if check.returncode == 0:
        return True
    said = check.stderr.strip().removeprefix("CommandError: ")
    print(
        "Not serving the hall's network.",
        said,
        "Then run make lan again.",
        sep="\n",
        file=sys.stderr,
    )
    return False


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", default=os.environ.get("PORT", "8000"))
    parser.add_argument("--workers", default="3")
    # Threads: a save waiting for SQLite's lock holds one thread, not a whole worker,
    # so pages and static files are still served meanwhile.
    parser.add_argument("--threads", default="4")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    addresses = lan_addresses()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.lan",
        "KLAVERJAS_LAN_HOSTS": ",".join(addresses),
        "KLAVERJAS_LAN_PORT": str(args.port),
    }
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput"], env=env, check=True)
    if not no_published_password(python, env):
        return 1
    subprocess.run(
        [python, "manage.py", "collectstatic", "--noinput", "-v", "0"], env=env, check=True
    )
    print("Klaverjas club site for this hall's network. Open on the phones:")
    for address in addresses or ["127.0.0.1"]:
        print(f"  http://{address}:{args.port}/")
    print("Table links and QR codes: on each round's page (Print table QR codes).")
    print("Stop with Ctrl+C. No internet connection is needed.")
    command = [
        python,
        "-m",
        "gunicorn",
        "config.wsgi",
        "--bind",
        f"0.0.0.0:{args.port}",
        "--workers",
        args.workers,
        "--threads",
        args.threads,
        "--access-logfile",
        "-",
    ]
    if args.dry_run:
        print(" ".join(command))
        return 0
    sys.stdout.flush()
    os.execve(python, command, env)  # gunicorn takes this process: Ctrl+C and signals reach it


if __name__ == "__main__":
    sys.exit(main())
