"""The clubs' listed tables (django-tables2): members, roles."""

import django_tables2 as tables
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.columns import TEXT, Column
from common.tables import SpecTable

from .models import Member


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


def role_rows(roles):
    """The rows of :func:`role_columns` for ``ClubRole`` values; ``user_id`` and
    ``staff`` (a site account, which gets no password link) for the buttons."""
    return [
        {
            "user": role.user.get_username(),
            "role": role.get_role_display(),
            "user_id": role.user_id,
            "staff": role.user.is_superuser or role.user.is_staff,
        }
        for role in roles
    ]


class RoleTable(SpecTable):
    """The roles page's list, with a password-link and a remove button per person."""

    password_link = tables.TemplateColumn(
        template_name="clubs/_role_password_link.html",
        verbose_name="",
        orderable=False,
        exclude_from_export=True,
    )
    revoke = tables.TemplateColumn(
        template_name="clubs/_role_revoke.html",
        verbose_name="",
        orderable=False,
        exclude_from_export=True,
    )

    class Meta(SpecTable.Meta):
        attrs = {"class": "roles"}
        empty_text = _("No roles yet.")

    def __init__(self, roles, **kwargs):
        super().__init__(role_rows(roles), columns=role_columns(), **kwargs)
