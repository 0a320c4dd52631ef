"""Logging in, with a brake on guessing; resetting a forgotten password; signing
up; and the one limiter for every other request that must not be repeated at will.

The brake is django-axes (``AUTHENTICATION_BACKENDS`` starts with its backend,
so every login form, the admin's included, meets the same policy), tuned here:

- failures count per username (normalised: stripped, case-folded, so
  ``"dir_b "`` and ``"DIR_B"`` are ``"dir_b"``) and per client address, with
  their own limits (``LOGIN_FAILURE_LIMITS``); either one reached locks;
- every password check is counted *before* it is made, in one serialised
  transaction, so concurrent guesses cannot get more checks than the limit;
  a check that succeeds clears the username's failures;
- the client address comes from ``X-Forwarded-For`` only when
  ``TRUSTED_PROXY_COUNT`` says how many proxies in front of the site append
  to it; otherwise it is the connection's own address;
- the login log (axes' ``AccessLog``: username, address, browser of each
  login) is kept ``LOGIN_LOG_DAYS`` days: every successful login drops older
  lines, and ``manage.py cleanup`` (the daily job) does it (and drops failures past the
  lockout window) for a site nobody logs in to.

An account's e-mail address reaches one account only: :func:`email_refusal`
refuses an address another account has (sign-up, the invitation's page, the
account page), and a reset request for an address two accounts share anyway
sends nothing (:class:`ResetPasswordForm`).

Everything else that is braked (reset requests, sign-ups, new clubs, a member's
PIN) counts in the throttle cache with :func:`throttle_allowed`: a count per key
and window, the window's end kept in the value, counted in turns.

A member's PIN (4 to 6 digits) is stored as a keyed hash (:func:`pin_hash`: HMAC-SHA256
with the site's secret key and a salt of its own), not as a password hash: a slow hash
cannot protect a million possible PINs, the brake does, and the key keeps a copied
database from being tried offline. One PIN check is microseconds instead of a password
hash's ~180 ms of CPU, for every table's confirmation. A PIN stored by an earlier version
(a password hash) is still accepted and stored anew on its first right use.
"""

import hashlib
import hmac
import logging
import math
import os
import threading
import time
from contextlib import contextmanager
from datetime import timedelta
from typing import NamedTuple

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_lockout_parameters
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.contrib.auth.hashers import check_password
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.contrib.auth.views import PasswordResetConfirmView, PasswordResetView
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.exceptions import ValidationError
from django.core.files import locks
from django.db import connection, transaction
from django.db.models import Sum
from django.shortcuts import render
from django.utils import timezone
from django.utils.crypto import get_random_string, salted_hmac
from django.utils.timesince import timeuntil
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)


def normalised_username(request, credentials=None):
    """The username the brake counts: what the login form would look up, case-folded."""
    if credentials and settings.AXES_USERNAME_FORM_FIELD in credentials:
        raw = credentials.get(settings.AXES_USERNAME_FORM_FIELD)
    else:
        data = getattr(request, "POST", None) or {}
        raw = data.get(settings.AXES_USERNAME_FORM_FIELD)
    if raw is None:
        return None
    return str(raw).replace("\x00", "").strip().casefold()[:150] or None


def client_address(request):
    """The client's address: the connection's, or the one the trusted proxy saw.

    Each proxy appends the address it received the request from to
    ``X-Forwarded-For``; with ``TRUSTED_PROXY_COUNT`` proxies in front of the
    site, the entry that many places from the right is the client as the
    outermost trusted proxy saw it. Entries further left are the client's own
    claims and are ignored.
    """
    remote = request.META.get("REMOTE_ADDR") or None
    trusted = settings.TRUSTED_PROXY_COUNT
    if not trusted:
        return remote
    forwarded = [
        part.strip()
        for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if part.strip()
    ]
    if len(forwarded) < trusted:
        return remote
    return forwarded[-trusted]


def _serialise_login_checks():
    """Make concurrent login checks take turns for the rest of the transaction.

    SQLite already does: the site opens every transaction IMMEDIATE (the
    write lock at BEGIN). PostgreSQL takes a transaction-level advisory lock.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOGIN_LOCK_KEY])


LOGIN_LOCK_KEY = int.from_bytes(hashlib.sha256(b"klaverjas-login").digest()[:4], "big")


class LoginHandler(AxesDatabaseHandler):
    """Axes' database handler with a limit per lockout parameter and counting before checking."""

    def _failures_by_parameter(self, request, credentials):
        """(parameter, failures in the cool-off window) for each lockout parameter."""
        parameters = get_lockout_parameters(request, credentials)
        attempts = self.get_user_attempts(request, credentials)
        for parameter, queryset in zip(parameters, attempts, strict=True):
            total = queryset.aggregate(total=Sum("failures_since_start"))["total"] or 0
            yield parameter, total

    def is_locked(self, request, credentials=None):
        limits = settings.LOGIN_FAILURE_LIMITS
        return any(
            total >= limits[parameter]
            for parameter, total in self._failures_by_parameter(request, credentials)
        )

    def get_failures(self, request, credentials=None):
        """Failures measured against ``AXES_FAILURE_LIMIT`` (the username's limit).

        Axes compares one number with one limit; each parameter's count is
        scaled to that limit, so the number reaches it exactly when some
        parameter reaches its own.
        """
        limits = settings.LOGIN_FAILURE_LIMITS
        return max(
            (
                total * settings.AXES_FAILURE_LIMIT // limits[parameter]
                for parameter, total in self._failures_by_parameter(request, credentials)
            ),
            default=0,
        )

    def is_allowed(self, request, credentials=None):
        """Allow a password check only if one more failure still fits; count it now."""
        if credentials is None:  # a page asking "may this client try?", not a check
            return super().is_allowed(request, credentials)
        with transaction.atomic():
            _serialise_login_checks()
            if not super().is_allowed(request, credentials):
                return False
            if not self.is_whitelisted(request, credentials):
                # Counted as a failure until it succeeds (see ``user_logged_in``).
                super().user_login_failed(None, credentials, request)
                request.login_failure_counted = True
                request.axes_locked_out = False
        return True

    def user_login_failed(self, sender, credentials, request=None, **kwargs):
        if request is not None and getattr(request, "login_failure_counted", False):
            # Already counted before the check: only say whether that was the last try.
            request.axes_locked_out = self.is_locked(request, credentials)
            request.axes_credentials = credentials
            return
        super().user_login_failed(sender, credentials, request, **kwargs)

    def user_logged_in(self, sender, request, user, **kwargs):
        super().user_logged_in(sender, request, user, **kwargs)
        username = normalised_username(request, {"username": user.get_username()})
        AccessAttempt.objects.filter(username=username).delete()
        AccessLog.objects.filter(attempt_time__lt=login_log_cutoff()).delete()


def login_log_cutoff(now=None):
    """Login-log lines older than this go (``LOGIN_LOG_DAYS``)."""
    return (now or timezone.now()) - timedelta(days=settings.LOGIN_LOG_DAYS)


def login_log_prune(now=None) -> int:
    """Drop login-log lines older than ``LOGIN_LOG_DAYS`` and failed attempts older
    than the lockout window (``AXES_COOLOFF_TIME``, after which they count for
    nothing); the number of rows dropped."""
    now = now or timezone.now()
    cutoff = login_log_cutoff(now)
    count = AccessLog.objects.filter(attempt_time__lt=cutoff).delete()[0]
    count += AccessFailureLog.objects.filter(attempt_time__lt=cutoff).delete()[0]
    expired = AccessAttempt.objects.filter(attempt_time__lt=now - settings.AXES_COOLOFF_TIME)
    count += expired.delete()[0]
    return count


def lockout_response(request, original_response=None, credentials=None):
    """The page a locked-out login gets (429): what happened and how long to wait."""
    return render(request, "registration/locked_out.html", status=429)


class LoginForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("Your username and password did not match. Please try again."),
    }


# --- The brake on repeated requests: password resets, sign-ups, new clubs, PINs ---------------


class _Window(NamedTuple):
    """A key's count and when it ends (a ``time.time()``), stored as the key's value.

    The end travels in the value because ``cache.incr`` cannot be trusted with it:
    Django's ``BaseCache.incr`` (the file cache's) is a get and a set with the
    cache's *default* timeout (5 minutes), whatever the key was set with.
    """

    count: int
    ends: float


def _window(cache, key, now):
    value = cache.get(key)
    if isinstance(value, tuple) and len(value) == 2 and value[1] > now:
        return _Window(*value)
    return None


_process_lock = threading.Lock()


COUNTING_PREFIX = "throttle-counting:"
COUNTING_SECONDS = 5


class CountingBusy(Exception):
    """A shared cache's counting keys stayed taken: the try is refused, not counted."""


def _shared_locks(cache, keys):
    """Take a counting key for each of ``keys`` in a shared cache such as Redis: a key
    only one can ``add``, kept at most :data:`COUNTING_SECONDS` should its holder die.
    In sorted order, so two tries never wait for each other; a try waits only for tries
    of the same keys (one address, one e-mail, one member), never for everyone's.
    Raises :class:`CountingBusy` after at most :data:`COUNTING_SECONDS`."""
    token = os.urandom(8).hex()
    taken = []
    deadline = time.monotonic() + COUNTING_SECONDS
    try:
        for key in sorted(set(keys)):
            name = COUNTING_PREFIX + key
            while not cache.add(name, token, timeout=COUNTING_SECONDS):
                if time.monotonic() > deadline:
                    raise CountingBusy(key)
                time.sleep(0.002)
            taken.append(name)
    except BaseException:
        _shared_release(cache, taken, token)
        raise
    return taken, token


def _shared_release(cache, taken, token):
    for name in taken:
        if cache.get(name) == token:
            cache.delete(name)


@contextmanager
def _counting(cache, keys=()):
    """Read, count and write back in turns, so concurrent tries cannot share a count:
    across this process's threads (its own cache), across the machine's server
    processes when the throttle cache is the file cache (a lock file in its folder),
    or across every box when it is a shared cache such as Redis (a counting key per
    counted key, :func:`_shared_locks`)."""
    if not isinstance(cache, LocMemCache | FileBasedCache):
        taken, token = _shared_locks(cache, keys)
        try:
            yield
        finally:
            _shared_release(cache, taken, token)
        return
    with _process_lock:
        if isinstance(cache, LocMemCache):  # this process's own: the lock above suffices
            yield
            return
        os.makedirs(cache._dir, exist_ok=True)
        with open(os.path.join(cache._dir, "counting.lock"), "ab") as handle:
            locks.lock(handle, locks.LOCK_EX)
            try:
                yield
            finally:
                locks.unlock(handle)


def throttle_prune() -> int:
    """Drop the throttle cache's expired counts; the number dropped.

    A cache with its own expiry (Redis, memcached, the database cache's culling) needs
    nothing; the file cache deletes an expired file only when that key is read again, so
    counts for addresses and e-mails that never come back would pile up in its folder.
    """
    cache = caches["throttle"]
    if not isinstance(cache, FileBasedCache):
        return 0
    dropped = 0
    with _counting(cache):
        for name in cache._list_cache_files():
            try:
                with open(name, "rb") as handle:
                    dropped += cache._is_expired(handle)  # deletes the file when expired
            except FileNotFoundError:
                pass
    return dropped


def throttle_allowed(keys_with_limits, *, window: int) -> bool:
    """Count one try against every ``(key, limit)``; False, counting nothing, when
    some key already had its ``limit`` tries.

    A key's window starts at its first try and lasts ``window`` seconds; the try
    that reaches the limit starts it again, so a refusal lasts ``window`` seconds
    from the last try that was let through (what the messages promise: "wait an
    hour", "wait ten minutes"). :func:`throttle_clear` forgets a key.
    """
    cache = caches["throttle"]
    keys_with_limits = list(keys_with_limits)
    try:
        with _counting(cache, [key for key, _limit in keys_with_limits]):
            now = time.time()
            current = [(key, limit, _window(cache, key, now)) for key, limit in keys_with_limits]
            if any(found is not None and found.count >= limit for _key, limit, found in current):
                return False
            for key, limit, found in current:
                count = 1 if found is None else found.count + 1
                ends = now + window if found is None or count >= limit else found.ends
                cache.set(key, (count, ends), timeout=math.ceil(ends - now))
    except CountingBusy:
        logger.warning("throttle: counting keys stayed taken; the try is refused")
        return False
    return True


def throttle_clear(*keys):
    """Forget the tries counted against ``keys`` (a right PIN clears its count)."""
    cache = caches["throttle"]
    with _counting(cache):
        cache.delete_many(keys)


def _hashed(text: str) -> str:
    """A key part for something personal (an e-mail address): not stored as written."""
    return hashlib.sha256(text.strip().casefold().encode()).hexdigest()


def reset_allowed(*, address, email):
    """Count one reset request; False when the address or the e-mail asked too often."""
    limits = settings.PASSWORD_RESET_LIMITS
    keys = [
        (f"reset-address:{address}", limits["ip_address"]),
        (f"reset-email:{_hashed(email)}", limits["email"]),
    ]
    return throttle_allowed(keys, window=settings.PASSWORD_RESET_WINDOW_SECONDS)


def signup_allowed(*, address):
    """Count one new account from ``address``; False when it made too many lately."""
    keys = [(f"signup-address:{address}", settings.SIGNUP_LIMITS["ip_address"])]
    return throttle_allowed(keys, window=settings.SIGNUP_WINDOW_SECONDS)


def _per_account_and_address(what, limits, window, *, user, address):
    if user.is_staff or user.is_superuser:
        return True
    keys = [(f"{what}-user:{user.pk}", limits["user"])]
    if address:
        keys.append((f"{what}-address:{address}", limits["ip_address"]))
    return throttle_allowed(keys, window=window)


def archive_import_allowed(*, user, address=None):
    """Count one club archive read by ``user`` (from ``address``), refused or not: each
    costs the reading and checking of up to a page's rows. The site's operators
    have no limit."""
    return _per_account_and_address(
        "archive-import",
        settings.ARCHIVE_IMPORT_LIMITS,
        settings.ARCHIVE_IMPORT_WINDOW_SECONDS,
        user=user,
        address=address,
    )


def club_start_allowed(*, user, address=None):
    """Count one new club by ``user`` (from ``address``, when a request brings one);
    False when the account or the address started too many lately. The site's
    operators (staff, superusers) have no limit."""
    return _per_account_and_address(
        "club-start",
        settings.CLUB_START_LIMITS,
        settings.CLUB_START_WINDOW_SECONDS,
        user=user,
        address=address,
    )


# --- E-mail addresses and password reset -------------------------------------------------------


PIN_HASH_PREFIX = "pin-hmac-sha256$"


def _pin_digest(pin: str, salt: str, secret) -> str:
    return salted_hmac(f"klaverjas.pin.{salt}", pin, secret=secret, algorithm="sha256").hexdigest()


def pin_hash(pin: str) -> str:
    """What a member's ``pin`` field stores for ``pin``: ``pin-hmac-sha256$salt$digest``."""
    salt = get_random_string(16)
    return f"{PIN_HASH_PREFIX}{salt}${_pin_digest(pin, salt, settings.SECRET_KEY)}"


def pin_matches(pin: str, stored: str) -> tuple[bool, bool]:
    """Whether ``pin`` is the PIN ``stored`` holds, and whether to store it anew.

    Checked against the secret key and its fallbacks (``SECRET_KEY_FALLBACKS``, so a key
    rotation keeps the PINs), in constant time; a PIN stored as a password hash by an
    earlier version is checked as such. Either way, a right PIN that is not keyed with
    today's key is to be stored anew (the second value).
    """
    pin = pin or ""
    if not stored:
        return False, False
    if not stored.startswith(PIN_HASH_PREFIX):
        right = check_password(pin, stored)
        return right, right
    salt, _sep, digest = stored.removeprefix(PIN_HASH_PREFIX).partition("$")
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    for number, secret in enumerate(keys):
        if hmac.compare_digest(_pin_digest(pin, salt, secret), digest):
            return True, number > 0
    return False, False


def normalised_email(email) -> str:
    """The address as stored: spaces around it gone, the domain in lower case."""
    return get_user_model().objects.normalize_email((email or "").strip())


def accounts_with_email(email):
    """The accounts whose address is ``email``, whatever its case."""
    return get_user_model()._default_manager.filter(email__iexact=normalised_email(email))


def email_refusal(*, email, user=None):
    """Why ``email`` may not be the address of ``user`` (None: a new account), or None.

    Another account has it: a reset link sent there would reach two accounts,
    and the owner of the other would get this one's.
    """
    if not normalised_email(email):
        return None
    others = accounts_with_email(email)
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    if others.exists():
        return _(
            "Another account already uses this e-mail address. If it is yours, log in "
            "with that account; otherwise give another address."
        )
    return None


class ResetPasswordForm(PasswordResetForm):
    """Django's reset form, braked, and never for an address two accounts share."""

    def __init__(self, *args, request=None, **kwargs):
        self.request = request
        super().__init__(*args, **kwargs)

    def get_users(self, email):
        if accounts_with_email(email).count() > 1:
            # Older accounts may share one (the site refuses it now): the link would
            # reach both, so it goes to neither; the page says the same as always.
            logger.warning("password reset: an address shared by several accounts; not sent")
            return iter(())
        return super().get_users(email)

    def clean(self):
        cleaned = super().clean()
        email = cleaned.get("email")
        if email and not reset_allowed(address=client_address(self.request), email=email):
            raise ValidationError(
                _("Too many reset requests. Wait an hour and try again."), code="throttled"
            )
        return cleaned


class AccountTokenGenerator(PasswordResetTokenGenerator):
    """Django's password-reset tokens, bound also to whose person the account is.

    A token stops working when the password changes or the account logs in
    (Django's own rule), and here also when its roles, the clubs it ever held
    a role in, its linked member records or its operator flags change. A club
    makes a password link only for an account that is that club's alone
    (``clubs.permissions.password_link_refusal``); were the link good after the
    account became another club's administrator, the club could still take it
    over. Every reset link of the site, e-mailed or made by a club, is one.
    """

    def _make_hash_value(self, user, timestamp):
        from .models import ClubRole, Member, RoleTrace

        roles = sorted(ClubRole.objects.filter(user=user).values_list("club_id", "role"))
        traces = sorted(RoleTrace.objects.filter(user=user).values_list("club_id", flat=True))
        members = sorted(Member.objects.filter(user=user).values_list("club_id", flat=True))
        people = f"{user.is_staff}|{user.is_superuser}|{roles}|{traces}|{members}"
        return f"{super()._make_hash_value(user, timestamp)}|{people}"


account_token_generator = AccountTokenGenerator()


class ResetPasswordView(PasswordResetView):
    """Send a reset link by e-mail, or say plainly that this site cannot."""

    form_class = ResetPasswordForm
    token_generator = account_token_generator

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    def dispatch(self, request, *args, **kwargs):
        if not settings.EMAIL_CONFIGURED:
            return render(request, "registration/password_reset_unavailable.html")
        return super().dispatch(request, *args, **kwargs)


# --- Sign-up -----------------------------------------------------------------------------


def wait_text(seconds: int) -> str:
    """How long a refused request waits, in the user's language ("1 hour", "1 day")."""
    return timeuntil(timezone.now() + timedelta(seconds=seconds + 1))


class AccountCreationForm(UserCreationForm):
    """A new account: a username, a password and an e-mail address no other account
    has (:func:`email_refusal`). Optional here (the invitation's page: a player
    without e-mail gets a password link from the club); :class:`SignupForm` needs it."""

    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_(
            "Where “Forgot your password?” sends a new-password link. Optional; "
            "no other account may have the same address."
        ),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_email(self):
        email = normalised_email(self.cleaned_data.get("email"))
        refusal = email_refusal(email=email)
        if refusal:
            raise ValidationError(refusal, code="email_taken")
        return email


class SignupForm(AccountCreationForm):
    """A new account: at most ``SIGNUP_LIMITS`` from one client address per window.

    The e-mail address is required: whoever signs up starts a club and is its
    administrator, and nobody above an administrator makes them a password link,
    so "Forgot your password?" is their only way back in.

    Only a sign-up that is otherwise valid is counted (a mistyped password costs
    nothing); a refused one is the form's error, and no account is made."""

    def __init__(self, *args, request, **kwargs):
        self.request = request
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].help_text = _(
            "Where “Forgot your password?” sends a new-password link: as the club's "
            "administrator you have nobody else to ask. No other account may have it."
        )

    def _post_clean(self):
        super()._post_clean()  # the password checks run here, after clean()
        if not self.errors and not signup_allowed(address=client_address(self.request)):
            wait = wait_text(settings.SIGNUP_WINDOW_SECONDS)
            self.add_error(
                None,
                ValidationError(
                    _("Too many new accounts from this address. Try again in %(wait)s."),
                    code="throttled",
                    params={"wait": wait},
                ),
            )


class ResetPasswordConfirmView(PasswordResetConfirmView):
    """Set a new password from a reset link, checked with :data:`account_token_generator`."""

    token_generator = account_token_generator
