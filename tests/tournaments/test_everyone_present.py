"""Everyone present at once (issue 25): one service write, the director's, and
the attendance toggle that looks ticked only when the member is present."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from tests import factories
from tournaments import services
from tournaments.models import Attendance, EveningLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(club):
    return factories.role(club, "director")


@pytest.fixture
def evening(club):
    return factories.evening(factories.competition(club))


def statuses(evening):
    return dict(evening.attendances.values_list("member__name", "status"))


def test_everyone_present_checks_in_every_member_without_a_status(club, director, evening):
    for name in ("Anna", "Bert", "Cor"):
        factories.member(club, name)
    count = services.attendance_all_present(evening=evening, by=director)
    assert count == 3
    assert statuses(evening) == {"Anna": "present", "Bert": "present", "Cor": "present"}
    assert EveningLog.objects.filter(evening=evening, summary__contains="3").exists()
    assert services.attendance_all_present(evening=evening, by=director) == 0  # nothing left


def test_who_called_in_arrives_late_or_left_keeps_it_and_guests_are_not_checked_in(
    club, director, evening
):
    excused, late, left = (factories.member(club, name) for name in ("Ex", "Laat", "Weg"))
    factories.member(club, "Gast", is_guest=True)
    factories.member(club, "Oud", is_active=False)
    factories.member(club, "Dirk")
    for member, status in ((excused, "excused"), (late, "late"), (left, "left")):
        Attendance.objects.create(evening=evening, member=member, status=status)
    assert services.attendance_all_present(evening=evening, by=director) == 1
    assert statuses(evening) == {"Ex": "excused", "Laat": "late", "Weg": "left", "Dirk": "present"}


def test_a_scorer_or_another_clubs_director_may_not(club, other_club, evening):
    factories.member(club)
    for user in (factories.role(club, "scorer"), factories.role(other_club, "director")):
        with pytest.raises(PermissionDenied):
            services.attendance_all_present(evening=evening, by=user)
    assert not evening.attendances.exists()


def test_a_closed_evening_is_refused_and_nobody_is_checked_in(club, director, evening):
    factories.member(club)
    services.evening_set_status(evening=evening, status="finished", by=director)
    with pytest.raises(ValidationError):
        services.attendance_all_present(evening=evening, by=director)
    assert not evening.attendances.exists()


def test_the_attendance_page_button_checks_everyone_in(client, club, director, evening):
    members = factories.members(club, 13)
    client.force_login(director)
    page_url = reverse(
        "tournaments:evening-attendance", kwargs={"club": club.slug, "pk": evening.pk}
    )
    page = client.get(page_url, headers={"accept-language": "en"}).text
    assert 'name="everyone"' in page
    response = client.post(
        page_url, {"everyone": "1"}, headers={"accept-language": "en"}, follow=True
    )
    assert "13 players marked present." in response.content.decode()
    assert evening.attendances.filter(status="present").count() == len(members)
    page = client.get(page_url).text
    assert page.count('aria-pressed="true"') == 13 and 'aria-pressed="false"' not in page
