"""The way in and out of a club: starting one, invitations, password links,
forgetting a member, ending a club. (A player's own results are a page of scoring:
``scoring.results.views.my_results``.)

Views parse the request, call one service or selector, render.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.forms import apply_validation_error, error_messages, form_status

from . import services
from .auth import AccountCreationForm, SignupForm, client_address, normalised_email
from .forms import (
    ClubCreateForm,
    ClubDeleteForm,
    InvitationAcceptForm,
    InvitationForm,
    MemberForgetForm,
)
from .models import Invitation, Member
from .permissions import Capability, account_confined_to, club_required, role_sentence

BACKEND = "django.contrib.auth.backends.ModelBackend"


def _qr(url, label):
    from common.qr import qr_svg

    return qr_svg(url, label=label)


def _loopback(request):
    """Whether links made here lead to this computer only (opened as localhost)."""
    from common.qr import is_loopback_host

    return is_loopback_host(request.get_host())


@login_required
def club_create(request):
    if not services.may_create_club(request.user):
        raise PermissionDenied(_("This site does not let you start a club."))
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(
                by=request.user,
                name=form.cleaned_data["name"],
                slug=form.cleaned_data["slug"],
                ruleset_preset=form.cleaned_data["ruleset_preset"],
                address=client_address(request),
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(
                request,
                _("%(name)s is ready. Start with the first steps below.") % {"name": club.name},
            )
            return redirect(club)
    return render(request, "clubs/club_create.html", {"form": form}, status=form_status(form))


def signup(request):
    """An account of one's own, on a site where anyone may start a club."""
    if settings.CLUB_CREATION != "anyone":
        raise Http404
    form = SignupForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend=BACKEND)
        return redirect("clubs:club-create")
    return render(request, "registration/signup.html", {"form": form}, status=form_status(form))


def invitation_accept(request, token):
    """Open an invitation: make an account (or log in) and take the role."""
    invitation = Invitation.objects.select_related("club").filter(token=token).first()
    if invitation is None:
        raise Http404
    if not invitation.is_open():
        return render(request, "clubs/invitation_accept.html", {"invitation": None}, status=410)
    data = request.POST if request.method == "POST" else None
    form = accept_form = None
    if request.user.is_authenticated:
        accept_form = InvitationAcceptForm(data)
    else:
        # The new account starts with the address the invitation was sent to; its
        # owner may change it.
        form = AccountCreationForm(data, initial={"email": normalised_email(invitation.email)})
    if request.method == "POST" and (accept_form if form is None else form).is_valid():
        user = request.user if form is None else form.save()
        try:
            role = services.invitation_accept(token=token, user=user)
        except ValidationError as exc:
            if form is not None:
                user.delete()
                apply_validation_error(form, exc)
            else:
                error_messages(request, exc)
                return redirect("invitation-accept", token=token)
        else:
            if form is not None:
                login(request, user, backend=BACKEND)
            messages.success(request, _("Welcome to %(club)s.") % {"club": invitation.club.name})
            if role.role != invitation.role:
                messages.info(
                    request,
                    _(
                        "You keep your role %(role)s here: the invitation's role would take "
                        "something away. The club's administrator changes roles."
                    )
                    % {"role": role.get_role_display()},
                )
            return redirect(invitation.club)
    context = {
        "invitation": invitation,
        "form": form,
        "accept_form": accept_form,
        "role_sentence": role_sentence(invitation.role),
    }
    return render(request, "clubs/invitation_accept.html", context)


@require_POST
@club_required(Capability.MANAGE_ACCESS)
def invitation_create(request, club):
    form = InvitationForm(request.POST, club=club)
    if form.is_valid():
        try:
            invitation = services.invitation_create(club=club, by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            error_messages(request, exc)
        else:
            url = request.build_absolute_uri(invitation.get_absolute_url())
            if services.invitation_send(invitation=invitation, url=url):
                messages.success(request, _("The invitation was sent by e-mail."))
            elif invitation.email and settings.EMAIL_CONFIGURED:
                messages.warning(
                    request, _("The e-mail could not be sent; pass the link on yourself.")
                )
            return redirect("clubs:invitation-detail", club=club.slug, pk=invitation.pk)
    else:
        for errors in form.errors.values():
            for message in errors:
                messages.error(request, message)
    return redirect("clubs:role-list", club=club.slug)


@club_required(Capability.MANAGE_ACCESS)
def invitation_detail(request, club, pk):
    invitation = get_object_or_404(Invitation.objects.open(), club=club, pk=pk)
    url = request.build_absolute_uri(invitation.get_absolute_url())
    context = {
        "club": club,
        "invitation": invitation,
        "role_sentence": role_sentence(invitation.role),
        "url": url,
        "svg": _qr(url, _("Invitation for %(club)s") % {"club": club.name}),
        "loopback": _loopback(request),
    }
    return render(request, "clubs/invitation_detail.html", context)


@require_POST
@club_required(Capability.MANAGE_ACCESS)
def invitation_revoke(request, club, pk):
    invitation = get_object_or_404(Invitation, club=club, pk=pk)
    try:
        services.invitation_revoke(invitation=invitation, by=request.user)
    except ValidationError as exc:
        error_messages(request, exc)
    else:
        messages.success(request, _("Invitation withdrawn."))
    return redirect("clubs:role-list", club=club.slug)


@require_POST
@club_required(Capability.MANAGE_ACCESS)
def password_link(request, club, user_id):
    user = get_object_or_404(services.club_people(club), pk=user_id)
    try:
        uidb64, token = services.password_link_create(club=club, user=user, by=request.user)
    except PermissionDenied as exc:
        messages.error(request, str(exc))
        return redirect("clubs:role-list", club=club.slug)
    path = reverse("password_reset_confirm", kwargs={"uidb64": uidb64, "token": token})
    url = request.build_absolute_uri(path)
    context = {
        "club": club,
        "person": user,
        "url": url,
        "svg": _qr(url, _("New password for %(user)s") % {"user": user.get_username()}),
        "loopback": _loopback(request),
    }
    return render(request, "clubs/password_link.html", context)


@club_required(Capability.FORGET_MEMBERS)
def member_forget(request, club, pk):
    member = get_object_or_404(Member, club=club, pk=pk)
    form = MemberForgetForm(request.POST if request.method == "POST" else None, member=member)
    if request.method == "POST" and form.is_valid():
        try:
            services.member_forget(
                member=member,
                by=request.user,
                confirm_name=form.cleaned_data["confirm_name"],
                name=form.cleaned_data["name"],
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        except PermissionDenied as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The member's personal data is erased."))
            return redirect("clubs:member-detail", club=club.slug, pk=member.pk)
    account = member.user
    context = {
        "club": club,
        "member": member,
        "form": form,
        "account": account,
        "closes_account": account is not None and account_confined_to(account, club),
        "login_log_days": settings.LOGIN_LOG_DAYS,
    }
    return render(request, "clubs/member_forget.html", context, status=form_status(form))


@club_required(Capability.DELETE_CLUB)
def club_delete(request, club):
    form = ClubDeleteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        name = club.name
        try:
            services.club_delete(
                club=club, by=request.user, confirm_name=form.cleaned_data["confirm_name"]
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("%(name)s and all its data are deleted.") % {"name": name})
            return redirect("clubs:home")
    return render(request, "clubs/club_delete.html", {"club": club, "form": form})
