"""``manage.py print_scoresheets --club SLUG --competition NAME --evening DATE --round N -o PATH``

The score sheets of every table of a round as one PDF (a page per table), with
``--filled`` the entered hands as a record, with ``--plan`` the table plan for
the wall instead. The QR codes open the tables' entry pages: give the site's
address with ``--base-url https://...``, or they hold only the path.
"""

from urllib.parse import urljoin

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from scoring.exports import pdf, reports, table_entry_path

from ._common import ClubCommand


class Command(ClubCommand):
    help = "Write the score sheets (or the table plan) of a round as a PDF."

    def add_arguments(self, parser):
        self.add_club_arguments(parser)
        parser.add_argument("--evening", required=True, metavar="YYYY-MM-DD")
        parser.add_argument("--round", required=True, type=int, metavar="N")
        parser.add_argument("--filled", action="store_true", help="With the entered hands.")
        parser.add_argument("--plan", action="store_true", help="The table plan instead.")
        parser.add_argument(
            "--base-url",
            default="",
            metavar="URL",
            help="The site's address, for the QR codes (https://club.example.nl).",
        )
        parser.add_argument("-o", "--output", required=True, metavar="PATH")

    def handle(self, *args, **options):
        with self.language(options):
            if options["filled"] and options["plan"]:
                raise CommandError(_("Choose --filled or --plan, not both."))
            club = self.club(options["club"])
            competition = self.competition(club, options["competition"])
            evening = self.evening(competition, options["evening"])
            round_ = evening.rounds.filter(number=options["round"]).first()
            if round_ is None:
                numbers = ", ".join(str(n) for n in evening.rounds.values_list("number", flat=True))
                raise CommandError(
                    _("The evening of %(date)s has no round %(number)s.")
                    % {"date": evening.date.isoformat(), "number": options["round"]}
                    + (
                        " " + _("Its rounds: %(numbers)s.") % {"numbers": numbers}
                        if numbers
                        else ""
                    )
                )
            base = options["base_url"].strip()
            if base and not base.startswith(("http://", "https://")):
                raise CommandError(
                    _(
                        "--base-url must start with http:// or https://, like https://club.example.nl"
                    )
                )

            def entry_url(token):
                path = table_entry_path(token)
                return urljoin(base.rstrip("/") + "/", path.lstrip("/")) if base else path

            sheets = reports.round_sheets(
                round_=round_, entry_url=entry_url, filled=options["filled"]
            )
            if options["plan"]:
                data = pdf.table_plan_pdf(sheets)
            else:
                data = pdf.scoresheets_pdf(sheets)
                if not base:
                    self.stderr.write(
                        _(
                            "The QR codes hold only the path of each table's page; give "
                            "--base-url to make them open it from a phone."
                        ),
                        style_func=self.style.WARNING,
                    )
            self.write(options["output"], data)
