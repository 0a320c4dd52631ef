"""Reads of club data, each with the joins its page needs."""

from django.db.models import Q

from .models import ClubRole, Member


def member_list(*, club, query="", status="", guests=""):
    """The club's members filtered as the member list's filter form says."""
    members = Member.objects.filter(club=club)
    if query:
        members = members.filter(Q(name__icontains=query) | Q(membership_number__icontains=query))
    if status == "active":
        members = members.filter(is_active=True)
    elif status == "inactive":
        members = members.filter(is_active=False)
    if guests == "guests":
        members = members.filter(is_guest=True)
    elif guests == "members":
        members = members.filter(is_guest=False)
    return members


def club_roles(*, club):
    return ClubRole.objects.filter(club=club).select_related("user").order_by("user__username")
