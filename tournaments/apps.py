from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Competitions and evenings")

    def ready(self):
        # The club's pages show the evenings, competitions and first steps of this app.
        from clubs import log, pages
        from clubs.models import ClubLog

        from . import club_pages, services, versions

        versions.connect()
        log.register(ClubLog.Action.EVENING_DELETE, services.evening_deleted_text)
        log.register(ClubLog.Action.COMPETITION_DELETE, services.competition_deleted_text)

        pages.register(
            home=club_pages.home, club=club_pages.club, first_steps=club_pages.first_steps
        )
