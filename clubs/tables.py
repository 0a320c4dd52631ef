import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

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
