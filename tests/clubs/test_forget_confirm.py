"""Erasing a member asks for the member's name first (issue 25): without it, nothing changes."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs import services
from clubs.models import ClubLog, Member
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def person(db):
    club = factories.club(name="De Troefkaart")
    admin = factories.role(club, "admin", factories.user("troef-admin"))
    account = factories.role(club, "member", factories.user("troef-speler"))
    person = factories.member(
        club, "Geertje Bos", email="geertje@example.org", phone="06-1", membership_number="7"
    )
    person.user = account
    person.save()
    return club, admin, person, account


def _unchanged(person, account):
    person.refresh_from_db()
    account.refresh_from_db()
    assert (person.name, person.email, person.phone, person.membership_number) == (
        "Geertje Bos",
        "geertje@example.org",
        "06-1",
        "7",
    )
    assert person.user_id == account.pk and account.is_active and account.has_usable_password()
    assert not ClubLog.objects.filter(action=ClubLog.Action.MEMBER_FORGET).exists()


@pytest.mark.parametrize("typed", ["", "   ", "geertje bos", "Geertje", "Geertje  Bos", "x"])
def test_the_service_erases_nothing_without_the_member_s_name(person, typed):
    club, admin, person_, account = person
    with pytest.raises(ValidationError) as caught:
        services.member_forget(member=person_, by=admin, confirm_name=typed, name="Oud lid")
    assert "confirm_name" in caught.value.error_dict
    _unchanged(person_, account)


def url(club, person):
    return reverse("clubs:member-forget", kwargs={"club": club.slug, "pk": person.pk})


def test_the_page_says_what_goes_and_what_stays_and_asks_for_the_name(client, person):
    club, admin, person_, _account = person
    client.force_login(admin)
    page = client.get(url(club, person_), HTTP_ACCEPT_LANGUAGE="en").text
    assert "What is erased" in page and "What is kept" in page
    assert "Type the member&#x27;s name to confirm" in page
    assert 'name="confirm_name"' in page and "required" in page
    assert "Geertje Bos" in page


@pytest.mark.parametrize("data", [{}, {"name": "Oud lid"}, {"confirm_name": "Geertje B"}])
def test_a_post_without_the_name_shows_a_clear_message_and_changes_nothing(client, person, data):
    club, admin, person_, account = person
    client.force_login(admin)
    response = client.post(url(club, person_), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    errors = response.context["form"].errors["confirm_name"]
    assert errors and "nothing was erased" in " ".join(errors)
    assert "nothing was erased" in response.text
    _unchanged(person_, account)


def test_with_the_name_typed_the_member_is_erased(client, person):
    club, admin, person_, account = person
    client.force_login(admin)
    response = client.post(url(club, person_), {"confirm_name": " Geertje Bos ", "name": ""})
    assert response.status_code == 302
    person_.refresh_from_db()
    assert person_.name != "Geertje Bos" and str(person_.pk) in person_.name
    assert person_.email == ""
    account.refresh_from_db()
    assert not account.is_active
    assert Member.objects.filter(club=club).count() == 1
