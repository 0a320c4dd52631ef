"""The member form in the hall (issue 25): "save and add next" for a row of new
members, and the duplicate number said at its field."""

import re

import pytest
from django.urls import reverse

from clubs.models import Member
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(client, club):
    client.force_login(factories.role(club, "director"))
    client.cookies["django_language"] = "en"
    return client


def new_url(club):
    return reverse("clubs:member-create", kwargs={"club": club.slug})


def test_save_and_add_next_comes_back_empty_with_a_confirmation_and_the_name_focused(
    director_client, club
):
    response = director_client.post(
        new_url(club), {"name": "Anna de Vries", "is_active": "on", "add_next": "1"}, follow=True
    )
    assert response.redirect_chain == [(new_url(club), 302)]
    page = response.content.decode()
    assert "Anna de Vries saved. Add the next member." in page
    name_input = re.search(r'<input[^>]*name="name"[^>]*>', page).group(0)
    assert "autofocus" in name_input and "value=" not in name_input
    assert Member.objects.get().name == "Anna de Vries"


def test_thirteen_members_take_one_submit_each(director_client, club):
    for n in range(13):
        response = director_client.post(
            new_url(club), {"name": f"Speler {n}", "is_active": "on", "add_next": "1"}
        )
        assert response.status_code == 302 and response.url == new_url(club)
    assert club.members.count() == 13


def test_plain_save_goes_to_the_member_and_the_edit_page_has_no_next(director_client, club):
    response = director_client.post(new_url(club), {"name": "Bert", "is_active": "on"})
    member = Member.objects.get()
    assert response.url == member.get_absolute_url()
    edit = reverse("clubs:member-edit", kwargs={"club": club.slug, "pk": member.pk})
    page = director_client.get(edit).content.decode()
    assert 'name="add_next"' not in page
    assert "autofocus" not in page


def test_a_duplicate_number_is_said_at_its_field(director_client, club):
    factories.member(club, "Cor", membership_number="17")
    response = director_client.post(
        new_url(club),
        {"name": "Dirk", "membership_number": "17", "is_active": "on", "add_next": "1"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    number_input = re.search(r'<input[^>]*name="membership_number"[^>]*>', page).group(0)
    assert 'aria-invalid="true"' in number_input
    assert 'aria-describedby="id_membership_number_error"' in number_input
    error = re.search(r'<ul class="errorlist" id="id_membership_number_error">(.*?)</ul>', page)
    assert "already has a member with this number" in error.group(1)
    assert "nonfield" not in page
    assert club.members.count() == 1


def test_editing_a_member_keeps_its_own_number(director_client, club):
    member = factories.member(club, "Cor", membership_number="17")
    edit = reverse("clubs:member-edit", kwargs={"club": club.slug, "pk": member.pk})
    response = director_client.post(
        edit, {"name": "Cor Jansen", "membership_number": "17", "is_active": "on"}
    )
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.name == "Cor Jansen"
