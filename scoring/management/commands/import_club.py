"""``manage.py import_club PATH --slug SLUG --user USERNAME [--name NAME] [--max-rows N]``

A new club from a club archive (the zip of ``export_club`` or the club page's
download, or its club.json), with USERNAME as its administrator. All or
nothing: a file the site cannot read changes nothing, and the reason is one
line. The page imports archives up to ``scoring.exports.archive.WEB_MAX_ROWS``
rows; this command up to ``--max-rows`` (default
``scoring.exports.archive.COMMAND_MAX_ROWS``).
"""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from scoring.exports.archive import COMMAND_MAX_ROWS, club_archive_import, command_limits


class Command(BaseCommand):
    help = "Make a new club from a club archive."

    def add_arguments(self, parser):
        parser.add_argument("path", metavar="PATH")
        parser.add_argument("--slug", required=True, help="The new club's short name.")
        parser.add_argument("--user", required=True, help="Its administrator's username.")
        parser.add_argument("--name", default="", help="A new name (default: the archive's).")
        parser.add_argument(
            "--max-rows",
            type=int,
            default=COMMAND_MAX_ROWS,
            help=f"The most rows the archive may hold (default {COMMAND_MAX_ROWS}).",
        )

    def handle(self, *args, **options):
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(_("No user with this username."))
        if options["max_rows"] < 1:
            raise CommandError(_("--max-rows is a whole number of at least 1."))
        limits = command_limits(options["max_rows"])
        path = Path(options["path"])
        try:
            with path.open("rb") as file:
                data = file.read(limits.max_file_bytes + 1)
        except OSError as exc:
            raise CommandError(str(exc)) from exc
        try:
            club = club_archive_import(
                data=data,
                by=user,
                name=options["name"],
                slug=options["slug"],
                limits=limits,
                braked=False,  # the operator's own command, on the machine
            )
        except (ValidationError, PermissionDenied) as exc:
            messages = exc.messages if isinstance(exc, ValidationError) else [str(exc)]
            raise CommandError(" ".join(messages)) from exc
        self.stdout.write(_("Club %(name)s imported.") % {"name": club.name})
