"""The one place that decides who may see or do what in a club.

What a role may do is a table: :data:`ROLE_CAPABILITIES`, a set of
:class:`Capability` per role. Every check asks it one question for one club,
like Django's ``has_perm(user, obj)``: :func:`may` (and :func:`require` in the
services, so a rule holds even when a page hides its button). The roles are not
a ladder: the secretary keeps the members and the club's files but runs no
evening and gives no role, the director the reverse. A question about a role as
a whole ("may do all a director may": :func:`has_role`) is answered from the
same table, as is "a role below yours" (:func:`role_below`).

Views never test roles themselves: they call :func:`club_for` (or use the
:func:`club_required` decorator), which returns the club or answers:

- a page of a club where the user holds no role (or a private club's public
  page): 404, never 403 and never its data, so another club's objects cannot be
  told apart from nothing;
- a page needing a capability the user's role in that club lacks: 403;
- anonymous users on a page that needs a role go to the login page first when
  the club is public; of a private club they get the same 404 as its public
  pages (and as a club that does not exist), whose page offers the login.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import Http404
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import Club, ClubRole, Member, RoleTrace

Role = ClubRole.Role


class Capability(models.TextChoices):
    """One thing a role may do in its own club. The labels finish "This role ...",
    so a role's sentence is its capabilities' labels (:func:`role_sentence`)."""

    VIEW = "view", gettext_lazy("sees the club's results and member list, also when private")
    SCORE = "score", gettext_lazy("enters and confirms scores at any table")
    RUN_COMPETITIONS = (
        "run-competitions",
        gettext_lazy("runs competitions, evenings, draws, corrections and the club's leagues"),
    )
    EDIT_MEMBERS = (
        "edit-members",
        gettext_lazy("adds, edits and exports members, with their contact details"),
    )
    IMPORT_MEMBERS = "import-members", gettext_lazy("imports the member list from a file")
    MERGE_MEMBERS = "merge-members", gettext_lazy("merges two records of one member")
    FORGET_MEMBERS = "forget-members", gettext_lazy("erases a member's personal data")
    IMPORT_RESULTS = "import-results", gettext_lazy("imports results from a file")
    EXPORT_ARCHIVE = "export-archive", gettext_lazy("downloads the club archive")
    MANAGE_ACCESS = (
        "manage-access",
        gettext_lazy("invites people, gives and removes roles, makes password links and sets PINs"),
    )
    EDIT_CLUB = "edit-club", gettext_lazy("changes the club's settings")
    DELETE_CLUB = "delete-club", gettext_lazy("deletes the club")


C = Capability
#: What each role may do in its own club: the one table (docs/permissions.md says the same;
#: ``tests/clubs/test_capabilities.py`` holds the two together).
ROLE_CAPABILITIES = {
    Role.MEMBER: frozenset({C.VIEW}),
    Role.SCORER: frozenset({C.VIEW, C.SCORE}),
    Role.DIRECTOR: frozenset(
        {C.VIEW, C.SCORE, C.RUN_COMPETITIONS, C.EDIT_MEMBERS, C.IMPORT_RESULTS}
    ),
    Role.SECRETARY: frozenset(
        {
            C.VIEW,
            C.EDIT_MEMBERS,
            C.IMPORT_MEMBERS,
            C.MERGE_MEMBERS,
            C.FORGET_MEMBERS,
            C.IMPORT_RESULTS,
            C.EXPORT_ARCHIVE,
        }
    ),
    Role.ADMIN: frozenset(Capability),
}
del C
NONE = frozenset()


class NotVisible(Http404):
    """The 404 of a club (or a league) the user may not see at all: the same answer
    as for one that does not exist. Its own class so the permission tests can tell
    it from a 404 of a missing object."""


def role_sentence(role) -> str:
    """What ``role`` may do, in one sentence of the user's language: its capabilities'
    labels (the roles page, where both role choices point at it; an invitation's page
    and its e-mail)."""
    labels = [str(c.label) for c in Capability if c in ROLE_CAPABILITIES[Role(role)]]
    return capfirst("; ".join(labels)) + "."


def role_sentences():
    """(role value, its name, its sentence) of every role, in the order of the choices."""
    return [(role.value, role.label, role_sentence(role)) for role in Role]


def roles_with(capability) -> list[str]:
    """The roles that may ``capability``: for queries over roles (``role__in=``)."""
    return [role.value for role in Role if Capability(capability) in ROLE_CAPABILITIES[role]]


def user_role(user, club):
    """The user's role in the club (a ``Role`` value), or None. Cached on the user."""
    if not user.is_authenticated:
        return None
    cache = getattr(user, "_club_roles", None)
    if cache is None:
        cache = dict(ClubRole.objects.filter(user=user).values_list("club_id", "role"))
        user._club_roles = cache
    return cache.get(club.pk)


def capabilities(user, club) -> frozenset:
    """Everything the user may do in the club; superusers may everything everywhere."""
    if user.is_authenticated and user.is_superuser:
        return ROLE_CAPABILITIES[Role.ADMIN]
    role = user_role(user, club)
    return ROLE_CAPABILITIES[role] if role else NONE


def may(user, club, capability) -> bool:
    """Whether ``user`` may ``capability`` in ``club``: the one question."""
    return Capability(capability) in capabilities(user, club)


def capability_flags(user, club) -> dict[str, bool]:
    """{``"edit_members"``: bool, ...}: each capability by its lower-case name, for a
    template (``{% if can.edit_members %}``) to hide what the service would refuse."""
    held = capabilities(user, club)
    return {capability.name.lower(): capability in held for capability in Capability}


def require(user, club, capability):
    """Raise PermissionDenied unless ``user`` may ``capability`` in ``club``."""
    if not may(user, club, capability):
        raise PermissionDenied(_("Your role in this club does not allow this."))


def is_club_person(user, club) -> bool:
    """Whether the user holds any role in the club (or is a site operator)."""
    return bool(capabilities(user, club))


def has_role(user, club, role) -> bool:
    """Whether the user may do everything ``role`` may in the club (that role or one
    that includes it). Prefer :func:`may` with the capability the check is about."""
    return ROLE_CAPABILITIES[Role(role)] <= capabilities(user, club)


def require_role(user, club, role):
    """Raise PermissionDenied unless the user may do everything ``role`` may in ``club``."""
    if not has_role(user, club, role):
        raise PermissionDenied(_("Your role in this club does not allow this."))


def role_below(role, than) -> bool:
    """Whether ``role`` may strictly less than ``than`` (both capability sets or roles):
    every capability of ``role`` is one of ``than``'s, and ``than`` has more."""
    return _as_set(role) < _as_set(than)


def _as_set(role_or_set):
    if isinstance(role_or_set, frozenset):
        return role_or_set
    return ROLE_CAPABILITIES[Role(role_or_set)] if role_or_set else NONE


def role_grant_refusal(*, by, club, role) -> str | None:
    """Why ``by`` may not give ``role`` in ``club`` (by an invitation or on the roles
    page), or None: it takes the capability to give roles, and nobody gives a role
    that may do something they may not."""
    if not may(by, club, Capability.MANAGE_ACCESS):
        return _("Your role in this club does not allow this.")
    if role not in Role.values:
        return _("Unknown role.")
    if not ROLE_CAPABILITIES[Role(role)] <= capabilities(by, club):
        return _("You cannot give a role that may do more than yours.")
    return None


def can_view(user, club):
    """Public clubs are readable by anyone; private ones by their people only."""
    return club.results_public or may(user, club, Capability.VIEW)


def visible_clubs(user):
    clubs = Club.objects.all()
    if user.is_authenticated and user.is_superuser:
        return clubs
    if user.is_authenticated:
        return clubs.filter(results_public=True) | clubs.filter(roles__user=user)
    return clubs.filter(results_public=True)


def account_confined_to(user, club) -> bool:
    """Whether the account is this club's alone, so the club may act on it as a whole.

    True only when the account is no site operator (staff or superuser), every
    role it holds and every member record linked to it is in ``club``, it
    never held a role in another club (a :class:`~clubs.models.RoleTrace`, kept
    after the role goes), and no layer above ties it to another club
    (``clubs.signals.account_ties``: a league team's captain, a league's
    organiser). A club may make a password link for such an account and close
    it when it forgets the member; for any other account it may not, because
    the account is also another club's person (see docs/permissions.md).
    """
    if user.is_staff or user.is_superuser:
        return False
    if ClubRole.objects.filter(user=user).exclude(club=club).exists():
        return False
    if Member.objects.filter(user=user).exclude(club=club).exists():
        return False
    if RoleTrace.objects.filter(user=user).exclude(club_id=club.pk).exists():
        return False
    # The layers above (leagues' captains and organisers) answer for their own ties.
    from .signals import account_ties

    return not any(tied for _receiver, tied in account_ties.send(Club, user=user, club=club))


def password_link_refusal(*, by, user, club):
    """Why ``by`` may not make a one-time password link for ``user`` in ``club``, or None.

    Allowed only for a maker who may give roles (``Capability.MANAGE_ACCESS``), for an
    account that is the club's alone (:func:`account_confined_to`) and whose role in
    the club may strictly less than the maker's (:func:`role_below`): a club
    administrator resets a player's, a scorer's, a director's or a secretary's
    password, never another administrator's, a site operator's or another club's
    person's; a secretary makes none.
    """
    if not may(by, club, Capability.MANAGE_ACCESS):
        return _("Your role in this club does not allow this.")
    if user.is_staff or user.is_superuser:
        return _("A club cannot reset the password of a site operator.")
    if user.pk == getattr(by, "pk", None):
        return _("Change your own password on your account page.")
    if not account_confined_to(user, club):
        return _(
            "This account is not the club's alone (it belongs to another club's people "
            "too); its owner resets the password themself."
        )
    if not role_below(capabilities(user, club), capabilities(by, club)):
        return _("Only an account with a lower role than yours gets a password link from you.")
    return None


def _allows(user, club, need) -> bool:
    """``need`` is a :class:`Capability`, or a role (everything that role may)."""
    if need in Role.values and need not in Capability.values:
        return has_role(user, club, need)
    return may(user, club, need)


def club_for(request, slug, need=None):
    """The club named by ``slug`` if the request may use it for ``need`` (a
    :class:`Capability`; a role means everything that role may).

    Raises Http404 when the club does not exist or may not be seen at all,
    PermissionDenied when it may be seen but the capability is missing.
    """
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NotVisible
    user = request.user
    if need is None:
        if not can_view(user, club):
            raise NotVisible
        return club
    if _allows(user, club, need):
        return club
    if not is_club_person(user, club):
        # Not one of the club's people: its non-public pages do not exist for them.
        raise NotVisible
    raise PermissionDenied(_("Your role in this club does not allow this."))


def club_required(need=None):
    """Decorator for views taking a ``club`` slug: passes the Club object instead.

    ``need``: the :class:`Capability` the page takes (None: anyone who may see the
    club). Anonymous users who need one are sent to the login page first.
    """
    if need is not None and need not in Capability.values and need not in Role.values:
        raise ValueError(f"club_required: {need!r} is no capability")

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, club, **kwargs):
            if need is not None and not request.user.is_authenticated:
                # Only a club anyone may see sends a stranger to the login page; for
                # a private club (or none) that would tell that it exists: 404, whose
                # page offers the login to the club's own people.
                if not Club.objects.filter(slug=club, results_public=True).exists():
                    raise NotVisible
                return redirect_to_login(request.get_full_path())
            club_obj = club_for(request, club, need)
            request.club = club_obj
            return view(request, *args, club=club_obj, **kwargs)

        wrapper.club_need = need
        return wrapper

    return decorator
