"""A club's trick checker: the checker's page with the club's own rule set.

A club page (readable wherever the club is, ``club_required()``), so it lives apart
from :mod:`scoring.trickcheck.views`, which knows no clubs (a contract in
``pyproject.toml``); the page and its data are that module's.
"""

from django.http import Http404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.permissions import club_required

from .. import rules
from .views import page, preset_label, ruleset_data


@require_GET
@club_required()
def club_check(request, club):
    try:
        ruleset = club.ruleset()
    except rules.InvalidRuleset as exc:
        raise Http404 from exc
    label = _("%(club)s: %(rules)s") % {"club": club.name, "rules": preset_label(ruleset.name)}
    data = {
        "fixed": True,
        "selected": ruleset.name,
        "rulesets": [ruleset_data(ruleset, label=label)],
        "table": None,
    }
    return page(request, data, context={"club": club})
