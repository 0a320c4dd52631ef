"""The site's daily clean-up: expired sessions, old login-log lines and expired brakes.

Run it once a day (see the README's production section for cron and a systemd timer);
it is safe to run at any time and as often as wanted, on every kind of database:

- expired sessions (Django's ``clearsessions``: the database session store keeps a row
  per visit until it is removed);
- login-log lines older than ``LOGIN_LOG_DAYS`` and failed logins past the lockout window
  (what ``prune_login_log`` does);
- expired counts of the throttle cache (the brakes on resets, sign-ups, new clubs and
  PINs), when it is the file cache;
- uploads whose import was never confirmed, an hour after the upload (they hold the
  file's names of players).
"""

from importlib import import_module

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand
from django.utils import timezone

from clubs.auth import login_log_prune, throttle_prune
from clubs.services import pending_uploads_expired


class Command(BaseCommand):
    help = (
        "Drop expired sessions, old login-log lines, expired brake counts and unconfirmed "
        "uploads (run daily)."
    )

    def handle(self, *args, **options):
        engine = import_module(settings.SESSION_ENGINE)
        sessions = None
        if settings.SESSION_ENGINE == "django.contrib.sessions.backends.db":
            sessions = Session.objects.filter(expire_date__lt=timezone.now()).count()
        engine.SessionStore.clear_expired()
        logins = login_log_prune()
        brakes = throttle_prune()
        uploads = pending_uploads_expired().delete()[0]
        if sessions is not None:
            self.stdout.write(f"{sessions} expired sessions dropped.")
        else:
            self.stdout.write("Expired sessions dropped.")
        self.stdout.write(
            f"{logins} login-log rows older than {settings.LOGIN_LOG_DAYS} days "
            "or past the lockout window dropped."
        )
        self.stdout.write(f"{brakes} expired brake counts dropped.")
        self.stdout.write(f"{uploads} unconfirmed uploads older than an hour dropped.")
