from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        # A club is not deleted while a league of other clubs depends on it.
        from scoring.exports.reports import register_evening_report
        from tournaments.models import Competition

        from . import exports, receivers, versions

        receivers.connect()
        versions.connect()
        # A matchday's result lists its matches, not the players.
        register_evening_report(Competition.Format.LEAGUE, exports.matchday_report)
