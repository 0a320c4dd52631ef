"""A table's and a club's trick checker: the checker's page with their rule set.

They know tables (a table's private link, its game and seats) and clubs (a club
page, readable wherever the club is: ``club_required()``), so they live apart from
:mod:`scoring.trickcheck.views`, the checker itself, which knows neither (a contract
in ``pyproject.toml``); the page and its data are that module's.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.permissions import club_required

from .. import rules, selectors
from ..models import Game
from . import views
from .views import page, preset_label, ruleset_data


def _table_data(table):
    """Rule set, seat names, forehand and entry link of a table opened by its token."""
    game = getattr(table, "game", None)
    competition = table.round.evening.competition
    names = {}
    leader = None
    if game is not None:
        state = selectors.entry_state(table=table)
        ruleset = state.ruleset
        for index, seat in enumerate(state.seats):
            if seat is not None and table.round.evening.is_open:  # closed: no names
                names[str(index)] = seat.player_name
        if state.dealer_position:
            leader = int(rules.Seat.from_letter(state.dealer_position).next)
        hand = state.next_number
        can_copy = (
            table.round.evening.is_open and game.status == Game.Status.OPEN and hand is not None
        )
    else:
        ruleset = competition.ruleset()
        hand = None
        can_copy = False
    label = _("%(competition)s: %(rules)s") % {
        "competition": competition.name,
        "rules": preset_label(ruleset.name),
    }
    return {
        "fixed": True,
        "selected": ruleset.name,
        "rulesets": [ruleset_data(ruleset, label=label)],
        "table": {
            "number": table.number,
            "names": names,
            "hand": hand,
            "leader": leader,
            "entry_url": reverse("scoring:table-entry", kwargs={"token": table.token}),
            "can_copy": can_copy,
        },
    }


@require_GET
def check(request):
    """``/trickcheck/``: with ``?table=<token>`` a table's checker (its rule set and
    seat names, and the button that copies the hand into its score entry); without,
    the checker's presets (:func:`scoring.trickcheck.views.check`)."""
    token = request.GET.get("table", "").strip()
    if not token:
        return views.check(request)
    if not token.replace("-", "").replace("_", "").isalnum():
        raise Http404
    table = get_object_or_404(selectors.table_queryset(), token=token)
    data = _table_data(table)
    context = {"table": table, "competition": table.round.evening.competition}
    return page(request, data, context=context)


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
