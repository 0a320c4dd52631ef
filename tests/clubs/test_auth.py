"""Logging in, with a brake on guessing passwords (django-axes, tuned in ``clubs.auth``)."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core import mail
from django.core.cache import caches
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def fresh_throttle():
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


PER_USERNAME = settings.LOGIN_FAILURE_LIMITS["username"]
PER_ADDRESS = settings.LOGIN_FAILURE_LIMITS["ip_address"]


def attempt(client, username, password, ip="127.0.0.1", url=None, **headers):
    return client.post(
        url or reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=ip,
        **headers,
    )


def logged_in(client):
    return "_auth_user_id" in client.session


def test_the_policy_is_five_per_username_twenty_per_address_for_a_quarter_hour():
    assert (PER_USERNAME, PER_ADDRESS) == (5, 20)
    assert datetime.timedelta(minutes=15) == settings.AXES_COOLOFF_TIME


def test_after_five_failures_even_the_right_password_must_wait(client):
    factories.user("secretaris", password="juist-wachtwoord")
    for _ in range(PER_USERNAME - 1):
        assert attempt(client, "secretaris", "fout").status_code == 200
    assert attempt(client, "secretaris", "fout").status_code == 429
    response = attempt(client, "secretaris", "juist-wachtwoord")
    assert response.status_code == 429
    assert "Wacht een kwartier" in response.text
    assert not logged_in(client)


def test_the_locked_out_page_is_in_the_site_layout_and_speaks_english(client):
    for _ in range(PER_USERNAME):
        attempt(client, "secretaris", "fout")
    response = attempt(client, "secretaris", "fout", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 429
    assert "Wait a quarter of an hour and try again" in response.text
    assert 'class="site-header' in response.text


def test_the_wait_ends_after_the_window(client):
    factories.user("secretaris", password="juist-wachtwoord")
    for _ in range(PER_USERNAME):
        attempt(client, "secretaris", "fout")
    AccessAttempt.objects.update(attempt_time=datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC))
    response = attempt(client, "secretaris", "juist-wachtwoord")
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="secretaris").exists()


def test_a_success_clears_the_usernames_failures(client):
    factories.user("secretaris", password="juist-wachtwoord")
    for _ in range(PER_USERNAME - 1):
        attempt(client, "secretaris", "fout")
    assert attempt(client, "secretaris", "juist-wachtwoord").status_code == 302
    client.logout()
    for _ in range(PER_USERNAME - 1):
        assert attempt(client, "secretaris", "fout").status_code == 200
    assert attempt(client, "secretaris", "juist-wachtwoord").status_code == 302


def test_many_usernames_from_one_address_are_slowed_down(client):
    factories.user("echte", password="juist-wachtwoord")
    for n in range(PER_ADDRESS):
        attempt(client, f"gok{n}", "fout", ip="192.0.2.7")
    assert attempt(client, "echte", "juist-wachtwoord", ip="192.0.2.7").status_code == 429
    assert attempt(client, "echte", "juist-wachtwoord", ip="192.0.2.8").status_code == 302


def test_fewer_than_twenty_failures_from_one_address_do_not_lock_it(client):
    factories.user("echte", password="juist-wachtwoord")
    for n in range(PER_ADDRESS - 1):
        attempt(client, f"gok{n}", "fout", ip="192.0.2.7")
    assert attempt(client, "echte", "juist-wachtwoord", ip="192.0.2.7").status_code == 302


@pytest.mark.parametrize("variant", ["dir_b ", " dir_b", "DIR_B", "Dir_B\t"])
def test_a_username_written_differently_counts_as_the_same_username(client, variant):
    """The login form strips the username, so ``"dir_b "`` logs in as ``dir_b``: it
    must also count as ``dir_b``, from any address."""
    factories.user("dir_b", password="juist-wachtwoord")
    for n in range(PER_USERNAME - 1):
        attempt(client, "dir_b", "fout", ip=f"192.0.2.{n + 1}")
    attempt(client, variant, "fout", ip="198.51.100.1")
    assert attempt(client, variant, "juist-wachtwoord", ip="198.51.100.2").status_code == 429
    assert not logged_in(client)


def test_the_admin_login_has_the_same_brake(client):
    factories.user("beheer", password="juist-wachtwoord", is_staff=True, is_superuser=True)
    admin_login = reverse("admin:login")
    for _ in range(PER_USERNAME):
        attempt(client, "beheer", "fout", url=admin_login)
    response = attempt(client, "beheer", "juist-wachtwoord", url=admin_login)
    assert response.status_code == 429
    assert not logged_in(client)


def test_failures_on_the_admin_login_count_for_the_site_login_too(client):
    factories.user("beheer", password="juist-wachtwoord", is_staff=True)
    for _ in range(PER_USERNAME):
        attempt(client, "beheer", "fout", url=reverse("admin:login"))
    assert attempt(client, "beheer", "juist-wachtwoord").status_code == 429


def test_a_forwarded_address_is_ignored_without_a_trusted_proxy(client):
    """Otherwise anyone could lock out any address, or dodge the address limit."""
    factories.user("echte", password="juist-wachtwoord")
    for n in range(PER_ADDRESS):
        attempt(client, f"gok{n}", "fout", ip="192.0.2.7", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")
    assert attempt(client, "echte", "juist-wachtwoord", ip="192.0.2.7").status_code == 429


def test_behind_a_trusted_proxy_each_client_has_its_own_count(client, settings):
    """Behind the proxy every request comes from the proxy's address: counting that
    would let twenty made-up names lock the whole site's login."""
    settings.TRUSTED_PROXY_COUNT = 1
    factories.user("echte", password="juist-wachtwoord")
    proxy = "127.0.0.1"
    for n in range(PER_ADDRESS):
        # The client forges a left-hand entry; the proxy appends what it saw.
        forwarded = f"203.0.113.{n}, 198.51.100.66"
        attempt(client, f"gok{n}", "fout", ip=proxy, HTTP_X_FORWARDED_FOR=forwarded)
    assert AccessAttempt.objects.filter(ip_address="198.51.100.66").count() == PER_ADDRESS
    elsewhere = "198.51.100.67"
    response = attempt(
        client, "echte", "juist-wachtwoord", ip=proxy, HTTP_X_FORWARDED_FOR=elsewhere
    )
    assert response.status_code == 302
    client.logout()
    attacker = "10.9.9.9, 198.51.100.66"
    response = attempt(client, "echte", "juist-wachtwoord", ip=proxy, HTTP_X_FORWARDED_FOR=attacker)
    assert response.status_code == 429


def test_a_wrong_password_says_so_in_dutch(client):
    response = attempt(client, "niemand", "fout")
    assert "komen niet overeen" in response.text


# --- Password reset ------------------------------------------------------------------------


def test_without_email_the_reset_page_says_to_ask_the_administrator(client, settings):
    settings.EMAIL_CONFIGURED = False
    factories.user("secretaris", email="secretaris@example.org")
    page = client.get(reverse("password_reset"), **ENGLISH)
    assert "Ask the club's administrator" in page.text
    assert 'name="email"' not in page.text
    response = client.post(
        reverse("password_reset"), {"email": "secretaris@example.org"}, **ENGLISH
    )
    assert response.status_code == 200
    assert "cannot send e-mail" in response.text
    assert mail.outbox == []


def test_with_email_the_reset_link_is_sent(client, settings):
    settings.EMAIL_CONFIGURED = True
    factories.user("secretaris", email="secretaris@example.org")
    assert 'name="email"' in client.get(reverse("password_reset")).text
    response = client.post(reverse("password_reset"), {"email": "secretaris@example.org"})
    assert response.status_code == 302
    assert [message.to for message in mail.outbox] == [["secretaris@example.org"]]


def test_reset_requests_are_throttled_per_email(client, settings):
    settings.EMAIL_CONFIGURED = True
    factories.user("secretaris", email="secretaris@example.org")
    limit = settings.PASSWORD_RESET_LIMITS["email"]
    for n in range(limit):
        client.post(
            reverse("password_reset"),
            {"email": "Secretaris@example.org"},
            REMOTE_ADDR=f"10.0.0.{n}",
        )
    response = client.post(
        reverse("password_reset"),
        {"email": "secretaris@example.org"},
        REMOTE_ADDR="10.0.1.1",
        **ENGLISH,
    )
    assert response.status_code == 200
    assert "Wait an hour" in response.text
    assert len(mail.outbox) == limit


def test_reset_requests_are_throttled_per_address(client, settings):
    settings.EMAIL_CONFIGURED = True
    limit = settings.PASSWORD_RESET_LIMITS["ip_address"]
    for n in range(limit):
        client.post(reverse("password_reset"), {"email": f"gok{n}@example.org"})
    factories.user("secretaris", email="secretaris@example.org")
    response = client.post(
        reverse("password_reset"), {"email": "secretaris@example.org"}, **ENGLISH
    )
    assert "Wait an hour" in response.text
    assert mail.outbox == []


def test_the_emailed_link_chooses_a_new_password_in_the_site_layout(client, settings):
    settings.EMAIL_CONFIGURED = True
    factories.user("secretaris", email="secretaris@example.org")
    client.post(reverse("password_reset"), {"email": "secretaris@example.org"})
    (message,) = mail.outbox
    link = next(word for word in message.body.split() if "/accounts/reset/" in word)
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path, follow=True, **ENGLISH)
    assert page.status_code == 200
    assert 'class="brand"' in page.text and "Django" not in page.text
    assert "Choose a new password" in page.text
    form_url = page.redirect_chain[-1][0]
    mismatch = client.post(
        form_url,
        {"new_password1": "Klaver-Boom-2026", "new_password2": "Klaver-Boom-2027"},
        **ENGLISH,
    )
    assert "aria-invalid" in mismatch.text
    done = client.post(
        form_url,
        {"new_password1": "Klaver-Boom-2026", "new_password2": "Klaver-Boom-2026"},
        follow=True,
        **ENGLISH,
    )
    assert "Your new password is saved" in done.text and 'class="brand"' in done.text
    attempt(client, "secretaris", "Klaver-Boom-2026")
    assert logged_in(client)


def test_a_used_or_broken_reset_link_says_so_and_offers_a_new_one(client):
    page = client.get("/accounts/reset/MQ/set-password/", **ENGLISH)
    assert "no longer valid" in page.text and 'class="brand"' in page.text
    assert reverse("password_reset") in page.text


def test_a_player_changes_their_password_from_their_name_in_the_header(client):
    user = factories.user("speler")
    user.set_password("Oud-Wachtwoord-1")
    user.save()
    client.force_login(user)
    home = client.get(reverse("clubs:home"))
    assert reverse("password_change") in home.text
    page = client.get(reverse("password_change"), **ENGLISH)
    assert 'class="brand"' in page.text and "Django" not in page.text
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "Oud-Wachtwoord-1",
            "new_password1": "Nieuw-Wachtwoord-2",
            "new_password2": "Nieuw-Wachtwoord-2",
        },
        follow=True,
        **ENGLISH,
    )
    assert "Your new password is saved" in response.text
    user.refresh_from_db()
    assert user.check_password("Nieuw-Wachtwoord-2")
