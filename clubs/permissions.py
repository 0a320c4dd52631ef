"""The one place that decides who may see or do what in a club.

Views never test roles themselves: they call :func:`club_for` (or use the
:func:`club_required` decorator), which returns the club or answers:

- a page of a club where the user holds no role (or a private club's public
  page): 404, never 403 and never its data, so another club's objects cannot be
  told apart from nothing;
- a page needing a role the user's role in that club does not reach: 403;
- anonymous users on a page that needs a role go to the login page first when
  the club is public; of a private club they get the same 404 as its public
  pages (and as a club that does not exist), whose page offers the login.

Services take the same decisions with :func:`require_role` so a rule holds even
when a page hides its button.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from .models import Club, ClubRole, Member, RoleTrace

Role = ClubRole.Role


class NotVisible(Http404):
    """The 404 of a club (or a league) the user may not see at all: the same answer
    as for one that does not exist. Its own class so the permission tests can tell
    it from a 404 of a missing object."""


def role_level(user, club):
    """The user's level in the club: 0 for none; superusers count as club admin."""
    if not user.is_authenticated:
        return 0
    if user.is_superuser:
        return ClubRole.LEVELS[Role.ADMIN]
    cache = getattr(user, "_club_levels", None)
    if cache is None:
        cache = dict(ClubRole.objects.filter(user=user).values_list("club_id", "role"))
        user._club_levels = cache
    role = cache.get(club.pk)
    return ClubRole.LEVELS[role] if role else 0


def has_role(user, club, role):
    return role_level(user, club) >= ClubRole.LEVELS[role]


def can_view(user, club):
    """Public clubs are readable by anyone; private ones by their people only."""
    return club.results_public or role_level(user, club) > 0


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

    Allowed only for an account that is the club's alone
    (:func:`account_confined_to`) and whose role in the club is below the maker's
    own: a club administrator resets a player's or a scorer's password, never
    another administrator's, a site operator's or another club's person's.
    """
    if user.is_staff or user.is_superuser:
        return _("A club cannot reset the password of a site operator.")
    if user.pk == getattr(by, "pk", None):
        return _("Change your own password on your account page.")
    if not account_confined_to(user, club):
        return _(
            "This account is not the club's alone (it belongs to another club's people "
            "too); its owner resets the password themself."
        )
    if role_level(user, club) >= role_level(by, club):
        return _("Only an account with a lower role than yours gets a password link from you.")
    return None


def require_role(user, club, role):
    """Raise PermissionDenied unless the user holds ``role`` (or higher) in ``club``."""
    if not has_role(user, club, role):
        raise PermissionDenied(_("Your role in this club does not allow this."))


def club_for(request, slug, role=None):
    """The club named by ``slug`` if the request may use it with ``role``.

    Raises Http404 when the club does not exist or may not be seen at all,
    PermissionDenied when it may be seen but the role is missing.
    """
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NotVisible
    user = request.user
    if role is None:
        if not can_view(user, club):
            raise NotVisible
        return club
    if has_role(user, club, role):
        return club
    if role_level(user, club) == 0:
        # Not one of the club's people: its non-public pages do not exist for them.
        raise NotVisible
    raise PermissionDenied(_("Your role in this club does not allow this."))


def club_required(role=None):
    """Decorator for views taking a ``club`` slug: passes the Club object instead.

    Anonymous users who need a role are sent to the login page first.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, club, **kwargs):
            if role is not None and not request.user.is_authenticated:
                # Only a club anyone may see sends a stranger to the login page; for
                # a private club (or none) that would tell that it exists: 404, whose
                # page offers the login to the club's own people.
                if not Club.objects.filter(slug=club, results_public=True).exists():
                    raise NotVisible
                return redirect_to_login(request.get_full_path())
            club_obj = club_for(request, club, role)
            request.club = club_obj
            request.club_level = role_level(request.user, club_obj)
            return view(request, *args, club=club_obj, **kwargs)

        wrapper.club_role = role
        return wrapper

    return decorator
