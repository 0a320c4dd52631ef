"""The clubs' listed tables (django-tables2): members, roles, open invitations."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.columns import TEXT, Column
from common.tables import SpecTable, action_column

from .models import Member
from .permissions import password_link_refusal


class MemberTable(tables.Table):
    name = tables.Column(linkify=True, verbose_name=_("name"))
    membership_number = tables.Column(verbose_name=_("membership number"))
    is_active = tables.BooleanColumn(verbose_name=_("active"))
    is_guest = tables.BooleanColumn(verbose_name=_("guest"))
    email = tables.EmailColumn(verbose_name=_("e-mail"))
    phone = tables.Column(verbose_name=_("phone"))

    class Meta:
        model = Member
        fields = ("name", "membership_number", "is_active", "is_guest", "email", "phone")
        order_by = ("name",)
        attrs = {"class": "members"}
        per_page = 50
        empty_text = _("No members match.")

    def value_is_active(self, value):
        return _("yes") if value else _("no")

    def value_is_guest(self, value):
        return _("yes") if value else _("no")


# --- The roles page ---------------------------------------------------------------------------


def role_columns():
    """The club's people with a role: the account and what it may do."""
    return [
        Column("user", gettext("User"), TEXT, 24),
        Column("role", gettext("Role"), TEXT, 20),
    ]


def role_rows(roles, *, club=None, by=None):
    """The rows of :func:`role_columns` for ``ClubRole`` values; ``user_id`` and
    ``password_link`` (whether ``by`` may make one for the account: see
    ``clubs.permissions.password_link_refusal``) for the buttons."""
    return [
        {
            "user": role.user.get_username(),
            "role": role.get_role_display(),
            "user_id": role.user_id,
            "password_link": by is not None
            and password_link_refusal(by=by, user=role.user, club=club) is None,
        }
        for role in roles
    ]


class RoleTable(SpecTable):
    """The roles page's list, with a password-link and a remove button per person."""

    password_link = action_column("clubs/_role_password_link.html")
    revoke = action_column("clubs/_role_revoke.html")

    class Meta(SpecTable.Meta):
        attrs = {"class": "roles"}
        empty_text = _("No roles yet.")

    def __init__(self, roles, *, club=None, by=None, **kwargs):
        rows = role_rows(roles, club=club, by=by)
        super().__init__(rows, columns=role_columns(), **kwargs)


def invitation_columns():
    """The club's open invitations: the role offered, to whom, until when."""
    return [
        Column("role", gettext("Role"), TEXT, 20),
        Column("player", gettext("Player"), TEXT, 24),
        Column("expires", gettext("Valid until"), TEXT, 20),
    ]


def invitation_rows(invitations, *, club):
    """The rows of :func:`invitation_columns` for open ``Invitation`` values, with
    each invitation's page and its pk for the withdraw button."""
    return [
        {
            "role": invitation.get_role_display(),
            "url": reverse(
                "clubs:invitation-detail", kwargs={"club": club.slug, "pk": invitation.pk}
            ),
            "player": invitation.member.name if invitation.member_id else "",
            "expires": date_format(localtime(invitation.expires_at), "j F Y H:i"),
            "pk": invitation.pk,
        }
        for invitation in invitations
    ]


class InvitationTable(SpecTable):
    """The roles page's open invitations, each with a withdraw button."""

    withdraw = action_column("clubs/_invitation_withdraw.html")

    class Meta(SpecTable.Meta):
        attrs = {"class": "invitations"}
        empty_text = _("No open invitations.")

    def __init__(self, invitations, *, club, **kwargs):
        rows = invitation_rows(invitations, club=club)
        super().__init__(rows, columns=invitation_columns(), **kwargs)

    def render_role(self, value, record):
        return self.link(record["url"], value)
