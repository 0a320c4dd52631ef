from django.core.management.base import BaseCommand

from clubs.backup import backup_database


class Command(BaseCommand):
    help = "Write the whole database to a dated file (var/backups by default)."

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output-dir", help="folder for the backup file")

    def handle(self, *args, output_dir=None, **options):
        path = backup_database(output_dir)
        self.stdout.write(self.style.SUCCESS(f"Backup written: {path}"))
