"""Every way club data changes. Keyword-only, one transaction each, checked first.

User mistakes raise ``ValidationError`` with a translated message; the views
show it and nothing is changed.
"""

import logging
import re
import secrets
from datetime import timedelta
from smtplib import SMTPException

from django.apps import apps
from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import ProtectedError, RestrictedError
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from . import signals
from .auth import (
    account_token_generator,
    club_start_allowed,
    email_refusal,
    normalised_email,
    pin_hash,
    pin_matches,
    throttle_allowed,
    throttle_clear,
    wait_text,
)
from .models import (
    SLUG_TAKEN,
    Club,
    ClubLog,
    ClubRole,
    Invitation,
    Member,
    PasswordLink,
    PendingUpload,
)
from .permissions import (
    Capability,
    Role,
    account_confined_to,
    capabilities,
    password_link_refusal,
    require,
    role_below,
    role_grant_refusal,
    role_sentence,
)

#: What a club's administrator sets (and what a club archive carries of the club itself).
CLUB_FIELDS = (
    "name",
    "town",
    "ruleset_preset",
    "ruleset_overrides",
    "results_public",
    "confirm_with_pin",
    "sheet_marks",
    "contact_name",
    "contact_email",
)
logger = logging.getLogger(__name__)

MEMBER_FIELDS = ("name", "membership_number", "is_active", "is_guest", "email", "phone")
#: A confirmation PIN: 4 to 6 ASCII digits.
PIN_RE = re.compile(r"[0-9]{4,6}\Z")
#: Wrong PINs allowed per member within PIN_LOCK_SECONDS before every try is refused.
PIN_TRIES = 5
PIN_LOCK_SECONDS = 10 * 60
#: Tries of any member's PIN at one place (a table) within PIN_LOCK_SECONDS: whoever
#: holds a table's link cannot go round its players five tries each. Not cleared by a
#: right PIN (a player at the table could otherwise clear it with their own).
PIN_PLACE_TRIES = 10
#: Wrong PINs allowed per member in a day: 5 every 10 minutes would still be 720 a day,
#: against 10,000 four-digit PINs.
PIN_DAY_TRIES = 20
PIN_DAY_SECONDS = 24 * 60 * 60


def typed_exactly(typed, name) -> bool:
    """Whether ``typed`` (a confirmation typed on a page) is ``name``, spaces around
    it aside: deleting a club, erasing a member."""
    return (typed or "").strip() == name


def _clean_save(obj):
    obj.full_clean()
    obj.save()
    return obj


@transaction.atomic
def club_update(*, club: Club, by, **fields) -> Club:
    require(by, club, Capability.EDIT_CLUB)
    for key, value in fields.items():
        if key not in CLUB_FIELDS:
            raise ValueError(f"club_update does not change {key}")
        setattr(club, key, value)
    from scoring.rules import InvalidRuleset

    try:
        club.ruleset()
    except InvalidRuleset as exc:
        raise ValidationError({"ruleset_overrides": str(exc)}) from exc
    _clean_save(club)
    club_log_add(club=club, by=by, action=ClubLog.Action.CLUB_UPDATE)
    return club


@transaction.atomic
def member_create(*, club: Club, by, **fields) -> Member:
    require(by, club, Capability.EDIT_MEMBERS)
    member = Member(club=club, **{k: v for k, v in fields.items() if k in MEMBER_FIELDS})
    return _clean_save(member)


@transaction.atomic
def member_update(*, member: Member, by, **fields) -> Member:
    require(by, member.club, Capability.EDIT_MEMBERS)
    for key, value in fields.items():
        if key not in MEMBER_FIELDS:
            raise ValueError(f"member_update does not change {key}")
        setattr(member, key, value)
    return _clean_save(member)


def _member_references(member):
    """Every (model, field name) that points at a Member, found from the models.

    Merging moves all of them, including those of apps added later, without
    this module knowing those apps.
    """
    for rel in Member._meta.related_objects:
        if rel.many_to_many:
            continue
        if rel.one_to_many or rel.one_to_one:
            yield rel.related_model, rel.field.name


@transaction.atomic
def member_merge(*, keep: Member, remove: Member, by) -> Member:
    """Join two records of one person: results move to ``keep``, ``remove`` goes.

    Refused when both records played in the same place (a constraint would be
    broken): that is two people, or a mistake to fix by hand first.
    """
    if keep.pk == remove.pk:
        raise ValidationError(_("Choose two different members to merge."))
    if keep.club_id != remove.club_id:
        raise ValidationError(_("Only members of the same club can be merged."))
    require(by, keep.club, Capability.MERGE_MEMBERS)
    keep = Member.objects.select_for_update().get(pk=keep.pk)
    remove = Member.objects.select_for_update().get(pk=remove.pk)
    moved = {}
    for model, field in _member_references(remove):
        try:
            with transaction.atomic():
                count = model._default_manager.filter(**{field: remove}).update(**{field: keep})
        except IntegrityError as exc:
            raise ValidationError(
                _(
                    "%(keep)s and %(remove)s both appear in the same %(what)s; "
                    "they cannot be one person. Correct that first."
                )
                % {"keep": keep.name, "remove": remove.name, "what": model._meta.verbose_name}
            ) from exc
        if count:
            moved[model._meta.label] = count
    signals.members_merged.send(Member, keep=keep, remove=remove)
    if not keep.membership_number and remove.membership_number:
        number = remove.membership_number
        remove.membership_number = ""
        remove.save(update_fields=["membership_number"])
        keep.membership_number = number
    for field in ("email", "phone"):
        if not getattr(keep, field) and getattr(remove, field):
            setattr(keep, field, getattr(remove, field))
    if keep.user_id is None and remove.user_id is not None:
        keep.user_id = remove.user_id
    keep.is_active = keep.is_active or remove.is_active
    keep.is_guest = keep.is_guest and remove.is_guest
    _clean_save(keep)
    removed = {"pk": remove.pk, "name": remove.name, "number": remove.membership_number}
    remove.delete()
    club_log_add(
        club=keep.club,
        by=by,
        action=ClubLog.Action.MEMBER_MERGE,
        params={"remove": removed["name"], "keep": keep.name},
        detail={"kept": keep.pk, "removed": removed, "moved": moved},
    )
    return keep


@transaction.atomic
def role_grant(*, club: Club, user, role: str, by) -> ClubRole:
    """Change the role of an account that already holds one in ``club``.

    A role is never given to an account out of the blue: a new person gets it
    through an invitation that they accept with their own account
    (:func:`invitation_accept`). So an administrator cannot tie another club's
    administrator to this club (and then reset their password). Nobody gives a role
    that may do more than their own (:func:`~clubs.permissions.role_grant_refusal`).
    """
    _require_may_give(by=by, club=club, role=role)
    obj = ClubRole.objects.select_for_update().filter(club=club, user=user).first()
    if obj is None:
        raise ValidationError(
            _(
                "%(user)s has no role in this club. Invite them: they accept the invitation "
                "with their own account."
            )
            % {"user": user.get_username()}
        )
    if obj.role != role:
        if obj.role == Role.ADMIN and role != Role.ADMIN:
            _ensure_other_admin(club, user)
        obj.role = role
        obj.save(update_fields=["role"])
    club_log_add(
        club=club,
        by=by,
        action=ClubLog.Action.ROLE_GRANT,
        params={"user": str(user), "role": role},
        detail={"user": user.pk, "role": role},
    )
    return obj


def _require_may_give(*, by, club, role):
    """Refuse unless ``by`` may give ``role`` in ``club``: PermissionDenied, or the
    ValidationError of an unknown role for one who may give roles."""
    require(by, club, Capability.MANAGE_ACCESS)
    refusal = role_grant_refusal(by=by, club=club, role=role)
    if refusal is not None:
        raise ValidationError(refusal) if role not in Role.values else PermissionDenied(refusal)


def _ensure_other_admin(club, user):
    others = ClubRole.objects.filter(club=club, role=Role.ADMIN).exclude(user=user)
    if not others.exists():
        raise ValidationError(_("A club keeps at least one administrator."))


@transaction.atomic
def role_revoke(*, club: Club, user, by) -> None:
    require(by, club, Capability.MANAGE_ACCESS)
    role = ClubRole.objects.select_for_update().filter(club=club, user=user).first()
    if role is None:
        raise ValidationError(_("This user has no role in this club."))
    if role.role == Role.ADMIN:
        _ensure_other_admin(club, user)
    role.delete()
    club_log_add(
        club=club,
        by=by,
        action=ClubLog.Action.ROLE_REVOKE,
        params={"user": str(user)},
        detail={"user": user.pk},
    )


def club_log_add(*, club: Club, by, action, params=None, detail=None) -> ClubLog:
    """The one writer of the club's log: ``action`` with the plain values its line
    is told with (``params``; :mod:`clubs.log` makes the sentence in the reader's
    language) and what a program needs of it (``detail``). ``summary`` keeps the line
    in the site's language, for the site admin's search."""
    from django.utils import translation

    fields = {
        "club": club,
        "user": by if by is not None and by.is_authenticated else None,
        "action": action,
        "params": dict(params or {}),
        "detail": detail or {},
    }
    with translation.override(settings.LANGUAGE_CODE):
        summary = ClubLog(**fields).text[:300]
    return ClubLog.objects.create(**fields, summary=summary)


# --- A new club ----------------------------------------------------------------------------


def may_create_club(user) -> bool:
    """Whether ``user`` may start a club: the site's operators, or anyone when the
    site says so (``CLUB_CREATION = "anyone"``)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or user.is_staff:
        return True
    return settings.CLUB_CREATION == "anyone"


@transaction.atomic
def club_create(*, by, name: str, slug: str, ruleset_preset: str, address=None) -> Club:
    """A new club with ``by`` as its administrator (see :func:`club_start`)."""
    club = Club(name=name.strip(), slug=slug.strip().lower(), ruleset_preset=ruleset_preset)
    return club_start(club=club, by=by, address=address)


@transaction.atomic
def club_start(
    *, club: Club, by, address=None, from_archive=False, detail=None, braked: bool = True
) -> Club:
    """Save the new ``club`` (not saved yet) with ``by`` as its administrator.

    The one way a club comes to be: "Start a club" and a club archive's import.
    Braked (``CLUB_START_LIMITS``): an account, and the client ``address`` a
    request brings, start only so many clubs a day. A short name another club
    has is the field's error, also when that club was started a moment ago (two
    "Start a club" at once): the unique index says so, on either database.
    ``braked=False`` is for the operator's commands.
    """
    if not may_create_club(by):
        raise PermissionDenied(_("This site does not let you start a club."))
    club.full_clean(validate_unique=False)  # the unique index answers, below
    try:
        with transaction.atomic():
            club.save()
    except IntegrityError:
        if not Club.objects.filter(slug=club.slug).exists():
            raise
        raise ValidationError({"slug": ValidationError(SLUG_TAKEN, code="unique")}) from None
    # Counted once the club would be made; a refusal undoes the insert.
    if braked and not club_start_allowed(user=by, address=address):
        message = _("Too many new clubs from this account or address. Try again in %(wait)s.")
        message %= {"wait": wait_text(settings.CLUB_START_WINDOW_SECONDS)}
        raise ValidationError({NON_FIELD_ERRORS: ValidationError(message, code="throttled")})
    ClubRole.objects.create(club=club, user=by, role=Role.ADMIN)
    club_log_add(
        club=club,
        by=by,
        action=ClubLog.Action.CLUB_CREATE,
        params={"from_archive": from_archive},
        detail={"user": by.pk, **(detail or {})},
    )
    return club


# --- Invitations ---------------------------------------------------------------------------


@transaction.atomic
def invitation_create(*, club: Club, role: str, by, member: Member | None = None, email=""):
    """A one-time link for ``role`` in ``club``, valid for a week: by one who may give
    that role (:func:`~clubs.permissions.role_grant_refusal`)."""
    _require_may_give(by=by, club=club, role=role)
    if member is not None and member.club_id != club.pk:
        raise ValidationError({"member": _("This member is not one of the club's.")})
    invitation = Invitation(
        club=club,
        role=role,
        member=member,
        email=email.strip(),
        created_by=by,
        expires_at=timezone.now() + timedelta(days=Invitation.VALID_DAYS),
    )
    _clean_save(invitation)
    club_log_add(
        club=club,
        by=by,
        action=ClubLog.Action.INVITATION_CREATE,
        params={"role": role},
        detail={"invitation": invitation.pk, "role": role},
    )
    return invitation


def invitation_send(*, invitation: Invitation, url: str) -> bool:
    """E-mail the link to the invitation's address when the site can send mail."""
    if not (settings.EMAIL_CONFIGURED and invitation.email):
        return False
    from django.core.mail import send_mail

    subject = _("Invitation for %(club)s") % {"club": invitation.club.name}
    body = _(
        "You are invited to %(club)s on the klaverjas site as %(role)s.\n%(may)s\n\n"
        "Open this link within a week to make an account or log in:\n%(url)s\n"
    ) % {
        "club": invitation.club.name,
        "role": invitation.get_role_display(),
        "may": role_sentence(invitation.role),
        "url": url,
    }
    try:
        send_mail(subject, body, None, [invitation.email])
    except (OSError, SMTPException):
        logger.warning("invitation %s: e-mail not sent", invitation.pk, exc_info=True)
        return False
    return True


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, by) -> Invitation:
    require(by, invitation.club, Capability.MANAGE_ACCESS)
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.used_at is not None:
        raise ValidationError(_("This invitation has been used already."))
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        club_log_add(
            club=invitation.club,
            by=by,
            action=ClubLog.Action.INVITATION_REVOKE,
            detail={"invitation": invitation.pk},
        )
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, user) -> ClubRole:
    """Give ``user`` the invitation's role (never taking a capability away) and use it up.

    An invitation tied to a member record links that record to the account, so
    the player sees their own results. An invitation never sets the address of an
    account that already exists: the address a club typed is nobody's word for it,
    and a club that could set it could reset the account's password. The owner sets
    it on the account page, with their password (:func:`account_email_set`).
    """
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    if invitation is None or not invitation.is_open():
        raise ValidationError(_("This invitation is no longer valid. Ask for a new one."))
    club = invitation.club
    member = invitation.member
    if member is not None:
        member = Member.objects.select_for_update().get(pk=member.pk)
        if member.user_id not in (None, user.pk):
            raise ValidationError(_("This player's record is already linked to another account."))
    role, created = ClubRole.objects.select_for_update().get_or_create(
        club=club, user=user, defaults={"role": invitation.role}
    )
    if not created and role_below(role.role, invitation.role):
        # Only a role that may do all the current one may, and more: an invitation
        # never takes a capability away (a director invited as secretary stays director;
        # an administrator changes it on the roles page).
        role.role = invitation.role
        role.save(update_fields=["role"])
    if member is not None and member.user_id is None:
        member.user = user
        member.save(update_fields=["user"])
    invitation.used_at = timezone.now()
    invitation.used_by = user
    invitation.save(update_fields=["used_at", "used_by"])
    club_log_add(
        club=club,
        by=user,
        action=ClubLog.Action.INVITATION_ACCEPT,
        params={"user": user.get_username(), "role": invitation.role},
        detail={"invitation": invitation.pk, "user": user.pk, "role": invitation.role},
    )
    return role


# --- Passwords without e-mail ---------------------------------------------------------------


def club_people(club):
    """The accounts of a club: those with a role in it or linked to one of its members."""
    from django.contrib.auth import get_user_model

    return (
        get_user_model()
        .objects.filter(models.Q(club_roles__club=club) | models.Q(memberships__club=club))
        .distinct()
    )


@transaction.atomic
def password_link_create(*, club: Club, user, by) -> tuple[str, str]:
    """(uidb64, token) of a one-time reset link for one of the club's people.

    Django's reset confirm page takes it; the token stops working once the
    password changes. Only for an account that is the club's alone and below
    the maker's role (``clubs.permissions.password_link_refusal``): never a
    site operator, another administrator, or anyone who is also another club's.
    The log line (by whom, when, for which account) shows on the account's own page.
    """
    require(by, club, Capability.MANAGE_ACCESS)
    refusal = password_link_refusal(by=by, user=user, club=club)
    if refusal is None and not club_people(club).filter(pk=user.pk).exists():
        refusal = _("This account is not one of the club's.")
    if refusal is not None:
        raise PermissionDenied(refusal)
    club_log_add(
        club=club,
        by=by,
        action=ClubLog.Action.PASSWORD_LINK,
        params={"user": user.get_username()},
        detail={"user": user.pk},
    )
    PasswordLink.objects.create(user=user, club_name=club.name, made_by=by.get_username())
    return urlsafe_base64_encode(force_bytes(user.pk)), account_token_generator.make_token(user)


# --- Forget a person ------------------------------------------------------------------------


@transaction.atomic
def member_forget(*, member: Member, by, confirm_name: str, name: str = "") -> Member:
    """Erase a member's personal data; their results stay under a neutral name.

    Only when ``confirm_name`` is the member's name as the club has it (typed to
    confirm, :func:`typed_exactly`); otherwise nothing changes.

    Name, membership number, contact details, PIN and the account link go;
    the record (and so every result, standing and statistic) stays. Every
    value the club ever held of them (the names, numbers, e-mail addresses
    and phone numbers the member-import and merge log lines recorded too) is
    replaced wherever the rows this club owns hold it as people's text, JSON
    details' values as well (:func:`_scrub_club_text`: names as whole words,
    numbers as whole values, cut to fit the column); another club's rows only
    where they say who confirmed or acted at a table the member sat at
    (:func:`_scrub_seated_games`). The replacement name is at most a member
    name's length (the form says so); a text it makes too long ends in "…".

    The linked account is closed (no login, no e-mail, no roles here, its
    login log gone) only when it is this club's alone
    (:func:`~clubs.permissions.account_confined_to`); an account that is also
    another club's person only loses the link and its plain membership here,
    so one club cannot lock out another club's people. Closing takes the
    account's role here, so it is refused to one whose role may not do all the
    account's may (a secretary does not close a director's account). A closed account's
    username becomes ``closed-<number>`` (:func:`_account_close`). The log says who did
    it and when, and names the record by number only.
    """
    require(by, member.club, Capability.FORGET_MEMBERS)
    member = Member.objects.select_for_update().get(pk=member.pk)
    if not typed_exactly(confirm_name, member.name):
        raise ValidationError(
            {
                "confirm_name": _(
                    "Type the member's name exactly as it is written (%(name)s) to erase "
                    "their personal data; nothing was erased."
                )
                % {"name": member.name}
            }
        )
    club = member.club
    account = member.user
    closes = account is not None and account_confined_to(account, club)
    if closes and not capabilities(account, club) <= capabilities(by, club):
        # Closing the account takes its role: not for one who may not give that role.
        raise PermissionDenied(
            _(
                "The account linked to this member has a role here that may do what yours "
                "may not; a club administrator erases this member."
            )
        )
    if closes and ClubRole.objects.filter(club=club, user=account, role=Role.ADMIN).exists():
        _ensure_other_admin(club, account)
    sentences, exact = _member_values(member)
    if closes:
        sentences |= {account.email, account.first_name, account.last_name} - {""}
    new_name = name.strip() or _("former member %(number)s") % {"number": member.pk}
    member.name = new_name
    member.membership_number = ""
    member.email = ""
    member.phone = ""
    member.pin = ""
    member.user = None
    member.is_active = False
    _clean_save(member)
    Invitation.objects.filter(member=member).update(
        member=None, email="", revoked_at=timezone.now()
    )
    if closes:
        _account_close(account, club)
    elif account is not None:
        # The account is also another club's: only this club's plain membership goes
        # with the link; a scorer, director or administrator keeps that role until an
        # administrator here revokes it.
        ClubRole.objects.filter(club=club, user=account, role=Role.MEMBER).delete()
    _scrub_club_text(club, sentences=sentences, exact=exact, replacement=new_name)
    _scrub_seated_games(member, sentences=sentences, replacement=new_name)
    _scrub_admin_log(member, new_name)
    club_log_add(
        club=club,
        by=by,
        action=ClubLog.Action.MEMBER_FORGET,
        params={"number": member.pk},
        detail={"member": member.pk, "account_closed": closes},
    )
    return member


def _member_values(member):
    """(texts, exact values) the club holds or held of ``member``.

    Texts (names, e-mail addresses) are replaced wherever they occur; exact
    values (phone and membership numbers) where a field or a JSON string is
    exactly them. Besides the record's own values, the club's log keeps older
    ones: a member import records each change as ``[old, new]``, a merge the
    removed record's name and number.
    """
    texts = {member.name, member.email}
    exact = {member.phone, member.membership_number}
    texts |= set(
        Invitation.objects.filter(member=member).exclude(email="").values_list("email", flat=True)
    )

    def items(value):
        return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []

    for detail in ClubLog.objects.filter(
        club_id=member.club_id,
        action__in=[ClubLog.Action.MEMBER_IMPORT, ClubLog.Action.MEMBER_MERGE],
    ).values_list("detail", flat=True):
        if not isinstance(detail, dict):
            continue
        if detail.get("kept") == member.pk and isinstance(detail.get("removed"), dict):
            texts.add(detail["removed"].get("name"))
            exact.add(detail["removed"].get("number"))
        for item in [*items(detail.get("added")), *items(detail.get("changed"))]:
            if item.get("pk") != member.pk:
                continue
            texts.add(item.get("name"))
            changes = item.get("changes")
            for field, values in changes.items() if isinstance(changes, dict) else ():
                target = texts if field in ("name", "email") else exact
                target.update(values if isinstance(values, list) else [values])
    texts = {v for v in texts if isinstance(v, str) and v.strip()}
    exact = {v for v in exact if isinstance(v, str) and v.strip()} - texts
    return texts, exact


def _account_close(account, club):
    """Close an account that is ``club``'s alone: no login, no contact data, no trace
    of its logins, no username. The row stays (log lines and results point at it);
    its owner can no longer use it, and every session it had ends (the password hash
    changes). Its username becomes ``closed-<number>``, in the account and in the
    lines that named it (:func:`_scrub_username`), so the login name the person
    chose is gone too."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    clubs = _account_clubs(account)
    old_username = account.get_username()
    new_username = f"closed-{account.pk}"
    if type(account).objects.filter(username=new_username).exclude(pk=account.pk).exists():
        new_username = f"closed-{account.pk}-{secrets.token_hex(4)}"
    _scrub_username(account, clubs=clubs, replacement=new_username)
    ClubRole.objects.filter(club=club, user=account).delete()
    account.username = new_username
    account.is_active = False
    account.email = ""
    account.first_name = ""
    account.last_name = ""
    account.set_unusable_password()
    account.full_clean(exclude=["password"])
    account.save(
        update_fields=["username", "is_active", "email", "first_name", "last_name", "password"]
    )
    account.groups.clear()
    account.user_permissions.clear()
    for model in (AccessLog, AccessAttempt, AccessFailureLog):
        model.objects.filter(username__iexact=old_username).delete()
    _scrub_admin_repr(account, new_username)


def _scrub_admin_log(member, replacement):
    """The site admin's history names a member record by its name: rename it there."""
    _scrub_admin_repr(member, replacement)


def _scrub_admin_repr(obj, replacement):
    """The site admin's history names ``obj`` (a member record, an account) by its name."""
    from django.contrib.admin.models import LogEntry
    from django.contrib.contenttypes.models import ContentType

    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(type(obj)), object_id=str(obj.pk)
    ).update(object_repr=replacement)


def _hops(model, path):
    """The fields a ``a__b__club`` lookup passes, from ``model`` on."""
    fields = []
    for name in path.split("__"):
        field = model._meta.get_field(name)
        fields.append(field)
        model = field.related_model
    return fields


def _owned_data_models():
    """(model, ownership lookups to the club) of every model whose rows a club owns.

    A row belongs to the club it is part of, not to every club it points at.
    :func:`club_data_models` finds every way to a club; a way counts here only
    when it passes through no *participant*: a :class:`Member` (a person of one
    club, who may sit at another club's table) or a model that has a club of its
    own besides the club it is part of (a league team: club A's team in club B's
    league, and so B's row). A participant's own ``club`` says whom it stands
    for, not who owns it. So club A reaches its log, competitions, evenings and
    the games and league lines of its own leagues, never club B's league lines,
    seats or adjustments through A's team or A's player.
    """
    found = [(model, list(paths)) for model, paths in club_data_models()]
    participants = {Member}
    while True:
        owned = []
        for model, paths in found:
            kept = [
                path
                for path in paths
                if not any(f.related_model in participants for f in _hops(model, path)[:-1])
            ]
            if model in participants:
                kept = [path for path in kept if "__" in path]
            owned.append((model, kept))
        more = {
            model
            for model, paths in owned
            if any("__" not in path for path in paths) and len(paths) > 1
        } - participants
        if not more:
            return [(model, tuple(paths)) for model, paths in owned if paths]
        participants |= more


def _people_text_fields(model):
    """The fields of ``model`` that hold people's words, where a name can stand.

    A text a person types (editable, no choices) that is long enough to hold a
    member's whole name; and a log line's JSON ``detail`` (values only). Never
    settings or game data: a rule set and its overrides, tie-breaks, hand
    inputs, tokens and device ids are not people's words, and a value there that
    happens to equal a name or a number must stay as it is.
    """
    longest_name = Member._meta.get_field("name").max_length
    fields = []
    for field in model._meta.concrete_fields:
        if isinstance(field, models.JSONField):
            if field.name in ("detail", "params"):
                fields.append(field)
        elif isinstance(field, (models.CharField, models.TextField)):
            if field.choices or not field.editable:
                continue
            if field.max_length is None or field.max_length >= longest_name:
                fields.append(field)
    return fields


class _Scrub:
    """Replace erased values in one text or JSON value, as whole words or whole values.

    Names and e-mail addresses (``sentences``) are replaced where they stand as a
    whole: not inside a longer word, so forgetting "Jan" leaves "Jansen-beker"
    and "Jan-Willem" alone (the edges are Unicode letters and digits, so "Zoë"
    and "'t Hart" work too); an address regardless of case. Short values such as
    a phone or membership number (``exact``) only where a field or a JSON string
    is exactly them, so "1700 points" keeps its digits when number 17 goes. JSON
    is walked by value: keys stay. A result longer than the field's column is
    cut with an ellipsis (the erased value is gone before the cut), so nothing
    is refused and nothing overflows.
    """

    # A name's edges: no letter or digit, nor a hyphen or apostrophe that joins one
    # (so "Jan" is not "Jan-Willem"); a username's also take its signs
    # (``jan.jansen``), but a full stop after it ends the sentence.
    WORD = (r"(?<!\w)(?<!\w[-'’])", r"(?![\w]|[-'’]\w)")
    USERNAME = (r"(?<![\w.@+-])", r"(?![\w@+-]|\.[\w@+-])")

    def __init__(self, *, sentences, exact, replacement, username=False):
        self.sentences = sorted({s for s in sentences if s}, key=len, reverse=True)
        self.exact = {v for v in exact if v}
        self.replacement = replacement
        before, after = self.USERNAME if username else self.WORD
        names = [re.escape(s) for s in self.sentences if username or "@" not in s]
        addresses = [re.escape(s) for s in self.sentences if not username and "@" in s]
        self.patterns = [
            re.compile(rf"{before}(?:{'|'.join(values)}){after}", flags)
            for values, flags in ((names, 0), (addresses, re.IGNORECASE))
            if values
        ]

    def __bool__(self):
        return bool(self.sentences or self.exact)

    def text(self, value):
        if value in self.exact:
            return self.replacement
        for pattern in self.patterns:
            value = pattern.sub(lambda _m: self.replacement, value)
        return value

    def value(self, value):
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {key: self.value(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.value(item) for item in value]
        return value

    def candidates(self, rows, field):
        """The rows of ``rows`` whose ``field`` may hold a value (the database's coarse cut)."""
        if isinstance(field, models.JSONField):
            return rows.exclude(**{f"{field.attname}__isnull": True})
        reach = models.Q()
        for value in self.sentences:
            reach |= models.Q(**{f"{field.attname}__icontains": value})
        for value in self.exact:
            reach |= models.Q(**{field.attname: value})
        return rows.filter(reach) if reach else rows.none()

    def rows(self, model, rows, fields):
        """Rewrite ``fields`` of ``rows`` (of ``model``) where they hold a value."""
        for field in fields:
            for obj in self.candidates(rows, field).only("pk", field.attname):
                old = getattr(obj, field.attname)
                new = self.value(old)
                if new == old:
                    continue
                if isinstance(field, models.EmailField):
                    new = ""  # an address with a name in it is no address
                elif isinstance(new, str) and field.max_length and len(new) > field.max_length:
                    new = new[: field.max_length - 1] + "…"
                model._base_manager.filter(pk=obj.pk).update(**{field.attname: new})


def _scrub_club_text(club, *, sentences, exact, replacement):
    """Replace erased data wherever the rows ``club`` owns hold it as people's text.

    The rows are those of :func:`_owned_data_models` (never another club's rows
    reached through a league team or a player), the fields those of
    :func:`_people_text_fields`, the matching that of :class:`_Scrub`. Other
    members' records are left alone: their names are other people's.
    """
    scrub = _Scrub(sentences=sentences, exact=exact, replacement=replacement)
    if not scrub:
        return
    for model, paths in _owned_data_models():
        if model is Member:  # the record itself is rewritten; the others are other people
            continue
        scrub.rows(model, club_rows(model, paths, club.pk), _people_text_fields(model))
    # The club's own contact person, when that is the member.
    for field in ("contact_name", "contact_email"):
        Club.objects.filter(
            pk=club.pk, **{f"{field}__in": [*scrub.sentences, *scrub.exact]}
        ).update(**{field: ""})


# The fields that name who confirmed a game or acted on it (a name given at the table).
_WHO_FIELDS = ("confirmed_by", "actor")


def _scrub_seated_games(member, *, sentences, replacement):
    """Erase the member's name where it says who confirmed or acted at a table they sat at.

    A member plays in other clubs' evenings too (a league match away): the
    game's "confirmed by" and its audit's "who" there are the member's own
    data, reached through the member's seat, whichever club owns the game. Only
    those fields, only the tables the member sat at, and only the member's
    names as whole words: the rest of that club's rows are not this club's to
    touch.
    """
    scrub = _Scrub(sentences=sentences, exact=(), replacement=replacement)
    if not scrub:
        return
    for seat_model in apps.get_models():
        links = {f.name: f for f in seat_model._meta.concrete_fields if f.many_to_one}
        if "table" not in links or not any(f.related_model is Member for f in links.values()):
            continue
        table_model = links["table"].related_model
        reach = models.Q()
        for f in links.values():
            if f.related_model is Member:
                reach |= models.Q(**{f.name: member})
        tables = seat_model._base_manager.filter(reach, table__isnull=False).values("table_id")
        for model in apps.get_models():
            fields = [f for f in _people_text_fields(model) if f.name in _WHO_FIELDS]
            for path in _paths_to(model, table_model, avoid=(Member, Club)) if fields else ():
                rows = model._base_manager.filter(**{f"{path}__in": tables})
                scrub.rows(model, rows, fields)


def _paths_to(model, target, *, avoid=(), seen=()):
    """Every ``a__b`` lookup from ``model`` to ``target`` along foreign keys, passing
    through none of the models in ``avoid``."""
    paths = []
    for field in model._meta.get_fields():
        if not (field.concrete and (field.many_to_one or field.one_to_one)):
            continue
        related = field.related_model
        if related is target:
            paths.append(field.name)
        elif related is not model and related not in seen and related not in avoid:
            rests = _paths_to(related, target, avoid=avoid, seen=(*seen, model))
            paths += [f"{field.name}__{rest}" for rest in rests]
    return paths


def _account_clubs(account):
    """The clubs that own a row naming ``account``: its roles, member records, log lines,
    captaincies, organiser seats, entries (any foreign key or many-to-many to it)."""
    user_model = type(account)
    clubs = set(ClubRole.objects.filter(user=account).values_list("club_id", flat=True))
    clubs |= set(Member.objects.filter(user=account).values_list("club_id", flat=True))
    for model, paths in _owned_data_models():
        for field in model._meta.get_fields():
            if not (field.concrete and field.is_relation and field.related_model is user_model):
                continue
            rows = model._base_manager.filter(**{field.name: account})
            for path in paths:
                clubs |= set(rows.exclude(**{path: None}).values_list(path, flat=True))
    return clubs


def _scrub_username(account, *, clubs, replacement):
    """Replace ``account``'s username in the lines of ``clubs`` that name it.

    A club log line about the account (by it, or with it in its details) and
    the "who" of an entry it made (an audit entry) lose the username wherever
    it stands as a whole (``jan.jansen``, not ``jan.jansenx`` or
    ``x.jan.jansen``; a full stop after it ends the sentence). Any other log
    line (a league's "X is captain of ...", written by whoever named the
    captain) of the clubs it had a place in loses it only where the whole line
    is one of the site's sentences about an account (a message with
    ``%(user)s``, in any of the site's languages) and the username stands in the
    account's place: an account named "de" or "Uitslag" cannot rewrite the
    words of another club's log by its choice of name.
    """
    username = account.get_username()
    scrub = _Scrub(sentences=[username], exact=(), replacement=replacement, username=True)
    linked = ClubLog.objects.filter(models.Q(user=account) | models.Q(detail__user=account.pk))
    scrub.rows(ClubLog, linked, _people_text_fields(ClubLog))
    forms = _account_sentence_forms()
    for model, paths in _owned_data_models():
        fields = _people_text_fields(model)
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is type(account):
                mine = model._base_manager.filter(**{field.name: account})
                scrub.rows(model, mine, [f for f in fields if f.name in _WHO_FIELDS])
        for field in [f for f in fields if f.name == "summary"] if clubs else ():
            reach = models.Q()
            for path in paths:
                reach |= models.Q(**{f"{path}__in": clubs})
            rows = model._base_manager.filter(reach, **{f"{field.attname}__contains": username})
            for obj in rows.only("pk", field.attname):
                old = getattr(obj, field.attname)
                new = _account_sentence_scrub(old, forms, username, replacement)
                if new != old:
                    new = new if len(new) <= field.max_length else new[: field.max_length - 1] + "…"
                    model._base_manager.filter(pk=obj.pk).update(**{field.attname: new})


def _account_sentence_forms():
    """The site's sentences about an account: every message with ``%(user)s``, as its
    pieces (text, ``%(name)s`` placeholders), in each of the site's languages."""
    from django.utils.translation import trans_real

    forms = set()
    for code, _name in settings.LANGUAGES:
        for msgid, text in trans_real.translation(code)._catalog.items():
            for form in (msgid, text):
                if isinstance(form, str) and "%(user)s" in form:
                    forms.add(tuple(re.split(r"(%\(\w+\)s)", form.replace("%%", "%"))))
    return forms


def _account_sentence_scrub(line, forms, username, replacement):
    """``line`` with ``username`` replaced in the account's place, when the whole line
    is one of ``forms``; else ``line`` unchanged."""
    for pieces in forms:
        pattern = "".join(
            f"({re.escape(username)})"
            if piece == "%(user)s"
            else "(?:.+?)"
            if re.fullmatch(r"%\(\w+\)s", piece)
            else re.escape(piece)
            for piece in pieces
        )
        match = re.fullmatch(pattern, line, re.DOTALL)
        if match:
            out, at = [], 0
            for group in range(1, match.lastindex + 1):
                out += [line[at : match.start(group)], replacement]
                at = match.end(group)
            return "".join([*out, line[at:]])
    return line


# --- One's own account ----------------------------------------------------------------------


OWN_PASSWORD_TRIES = 5
OWN_PASSWORD_LOCK_SECONDS = 10 * 60


def _own_password_checked(user, password, *, wrong: str) -> None:
    """Check an account's own password, given again to change its e-mail address or to
    delete it. Braked as a PIN is (:func:`clubs.auth.throttle_allowed`): a session left
    open on a shared laptop does not let anyone guess the password without end."""
    key = f"own-password-user:{user.pk}"
    if not throttle_allowed([(key, OWN_PASSWORD_TRIES)], window=OWN_PASSWORD_LOCK_SECONDS):
        raise ValidationError(
            _("Too many wrong passwords; wait ten minutes and try again."), code="throttled"
        )
    if not check_password(password or "", user.password):
        raise ValidationError({"password": wrong})
    throttle_clear(key)


@transaction.atomic
def account_email_set(*, user, by, email: str, password: str):
    """Set (or with an empty ``email`` remove) ``user``'s own e-mail address.

    Only its owner, with the account's password again (the address is where reset
    links go); refused when another account has the address
    (:func:`clubs.auth.email_refusal`). Reset links made before stop working
    (Django's reset token includes the address).
    """
    from django.core.validators import validate_email

    if by is None or by.pk != user.pk:
        raise PermissionDenied(_("Only the owner of an account can change its e-mail address."))
    _own_password_checked(user, password, wrong=_("That password is wrong; nothing is changed."))
    email = normalised_email(email)
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ValidationError({"email": _("Enter a valid e-mail address.")}) from None
    refusal = email_refusal(email=email, user=user)
    if refusal:
        raise ValidationError({"email": refusal})
    if email != user.email:
        user.email = email
        user.save(update_fields=["email"])
    return user


# --- Delete one's own account ---------------------------------------------------------------


@transaction.atomic
def account_delete(*, user, by, password: str) -> None:
    """Delete ``user``'s own account, after its password is given again.

    Its roles go; its member records stay with their results, unlinked; log
    lines it wrote stay with "by" empty, and the lines that name it say "a
    deleted account" instead (:func:`_scrub_username`, in the clubs and leagues
    it had a place in); its login log and login-failure rows
    go; every session it had ends (the account no longer exists). Refused
    while it is the last administrator of a club (the club keeps one), and for
    the site's operators, whose accounts another operator removes in the admin.
    """
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    if by is None or by.pk != user.pk:
        raise PermissionDenied(_("Only the owner of an account can delete it."))
    if user.is_staff or user.is_superuser:
        raise PermissionDenied(
            _("A site operator's account is removed by another operator, in the admin.")
        )
    _own_password_checked(user, password, wrong=_("That password is wrong; nothing is deleted."))
    admin_of = list(
        Club.objects.filter(roles__user=user, roles__role=Role.ADMIN).order_by("name", "pk")
    )
    # Lock the clubs' administrators, so two of them cannot both leave at once.
    list(ClubRole.objects.select_for_update().filter(club__in=admin_of, role=Role.ADMIN))
    for club in admin_of:
        if not ClubRole.objects.filter(club=club, role=Role.ADMIN).exclude(user=user).exists():
            raise ValidationError(
                _(
                    "You are the last administrator of %(club)s, and a club keeps one. "
                    "Invite another administrator there first (Roles page), or delete "
                    "the club; then delete your account."
                )
                % {"club": club.name}
            )
    for role in ClubRole.objects.filter(user=user).select_related("club"):
        club_log_add(
            club=role.club,
            by=None,
            action=ClubLog.Action.ROLE_REVOKE,
            params={"role": role.role},
            detail={"role": role.role},
        )
    _scrub_username(user, clubs=_account_clubs(user), replacement=_("a deleted account"))
    for model in (AccessLog, AccessAttempt, AccessFailureLog):
        model.objects.filter(username__iexact=user.get_username()).delete()
    user.delete()


# --- End a club -----------------------------------------------------------------------------


def _paths_to_club(model):
    """Every ``a__b__club`` lookup from ``model`` to a Club along foreign keys."""
    return _paths_to(model, Club)


def club_data_models():
    """(model, lookups to the club) of every model whose rows belong to a club.

    Found from the models, so apps added later are covered without this module
    knowing them.
    """
    found = []
    for model in apps.get_models():
        if model is Club:
            continue
        paths = _paths_to_club(model)
        if paths:
            found.append((model, tuple(paths)))
    return found


def club_rows(model, paths, club_pk):
    """The rows of ``model`` that reach the club along any of ``paths``."""
    reach = models.Q()
    for path in paths:
        reach |= models.Q(**{path: club_pk})
    inner = model._base_manager.filter(reach).values("pk")
    return model._base_manager.filter(pk__in=inner)


@transaction.atomic
def club_delete(*, club: Club, by, confirm_name: str) -> None:
    """Delete the club and everything of it, after its name is typed exactly.

    Rows are deleted model by model, each after the rows that protect it, in one
    transaction. Accounts stay (they are people's, and may be in other clubs);
    their roles in this club go. Refused when a receiver of ``signals.club_deleting``
    says so (leagues: while another club's league depends on it, or it organises a
    league with other clubs' teams).
    """
    require(by, club, Capability.DELETE_CLUB)
    if not typed_exactly(confirm_name, club.name):
        raise ValidationError({"confirm_name": _("Type the club's name exactly to delete it.")})
    club = Club.objects.select_for_update().get(pk=club.pk)
    signals.club_deleting.send(Club, club=club)
    pending = club_data_models()
    while pending:
        left = []
        for model, paths in pending:
            try:
                with transaction.atomic():
                    club_rows(model, paths, club.pk).delete()
            except (ProtectedError, RestrictedError):
                left.append((model, paths))
        if len(left) == len(pending):
            raise RuntimeError(f"club_delete is stuck on {[m.__name__ for m, _p in left]}")
        pending = left
    club.delete()


@transaction.atomic
def member_pin_set(*, member: Member, pin: str, by) -> Member:
    """Set (or with an empty ``pin`` clear) the member's confirmation PIN, stored hashed.

    The member themself (their site account) or one who gives roles in the club
    (``Capability.MANAGE_ACCESS``: a PIN is a credential, like a password link) may set it.
    """
    if not (by is not None and member.user_id is not None and by.pk == member.user_id):
        require(by, member.club, Capability.MANAGE_ACCESS)
    pin = (pin or "").strip()
    if pin and not PIN_RE.match(pin):
        raise ValidationError({"pin": _("A PIN is 4 to 6 digits.")})
    member.pin = pin_hash(pin) if pin else ""
    member.save(update_fields=["pin"])
    return member


def _pin_tries_key(member) -> str:
    return f"confirm-pin-tries:{member.pk}"


def member_pin_check(*, member: Member, pin: str, place: str = "") -> None:
    """Raise a ``ValidationError`` on the ``pin`` field unless ``pin`` is the member's PIN.

    Throttled (:func:`clubs.auth.throttle_allowed`, each try counted before the
    PIN is checked): after :data:`PIN_TRIES` tries without the right PIN, the
    member's PIN is refused for :data:`PIN_LOCK_SECONDS`, even the right one, and after
    :data:`PIN_DAY_TRIES` for the rest of the day; a right PIN clears both counts. At
    one ``place`` (e.g. ``"table:12"``) at most :data:`PIN_PLACE_TRIES` tries of any
    members' PINs count within :data:`PIN_LOCK_SECONDS`, right or wrong.
    """
    if not member.pin:
        raise ValidationError(
            {
                "pin": _("%(name)s has no PIN yet; the club admin can set one.")
                % {"name": member.name}
            }
        )
    key, day_key = _pin_tries_key(member), f"confirm-pin-day:{member.pk}"
    keys = [(key, PIN_TRIES)] + ([(f"confirm-pin-place:{place}", PIN_PLACE_TRIES)] if place else [])
    if not throttle_allowed(keys, window=PIN_LOCK_SECONDS):
        raise ValidationError(
            {"pin": _("Too many wrong PINs; wait ten minutes or ask the tournament director.")}
        )
    if not throttle_allowed([(day_key, PIN_DAY_TRIES)], window=PIN_DAY_SECONDS):
        raise ValidationError(
            {"pin": _("Too many wrong PINs today; ask the tournament director to confirm.")}
        )
    right, store_anew = pin_matches(pin, member.pin)
    if not right:
        raise ValidationError({"pin": _("That PIN is wrong; nothing is confirmed.")})
    throttle_clear(key, day_key)
    if store_anew:
        Member.objects.filter(pk=member.pk, pin=member.pin).update(pin=pin_hash(pin))


# --- Uploads awaiting confirmation ----------------------------------------------------------

#: How long an uploaded file waits for its import to be confirmed.
PENDING_UPLOAD_SECONDS = 60 * 60


def pending_uploads_expired(now=None):
    """The uploads older than :data:`PENDING_UPLOAD_SECONDS` (``manage.py cleanup``)."""
    cutoff = (now or timezone.now()) - timedelta(seconds=PENDING_UPLOAD_SECONDS)
    return PendingUpload.objects.filter(created_at__lt=cutoff)


@transaction.atomic
def pending_upload_keep(*, club: Club, by, kind: str, data: bytes, filename: str) -> PendingUpload:
    """Keep ``data`` until its import is confirmed; the caller checked the permission and
    the size. The uploader's earlier file of the same kind in the club goes (a new
    preview replaces the old), and so does every expired one."""
    pending_uploads_expired().delete()
    PendingUpload.objects.filter(club=club, user=by, kind=kind).delete()
    upload = PendingUpload(
        club=club,
        user=by,
        kind=kind,
        data=data,
        filename=filename[:255],
    )
    upload.full_clean()
    upload.save()
    return upload


def pending_upload_take(*, pk, club: Club, by, kind: str) -> PendingUpload | None:
    """Claim the upload ``pk`` if it is ``by``'s, in ``club``, of ``kind`` and not expired:
    it is deleted as it is taken, so of two confirmations sent at once only one gets it
    (the caller keeps it again, :func:`pending_upload_keep`, when the import is refused
    and may be retried). None otherwise (another's, another club's, taken, gone).
    Whether its content is the one previewed is the caller's check (the preview's
    signed token holds its hash)."""
    cutoff = timezone.now() - timedelta(seconds=PENDING_UPLOAD_SECONDS)
    try:
        with transaction.atomic():
            upload = (
                PendingUpload.objects.select_for_update()
                .filter(pk=pk, club=club, user=by, kind=kind, created_at__gte=cutoff)
                .first()
            )
            if upload is None:
                return None
            upload.delete()
    except (ValueError, TypeError):
        return None
    upload.data = bytes(upload.data)  # PostgreSQL gives a memoryview
    return upload
