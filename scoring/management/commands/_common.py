"""What the export, print and import commands share: finding the club, the
competition and the evening by the names a club uses, writing the file, and
turning every mistake in the arguments into a clear ``CommandError``."""

import datetime
import sys
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from clubs.models import Club
from tournaments.models import Competition, Evening


class ClubCommand(BaseCommand):
    """A command about one competition of one club, in a chosen language."""

    def add_club_arguments(self, parser):
        parser.add_argument("--club", required=True, metavar="SLUG", help="The club's short name.")
        parser.add_argument(
            "--competition", required=True, metavar="NAME", help="The competition's name."
        )
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            help=f"Language of titles and labels (default: the site's, {settings.LANGUAGE_CODE}).",
        )

    @contextmanager
    def language(self, options):
        code = options.get("language")
        if code:
            with translation.override(code):
                yield
        else:
            yield

    def club(self, slug) -> Club:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            known = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True)[:20])
            raise CommandError(
                _("There is no club with the short name “%(slug)s”.") % {"slug": slug}
                + (" " + _("Clubs: %(names)s.") % {"names": known} if known else "")
            )
        return club

    def competition(self, club, name) -> Competition:
        found = list(Competition.objects.filter(club=club, name=name))
        if not found:
            found = list(Competition.objects.filter(club=club, name__iexact=name.strip()))
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise CommandError(
                _("%(club)s has %(count)s competitions called “%(name)s”; rename one first.")
                % {"club": club.name, "count": len(found), "name": name}
            )
        names = ", ".join(
            f"“{n}”" for n in Competition.objects.filter(club=club).values_list("name", flat=True)
        )
        raise CommandError(
            _("%(club)s has no competition called “%(name)s”.") % {"club": club.name, "name": name}
            + (" " + _("Its competitions: %(names)s.") % {"names": names} if names else "")
        )

    def evening(self, competition, value) -> Evening:
        try:
            day = datetime.date.fromisoformat(value)
        except ValueError as exc:
            raise CommandError(
                _("“%(value)s” is not a date; write it as YYYY-MM-DD.") % {"value": value}
            ) from exc
        evening = Evening.objects.filter(competition=competition, date=day).first()
        if evening is None:
            days = ", ".join(
                d.isoformat()
                for d in competition.evenings.order_by("date").values_list("date", flat=True)
            )
            raise CommandError(
                _("%(competition)s has no evening on %(date)s.")
                % {"competition": competition.name, "date": day.isoformat()}
                + (" " + _("Its evenings: %(dates)s.") % {"dates": days} if days else "")
            )
        return evening

    def file_format(self, options, allowed):
        fmt = options.get("format")
        if not fmt:
            suffix = Path(options["output"]).suffix.lower().lstrip(".")
            if suffix not in allowed:
                raise CommandError(
                    _("Choose the format with --format (%(formats)s).")
                    % {"formats": ", ".join(allowed)}
                )
            fmt = suffix
        if fmt not in allowed:
            raise CommandError(
                _("The format “%(format)s” is not available here; choose %(formats)s.")
                % {"format": fmt, "formats": ", ".join(allowed)}
            )
        return fmt

    def write(self, output, data: bytes):
        """Write the file (``-`` is standard output); a clear error when it cannot be."""
        if output == "-":
            stream = getattr(self.stdout, "_out", sys.stdout)
            buffer = getattr(stream, "buffer", None)
            if buffer is None:
                raise CommandError(_("Standard output does not take a binary file here."))
            buffer.write(data)
            buffer.flush()
            return
        path = Path(output)
        if path.is_dir():
            raise CommandError(_("%(path)s is a folder; give a file name.") % {"path": path})
        if not path.parent.is_dir():
            raise CommandError(_("The folder %(path)s does not exist.") % {"path": path.parent})
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise CommandError(
                _("Cannot write %(path)s: %(error)s") % {"path": path, "error": exc.strerror}
            ) from exc
        self.stdout.write(_("Wrote %(path)s (%(size)s bytes).") % {"path": path, "size": len(data)})
