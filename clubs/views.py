"""Club pages: parse the request, call one service or selector, render."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.forms import apply_validation_error, error_messages
from common.tables import configure_table

from . import pages, selectors, services
from .forms import (
    ROLE_SENTENCES_ID,
    ClubForm,
    InvitationForm,
    MemberFilterForm,
    MemberForm,
    MemberMergeForm,
    MemberPinForm,
    RoleGrantForm,
)
from .models import DEMO_SLUG, Club, Member
from .permissions import (
    Capability,
    capability_flags,
    club_required,
    may,
    role_sentences,
    visible_clubs,
)
from .tables import InvitationTable, MemberTable, RoleTable


def home(request):
    from django.conf import settings

    clubs = visible_clubs(request.user).distinct().order_by("name")
    user = request.user
    can_create = services.may_create_club(user)
    fresh = not Club.objects.exclude(slug=DEMO_SLUG).exists()
    context = {
        # The evenings a director runs (tournaments' part: pages.register(home=...)).
        **pages.home_context(user=user, today=timezone.localdate()),
        "clubs": clubs,
        "can_create_club": can_create,
        # A fresh site (no club but the demo's) says what to do next: make the
        # operator on the laptop, start the club, remove the demo.
        "fresh": fresh,
        "first_club": can_create and fresh,
        "only_demo": fresh and Club.objects.filter(slug=DEMO_SLUG).exists(),
        "no_operator": fresh
        and not get_user_model().objects.filter(is_superuser=True, is_active=True).exists(),
        "signup_open": not user.is_authenticated and settings.CLUB_CREATION == "anyone",
    }
    return render(request, "clubs/home.html", context)


@club_required()
def club_detail(request, club):
    context = {
        # The club's competitions (tournaments' part: pages.register(club=...)).
        **pages.club_context(club=club),
        "club": club,
        "can_manage": may(request.user, club, Capability.RUN_COMPETITIONS),
        "can": capability_flags(request.user, club),
        "member_count": club.members.filter(is_active=True).count(),
        "first_steps": _first_steps(request.user, club),
    }
    return render(request, "clubs/club_detail.html", context)


def _first_steps(user, club):
    """The checklist for the club's administrators, until every step is done."""
    if not may(user, club, Capability.MANAGE_ACCESS):
        return []
    steps = selectors.club_first_steps(club=club)
    return [] if all(step.done for step in steps) else steps


@club_required(Capability.EDIT_CLUB)
def club_edit(request, club):
    form = ClubForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in form.Meta.fields}
        fields["ruleset_overrides"] = form.cleaned_data.get("ruleset_overrides", {})
        try:
            services.club_update(club=club, by=request.user, **fields)
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Club settings saved."))
            return redirect(club)
    return render(request, "clubs/club_form.html", {"club": club, "form": form})


@club_required(Capability.VIEW)
def member_list(request, club):
    filters = MemberFilterForm(request.GET or None)
    data = filters.cleaned_data if filters.is_valid() else {}
    members = selectors.member_list(
        club=club,
        query=data.get("q", ""),
        status=data.get("status", ""),
        guests=data.get("guests", ""),
    )
    can = capability_flags(request.user, club)
    exclude = () if can["edit_members"] else ("email", "phone")
    table = MemberTable(members, exclude=exclude)
    configure_table(request, table, per_page=50)
    context = {
        "club": club,
        "table": table,
        "filters": filters,
        "can": can,
    }
    return render(request, "clubs/member_list.html", context)


def _member(club, pk):
    return get_object_or_404(Member, club=club, pk=pk)


@club_required(Capability.VIEW)
def member_detail(request, club, pk):
    member = _member(club, pk)
    context = {
        "club": club,
        "member": member,
        "can": capability_flags(request.user, club),
        "pin_form": MemberPinForm() if _may_set_pin(request.user, member) else None,
    }
    return render(request, "clubs/member_detail.html", context)


def _may_set_pin(user, member) -> bool:
    """The member themself or one who gives roles (PINs are credentials), when the
    club confirms with a PIN."""
    if not member.club.confirm_with_pin:
        return False
    own = member.user_id is not None and user.pk == member.user_id
    return own or may(user, member.club, Capability.MANAGE_ACCESS)


@require_POST
@club_required(Capability.VIEW)
def member_pin(request, club, pk):
    member = _member(club, pk)
    if not _may_set_pin(request.user, member):
        raise PermissionDenied
    form = MemberPinForm(request.POST)
    if form.is_valid():
        try:
            services.member_pin_set(member=member, pin=form.cleaned_data["pin"], by=request.user)
        except ValidationError as exc:
            error_messages(request, exc)
        else:
            messages.success(
                request,
                _("The PIN of %(name)s is saved.") % {"name": member.name}
                if member.pin
                else _("The PIN of %(name)s is removed.") % {"name": member.name},
            )
    else:
        messages.error(request, _("A PIN is 4 to 6 digits."))
    return redirect(member)


def _member_form(request, club, member=None):
    creating = member is None
    form = MemberForm(request.POST or None, instance=member, club=club)
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in form.Meta.fields}
        try:
            if member is None:
                member = services.member_create(club=club, by=request.user, **fields)
            else:
                member = services.member_update(member=member, by=request.user, **fields)
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            if creating and "add_next" in request.POST:
                # Save and add next: the empty form again, the name field focused.
                messages.success(
                    request, _("%(name)s saved. Add the next member.") % {"name": member.name}
                )
                return redirect("clubs:member-create", club=club.slug)
            messages.success(request, _("%(name)s saved.") % {"name": member.name})
            return redirect(member)
    return render(request, "clubs/member_form.html", {"club": club, "form": form, "member": member})


@club_required(Capability.EDIT_MEMBERS)
def member_create(request, club):
    return _member_form(request, club)


@club_required(Capability.EDIT_MEMBERS)
def member_edit(request, club, pk):
    return _member_form(request, club, _member(club, pk))


@club_required(Capability.MERGE_MEMBERS)
def member_merge(request, club, pk):
    keep = _member(club, pk)
    form = MemberMergeForm(request.POST or None, keep=keep)
    if request.method == "POST" and form.is_valid():
        try:
            services.member_merge(keep=keep, remove=form.cleaned_data["remove"], by=request.user)
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Records merged into %(name)s.") % {"name": keep.name})
            return redirect(keep)
    return render(request, "clubs/member_merge.html", {"club": club, "member": keep, "form": form})


@club_required(Capability.MANAGE_ACCESS)
def role_list(request, club):
    form = RoleGrantForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            services.role_grant(
                club=club,
                user=form.cleaned_data["user"],
                role=form.cleaned_data["role"],
                by=request.user,
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Role saved."))
            return redirect("clubs:role-list", club=club.slug)
    context = {
        "club": club,
        "roles": RoleTable(selectors.club_roles(club=club), club=club, by=request.user),
        "invitations": InvitationTable(selectors.open_invitations(club=club), club=club),
        "invite_form": InvitationForm(club=club),
        "form": form,
        "role_sentences": role_sentences(),
        "role_sentences_id": ROLE_SENTENCES_ID,
    }
    return render(request, "clubs/role_list.html", context)


@require_POST
@club_required(Capability.MANAGE_ACCESS)
def role_revoke(request, club, user_id):
    user = get_object_or_404(get_user_model(), pk=user_id, club_roles__club=club)
    try:
        services.role_revoke(club=club, user=user, by=request.user)
    except ValidationError as exc:
        error_messages(request, exc)
    else:
        messages.success(request, _("Role removed."))
    return redirect("clubs:role-list", club=club.slug)
