"""Every way club data changes. Keyword-only, one transaction each, checked first.

User mistakes raise ``ValidationError`` with a translated message; the views
show it and nothing is changed.
"""

import re

from django.contrib.auth.hashers import check_password, make_password
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from .models import Club, ClubLog, ClubRole, Member
from .permissions import Role, require_role

MEMBER_FIELDS = ("name", "membership_number", "is_active", "is_guest", "email", "phone")
#: A confirmation PIN: 4 to 6 ASCII digits.
PIN_RE = re.compile(r"[0-9]{4,6}\Z")
#: Wrong PINs allowed per member within PIN_LOCK_SECONDS before every try is refused.
PIN_TRIES = 5
PIN_LOCK_SECONDS = 10 * 60


def _clean_save(obj):
    obj.full_clean()
    obj.save()
    return obj


@transaction.atomic
def club_update(*, club: Club, by, **fields) -> Club:
    require_role(by, club, Role.ADMIN)
    allowed = {
        "name",
        "town",
        "ruleset_preset",
        "ruleset_overrides",
        "results_public",
        "confirm_with_pin",
        "contact_name",
        "contact_email",
    }
    for key, value in fields.items():
        if key not in allowed:
            raise ValueError(f"club_update does not change {key}")
        setattr(club, key, value)
    from scoring.rules import InvalidRuleset

    try:
        club.ruleset()
    except InvalidRuleset as exc:
        raise ValidationError({"ruleset_overrides": str(exc)}) from exc
    return _clean_save(club)


@transaction.atomic
def member_create(*, club: Club, by, **fields) -> Member:
    require_role(by, club, Role.DIRECTOR)
    member = Member(club=club, **{k: v for k, v in fields.items() if k in MEMBER_FIELDS})
    return _clean_save(member)


@transaction.atomic
def member_update(*, member: Member, by, **fields) -> Member:
    require_role(by, member.club, Role.DIRECTOR)
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
    require_role(by, keep.club, Role.ADMIN)
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
    ClubLog.objects.create(
        club=keep.club,
        user=by if by.is_authenticated else None,
        action=ClubLog.Action.MEMBER_MERGE,
        summary=_("%(remove)s merged into %(keep)s")
        % {"remove": removed["name"], "keep": keep.name},
        detail={"kept": keep.pk, "removed": removed, "moved": moved},
    )
    return keep


@transaction.atomic
def role_grant(*, club: Club, user, role: str, by) -> ClubRole:
    require_role(by, club, Role.ADMIN)
    if role not in Role.values:
        raise ValidationError(_("Unknown role."))
    obj, created = ClubRole.objects.select_for_update().get_or_create(
        club=club, user=user, defaults={"role": role}
    )
    if not created and obj.role != role:
        if obj.role == Role.ADMIN and role != Role.ADMIN:
            _ensure_other_admin(club, user)
        obj.role = role
        obj.save(update_fields=["role"])
    ClubLog.objects.create(
        club=club,
        user=by,
        action=ClubLog.Action.ROLE_GRANT,
        summary=_("%(user)s is now %(role)s") % {"user": user, "role": obj.get_role_display()},
        detail={"user": user.pk, "role": role},
    )
    return obj


def _ensure_other_admin(club, user):
    others = ClubRole.objects.filter(club=club, role=Role.ADMIN).exclude(user=user)
    if not others.exists():
        raise ValidationError(_("A club keeps at least one administrator."))


@transaction.atomic
def role_revoke(*, club: Club, user, by) -> None:
    require_role(by, club, Role.ADMIN)
    role = ClubRole.objects.select_for_update().filter(club=club, user=user).first()
    if role is None:
        raise ValidationError(_("This user has no role in this club."))
    if role.role == Role.ADMIN:
        _ensure_other_admin(club, user)
    role.delete()
    ClubLog.objects.create(
        club=club,
        user=by,
        action=ClubLog.Action.ROLE_REVOKE,
        summary=_("%(user)s no longer has a role") % {"user": user},
        detail={"user": user.pk},
    )


@transaction.atomic
def member_pin_set(*, member: Member, pin: str, by) -> Member:
    """Set (or with an empty ``pin`` clear) the member's confirmation PIN, stored hashed.

    The member themself (their site account) or a club admin may set it.
    """
    if not (by is not None and member.user_id is not None and by.pk == member.user_id):
        require_role(by, member.club, Role.ADMIN)
    pin = (pin or "").strip()
    if pin and not PIN_RE.match(pin):
        raise ValidationError({"pin": _("A PIN is 4 to 6 digits.")})
    member.pin = make_password(pin) if pin else ""
    member.save(update_fields=["pin"])
    return member


def _pin_tries_key(member) -> str:
    return f"confirm-pin-tries:{member.pk}"


def member_pin_check(*, member: Member, pin: str) -> None:
    """Raise a ``ValidationError`` on the ``pin`` field unless ``pin`` is the member's PIN.

    Throttled: after :data:`PIN_TRIES` wrong PINs the member's PIN is refused for
    :data:`PIN_LOCK_SECONDS`, even the right one; a right PIN clears the count.
    """
    cache, key = caches["throttle"], _pin_tries_key(member)
    if cache.get(key, 0) >= PIN_TRIES:
        raise ValidationError(
            {"pin": _("Too many wrong PINs; wait ten minutes or ask the tournament director.")}
        )
    if not member.pin:
        raise ValidationError(
            {
                "pin": _("%(name)s has no PIN yet; the club admin can set one.")
                % {"name": member.name}
            }
        )
    if not check_password(pin or "", member.pin):
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, PIN_LOCK_SECONDS)
        raise ValidationError({"pin": _("That PIN is wrong; nothing is confirmed.")})
    cache.delete(key)
