from django.core.management.base import BaseCommand, CommandError

from clubs.backup import restore_database


class Command(BaseCommand):
    help = "Replace the database's content with a backup file. Stop the site first."

    def add_arguments(self, parser):
        parser.add_argument("path", help="a .sqlite3 or .json file written by the backup command")
        parser.add_argument(
            "--yes", action="store_true", help="do not ask; everything now stored is replaced"
        )

    def handle(self, *args, path, yes=False, **options):
        if not yes:
            raise CommandError(
                "Restoring replaces everything now stored. Stop the site, then run again "
                "with --yes."
            )
        try:
            restore_database(path)
        except (FileNotFoundError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Restored from {path}"))
