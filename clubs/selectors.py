"""Reads of club data, each with the joins its page needs."""

from dataclasses import dataclass

from django.db.models import Q

from .models import ClubRole, Member
from .permissions import Capability, roles_with


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
    directors = roles_with(Capability.RUN_COMPETITIONS)
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


# --- One's own account ----------------------------------------------------------------------


def account_roles(*, user):
    """The account's roles, one per club, with their clubs."""
    return ClubRole.objects.filter(user=user).select_related("club").order_by("club__name", "pk")


def account_logins(*, user):
    """The account's lines in the login log (axes' ``AccessLog``), newest first.

    Axes writes the username as typed at the login; the comparison ignores case.
    """
    from axes.models import AccessLog

    return AccessLog.objects.filter(username__iexact=user.get_username()).order_by(
        "-attempt_time", "-pk"
    )


def password_links_for(*, user):
    """Every one-time password link made for ``user``'s account: in which club, by
    whom, when. Kept with the account (``PasswordLink``), not in the club's log,
    so it outlives the club that made it."""
    from .models import PasswordLink

    return PasswordLink.objects.filter(user=user).order_by("-created_at", "-pk")


def account_data(*, user):
    """Everything the site's database holds about ``user``, as plain JSON values:
    what the account page shows and its download carries."""

    def when(value):
        return value.isoformat() if value else None

    return {
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": when(user.date_joined),
            "last_login": when(user.last_login),
            "is_active": user.is_active,
        },
        "roles": [
            {"club": role.club.name, "role": role.role, "since": when(role.created_at)}
            for role in account_roles(user=user)
        ],
        "member_records": [
            {
                "club": member.club.name,
                "name": member.name,
                "membership_number": member.membership_number,
                "email": member.email,
                "phone": member.phone,
                "has_pin": bool(member.pin),
                "active": member.is_active,
                "guest": member.is_guest,
            }
            for member in my_memberships(user=user)
        ],
        "logins": [
            {
                "when": when(line.attempt_time),
                "logout": when(line.logout_time),
                "address": line.ip_address,
                "browser": line.user_agent,
            }
            for line in account_logins(user=user)
        ],
        "password_links": [
            {
                "club": line.club_name,
                "by": line.made_by,
                "when": when(line.created_at),
            }
            for line in password_links_for(user=user)
        ],
    }
