"""``manage.py export_hands --club SLUG --competition NAME --format xlsx|csv -o PATH``

Every hand of a competition, one row each. The CSV file is the import format
of ``import_results``: export, then import into an empty site, gives the same
standings (the backup). What the format leaves out (penalties, absences,
evenings that do not count, substitutes) is named on standard error.
"""

from django.utils.translation import gettext as _

from scoring.exports import csv, handlog, xlsx

from ._common import ClubCommand

FORMATS = ["csv", "xlsx"]


class Command(ClubCommand):
    help = "Write every hand of a competition as .xlsx or .csv (the import format)."

    def add_arguments(self, parser):
        self.add_club_arguments(parser)
        parser.add_argument(
            "--format", help="csv or xlsx (a hand log has no PDF). Default: from -o's extension."
        )
        parser.add_argument("-o", "--output", required=True, metavar="PATH")

    def handle(self, *args, **options):
        with self.language(options):
            fmt = self.file_format(options, FORMATS)
            club = self.club(options["club"])
            competition = self.competition(club, options["competition"])
            names = handlog.seat_names(competition)
            rows = handlog.hand_log_rows(competition, names=names)
            if fmt == "xlsx":
                data = xlsx.hand_log_xlsx(rows, name_width=handlog.name_width(names))
            else:
                data = csv.hand_log_csv(rows)
            self.write(options["output"], data)
            notes = handlog.unportable(competition)
            if notes:
                self.stderr.write(
                    _("Not in the hand log (the format has no place for them):"),
                    style_func=self.style.WARNING,
                )
                for note in notes:
                    self.stderr.write(f"- {note}", style_func=self.style.WARNING)
