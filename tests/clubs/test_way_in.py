"""Issue 20, the way in: starting a club on the site, invitations, password links,
the first-steps checklist and a player's own results."""

import datetime
import random
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlsafe_base64_decode

from clubs import services
from clubs.auth import account_token_generator
from clubs.models import Club, ClubLog, ClubRole, Invitation
from scoring.demo import play_evening
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client):
    """Pages in English, so the tests read the site's own words whatever the catalogs say."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


# --- A new club ----------------------------------------------------------------------------


def test_an_operator_starts_a_club_and_becomes_its_administrator(client):
    operator = factories.user("operator", is_staff=True)
    client.force_login(operator)
    response = client.post(
        reverse("clubs:club-create"),
        {"name": "Klaverjasclub De Zwarte Boer", "slug": "", "ruleset_preset": "amsterdam"},
    )
    club = Club.objects.get()
    assert response.status_code == 302 and response["Location"] == club.get_absolute_url()
    assert club.slug == "klaverjasclub-de-zwarte-boer"
    assert club.ruleset_preset == "amsterdam"
    assert ClubRole.objects.get(club=club).user == operator
    assert ClubRole.objects.get(club=club).role == "admin"
    assert ClubLog.objects.filter(club=club, action="club_create").count() == 1


def test_a_chosen_slug_is_kept_and_a_taken_one_refused(client):
    factories.club(name="Eerste", slug="troef")
    client.force_login(factories.user(is_superuser=True))
    taken = client.post(
        reverse("clubs:club-create"),
        {"name": "Tweede", "slug": "troef", "ruleset_preset": "rotterdam"},
    )
    assert taken.status_code == 200
    assert "Another club already uses this short name." in taken.content.decode()
    bad = client.post(
        reverse("clubs:club-create"),
        {"name": "Tweede", "slug": "a b!", "ruleset_preset": "rotterdam"},
    )
    assert bad.status_code == 200 and Club.objects.count() == 1
    good = client.post(
        reverse("clubs:club-create"),
        {"name": "Tweede", "slug": "troef-twee", "ruleset_preset": "rotterdam"},
    )
    assert good.status_code == 302 and Club.objects.filter(slug="troef-twee").exists()


def test_by_default_only_operators_start_clubs(client, settings):
    settings.CLUB_CREATION = "operators"
    client.force_login(factories.user())
    assert client.get(reverse("clubs:club-create")).status_code == 403
    assert client.get(reverse("signup")).status_code == 404
    with pytest.raises(PermissionDenied):
        services.club_create(by=factories.user(), name="X", slug="x", ruleset_preset="rotterdam")


def test_with_creation_open_anyone_signs_up_and_starts_a_club(client, settings):
    settings.CLUB_CREATION = "anyone"
    assert "Make an account and start a club" in client.get(reverse("clubs:home")).content.decode()
    response = client.post(
        reverse("signup"),
        {
            "username": "jannie",
            "email": "jannie@example.org",
            "password1": "Klaverjas-2026!",
            "password2": "Klaverjas-2026!",
        },
    )
    assert response.status_code == 302 and response["Location"] == reverse("clubs:club-create")
    response = client.post(
        reverse("clubs:club-create"), {"name": "Jannie's club", "ruleset_preset": "rotterdam"}
    )
    club = Club.objects.get()
    assert ClubRole.objects.get(club=club).user.username == "jannie"


def test_a_fresh_install_with_only_the_demo_points_the_superuser_to_a_new_club(client):
    factories.club(name="De Hoge Troef", slug="de-hoge-troef")
    client.force_login(factories.user(is_superuser=True))
    page = client.get(reverse("clubs:home")).content.decode()
    assert "the demo club is only for trying things out" in page
    assert "python manage.py demo --remove" in page
    assert reverse("clubs:club-create") in page
    factories.club(name="Echte club")
    page = client.get(reverse("clubs:home")).content.decode()
    assert "demo --remove" not in page and reverse("clubs:club-create") in page


# --- Invitations ---------------------------------------------------------------------------


@pytest.fixture
def admin_club(db):
    club = factories.club(name="De Klaverboer", results_public=False)
    admin = factories.role(club, "admin")
    return club, admin


def test_an_invitation_is_a_one_time_link_with_a_qr_code(client, admin_club):
    club, admin = admin_club
    client.force_login(admin)
    response = client.post(
        reverse("clubs:invitation-create", kwargs={"club": club.slug}), {"role": "director"}
    )
    invitation = Invitation.objects.get()
    assert response["Location"] == reverse(
        "clubs:invitation-detail", kwargs={"club": club.slug, "pk": invitation.pk}
    )
    assert len(invitation.token) >= 40
    assert invitation.expires_at - timezone.now() > timedelta(days=6, hours=23)
    page = client.get(response["Location"]).content.decode()
    assert invitation.get_absolute_url() in page and "<svg" in page
    roles = client.get(reverse("clubs:role-list", kwargs={"club": club.slug})).content.decode()
    assert (
        reverse("clubs:invitation-detail", kwargs={"club": club.slug, "pk": invitation.pk}) in roles
    )


def test_opening_an_invitation_makes_an_account_with_the_role(client, admin_club):
    club, admin = admin_club
    invitation = services.invitation_create(club=club, role="director", by=admin)
    url = invitation.get_absolute_url()
    assert "tournament director" in client.get(url).content.decode()
    response = client.post(
        url, {"username": "leider", "password1": "Wedstrijd-2026!", "password2": "Wedstrijd-2026!"}
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="leider")
    assert ClubRole.objects.get(club=club, user=user).role == "director"
    assert client.get(club.get_absolute_url()).status_code == 200  # logged in, sees the club
    invitation.refresh_from_db()
    assert invitation.used_by == user and invitation.used_at is not None
    # One time only.
    again = factories.user()
    client.force_login(again)
    assert client.get(url).status_code == 410
    with pytest.raises(ValidationError):
        services.invitation_accept(token=invitation.token, user=again)
    roles = client.get(reverse("clubs:role-list", kwargs={"club": club.slug}))
    assert roles.status_code == 404  # a director reaches no admin page; again has no role


def test_an_existing_account_logs_in_and_accepts(client, admin_club):
    club, admin = admin_club
    invitation = services.invitation_create(club=club, role="scorer", by=admin)
    person = factories.user("bestaand")
    assert client.get(invitation.get_absolute_url()).status_code == 200
    client.force_login(person)
    client.post(invitation.get_absolute_url())
    assert ClubRole.objects.get(club=club, user=person).role == "scorer"


def test_an_invitation_never_lowers_a_role(admin_club):
    club, admin = admin_club
    invitation = services.invitation_create(club=club, role="member", by=admin)
    services.invitation_accept(token=invitation.token, user=admin)
    assert ClubRole.objects.get(club=club, user=admin).role == "admin"


def test_withdrawn_and_expired_invitations_do_not_work(client, admin_club):
    club, admin = admin_club
    withdrawn = services.invitation_create(club=club, role="admin", by=admin)
    expired = services.invitation_create(club=club, role="admin", by=admin)
    client.force_login(admin)
    client.post(reverse("clubs:invitation-revoke", kwargs={"club": club.slug, "pk": withdrawn.pk}))
    Invitation.objects.filter(pk=expired.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert list(Invitation.objects.open()) == []
    client.logout()
    for invitation in (withdrawn, expired):
        response = client.post(
            invitation.get_absolute_url(),
            {"username": "x", "password1": "Wedstrijd-2026!", "password2": "Wedstrijd-2026!"},
        )
        assert response.status_code == 410
    assert not get_user_model().objects.filter(username="x").exists()
    assert client.get(reverse("invitation-accept", kwargs={"token": "nope"})).status_code == 404


def test_an_invitation_is_sent_by_e_mail_when_the_site_can(client, admin_club, settings):
    club, admin = admin_club
    settings.EMAIL_CONFIGURED = True
    client.force_login(admin)
    client.post(
        reverse("clubs:invitation-create", kwargs={"club": club.slug}),
        {"role": "scorer", "email": "teller@example.org"},
    )
    invitation = Invitation.objects.get()
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["teller@example.org"]
    assert invitation.get_absolute_url() in mail.outbox[0].body


def test_an_e_mail_that_cannot_be_sent_leaves_the_link_to_pass_on(client, admin_club, settings):
    club, admin = admin_club
    settings.EMAIL_CONFIGURED = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", 9  # nothing listens there
    client.force_login(admin)
    response = client.post(
        reverse("clubs:invitation-create", kwargs={"club": club.slug}),
        {"role": "scorer", "email": "teller@example.org"},
        follow=True,
    )
    assert response.status_code == 200
    assert "could not be sent" in response.content.decode()
    assert response.context["url"].endswith(Invitation.objects.get().get_absolute_url())


def test_without_e_mail_nothing_is_sent(client, admin_club, settings):
    club, admin = admin_club
    settings.EMAIL_CONFIGURED = False
    client.force_login(admin)
    client.post(
        reverse("clubs:invitation-create", kwargs={"club": club.slug}),
        {"role": "scorer", "email": "teller@example.org"},
    )
    assert mail.outbox == [] and Invitation.objects.count() == 1


def test_a_member_invitation_links_the_record_and_shows_my_results(client, admin_club):
    club, admin = admin_club
    players = factories.members(club, 8)
    season = factories.competition(club)
    play_evening(season, datetime.date(2026, 9, 8), players, admin, random.Random(3))
    invitation = services.invitation_create(club=club, role="member", member=players[0], by=admin)
    client.post(
        invitation.get_absolute_url(),
        {"username": "speler", "password1": "Klaverjas-2026!", "password2": "Klaverjas-2026!"},
    )
    players[0].refresh_from_db()
    assert players[0].user.username == "speler"
    assert ClubRole.objects.get(club=club, user=players[0].user).role == "member"
    page = client.get(reverse("results:my-results")).content.decode()
    assert club.name in page and players[0].name in page and season.name in page
    assert "8 September 2026" in page or "8 september 2026" in page


def test_my_results_without_a_linked_record_says_how_to_get_one(client):
    client.force_login(factories.user())
    page = client.get(reverse("results:my-results")).content.decode()
    assert "not linked to a player yet" in page


def test_a_member_invitation_for_another_clubs_member_is_refused(admin_club):
    club, admin = admin_club
    stranger = factories.member(factories.club())
    with pytest.raises(ValidationError):
        services.invitation_create(club=club, role="member", member=stranger, by=admin)


# --- Password links ------------------------------------------------------------------------


def test_an_admin_makes_a_one_time_password_link_for_one_of_the_club(client, admin_club):
    club, admin = admin_club
    player = factories.role(club, "member", factories.user("vergeetachtig"))
    client.force_login(admin)
    response = client.post(
        reverse("clubs:password-link", kwargs={"club": club.slug, "user_id": player.pk})
    )
    page = response.content.decode()
    assert response.status_code == 200 and "<svg" in page
    url = response.context["url"]
    assert f'value="{url}"' in page
    path = url.split("testserver")[1]
    uidb64, token = path.rstrip("/").split("/")[-2:]
    assert int(urlsafe_base64_decode(uidb64)) == player.pk
    assert account_token_generator.check_token(player, token)
    client.logout()
    form = client.get(path, follow=True)
    assert form.status_code == 200
    set_url = form.redirect_chain[-1][0]
    client.post(
        set_url, {"new_password1": "Nieuw-wachtwoord-1", "new_password2": "Nieuw-wachtwoord-1"}
    )
    player.refresh_from_db()
    assert player.check_password("Nieuw-wachtwoord-1")
    assert not account_token_generator.check_token(player, token)  # used once
    assert ClubLog.objects.filter(club=club, action="password_link").count() == 1


def test_no_password_link_for_operators_or_other_clubs_people(admin_club):
    club, admin = admin_club
    operator = factories.role(club, "member", factories.user(is_superuser=True))
    stranger = factories.role(factories.club(), "member")
    for person in (operator, stranger):
        with pytest.raises(PermissionDenied):
            services.password_link_create(club=club, user=person, by=admin)


# --- First steps ---------------------------------------------------------------------------


def test_the_checklist_follows_the_club_data_until_done(client, admin_club):
    club, admin = admin_club
    client.force_login(admin)

    def steps():
        return [s.done for s in client.get(club.get_absolute_url()).context["first_steps"]]

    assert steps() == [False, False, False, False, False]
    services.club_update(club=club, by=admin, town="Delft")
    players = factories.members(club, 8)
    services.invitation_create(club=club, role="director", by=admin)
    assert steps() == [True, True, True, False, False]
    season = factories.competition(club)
    assert steps() == [True, True, True, True, False]
    play_evening(season, datetime.date(2026, 9, 8), players, admin, random.Random(3))
    assert client.get(club.get_absolute_url()).context["first_steps"] == []
