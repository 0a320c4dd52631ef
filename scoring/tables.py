"""Lists of the scoring pages (django-tables2): the audit log."""

import json

import django_tables2 as tables
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from common.formatting import date_written

from .models import AuditEntry


def _side(team):
    return {"A": gettext("wij"), "B": gettext("zij")}.get(team or "", "")


def describe_hand(snapshot):
    """One hand of the audit log in a line: what was entered and what it banked."""
    text = gettext(
        "hand %(number)s: %(team)s played, %(a)s+%(ra)s – %(b)s+%(rb)s, banked %(sa)s–%(sb)s"
    ) % {
        "number": snapshot.get("number"),
        "team": _side(snapshot.get("playing")),
        "a": snapshot.get("points_a"),
        "b": snapshot.get("points_b"),
        "ra": snapshot.get("roem_a") or 0,
        "rb": snapshot.get("roem_b") or 0,
        "sa": snapshot.get("score_a"),
        "sb": snapshot.get("score_b"),
    }
    if snapshot.get("nat"):
        text += ", " + gettext("nat")
    if snapshot.get("pit"):
        text += ", " + gettext("pit %(team)s") % {"team": _side(snapshot["pit"])}
    if snapshot.get("verzaakt"):
        text += ", " + gettext("%(team)s verzaakt") % {"team": _side(snapshot["verzaakt"])}
    return text


def changed_numbers(before, after):
    """The hand numbers whose snapshots differ between two lists of hands."""
    old = {h.get("number"): h for h in before or []}
    new = {h.get("number"): h for h in after or []}
    return [n for n in sorted(old.keys() | new.keys()) if old.get(n) != new.get(n)]


def describe_change(value, other=None):
    """HTML for the ``before``/``after`` of an audit entry, whatever it holds.

    A whole sheet (a list of hands) compared with ``other`` (the other side of
    the entry) shows the hands that changed first, then the totals with every
    hand folded away."""
    if value is None:
        return "—"
    if isinstance(value, list):
        total_a = sum(h.get("score_a") or 0 for h in value)
        total_b = sum(h.get("score_b") or 0 for h in value)
        summary = ngettext(
            "%(count)s hand, wij %(a)s – zij %(b)s",
            "%(count)s hands, wij %(a)s – zij %(b)s",
            len(value),
        ) % {
            "count": len(value),
            "a": total_a,
            "b": total_b,
        }
        lines = format_html_join("", "<li>{}</li>", ((describe_hand(h),) for h in value))
        changed = []
        if isinstance(other, list):
            numbers = set(changed_numbers(value, other))
            changed = [h for h in value if h.get("number") in numbers]
        return format_html(
            "{}<details><summary>{}</summary><ol class='audit-hands'>{}</ol></details>",
            format_html_join(
                "", "<p class='audit-changed'>{}</p>", ((describe_hand(h),) for h in changed)
            ),
            summary,
            lines,
        )
    if "number" in value:
        return describe_hand(value)
    if "total_a" in value:
        return gettext("wij %(a)s – zij %(b)s") % {"a": value["total_a"], "b": value["total_b"]}
    if "points" in value:
        return gettext("%(kind)s: %(team)s %(points)+d") % {
            "kind": value.get("kind", ""),
            "team": _side(value.get("team")),
            "points": value["points"],
        }
    return json.dumps(value, ensure_ascii=False)


class AuditTable(tables.Table):
    created_at = tables.Column(verbose_name=_("when"))
    game = tables.Column(verbose_name=_("table"), orderable=False, accessor="game__table")
    hand_number = tables.Column(verbose_name=_("hand"), default="")
    action = tables.Column(verbose_name=_("what"))
    actor = tables.Column(verbose_name=_("who"))
    before = tables.Column(verbose_name=_("before"), orderable=False, default="—")
    after = tables.Column(verbose_name=_("after"), orderable=False, default="—")
    reason = tables.Column(verbose_name=_("why"), orderable=False, default="")

    class Meta:
        model = AuditEntry
        fields = (
            "created_at",
            "game",
            "hand_number",
            "action",
            "actor",
            "before",
            "after",
            "reason",
        )
        order_by = ("-created_at",)
        attrs = {"class": "audit"}
        empty_text = _("Nothing has been entered yet.")

    def render_created_at(self, value):
        return date_written(timezone.localtime(value), "j M H:i:s")

    def render_game(self, value):
        return f"{value.round} · {value}"

    def render_actor(self, record, value):
        if record.user_id and record.user.get_username() != value:
            return format_html("{} <span class='muted'>({})</span>", value, record.user)
        return value

    def render_before(self, value, record):
        return describe_change(value, record.after)

    def render_after(self, value, record):
        return describe_change(value, record.before)

    def value_before(self, value):
        return json.dumps(value, ensure_ascii=False)

    def value_after(self, value):
        return json.dumps(value, ensure_ascii=False)
