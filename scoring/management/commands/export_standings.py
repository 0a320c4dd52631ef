"""``manage.py export_standings --club SLUG --competition NAME --format xlsx|csv|pdf -o PATH``

The standings as the standings page shows them, with the ranking settings;
``--period NAME`` for one period of the season. ``-o -`` writes to standard output.
"""

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from scoring.exports import csv, pdf, reports, xlsx

from ._common import ClubCommand

RENDER = {"xlsx": xlsx.report_xlsx, "csv": csv.report_csv, "pdf": pdf.report_pdf}


class Command(ClubCommand):
    help = "Write a competition's standings as .xlsx, .csv or .pdf."

    def add_arguments(self, parser):
        self.add_club_arguments(parser)
        parser.add_argument("--period", metavar="NAME", help="Only this period of the season.")
        parser.add_argument(
            "--format", choices=sorted(RENDER), help="Default: from -o's extension."
        )
        parser.add_argument("-o", "--output", required=True, metavar="PATH")

    def handle(self, *args, **options):
        with self.language(options):
            fmt = self.file_format(options, sorted(RENDER))
            club = self.club(options["club"])
            competition = self.competition(club, options["competition"])
            period = None
            if options.get("period"):
                period = competition.periods.filter(name__iexact=options["period"]).first()
                if period is None:
                    names = ", ".join(competition.periods.values_list("name", flat=True))
                    raise CommandError(
                        _("%(competition)s has no period called “%(name)s”.")
                        % {"competition": competition.name, "name": options["period"]}
                        + (" " + _("Its periods: %(names)s.") % {"names": names} if names else "")
                    )
            report = reports.standings_report(competition=competition, period=period)
            self.write(options["output"], RENDER[fmt](report))
