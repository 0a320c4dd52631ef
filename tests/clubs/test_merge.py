"""Merging two records of one person: results move, the duplicate goes, it is logged."""

import pytest
from django.core.exceptions import ValidationError

from clubs import services
from clubs.models import ClubLog, Member
from scoring.models import Adjustment
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import Attendance, Seat

pytestmark = pytest.mark.django_db


def test_merge_moves_seats_attendance_and_scores_to_the_kept_record(club):
    admin = factories.role(club, "admin")
    keep = factories.member(club, "Anneke de Vries", membership_number="101")
    duplicate = factories.member(club, "A. de Vries", email="anneke@example.org")
    others = factories.members(club, 4)
    evening = factories.evening(factories.competition(club), present=[duplicate, *others])
    tournament_services.round_draw(evening=evening, by=admin, seed=1)
    seat = Seat.objects.get(member=duplicate)
    sitouts = Adjustment.objects.filter(member=duplicate).count()

    services.member_merge(keep=keep, remove=duplicate, by=admin)

    assert not Member.objects.filter(pk=duplicate.pk).exists()
    seat.refresh_from_db()
    assert seat.member_id == keep.pk
    assert Attendance.objects.filter(evening=evening, member=keep).exists()
    assert Adjustment.objects.filter(member=keep).count() == sitouts
    keep.refresh_from_db()
    assert keep.email == "anneke@example.org"
    assert keep.membership_number == "101"
    log = ClubLog.objects.get(action=ClubLog.Action.MEMBER_MERGE)
    assert log.detail["removed"]["name"] == "A. de Vries"


def test_two_records_at_the_same_evening_are_two_people(club):
    admin = factories.role(club, "admin")
    a, b = factories.members(club, 2)
    factories.evening(factories.competition(club), present=[a, b])
    with pytest.raises(ValidationError):
        services.member_merge(keep=a, remove=b, by=admin)
    assert Member.objects.filter(pk__in=[a.pk, b.pk]).count() == 2


def test_members_of_two_clubs_are_never_merged(club, other_club):
    admin = factories.role(club, "admin")
    mine, theirs = factories.member(club), factories.member(other_club)
    with pytest.raises(ValidationError):
        services.member_merge(keep=mine, remove=theirs, by=admin)
