"""``manage.py import_results PATH --club SLUG --competition NAME [--ruleset PRESET]
[--create] [--create-members] [--close-names-are-new] [--dry-run]``

Past results from a hand log (.csv, .xlsx or .ods; the columns are described in
``scoring.exports.handlog``) or a sheet of evening totals per player
(``scoring.exports.totalsheet``), all or nothing: a file with any bad row is
refused with a report of every bad row, and nothing changes. Importing the
same file twice adds nothing. ``--create`` makes the club and the competition
when they do not exist (the competition plays ``--ruleset``, default
rotterdam, over the file's dates); ``--create-members`` adds unknown names as
members. A name close to a member's (Renee beside Renée), which the upload page
asks about, is refused unless ``--close-names-are-new`` says such names are new
members (otherwise correct the name in the file). ``--dry-run`` only checks.
"""

from pathlib import Path

from django.core.management.base import CommandError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club
from common.rulesets import RulesetPreset
from scoring import rules
from scoring.exports import importers
from tournaments.models import Competition

from ._common import ClubCommand


class Command(ClubCommand):
    help = "Import past results from a hand log (.csv, .xlsx or .ods), all or nothing."

    def add_arguments(self, parser):
        parser.add_argument("path", metavar="PATH", help="The .csv, .xlsx or .ods file.")
        self.add_club_arguments(parser)
        parser.add_argument(
            "--ruleset",
            choices=list(rules.PRESET_NAMES),
            help="The rule set of a competition made with --create (default rotterdam).",
        )
        parser.add_argument(
            "--create",
            action="store_true",
            help="Make the club and the competition when they do not exist.",
        )
        parser.add_argument(
            "--create-members", action="store_true", help="Add unknown players as members."
        )
        parser.add_argument(
            "--close-names-are-new",
            action="store_true",
            help="Add a name close to a member's (Renee beside Renée) as a new member.",
        )
        parser.add_argument("--dry-run", action="store_true", help="Check the file only.")

    def handle(self, *args, **options):
        with self.language(options):
            path = Path(options["path"])
            if not path.is_file():
                raise CommandError(_("There is no file %(path)s.") % {"path": path})
            if path.stat().st_size > importers.MAX_UPLOAD_BYTES:
                self.report([importers.size_problem(path.stat().st_size)])
            data = path.read_bytes()
            slug = options["club"]
            club = Club.objects.filter(slug=slug).first()
            if club is None and not options["create"]:
                self.club(slug)  # the error naming the known clubs
            if club is None and slugify(slug) != slug:
                raise CommandError(
                    _("“%(slug)s” cannot be a club's short name; use letters, digits and -.")
                    % {"slug": slug}
                )
            competition = None
            if club is not None:
                found = Competition.objects.filter(club=club, name=options["competition"])
                if found.exists() or not options["create"]:
                    competition = self.competition(club, options["competition"])
            preset = options.get("ruleset")
            if competition is not None and preset and competition.ruleset_preset != preset:
                raise CommandError(
                    _(
                        "%(competition)s plays the rule set %(has)s, not %(asked)s; leave "
                        "--ruleset out, or import into another competition."
                    )
                    % {
                        "competition": competition.name,
                        "has": competition.ruleset_preset,
                        "asked": preset,
                    }
                )
            preset = preset or RulesetPreset.ROTTERDAM
            if options["dry_run"]:
                self.dry_run(club, competition, data, path, preset, options)
                return
            try:
                with transaction.atomic():
                    if club is None:
                        club = Club(slug=slug, name=slug.replace("-", " ").title())
                        club.full_clean()
                        club.save()
                        self.stdout.write(_("Club %(name)s made.") % {"name": club.name})
                    choices = {}
                    if options["close_names_are_new"] and club.pk is not None:
                        asked = importers.results_import_preview(
                            club=club,
                            competition=competition,
                            data=data,
                            filename=path.name,
                            create_members=options["create_members"],
                        )
                        choices = {near.field: "new" for near in asked.near}
                    result = importers.results_import_apply(
                        club=club,
                        competition=competition,
                        new_competition={
                            "name": options["competition"],
                            "ruleset_preset": preset,
                        },
                        data=data,
                        filename=path.name,
                        by=None,
                        create_members=options["create_members"],
                        name_choices=choices,
                    )
            except importers.ImportRejected as exc:
                self.report(exc.problems)
            self.summary(result, made=competition is None)

    def dry_run(self, club, competition, data, path, preset, options):
        ruleset = competition.ruleset() if competition else rules.get_ruleset(preset)
        preview = importers.results_import_preview(
            club=club,
            competition=competition,
            data=data,
            filename=path.name,
            ruleset=ruleset,
            create_members=options["create_members"],
        )
        for warning in preview.warnings:
            self.stdout.write(warning, style_func=self.style.WARNING)
        for near in preview.near:
            self.stdout.write(
                _(
                    "Row %(row)s: %(name)s is not a member but close to %(members)s; "
                    "correct the name, or import with --close-names-are-new."
                )
                % {
                    "row": near.row,
                    "name": near.name,
                    "members": ", ".join(near.names),
                },
                style_func=self.style.WARNING,
            )
        if preview.problems:
            self.report(preview.problems)
        self.stdout.write(
            _(
                "The file can be imported: %(evenings)s evenings, %(games)s games, "
                "%(hands)s hands, %(sitouts)s sit-outs, %(totals)s players' totals, "
                "%(members)s new members. Nothing was changed (--dry-run)."
            )
            % {
                "totals": preview.totals,
                "evenings": len(preview.evenings),
                "games": preview.games,
                "hands": preview.hands,
                "sitouts": preview.sitouts,
                "members": len(preview.new_members),
            }
        )

    def report(self, problems):
        for problem in problems:
            self.stderr.write(str(problem))
        count = sum(1 for p in problems if p.row is not None or p.column) or len(problems)
        raise CommandError(
            ngettext(
                "Nothing was imported: the file has %(count)s problem (listed above).",
                "Nothing was imported: the file has %(count)s problems (listed above).",
                count,
            )
            % {"count": count}
        )

    def summary(self, result, *, made):
        if made:
            self.stdout.write(
                _("Competition %(name)s made (%(start)s to %(end)s).")
                % {
                    "name": result.competition.name,
                    "start": result.competition.start_date.isoformat(),
                    "end": result.competition.end_date.isoformat(),
                }
            )
        self.stdout.write(
            self.style.SUCCESS(
                _(
                    "Imported %(evenings)s evenings: %(games)s games, %(hands)s hands, "
                    "%(sitouts)s sit-outs, %(totals)s players' totals; %(members)s new members."
                )
                % {
                    "totals": result.totals,
                    "evenings": len(result.evenings),
                    "games": result.games,
                    "hands": result.hands,
                    "sitouts": result.sitouts,
                    "members": len(result.new_members),
                }
            )
        )
        if result.skipped:
            self.stdout.write(
                _("Already there, skipped: %(dates)s.")
                % {"dates": ", ".join(d.isoformat() for d in result.skipped)}
            )
