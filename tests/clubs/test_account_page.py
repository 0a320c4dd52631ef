"""Issue 24: a person sees, downloads and deletes what the site stores about them."""

import json

import pytest
from axes.models import AccessAttempt, AccessLog
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from clubs import services
from clubs.models import ClubLog, ClubRole, Member
from tests import factories

pytestmark = pytest.mark.django_db

PASSWORD = "Klaver-Boer-Negen-9"


def _login(username, password=PASSWORD, address="198.51.100.23"):
    client = Client(
        HTTP_USER_AGENT="Testbrowser/4.2", HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR=address
    )
    response = client.post(reverse("login"), {"username": username, "password": password})
    assert response.status_code == 302
    return client


@pytest.fixture
def person(db):
    """An account with a role in two clubs, a member record, a login and a password link."""
    home = factories.club(name="Thuisclub", slug="thuisclub")
    away = factories.club(name="Uitclub", slug="uitclub")
    home_admin = factories.role(home, "admin", factories.user("thuis-admin"))
    factories.role(away, "admin", factories.user("uit-admin"))
    user = factories.user("kees", password=PASSWORD, email="kees@example.org")
    factories.role(home, "member", user)
    member = factories.member(home, "Kees de Kaart", membership_number="77", user=user)
    # The link is made while the account is the home club's alone; then a role elsewhere.
    services.password_link_create(club=home, user=user, by=home_admin)
    factories.role(away, "scorer", user)
    stranger = factories.user("anders", password=PASSWORD)
    factories.role(home, "member", stranger)
    services.password_link_create(club=home, user=stranger, by=home_admin)
    return user, member, home, away, home_admin


def test_the_account_page_shows_what_the_site_stores(person, django_assert_max_num_queries):
    user, _member, _home, _away, _home_admin = person
    client = _login("kees")
    with django_assert_max_num_queries(12):
        page = client.get(reverse("account")).text
    for shown in ("kees@example.org", "Thuisclub", "Uitclub", "scorer", "Kees de Kaart", "77"):
        assert shown in page
    assert "198.51.100.23" in page and "Testbrowser/4.2" in page
    assert "kept in the login log for 30 days" in page
    assert "thuis-admin" in page  # who made the password link
    assert "anders" not in page  # another account's link is not this one's
    assert reverse("account") in client.get(reverse("clubs:home")).text  # in the header


def test_the_download_carries_the_same_data(person):
    user, _member, _home, _away, _home_admin = person
    client = _login("kees")
    response = client.get(reverse("account-export"))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="kees-')
    assert "private" in response["Cache-Control"]
    data = json.loads(response.getvalue())
    assert data["account"]["username"] == "kees" and data["account"]["email"] == "kees@example.org"
    assert {(r["club"], r["role"]) for r in data["roles"]} == {
        ("Thuisclub", "member"),
        ("Uitclub", "scorer"),
    }
    assert [(m["club"], m["name"], m["membership_number"]) for m in data["member_records"]] == [
        ("Thuisclub", "Kees de Kaart", "77")
    ]
    assert [(line["address"], line["browser"]) for line in data["logins"]] == [
        ("198.51.100.23", "Testbrowser/4.2")
    ]
    assert [(p["club"], p["by"]) for p in data["password_links"]] == [("Thuisclub", "thuis-admin")]


def test_the_account_pages_need_a_login():
    for name in ("account", "account-export", "account-delete"):
        response = Client().get(reverse(name))
        assert response.status_code == 302 and reverse("login") in response["Location"]


def test_deleting_ones_account_removes_it_and_keeps_the_clubs_records(person):
    user, member, home, away, home_admin = person
    client = _login("kees")
    other_session = _login("kees", address="203.0.113.9")
    services.invitation_create(club=home, role="scorer", by=home_admin)
    line = ClubLog.objects.create(club=home, user=user, action="club_update", summary="by kees")
    AccessAttempt.objects.create(
        username="kees", ip_address="192.0.2.1", user_agent="x", http_accept="x",
        get_data="", post_data="", failures_since_start=1,
    )  # fmt: skip
    away_roles = list(ClubRole.objects.filter(club=away).exclude(user=user).values())
    response = client.post(reverse("account-delete"), {"password": PASSWORD})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(username="kees").exists()
    member.refresh_from_db()
    assert member.user_id is None and member.name == "Kees de Kaart"
    line.refresh_from_db()
    assert line.user is None and "kees" not in line.summary  # the line stays, nameless
    assert not AccessLog.objects.filter(username__iexact="kees").exists()
    assert not AccessAttempt.objects.filter(username__iexact="kees").exists()
    assert not ClubRole.objects.filter(user_id=user.pk).exists()
    assert list(ClubRole.objects.filter(club=away).values()) == away_roles
    assert get_user_model().objects.filter(username="thuis-admin").exists()
    assert other_session.get(reverse("account")).status_code == 302  # logged out everywhere
    assert client.get(reverse("account")).status_code == 302


def test_a_wrong_password_deletes_nothing(person):
    user, *_rest = person
    client = _login("kees")
    response = client.post(reverse("account-delete"), {"password": "geraden"})
    assert response.status_code == 200
    assert "That password is wrong" in response.text
    assert get_user_model().objects.filter(pk=user.pk, is_active=True).exists()
    assert ClubRole.objects.filter(user=user).count() == 2


def test_the_last_administrator_of_a_club_cannot_delete_their_account(person):
    _user, _member, home, _away, home_admin = person
    home_admin.set_password(PASSWORD)
    home_admin.save()
    client = _login("thuis-admin")
    response = client.post(reverse("account-delete"), {"password": PASSWORD})
    assert response.status_code == 200
    assert "You are the last administrator of Thuisclub" in response.text
    assert ClubRole.objects.filter(club=home, user=home_admin, role="admin").exists()
    # With a second administrator it may go.
    factories.role(home, "admin", factories.user("tweede-admin"))
    response = client.post(reverse("account-delete"), {"password": PASSWORD})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(username="thuis-admin").exists()


def test_nobody_deletes_another_persons_account(person):
    user, _member, _home, _away, home_admin = person
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.account_delete(user=user, by=home_admin, password=PASSWORD)
    assert get_user_model().objects.filter(pk=user.pk).exists()
    assert Member.objects.filter(user=user).exists()
