from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs and members")

    def ready(self):
        from . import versions
        from .backup import keep_database_private
        from .log import _register_clubs_sentences

        _register_clubs_sentences()
        versions.connect()

        # The live SQLite file holds password hashes: 0600 in a 0700 data folder.
        connection_created.connect(keep_database_private, dispatch_uid="clubs.private-database")
