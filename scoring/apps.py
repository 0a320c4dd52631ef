from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scores")

    def ready(self):
        # The games and scores that follow the tournaments layer's draws and changes.
        from . import receivers

        receivers.connect()
