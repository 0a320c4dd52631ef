"""One check of a member's name (``common.text.validate_member_name``), on the model
field: the member form, the admin, the guest check-in and the member import all
refuse a name that is not one clean line, with the same clear message.

Before, the form took a line break the importer then refused, so a club's own
member export did not import back.
"""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.models import Member
from common.text import validate_member_name
from tests import factories

pytestmark = pytest.mark.django_db

MESSAGE = "line break, tab or other control character"
BAD_NAMES = {
    "line feed": "Jan\nJansen",
    "carriage return": "Jan\r\nJansen",
    "tab": "Jan\tJansen",
    "nul": "Jan\x00Jansen",
    "escape": "Jan\x1bJansen",
    "line separator": "Jan\u2028Jansen",
}


@pytest.mark.parametrize("name", BAD_NAMES.values(), ids=BAD_NAMES.keys())
def test_a_name_that_is_not_one_clean_line_is_refused(name):
    with translation.override("en"), pytest.raises(ValidationError, match=MESSAGE):
        validate_member_name(name)
    with translation.override("nl"), pytest.raises(ValidationError, match="regeleinde"):
        validate_member_name(name)


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_name_is_refused(name):
    with pytest.raises(ValidationError):
        validate_member_name(name)


def test_an_overlong_name_is_refused_once(club):
    with pytest.raises(ValidationError) as caught:
        Member(club=club, name="x" * 121).full_clean()
    assert len(caught.value.message_dict["name"]) == 1


@pytest.mark.parametrize("name", ["Łódź Wiśniewska", "Anneke de Vries-'t Hart", "x" * 120, "李雷"])
def test_names_in_any_alphabet_pass(name):
    validate_member_name(name)


def _english(user):
    client = Client()
    client.cookies["django_language"] = "en"
    client.force_login(user)
    return client


@pytest.mark.parametrize("name", ["Jan\nJansen", "Jan\r\nJansen", "Jan\rJansen"])
def test_the_member_form_refuses_a_name_with_a_line_break(club, name):
    director = factories.role(club, "director")
    url = reverse("clubs:member-create", kwargs={"club": club.slug})
    response = _english(director).post(url, {"name": name, "is_active": "on"})
    assert response.status_code in (200, 422)
    assert MESSAGE in response.content.decode()
    assert not Member.objects.exists()


def test_the_admin_refuses_a_name_with_a_line_break(club):
    admin = factories.user("beheerder", is_staff=True, is_superuser=True)
    data = {"club": club.pk, "name": "Jan\nJansen", "is_active": "on"}
    response = _english(admin).post(reverse("admin:clubs_member_add"), data)
    assert response.status_code == 200
    assert MESSAGE in response.content.decode()
    assert not Member.objects.exists()


def test_the_admin_saves_a_clean_name_stripped(club):
    admin = factories.user("beheerder", is_staff=True, is_superuser=True)
    data = {"club": club.pk, "name": "  Łódź Wiśniewska ", "is_active": "on"}
    response = _english(admin).post(reverse("admin:clubs_member_add"), data)
    assert response.status_code == 302
    assert Member.objects.get().name == "Łódź Wiśniewska"


def test_full_clean_strips_the_name(club):
    member = Member(club=club, name="  Jan Jansen  ")
    member.full_clean()
    assert member.name == "Jan Jansen"


def test_a_guest_with_a_line_break_in_the_name_is_refused(club):
    director = factories.role(club, "director")
    season = factories.competition(club)
    evening = factories.evening(season, datetime.date(2026, 10, 6))
    url = reverse("tournaments:evening-attendance", kwargs={"club": club.slug, "pk": evening.pk})
    response = _english(director).post(url, {"guest": "1", "name": "Gast\nNaam"}, follow=True)
    assert MESSAGE in response.content.decode()
    assert not Member.objects.exists()
