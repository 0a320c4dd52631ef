from django.core.management.base import BaseCommand
from django.db import connection

from clubs.backup import WRITTEN_AS, backup_database


class Command(BaseCommand):
    help = (
        "Write the whole database to a dated file (var/backups by default): a copy of the "
        "SQLite file, on PostgreSQL a pg_dump archive (.dump) when pg_dump is installed, "
        "else a JSON dump."
    )

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output-dir", help="folder for the backup file")
        parser.add_argument(
            "--format",
            choices=["json"],
            help="json: the database-neutral JSON dump, whatever the database",
        )

    def handle(self, *args, output_dir=None, format=None, **options):
        path = backup_database(output_dir, as_json=format == "json")
        if connection.vendor == "postgresql" and format is None and path.suffix == ".json":
            self.stdout.write(
                "pg_dump is not installed (Debian's postgresql-client): wrote JSON instead."
            )
        self.stdout.write(f"Written as {WRITTEN_AS[path.suffix]}.")
        self.stdout.write(self.style.SUCCESS(f"Backup written: {path}"))
