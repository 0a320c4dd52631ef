"""The trick checker: tap a hand's cards trick by trick and see who won each trick,
its points and roem, whether every card was legal, and the hand's score.

Every computation runs in the browser (``static/js/trickcheck-core.js``, a twin of
:mod:`scoring.rules`, checked against it by ``tests/scoring/trickcheck``); these views
only put the rule set on the page as JSON. No account is needed, and once loaded
the page needs no server: no request per card, and a small service worker serves
it from the browser's cache when the hall's network is gone.

- ``/trickcheck/`` -- anyone; the presets to choose from (``?rules=amsterdam`` picks
  one). With ``?table=<token>`` (a table's private link code) it uses that table's
  rule set and seat names, and its "copy into the score entry" button goes back to
  the table's entry page with the hand's result in the query string.
- ``/trickcheck/clubs/<club>/`` -- a club's rule set; readable wherever the club is
  (a club page, so in :mod:`scoring.trickcheck.club_views`: this module knows no clubs).
- ``/trickcheck/sw.js`` -- the service worker (scope ``/trickcheck/``).
"""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.rulesets import RulesetPreset

from .. import rules, selectors
from ..models import Game

#: The fields of a rule set the page needs.
RULESET_FIELDS = (
    "name",
    "nat_basis",
    "nat_roem",
    "pit_bonus",
    "play_rule",
    "roem_rule",
    "low_fours",
)


def preset_label(name):
    """A preset's name in the clubs' words (a name the site does not know as itself)."""
    return RulesetPreset(name).label if name in RulesetPreset.values else name


def ruleset_data(ruleset, *, key=None, label=None):
    """What the page knows of a rule set: its scoring fields and a label."""
    data = {field: value for field, value in ruleset.to_dict().items() if field in RULESET_FIELDS}
    data["key"] = key or ruleset.name
    label = label or preset_label(ruleset.name)
    if ruleset.is_modified:
        label = _("%(preset)s, modified") % {"preset": label}
    data["label"] = str(label)
    return data


def _presets():
    return [ruleset_data(rules.get_ruleset(name)) for name in rules.PRESET_NAMES]


def page(request, data, *, context=None, status=200):
    return render(
        request,
        "scoring/trickcheck/check.html",
        {"data": data, **(context or {})},
        status=status,
    )


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
    token = request.GET.get("table", "").strip()
    if token:
        if not token.replace("-", "").replace("_", "").isalnum():
            raise Http404
        table = get_object_or_404(selectors.table_queryset(), token=token)
        data = _table_data(table)
        context = {"table": table, "competition": table.round.evening.competition}
        return page(request, data, context=context)
    asked = request.GET.get("rules", "")
    data = {
        "fixed": False,
        "selected": asked if asked in rules.PRESET_NAMES else rules.DEFAULT_RULESET.name,
        "rulesets": _presets(),
        "table": None,
    }
    return page(request, data)


#: The service worker: the network first; the browser's cache (filled by the page
#: when it loads, see trickcheck.js) when the hall's network is gone. Its scope is
#: the trick checker's pages only, so it never touches the rest of the site.
SERVICE_WORKER = """\
"use strict";
var CACHE = "trickcheck-v1";
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request, { ignoreVary: true }).then(function (hit) {
      return hit || Response.error();
    });
  }));
});
"""


@never_cache
@require_GET
def service_worker(request):
    response = HttpResponse(SERVICE_WORKER, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = reverse("trickcheck:check")
    return response
