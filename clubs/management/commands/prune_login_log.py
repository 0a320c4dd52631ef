"""Drop login-log lines older than ``LOGIN_LOG_DAYS`` (run it daily, e.g. from cron).

A successful login already drops them; this command does it for a site that
nobody logs in to for a while, and drops failed attempts past the lockout window.
"""

from django.conf import settings
from django.core.management.base import BaseCommand

from clubs.auth import login_log_prune


class Command(BaseCommand):
    help = "Drop login-log lines older than LOGIN_LOG_DAYS and expired failed logins."

    def handle(self, *args, **options):
        count = login_log_prune()
        self.stdout.write(
            f"{count} login-log rows older than {settings.LOGIN_LOG_DAYS} days "
            "or past the lockout window dropped."
        )
