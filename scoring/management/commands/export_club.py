"""``manage.py export_club --club SLUG -o PATH``

The whole club in one zip (members, competitions, evenings, every hand,
adjustments and the log as .xlsx and CSV, the standings as PDF, and club.json,
which ``import_club`` reads back on any installation).
"""

from django.utils.translation import gettext as _

from scoring.exports.archive import club_archive_zip

from ._common import ClubCommand


class Command(ClubCommand):
    help = "Write everything of one club as a zip."

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, metavar="SLUG", help="The club's short name.")
        parser.add_argument("-o", "--output", required=True, metavar="PATH")

    def handle(self, *args, **options):
        club = self.club(options["club"])
        self.write(options["output"], club_archive_zip(club))
        if options["output"] != "-":
            self.stdout.write(_("Wrote %(path)s.") % {"path": options["output"]})
