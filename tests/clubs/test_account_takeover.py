"""Accounts belong to their owners: no club reaches an account that is not its own.

The two takeovers of issue 24, each tried as the attacker would, through the
pages: club A's administrator gives another club's administrator a role by
username, or waits until that administrator accepts an ordinary member
invitation of club A, and then makes a one-time password link for the account.
Both must fail, and nothing may change.
"""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client, override_settings
from django.urls import reverse

from clubs import services
from clubs.models import ClubLog, ClubRole, RoleTrace
from clubs.permissions import account_confined_to, password_link_refusal
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clubs():
    a = factories.club(name="Club A", slug="club-a")
    b = factories.club(name="Club B", slug="club-b", results_public=False)
    admin_a = factories.role(a, "admin", factories.user("admin-a"))
    admin_b = factories.role(b, "admin", factories.user("admin-b"))
    return a, b, admin_a, admin_b


def _link_url(club, user):
    return reverse("clubs:password-link", kwargs={"club": club.slug, "user_id": user.pk})


def test_a_role_is_not_given_to_another_clubs_administrator_by_username(client, two_clubs):
    a, _b, admin_a, admin_b = two_clubs
    client.force_login(admin_a)
    roles = reverse("clubs:role-list", kwargs={"club": a.slug})
    page = client.get(roles, HTTP_ACCEPT_LANGUAGE="en")
    assert "admin-b" not in page.text  # not offered: only the club's own people are
    # The old form's field, and the new one's with a foreign account: both refused.
    for data in ({"username": "admin-b", "role": "member"}, {"user": admin_b.pk, "role": "admin"}):
        response = client.post(roles, data, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200
        assert response.context["form"].errors
    assert not ClubRole.objects.filter(club=a, user=admin_b).exists()
    # And the service refuses on its own, whatever a page sends it.
    with pytest.raises(ValidationError, match="Invite them"):
        services.role_grant(club=a, user=admin_b, role="member", by=admin_a)
    assert not ClubRole.objects.filter(club=a, user=admin_b).exists()
    assert not ClubLog.objects.filter(club=a, action="role_grant").exists()
    # So no password link either: the account is not club A's at all.
    response = client.post(_link_url(a, admin_b))
    assert response.status_code == 404
    assert not ClubLog.objects.filter(action="password_link").exists()


def test_a_role_holder_of_the_club_changes_role(client, two_clubs):
    a, _b, admin_a, _admin_b = two_clubs
    scorer = factories.role(a, "scorer", factories.user("teller"))
    client.force_login(admin_a)
    roles = reverse("clubs:role-list", kwargs={"club": a.slug})
    response = client.post(roles, {"user": scorer.pk, "role": "director"})
    assert response.status_code == 302
    assert ClubRole.objects.get(club=a, user=scorer).role == "director"


def test_no_password_link_for_another_clubs_admin_who_accepted_a_member_invitation(
    client, two_clubs
):
    a, b, admin_a, admin_b = two_clubs
    player = factories.member(a, "Bart Bezoeker")
    invitation = services.invitation_create(club=a, role="member", member=player, by=admin_a)
    client.force_login(admin_b)
    accept = reverse("invitation-accept", kwargs={"token": invitation.token})
    assert client.post(accept).status_code == 302
    player.refresh_from_db()
    assert player.user == admin_b  # the owner accepted: a real member of A now
    password = admin_b.password

    client.force_login(admin_a)
    response = client.post(_link_url(a, admin_b), HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert b"/accounts/reset/" not in response.content
    assert "not the club" in response.text
    with pytest.raises(PermissionDenied):
        services.password_link_create(club=a, user=admin_b, by=admin_a)
    assert not ClubLog.objects.filter(action="password_link").exists()
    admin_b.refresh_from_db()
    assert admin_b.password == password
    # The roles page offers no button for that account.
    roles = client.get(reverse("clubs:role-list", kwargs={"club": a.slug})).content.decode()
    assert f'action="{_link_url(a, admin_b)}"' not in roles
    assert ClubRole.objects.get(club=b, user=admin_b).role == "admin"


def test_no_password_link_for_an_account_that_once_held_a_role_elsewhere(two_clubs):
    a, b, admin_a, _admin_b = two_clubs
    person = factories.role(a, "member", factories.user("wisselaar"))
    role_b = factories.role(b, "director", person)
    assert role_b == person
    assert not account_confined_to(person, a)
    ClubRole.objects.filter(club=b, user=person).delete()
    # The role in B is gone, its trace is not: the account was B's person.
    assert RoleTrace.objects.filter(user=person, club_id=b.pk).exists()
    assert not account_confined_to(person, a)
    with pytest.raises(PermissionDenied):
        services.password_link_create(club=a, user=person, by=admin_a)


def test_no_password_link_for_a_fellow_administrator_or_oneself(two_clubs):
    a, _b, admin_a, _admin_b = two_clubs
    second = factories.role(a, "admin", factories.user("tweede-admin"))
    director = factories.role(a, "director", factories.user("leider"))
    for target in (second, admin_a):
        assert password_link_refusal(by=admin_a, user=target, club=a) is not None
        with pytest.raises(PermissionDenied):
            services.password_link_create(club=a, user=target, by=admin_a)
    # A director is below the administrator and only club A's: the link is made.
    uidb64, token = services.password_link_create(club=a, user=director, by=admin_a)
    assert uidb64 and token
    entry = ClubLog.objects.get(action="password_link")
    assert (entry.user, entry.detail) == (admin_a, {"user": director.pk})


def test_no_password_link_for_a_member_account_linked_in_another_club(two_clubs):
    a, b, admin_a, _admin_b = two_clubs
    person = factories.role(a, "member", factories.user("dubbel"))
    factories.member(b, "Dubbel Lid", user=person)
    assert not account_confined_to(person, a)
    with pytest.raises(PermissionDenied):
        services.password_link_create(club=a, user=person, by=admin_a)


def test_no_password_link_for_site_operators(two_clubs):
    a, _b, admin_a, _admin_b = two_clubs
    for flags in ({"is_staff": True}, {"is_superuser": True}):
        operator = factories.role(a, "member", factories.user(**flags))
        with pytest.raises(PermissionDenied):
            services.password_link_create(club=a, user=operator, by=admin_a)


def test_a_role_saved_in_the_admin_leaves_its_trace_too(two_clubs):
    a, _b, _admin_a, _admin_b = two_clubs
    person = factories.user("via-admin")
    ClubRole(club=a, user=person, role="scorer").save()
    assert list(RoleTrace.objects.filter(user=person).values_list("club_id", flat=True)) == [a.pk]


@override_settings(CLUB_CREATION="anyone")
def test_a_password_link_stops_working_once_the_account_is_another_clubs_too(client):
    """The link is made while the account is club A's alone; then its owner starts a
    club of their own. The old link must no longer set a password: club A's
    administrator would take over club B's administrator with it."""
    a = factories.club(name="Club A", slug="club-a")
    admin_a = factories.role(a, "admin", factories.user("admin-a"))
    victim = factories.user("slachtoffer", password="eigen-wachtwoord-1")
    owner = Client()
    owner.force_login(victim)
    invitation = services.invitation_create(club=a, role="member", by=admin_a)
    accept = reverse("invitation-accept", kwargs={"token": invitation.token})
    assert owner.post(accept).status_code == 302

    client.force_login(admin_a)
    page = client.post(_link_url(a, victim))
    assert page.status_code == 200
    path = page.context["url"].split("testserver", 1)[1]
    # The link works now (it redirects to the set-password form) ...
    fresh = Client().get(path, follow=True)
    assert fresh.context["validlink"] is True

    new_club = {"name": "Club B", "slug": "club-b", "ruleset_preset": "rotterdam"}
    assert owner.post(reverse("clubs:club-create"), new_club).status_code == 302
    assert ClubRole.objects.get(user=victim, club__slug="club-b").role == "admin"

    # ... and no longer once the account is club B's administrator.
    attacker = Client()
    response = attacker.get(path, follow=True)
    assert response.context["validlink"] is False
    set_url = path.rsplit("/", 2)[0] + "/set-password/"
    attacker.post(set_url, {"new_password1": "Overname-9981x", "new_password2": "Overname-9981x"})
    victim.refresh_from_db()
    assert victim.check_password("eigen-wachtwoord-1")
    assert not victim.check_password("Overname-9981x")


def test_an_emailed_reset_link_still_sets_the_password(client, settings):
    """Every reset link of the site goes through the same tokens: the e-mailed one works."""
    from django.core import mail

    settings.EMAIL_CONFIGURED = True
    person = factories.user("vergeetachtig", password="oud-wachtwoord-1", email="v@example.org")
    assert client.post(reverse("password_reset"), {"email": "v@example.org"}).status_code == 302
    (message,) = mail.outbox
    path = next(w for w in message.body.split() if "/accounts/reset/" in w).split("testserver")[1]
    response = client.get(path, follow=True)
    assert response.context["validlink"] is True
    set_url = response.redirect_chain[-1][0]
    response = client.post(
        set_url, {"new_password1": "Nieuw-9981x!", "new_password2": "Nieuw-9981x!"}
    )
    assert response.status_code == 302
    person.refresh_from_db()
    assert person.check_password("Nieuw-9981x!")


def test_the_trace_of_a_password_link_outlives_the_club_that_made_it(client, two_clubs):
    """Whoever made the link cannot wipe its trace by deleting their club: the owner's
    account page still says who made it, in which club, and when."""
    a, _b, admin_a, _admin_b = two_clubs
    person = factories.role(a, "scorer", factories.user("teller"))
    services.password_link_create(club=a, user=person, by=admin_a)
    services.club_delete(club=a, by=admin_a, confirm_name="Club A")
    client.force_login(person)
    page = client.get(reverse("account"), HTTP_ACCEPT_LANGUAGE="en").text
    table = page.split("Password links made for your account")[-1].split("</table>")[0]
    assert "Club A" in table and "admin-a" in table
