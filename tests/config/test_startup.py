"""Starting the site with bad configuration says what is wrong in one line."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, env):
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_without_secret_key_refuses_with_a_clear_message():
    result = manage(
        "check",
        env={
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DJANGO_ALLOWED_HOSTS": "klaverjas.example.org",
        },
    )
    assert result.returncode == 2
    assert "DJANGO_SECRET_KEY is not set" in result.stderr
    assert "Traceback" not in result.stderr


def test_production_without_allowed_hosts_refuses_with_a_clear_message():
    result = manage(
        "check",
        env={
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DJANGO_SECRET_KEY": "k" * 10 + "abcdefghijklmnopqrstuvwxyz0123456789-_ABCDEFG",
        },
    )
    assert result.returncode == 2
    assert "DJANGO_ALLOWED_HOSTS" in result.stderr
    assert "Traceback" not in result.stderr


def test_unreachable_database_url_is_explained_not_a_traceback():
    # Port 9 on loopback: nothing listens there, the connection is refused at once.
    result = manage(
        "migrate",
        env={
            "DJANGO_SETTINGS_MODULE": "config.settings.development",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:9/nothing",
        },
    )
    assert result.returncode == 2
    assert "Cannot use the database" in result.stderr
    assert "127.0.0.1:9" in result.stderr
    assert "DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_malformed_database_url_is_explained():
    result = manage(
        "check",
        env={"DJANGO_SETTINGS_MODULE": "config.settings.development", "DATABASE_URL": "nonsense"},
    )
    assert result.returncode == 2
    assert "DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_production_settings_pass_the_deploy_check_without_warnings():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DJANGO_SECRET_KEY": "x7Hq-9bZr_Lm3P" * 5,
            "DJANGO_ALLOWED_HOSTS": "klaverjas.example.org",
        },
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


@pytest.mark.django_db
def test_sqlite_is_tuned_for_concurrent_writers(settings):
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("SQLite settings only")
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 5
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] >= 5000
        cursor.execute("PRAGMA foreign_keys")
        assert cursor.fetchone()[0] == 1


def test_sqlite_file_uses_wal_journal(migrated_laptop):
    """The default database is a file in WAL mode (checked on a real file, not :memory:):
    the one a fresh ``manage.py migrate`` makes (see ``migrated_laptop``)."""
    import sqlite3

    with sqlite3.connect(migrated_laptop) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "DJANGO_SECRET_KEY": "x7Hq-9bZr_Lm3P" * 5,
    "DJANGO_ALLOWED_HOSTS": "klaverjas.example.org",
}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DJANGO_HSTS_SECONDS", "1y"),
        ("DJANGO_HSTS_SECONDS", "-5"),
        ("DJANGO_TRUSTED_PROXY_COUNT", "one"),
        ("DJANGO_EMAIL_URL", "mail.example.org"),
        ("DJANGO_EMAIL_URL", "smtp://mail.example.org:port"),
    ],
)
def test_a_bad_setting_is_one_clear_line(name, value):
    result = manage("check", env={**PRODUCTION, name: value})
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0], result.stderr


def test_without_the_sites_own_https_redirect_the_deploy_check_has_no_warnings():
    """The proxy redirects to https (what DJANGO_SECURE_SSL_REDIRECT=0 says)."""
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={**PRODUCTION, "DJANGO_SECURE_SSL_REDIRECT": "0"},
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_an_email_url_gives_djangos_email_settings():
    from config.settings.base import email_from_url

    assert email_from_url("smtp://club%40example.org:p%3Ass@mail.example.org:2525?tls=1") == {
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 2525,
        "EMAIL_HOST_USER": "club@example.org",
        "EMAIL_HOST_PASSWORD": "p:ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }
    assert email_from_url("smtps://mail.example.org")["EMAIL_PORT"] == 465
    assert email_from_url("smtp://mail.example.org?tls=1")["EMAIL_PORT"] == 587
    assert email_from_url("smtp://localhost")["EMAIL_PORT"] == 25


def test_with_an_email_url_the_site_can_send_password_resets():
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings as s; "
            "print(s.EMAIL_CONFIGURED, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS)",
        ],
        cwd=ROOT,
        env={
            **PRODUCTION,
            "PATH": os.environ["PATH"],
            "DJANGO_EMAIL_URL": "smtp://u:p@mx.example.org?tls=1",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.split() == ["True", "mx.example.org", "587", "True"], result.stderr
