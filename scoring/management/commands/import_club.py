"""``manage.py import_club PATH --slug SLUG --user USERNAME [--name NAME]``

A new club from a club archive (the zip of ``export_club`` or the club page's
download, or its club.json), with USERNAME as its administrator. All or
nothing: a file the site cannot read changes nothing.
"""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from scoring.exports.archive import club_archive_import


class Command(BaseCommand):
    help = "Make a new club from a club archive."

    def add_arguments(self, parser):
        parser.add_argument("path", metavar="PATH")
        parser.add_argument("--slug", required=True, help="The new club's short name.")
        parser.add_argument("--user", required=True, help="Its administrator's username.")
        parser.add_argument("--name", default="", help="A new name (default: the archive's).")

    def handle(self, *args, **options):
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(_("No user with this username."))
        try:
            data = Path(options["path"]).read_bytes()
        except OSError as exc:
            raise CommandError(str(exc)) from exc
        try:
            club = club_archive_import(
                data=data, by=user, name=options["name"], slug=options["slug"]
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        self.stdout.write(_("Club %(name)s imported.") % {"name": club.name})
