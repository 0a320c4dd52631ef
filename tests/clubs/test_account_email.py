"""An account's e-mail address (issue 25): set at sign-up and on the invitation's page,
offered to an existing account without one, changed by its owner on the account page,
never shared by two accounts, and used by "Forgot your password?"."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from clubs import services
from clubs.models import ClubRole
from tests import factories

pytestmark = pytest.mark.django_db

PASSWORD = "Klaverjas-2026!"
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def club(db):
    club = factories.club(name="De Klaverboer")
    admin = factories.role(club, "admin", factories.user("kb-admin"))
    return club, admin


@pytest.fixture
def mailing(settings):
    settings.EMAIL_CONFIGURED = True
    return settings


def reset_link_of(message):
    """The reset page's path in a reset e-mail."""
    (path,) = re.findall(r"https?://[^/\s]+(/accounts/reset/[^\s]+/[^\s]+/)", message.body)
    return path


def reset_reaches(client, email):
    """(the accounts a reset request for ``email`` reached, the e-mails sent)."""
    mail.outbox.clear()
    response = client.post(reverse("password_reset"), {"email": email})
    assert response.status_code == 302
    return [message.to for message in mail.outbox], list(mail.outbox)


def set_password_by_link(client, message, password="Nieuw-Wachtwoord-9"):
    page = client.get(reset_link_of(message), follow=True)
    assert page.status_code == 200
    response = client.post(
        page.redirect_chain[-1][0] if page.redirect_chain else reset_link_of(message),
        {"new_password1": password, "new_password2": password},
    )
    assert response.status_code == 302, response.content[:500]
    return password


# --- Accepting an invitation ----------------------------------------------------------------


def invite(club, admin, email="", role="member"):
    return services.invitation_create(club=club[0], role=role, by=admin, email=email)


def test_a_new_account_made_on_the_invitation_gets_its_address_and_reset_reaches_it(
    client, club, mailing
):
    club_, admin = club
    invitation = invite(club, admin, email="Nieuw.Lid@Example.org")
    page = client.get(invitation.get_absolute_url(), **ENGLISH).text
    assert 'value="Nieuw.Lid@example.org"' in page  # offered, for its owner to keep or change
    response = client.post(
        invitation.get_absolute_url(),
        {
            "username": "nieuw-lid",
            "email": "Nieuw.Lid@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    account = get_user_model().objects.get(username="nieuw-lid")
    assert account.email == "Nieuw.Lid@example.org"
    assert ClubRole.objects.filter(club=club_, user=account, role="member").exists()
    client.logout()
    reached, messages = reset_reaches(client, "nieuw.lid@EXAMPLE.org")
    assert reached == [["Nieuw.Lid@example.org"]]
    new_password = set_password_by_link(client, messages[0])
    account.refresh_from_db()
    assert account.check_password(new_password)


def test_the_invitation_s_address_taken_by_another_account_is_refused_and_no_account_made(
    client, club
):
    factories.user("al-bezet", email="bezet@example.org")
    invitation = invite(club, club[1], email="BEZET@example.org")
    response = client.post(
        invitation.get_absolute_url(),
        {
            "username": "tweede",
            "email": "BEZET@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        **ENGLISH,
    )
    assert response.status_code == 200
    assert "Another account already uses this e-mail address" in response.text
    assert not get_user_model().objects.filter(username="tweede").exists()
    assert invitation.__class__.objects.open().filter(pk=invitation.pk).exists()


def test_without_an_address_the_new_account_has_none(client, club):
    invitation = invite(club, club[1])
    client.post(
        invitation.get_absolute_url(),
        {"username": "zonder", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert get_user_model().objects.get(username="zonder").email == ""


def test_an_invitation_never_sets_the_address_of_an_existing_account(client, club):
    """The address a club typed is nobody's word for it: a club that could set it on a
    person's account could then have that account's password reset to itself."""
    invitation = invite(club, club[1], email="door-de-club@example.org")
    account = factories.user("bestaand")
    client.force_login(account)
    page = client.get(invitation.get_absolute_url(), **ENGLISH).text
    assert "door-de-club@example.org" not in page and "take_email" not in page
    client.post(invitation.get_absolute_url(), {"take_email": "on"})
    account.refresh_from_db()
    assert account.email == "" and ClubRole.objects.filter(user=account).exists()


def test_an_invitation_never_changes_an_address_the_account_has(client, club):
    """Also another club's person: no club's invitation rewrites their address."""
    other = factories.club(name="Andere club")
    account = factories.role(other, "admin", factories.user("elders", email="eigen@example.org"))
    invitation = invite(club, club[1], email="door-de-club@example.org")
    client.force_login(account)
    client.post(invitation.get_absolute_url(), {"take_email": "on"})
    account.refresh_from_db()
    assert account.email == "eigen@example.org"
    assert ClubRole.objects.filter(club=club[0], user=account).exists()


# --- Sign-up ------------------------------------------------------------------------------


@pytest.fixture
def open_site(settings):
    settings.CLUB_CREATION = "anyone"


def sign_up(client, **data):
    return client.post(
        reverse("signup"),
        {"username": "starter", "password1": PASSWORD, "password2": PASSWORD, **data},
        **ENGLISH,
    )


def test_sign_up_asks_for_an_address_and_reset_reaches_it(client, open_site, mailing):
    assert 'name="email"' in client.get(reverse("signup")).text
    refused = sign_up(client, email="")
    assert refused.status_code == 200 and "This field is required" in refused.text
    assert not get_user_model().objects.filter(username="starter").exists()
    assert sign_up(client, email="starter@example.org").status_code == 302
    assert get_user_model().objects.get(username="starter").email == "starter@example.org"
    client.logout()
    reached, _messages = reset_reaches(client, "starter@example.org")
    assert reached == [["starter@example.org"]]


def test_sign_up_refuses_an_address_another_account_has(client, open_site):
    factories.user("eerder", email="Dubbel@example.org")
    refused = sign_up(client, email="dubbel@EXAMPLE.ORG")
    assert refused.status_code == 200
    assert "Another account already uses this e-mail address" in refused.text
    assert not get_user_model().objects.filter(username="starter").exists()


# --- The account page ------------------------------------------------------------------------


def post_email(client, email, password="pw"):
    return client.post(reverse("account-email"), {"email": email, "password": password}, **ENGLISH)


def test_the_owner_sets_and_changes_the_address_with_the_password(client, mailing):
    account = factories.user("eigenaar")
    client.force_login(account)
    page = client.get(reverse("account"), **ENGLISH).text
    assert 'id="id_email_email"' in page and "Save the e-mail address" in page
    assert post_email(client, "eerste@example.org").status_code == 302
    account.refresh_from_db()
    assert account.email == "eerste@example.org"
    assert post_email(client, "tweede@example.org").status_code == 302
    account.refresh_from_db()
    assert account.email == "tweede@example.org"
    client.logout()
    assert reset_reaches(client, "eerste@example.org")[0] == []
    assert reset_reaches(client, "tweede@example.org")[0] == [["tweede@example.org"]]


def test_a_wrong_password_or_a_taken_address_changes_nothing(client):
    factories.user("ander", email="ander@example.org")
    account = factories.user("eigenaar", email="oud@example.org")
    client.force_login(account)
    wrong = post_email(client, "nieuw@example.org", password="fout")
    assert wrong.status_code == 200 and "That password is wrong" in wrong.text
    taken = post_email(client, "ANDER@example.org")
    assert taken.status_code == 200 and "Another account already uses" in taken.text
    account.refresh_from_db()
    assert account.email == "oud@example.org"


def test_the_owner_removes_the_address(client):
    account = factories.user("eigenaar", email="weg@example.org")
    client.force_login(account)
    assert post_email(client, "").status_code == 302
    account.refresh_from_db()
    assert account.email == ""


def test_only_the_owner_changes_an_account_s_address(club):
    account = factories.user("eigenaar", email="eigen@example.org")
    with pytest.raises(PermissionDenied):
        services.account_email_set(user=account, by=club[1], email="x@example.org", password="pw")
    with pytest.raises(ValidationError):
        services.account_email_set(user=account, by=account, email="geen-adres", password="pw")
    account.refresh_from_db()
    assert account.email == "eigen@example.org"


def test_a_get_of_the_address_form_changes_nothing_and_a_stranger_must_log_in(client):
    assert client.get(reverse("account-email")).status_code == 405
    response = client.post(reverse("account-email"), {"email": "a@example.org", "password": "pw"})
    assert response.status_code == 302 and reverse("login") in response["Location"]


# --- Reset never reaches two accounts --------------------------------------------------------


def test_a_reset_for_an_address_two_older_accounts_share_goes_to_neither(client, mailing):
    get_user_model().objects.create_user("een", "samen@example.org", "pw")
    get_user_model().objects.create_user("twee", "SAMEN@example.org", "pw")
    reached, _messages = reset_reaches(client, "samen@example.org")
    assert reached == []


@pytest.mark.parametrize("what", ["e-mail", "delete"])
def test_the_own_password_is_braked_after_five_wrong_tries(what):
    """A session left open cannot guess the password without end: after five wrong tries
    even the right password is refused for ten minutes, and nothing changes."""
    account = factories.user("eigenaar", password=PASSWORD)

    def attempt(password):
        if what == "e-mail":
            services.account_email_set(
                user=account, by=account, email="nieuw@example.org", password=password
            )
        else:
            services.account_delete(user=account, by=account, password=password)

    for _ in range(services.OWN_PASSWORD_TRIES):
        with pytest.raises(ValidationError) as info:
            attempt("geraden")
        assert "klopt niet" in " ".join(info.value.messages)
    with pytest.raises(ValidationError) as info:
        attempt(PASSWORD)
    assert "wacht tien minuten" in " ".join(info.value.messages)
    account.refresh_from_db()
    assert account.email == "" and account.is_active


def test_the_account_page_answers_429_once_the_own_password_is_locked(client):
    account = factories.user("eigenaar", password=PASSWORD)
    client.force_login(account)
    url = reverse("account-email")
    for _ in range(services.OWN_PASSWORD_TRIES):
        response = client.post(url, {"email": "nieuw@example.org", "password": "geraden"})
        assert response.status_code == 200 and "klopt niet" in response.text
    response = client.post(url, {"email": "nieuw@example.org", "password": PASSWORD})
    assert response.status_code == 429 and "wacht tien minuten" in response.text
    account.refresh_from_db()
    assert account.email == ""
