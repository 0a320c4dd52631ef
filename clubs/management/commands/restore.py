from django.core.management.base import BaseCommand, CommandError

from clubs.backup import BackupRejected, check_backup, restore_database


class Command(BaseCommand):
    help = (
        "Replace the database's content with a whole-site backup made by the backup command. "
        "Stop the site first. The file is checked first (and what the database will hold "
        "afterwards is shown), and a safety copy of the current database is written."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "path", help="a .sqlite3, .dump or .json file written by the backup command"
        )
        parser.add_argument(
            "--yes", action="store_true", help="do not ask; everything now stored is replaced"
        )

    def handle(self, *args, path, yes=False, **options):
        try:
            checked = check_backup(path)
        except BackupRejected as exc:
            raise CommandError(f"Not restored, nothing changed: {exc}") from None
        self.stdout.write(checked.summary())
        if not yes:
            raise CommandError(
                "Restoring replaces everything now stored. Stop the site, then run again "
                "with --yes."
            )
        try:
            safety = restore_database(path, expect=checked)
        except BackupRejected as exc:
            raise CommandError(f"Not restored, nothing changed: {exc}") from None
        except Exception as exc:  # the database is left as it was; say so in one line
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise CommandError(
                f"Restoring {path} failed, the database is as it was: {first}"
            ) from None
        self.stdout.write(f"Safety copy of the database before the restore: {safety}")
        self.stdout.write(self.style.SUCCESS(f"Restored from {path}"))
