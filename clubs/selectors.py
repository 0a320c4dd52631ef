"""Reads of club data, each with the joins its page needs."""

from dataclasses import dataclass

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


def open_invitations(*, club):
    from .models import Invitation

    return (
        Invitation.objects.open()
        .filter(club=club)
        .select_related("member", "created_by")
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class Step:
    label: str
    url: str
    done: bool


def club_first_steps(*, club):
    """The new club's checklist, each step done or not as the data says: the club's
    own steps, then those the layers above add (``pages.register(first_steps=...)``:
    the first competition and the first score sheets)."""
    from django.urls import reverse
    from django.utils.translation import gettext as _

    from . import pages
    from .models import ClubLog, Invitation

    slug = club.slug
    directors = [ClubRole.Role.DIRECTOR, ClubRole.Role.ADMIN]
    return [
        Step(
            _("Choose the rule set and the club's settings"),
            reverse("clubs:club-edit", kwargs={"club": slug}),
            ClubLog.objects.filter(club=club, action=ClubLog.Action.CLUB_UPDATE).exists(),
        ),
        Step(
            _("Import or add the members"),
            reverse("clubs:member-list", kwargs={"club": slug}),
            Member.objects.filter(club=club).exists(),
        ),
        Step(
            _("Invite a tournament director"),
            reverse("clubs:role-list", kwargs={"club": slug}),
            ClubRole.objects.filter(club=club, role=ClubRole.Role.DIRECTOR).exists()
            or Invitation.objects.filter(club=club, role__in=directors).exists(),
        ),
        *pages.more_first_steps(club=club),
    ]


def my_memberships(*, user):
    """The member records linked to ``user``, in every club, with their clubs."""
    return Member.objects.filter(user=user).select_related("club").order_by("club__name", "pk")
