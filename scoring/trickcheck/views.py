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
- ``/trickcheck/clubs/<club>/`` -- a club's rule set; readable wherever the club is.
- ``/trickcheck/sw.js`` -- the service worker (scope ``/trickcheck/``).

This module is the checker itself: it knows the rules core, ``common`` and Django
only (a contract in ``pyproject.toml``, without indirect imports). A table's and a
club's checker know tables and clubs, so they are :mod:`scoring.trickcheck.club_views`,
which render this module's page with their rule set.
"""

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.rulesets import RulesetPreset

from .. import rules

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


@require_GET
def check(request):
    """The presets to choose from (``?rules=amsterdam`` picks one). The URL's view is
    :func:`scoring.trickcheck.club_views.check`, which opens a table's checker for
    ``?table=`` and this page otherwise."""
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
