from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        # A club is not deleted while a league of other clubs depends on it.
        from . import receivers

        receivers.connect()
