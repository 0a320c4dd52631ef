"""The hall's network never sees an account with a published password.

`make run` makes the demo login `demo` / `klaverjas` (printed, and in the
README): `make lan` refuses to serve while it (or an operator with that
password) can log in, and says how to make the club's own operator and remove
the demo.
"""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from clubs.models import DEMO_SLUG, Club, ClubRole, Member
from scoring.demo import DEMO_PASSWORD, DEMO_USERNAME, published_accounts
from tests import factories

ROOT = Path(__file__).resolve().parents[2]
User = get_user_model()


def check():
    call_command("demo", "--check", stdout=io.StringIO())


@pytest.mark.django_db
def test_the_demo_login_is_refused_with_what_to_do():
    factories.user(DEMO_USERNAME, password=DEMO_PASSWORD, is_superuser=True, is_staff=True)
    with pytest.raises(CommandError) as refused:
        check()
    message = str(refused.value)
    assert "published password (demo)" in message
    assert "python manage.py createsuperuser" in message
    assert "python manage.py demo --remove" in message


@pytest.mark.django_db
def test_an_operator_with_the_published_password_is_refused_too():
    factories.user("Voorzitter", password=DEMO_PASSWORD, is_superuser=True)
    factories.user("DEMO", password=DEMO_PASSWORD)  # the login's name in another case
    assert [user.username for user in published_accounts()] == ["DEMO", "Voorzitter"]
    with pytest.raises(CommandError, match="changepassword Voorzitter"):
        check()


@pytest.mark.django_db
def test_a_changed_or_closed_demo_login_and_other_passwords_pass():
    demo = factories.user(DEMO_USERNAME, password="Iets-anders-2026", is_superuser=True)
    factories.user("closed", password=DEMO_PASSWORD, is_superuser=True, is_active=False)
    factories.user("voorzitter", password="Geheim-2026-xyz", is_superuser=True)
    check()
    assert published_accounts() == []
    demo.set_password(DEMO_PASSWORD)
    demo.save()
    with pytest.raises(CommandError):
        check()


@pytest.mark.django_db
def test_demo_remove_deletes_the_demo_club_and_login_and_nothing_else():
    call_command("demo", stdout=io.StringIO())
    club = factories.club(name="Echte Club")
    factories.member(club, "Echt lid")
    admin = factories.role(club, "admin")
    with pytest.raises(CommandError):
        check()

    out = io.StringIO()
    call_command("demo", "--remove", stdout=out)

    assert "Removed the demo club" in out.getvalue()
    assert not Club.objects.filter(slug=DEMO_SLUG).exists()
    assert not User.objects.filter(username=DEMO_USERNAME).exists()
    assert list(Member.objects.values_list("name", flat=True)) == ["Echt lid"]
    assert ClubRole.objects.get().user == admin
    check()
    call_command("demo", "--remove", stdout=out)  # again: nothing left to remove
    assert "nothing" in out.getvalue()


@pytest.mark.django_db
def test_a_fresh_site_says_how_the_first_person_becomes_the_operator(client):
    page = client.get(reverse("clubs:home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "This site has no operator yet" in page
    assert "python manage.py createsuperuser" in page

    factories.user("voorzitter", password="Geheim-2026-xyz", is_superuser=True)
    factories.club(name="KC De Hoge Troef", slug=DEMO_SLUG, results_public=True)
    page = client.get(reverse("clubs:home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "createsuperuser" not in page
    assert "its operator logs in and starts one" in page

    client.force_login(User.objects.get(username="voorzitter"))
    page = client.get(reverse("clubs:home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "python manage.py demo --remove" in page


def manage(*args, env, **kwargs):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**env, **kwargs.pop("extra", {})},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
@pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")),
    reason="the club laptop runs SQLite; this runs in the SQLite leg only",
)
def test_make_lan_refuses_to_serve_the_demo_login_until_the_club_has_its_own(
    tmp_path, laptop_database
):
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))},
        "KLAVERJAS_DATA_DIR": str(tmp_path),
        "KLAVERJAS_STATIC_ROOT": str(
            tmp_path / "static"
        ),  # not the project's (see test_club_laptop)
    }
    laptop_database(tmp_path / "db.sqlite3")  # a laptop after `make run`'s migrate
    made = manage(
        *("createsuperuser", "--noinput", "--username", DEMO_USERNAME, "--email", "d@example.org"),
        env=env,
        extra={"DJANGO_SUPERUSER_PASSWORD": DEMO_PASSWORD},
    )
    assert made.returncode == 0, made.stderr

    def lan():
        return subprocess.run(
            [sys.executable, "scripts/lan.py", "--dry-run"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    refused = lan()
    assert refused.returncode == 1
    assert "gunicorn" not in refused.stdout
    assert "Not serving the hall's network" in refused.stderr
    assert "createsuperuser" in refused.stderr and "demo --remove" in refused.stderr

    assert manage("demo", "--remove", env=env).returncode == 0
    made = manage(
        *("createsuperuser", "--noinput", "--username", "voorzitter", "--email", "v@example.org"),
        env=env,
        extra={"DJANGO_SUPERUSER_PASSWORD": "Geheim-2026-xyz"},
    )
    assert made.returncode == 0, made.stderr
    served = lan()
    assert served.returncode == 0, served.stderr
    assert "gunicorn config.wsgi" in served.stdout
