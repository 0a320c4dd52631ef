"""Score entry: the table's private link, the director's grid, the evening overview.

Each view parses its input, calls one service or selector and renders.

Who may do what:

- ``/t/<token>/`` is a table's private link. Anyone holding it enters, undoes
  and confirms that table's game and nothing else; a logged-in user there is
  recorded as who entered. Once the evening is closed the link only reads.
- ``/clubs/<club>/tables/<pk>/score/`` is the same page for the club's scorers
  and directors (it checks the role, then opens the table's link), so the
  round page can offer every table of the club.
- The grid (paper sheets and corrections), the audit log and adjustments are
  the director's; the evening overview and a round's QR codes (the tables'
  links, so private) are for scorers and directors.

Status codes: a form with mistakes answers 422, a stale form (someone else
saved first) 409, a write on a closed evening 403; success redirects.

With JavaScript a hand is saved in place: the page's script posts it as JSON to
``hands.json`` (the one way the script sends hands, online or not) and the
answer brings the parts of the page that change (the sheet, the status line,
the confirmation form) rendered from the same templates, so the phone moves on
to the next hand without a reload. When two phones entered one hand
differently, the 409 names both versions and the table keeps the stored one or
replaces it with the phone's (``"replace": true``, :func:`services.hand_replace`).

Offline: the page's script keeps hands on the phone (localStorage, per table)
while the connection is down and posts them in order to ``hands.json`` when it
returns; each carries an entry id made on the phone, so a hand sent twice is
stored once, and a hand number entered meanwhile on another device is a 409 with
the stored hand, shown beside the phone's. ``/t/sw.js`` is a small service
worker for the ``/t/`` pages: network first, the last page loaded (and its
static files) only when the network fails, so a reload without a connection
still shows the page and the hands kept on the phone. Without JavaScript the
page is the plain form it always was.
"""

import json
import uuid
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.http.request import split_domain_port
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Club
from clubs.permissions import Capability, club_required, may
from common import qr
from common.downloads import download, file_stem
from common.forms import apply_validation_error
from common.pagecache import versioned
from common.params import id_or_404, parse_int
from common.tables import configure_table
from common.text import clean_line
from tournaments import selectors as tournament_selectors
from tournaments.models import Evening, Round, Seat, Table

from . import selectors, services
from .forms import (
    CLIENT_ID_MAX,
    MAX_SHEET_ROWS,
    AdjustmentForm,
    ConfirmForm,
    HandForm,
    QueuedHandForm,
    ScoreSheet,
    VersionForm,
    team_choices,
)
from .models import Game
from .services import Conflict, SheetErrors
from .tables import AuditTable

# --- The table's page ----------------------------------------------------------------


def _table(token):
    table = get_object_or_404(selectors.table_queryset(), token=token)
    if getattr(table, "game", None) is None:
        raise Http404
    return table


def _entry_url(table):
    return reverse("scoring:table-entry", kwargs={"token": table.token})


def _actor(request, table):
    """Who the audit log names: the user, or the table's link."""
    if request.user.is_authenticated:
        return ""
    return _("link of table %(number)s") % {"number": table.number}


# A hand's inputs as the page and its script name them: what the trick checker's
# copy button carries into a new hand (query parameters), and what a stored hand's
# JSON answer repeats.
PREFILL_FIELDS = HAND_FIELDS = (
    "playing",
    "points_a",
    "points_b",
    "roem_a",
    "roem_b",
    "pit",
    "trump",
    "verzaakt",
)
# Declared roem (match-1500): the declarations that count, written as 50+20+stuk.
PREFILL_DECLARED = ("declared_a", "declared_b")


def _hand_form(state, prefill=None):
    """A fresh form for the next hand, filled from ``prefill`` (the trick checker's link)."""
    game = state.game
    initial = {
        "client_id": uuid.uuid4().hex,
        "number": state.next_number,
        "version": game.version,
    }
    for name in PREFILL_FIELDS:
        if prefill and prefill.get(name):
            initial[name] = prefill[name][:10]
    for name in PREFILL_DECLARED if state.declares_roem else ():
        if prefill and prefill.get(name):
            initial[name] = prefill[name][:40]
    return HandForm(
        initial=initial,
        names_a=state.names_a,
        names_b=state.names_b,
        ask_keeper=not game.scorer_team,
        declared=state.declares_roem,
        ruleset=state.ruleset,
    )


def _label_teams(form, state):
    form.fields["playing"].choices = team_choices(state.names_a, state.names_b)
    if "keeper" in form.fields:
        form.fields["keeper"].choices = form.fields["playing"].choices


def _describe(data):
    """A hand as the scorer typed it, for a message about a hand that was not saved."""
    playing = _("wij") if data.playing == "A" else _("zij")
    values = {"team": playing, "a": data.points_a, "b": data.points_b}
    if data.declared_a or data.declared_b:
        text = _("%(team)s played, card points %(a)s–%(b)s, declared %(da)s–%(db)s") % {
            **values,
            "da": data.declared_a or "–",
            "db": data.declared_b or "–",
        }
    else:
        text = _("%(team)s played, card points %(a)s–%(b)s, roem %(ra)s–%(rb)s") % {
            **values,
            "ra": data.roem_a,
            "rb": data.roem_b,
        }
    if data.pit:
        text += ", " + _("pit %(team)s") % {"team": _("wij") if data.pit == "A" else _("zij")}
    if getattr(data, "verzaakt", ""):
        text += ", " + _("%(team)s verzaakt") % {
            "team": _("wij") if data.verzaakt == "A" else _("zij")
        }
    if getattr(data, "offender", ""):
        # Under the personal rule the hand counts as played: who gets the penalty.
        text += ", " + _("%(seat)s reneged") % {"seat": Seat.Position(data.offender).label}
    return text


def _preview_text(result, declared=False):
    values = {"a": result.scores[0], "b": result.scores[1]}
    if result.verzaakt is not None:
        team = _("wij") if result.verzaakt == "A" else _("zij")
        text = _("%(team)s verzaakt: wij bank %(a)s, zij bank %(b)s") % {**values, "team": team}
    elif result.nat:
        team = _("wij") if result.playing == "A" else _("zij")
        text = _("%(team)s is NAT: wij bank %(a)s, zij bank %(b)s") % {**values, "team": team}
    else:
        text = _("Made: wij bank %(a)s, zij bank %(b)s") % values
    if declared:
        text += " · " + _counted_text(result)
    return text


def _counted_text(result):
    """Which declared roem counts: only the single highest run's team scores its runs."""
    return _("roem that counts: wij %(a)s, zij %(b)s") % {
        "a": result.roem[0],
        "b": result.roem[1],
    }


def _render_entry(request, state, *, status=200, **kwargs):
    context = _entry_context(request, state, **kwargs)
    return render(request, "scoring/table_entry.html", context, status=status)


def _entry_context(
    request,
    state,
    *,
    hand_form=None,
    confirm_form=None,
    preview=None,
    problems=(),
    prefill=None,
):
    game = state.game
    is_open = state.evening.is_open
    if is_open and game.status == Game.Status.OPEN and hand_form is None:
        hand_form = _hand_form(state, prefill)
        if prefill and prefill.get("hand") and prefill["hand"] != str(state.next_number):
            problems = [
                *problems,
                _("The trick checker was opened for hand %(hand)s; this is hand %(next)s.")
                % {"hand": prefill["hand"][:4], "next": state.next_number},
            ]
    if hand_form is not None:
        _label_teams(hand_form, state)
        if state.roefel is not None:
            hand_form.fix_roefel(state.roefel)
    if is_open and game.status == Game.Status.COMPLETE and confirm_form is None:
        confirm_form = ConfirmForm(
            names=state.confirmers,
            with_pin=_confirms_with_pin(state.table),
            initial={"version": game.version},
        )
    club = state.evening.competition.club
    context = {
        "entry_config": _entry_config(state),
        "state": state,
        "table": state.table,
        "game": game,
        "evening": state.evening,
        "club": club,
        "can_correct": request.user.is_authenticated
        and may(request.user, club, Capability.RUN_COMPETITIONS),
        "is_open": is_open,
        "hand_form": hand_form if is_open and game.status == Game.Status.OPEN else None,
        "confirm_form": confirm_form if is_open and game.status == Game.Status.COMPLETE else None,
        "can_undo": is_open and state.hands and not game.is_locked,
        "preview": preview,
        "problems": list(problems),
    }
    return context


# The parts of the entry page its script puts in after a save (or a refusal), so
# the page moves on to the next hand without a reload: element id -> template.
ENTRY_FRAGMENTS = {
    "hand-status": "scoring/includes/entry_status.html",
    "score-sheet": "scoring/includes/hand_sheet.html",
    "entry-confirm": "scoring/includes/confirm_form.html",
    "entry-undo": "scoring/includes/entry_undo.html",
}


def _entry_page(request, token):
    """The entry page as it is now, for the script: the fragments above rendered from
    the same templates as the page, the script's settings and the next Save label."""
    table = _table(token)
    state = selectors.entry_state(table=table)
    context = _entry_context(request, state)
    context.update(hands=state.hands, declared=state.declares_roem, mark_legend=state.mark_legend)
    fragments = {}
    for element_id, template in ENTRY_FRAGMENTS.items():
        if element_id == "entry-confirm" and context["confirm_form"] is None:
            fragments[element_id] = ""
            continue
        fragments[element_id] = render_to_string(template, context, request=request)
    save_label = ""
    if state.next_number is not None:
        save_label = _("Save hand %(number)s") % {"number": state.next_number}
    return {
        "fragments": fragments,
        "config": _entry_config(state),
        "save_label": save_label,
        "keeper_known": bool(state.game.scorer_team),
    }


def _entry_config(state):
    """What the page's script needs to keep hands on the phone while offline."""
    table, game = state.table, state.game
    worker = reverse("scoring:entry-sw")
    return {
        "token": table.token,
        "pageUrl": _entry_url(table),
        "handsUrl": reverse("scoring:table-hands-json", kwargs={"token": table.token}),
        "swUrl": worker,
        "swScope": worker.rsplit("/", 1)[0] + "/",
        "version": game.version,
        "status": game.status,
        "nextNumber": state.next_number,
        "length": state.length,
        "target": state.target,
        "dealers": [[name, str(seat)] for name, seat in state.first_dealers],
        "teams": {"A": _("wij"), "B": _("zij")},
        "roefel": state.next_number if state.roefel is not None else None,
    }


def _closed(request, table, *, status=403):
    """After the evening is closed the link says only that: no hands, no names (a
    private club's players are not for whoever kept the link); for a club with
    public results, a link to the evening's result."""
    evening = table.round.evening
    club = evening.competition.club
    results_url = None
    if club.results_public:
        results_url = reverse("results:evening", kwargs={"club": club.slug, "pk": evening.pk})
    context = {"results_url": results_url}
    return render(request, "scoring/table_closed.html", context, status=status)


def _entry_version(request, token):
    """A table's page changes with its evening (every hand there, its status), its
    competition and its club; a logged-in viewer's also with whether their role
    corrects sheets."""
    found = tournament_selectors.table_version(token=token)
    if found is None:
        return None
    version, club_id = found
    corrects = request.user.is_authenticated and may(
        request.user, Club(pk=club_id), Capability.RUN_COMPETITIONS
    )
    return f"t{version}.{int(corrects)}"


@require_GET
@versioned(_entry_version, forms=True)
def table_entry(request, token):
    table = _table(token)
    if not table.round.evening.is_open:
        return _closed(request, table, status=200)
    return _render_entry(request, selectors.entry_state(table=table), prefill=request.GET)


@never_cache
@require_POST
def table_hand(request, token):
    table = _table(token)
    if not table.round.evening.is_open:
        return _closed(request, table)
    game = table.game
    declared = game.declares_roem()
    form = HandForm(
        request.POST,
        ask_keeper=not game.scorer_team,
        declared=declared,
        ruleset=game.get_ruleset(),
    )
    if not form.is_valid():
        state = selectors.entry_state(table=table)
        return _render_entry(request, state, hand_form=form, status=422)
    data = form.hand_input()
    if "preview" in request.POST:
        state = selectors.entry_state(table=table)
        try:
            result = services.hand_preview(game=game, data=data, number=form.cleaned_data["number"])
        except ValidationError as exc:
            apply_validation_error(form, exc)
            return _render_entry(request, state, hand_form=form, status=422)
        preview = {"result": result, "text": _preview_text(result, declared)}
        return _render_entry(request, state, hand_form=form, preview=preview)
    try:
        hand, created = services.hand_record_or_get(
            game=game,
            data=data,
            number=form.cleaned_data["number"],
            client_id=form.cleaned_data["client_id"] or None,
            expected_version=form.cleaned_data["version"],
            keeper=form.cleaned_data.get("keeper") or "",
            by=request.user,
            actor=_actor(request, table),
        )
    except Conflict as exc:
        state = selectors.entry_state(table=table)
        problems = [*exc.messages, _("Not saved: %(hand)s.") % {"hand": _describe(data)}]
        return _render_entry(request, state, problems=problems, status=409)
    except ValidationError as exc:
        state = selectors.entry_state(table=table)
        apply_validation_error(form, exc)
        problems = [] if state.game.status == Game.Status.OPEN else exc.messages
        return _render_entry(request, state, hand_form=form, problems=problems, status=422)
    messages.success(request, _saved_text(hand))
    return redirect(_entry_url(table) + "#hand-form")


def _hand_json(hand):
    fields = ("number", *HAND_FIELDS)
    data = {name: getattr(hand, name) for name in fields}
    if hand.has_declarations:
        data.update(declared_a=hand.declared_a, declared_b=hand.declared_b)
    data.update(score_a=hand.score_a, score_b=hand.score_b, nat=hand.nat, text=_describe(hand))
    if hand.offender:  # the seat that reneged, where the player gets the penalty
        data["offender"] = hand.offender
    return data


def _errors_json(messages_, code="invalid"):
    return {"__all__": [{"message": str(m), "code": code} for m in messages_]}


def _saved_text(hand):
    text = _("Hand %(number)s saved: wij %(a)s, zij %(b)s.") % {
        "number": hand.number,
        "a": hand.score_a,
        "b": hand.score_b,
    }
    if services.penalty_missing(hand):
        text += " " + _penalty_missing_text()
    return text


def _penalty_missing_text():
    return _(
        "The player who reneged is not a member of the club here, so no penalty is "
        "given: ask the tournament director to give it on the evening's scores page."
    )


def _refused(request, table, number, errors, *, status, mine=None):
    """A hand that was not stored: why, and the game as stored now, with the stored
    hand of that number (what another device entered) and what the phone's own
    version would bank (``mine``), so the phone shows both and the table chooses."""
    game = table.game
    sync = selectors.sync_state(game=game, number=number)
    body = {
        "ok": False,
        "errors": errors,
        "state": {
            "status": sync.status,
            "version": sync.version,
            "hands": sync.hands,
            "next_number": sync.next_number,
        },
        "current": _hand_json(sync.current) if sync.current else None,
        "mine": None,
        "page": _entry_page(request, table.token),
    }
    if mine is not None and sync.current is not None:
        try:
            result = services.hand_preview(game=game, data=mine, number=sync.current.number)
        except ValidationError:
            pass  # the table's version is not a hand the game can take: no replacing
        else:
            body["mine"] = {"score_a": result.scores[0], "score_b": result.scores[1]}
    return JsonResponse(body, status=status)


def _asked_number(payload):
    number = parse_int(payload.get("number"))
    return number if number is not None and 1 <= number <= 999 else None


def _stored(request, table, hand, *, created):
    """The answer to a stored hand: 201 when stored now, 200 when its ``client_id``
    was stored before; with the page as it is now, for the phone's next hand."""
    page = _entry_page(request, table.token)
    body = {
        "ok": True,
        "created": created,
        "hand": _hand_json(hand),
        "version": page["config"]["version"],
        "message": _saved_text(hand),
        "page": page,
    }
    return JsonResponse(body, status=201 if created else 200)


def _json_body(request):
    """The request's body read as JSON; None when it is not JSON: another content
    type (a form's body, which the CSRF check has already read as a form), not
    UTF-8, not JSON, or nested too deep to read."""
    if request.content_type != "application/json":
        return None
    try:
        return json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


@never_cache
@require_POST
def table_hands_json(request, token):
    """One hand from the page's script, as JSON (a hand entered online or kept on
    the phone while offline). CSRF as for the form: the page's token in the
    ``X-CSRFToken`` header.

    With ``"replace": true`` and the game's ``version`` as the phone last saw it,
    the hand replaces the stored hand of its number: the table chose this phone's
    version of a hand two phones entered differently (a 409 before).

    201: stored; 200: already stored (the same ``client_id`` was sent before);
    409: another device entered that hand number first (the answer has the stored
    hand and what the phone's version would bank), or changed the game before a
    replace, nothing changed; 422: field errors or a hand the game cannot take;
    403: the evening is closed; 400: not a JSON object (or not sent as
    ``application/json``). Every answer but 400 and 403 carries the page as it is
    now (``page``: the sheet, the status line, the confirmation form), so the
    phone moves on without a reload.
    """
    table = _table(token)
    game = table.game
    payload = _json_body(request)
    if not isinstance(payload, dict):
        errors = _errors_json([_("Send one hand as a JSON object.")])
        return JsonResponse({"ok": False, "errors": errors}, status=400)
    # Looked up before the form checks it: a NUL byte, a control character or an
    # overlong id never reaches the query (PostgreSQL refuses NUL in text).
    client_id = clean_line(payload.get("client_id"), max_length=CLIENT_ID_MAX)
    if client_id is not None:
        existing = selectors.hand_by_client_id(game=game, client_id=client_id)
        if existing is not None:
            # Sent before and its answer lost: the stored hand, unchanged.
            return _stored(request, table, existing, created=False)
    number = _asked_number(payload)
    if not table.round.evening.is_open:
        errors = _errors_json([_("This evening is closed; ask the tournament director.")], "closed")
        return JsonResponse({"ok": False, "errors": errors}, status=403)  # no hands, no state
    form = QueuedHandForm(
        payload,
        ask_keeper=not game.scorer_team,
        declared=game.declares_roem(),
        ruleset=game.get_ruleset(),
    )
    if not form.is_valid():
        return _refused(request, table, number, form.errors.get_json_data(), status=422)
    data = form.hand_input()
    replace = payload.get("replace") is True
    try:
        if replace:
            version = parse_int(payload.get("version"))
            if version is None:
                raise ValidationError(_("Reload the page and choose again."))
            hand = services.hand_replace(
                game=game,
                number=form.cleaned_data["number"],
                data=data,
                expected_version=version,
                client_id=form.cleaned_data["client_id"],
                by=request.user,
                actor=_actor(request, table),
            )
            created = True
        else:
            hand, created = services.hand_record_or_get(
                game=game,
                data=data,
                number=form.cleaned_data["number"],
                client_id=form.cleaned_data["client_id"],
                keeper=form.cleaned_data.get("keeper") or "",
                by=request.user,
                actor=_actor(request, table),
            )
    except Conflict as exc:
        stored = selectors.sync_state(game=game, number=number).current if not replace else None
        if stored is not None and services.hand_same_as(hand=stored, data=data):
            # The other phone at the table entered this very hand: it is stored once.
            return _stored(request, table, stored, created=False)
        errors = _errors_json(exc.messages, "conflict")
        return _refused(request, table, number, errors, status=409, mine=data)
    except ValidationError as exc:
        apply_validation_error(form, exc)
        return _refused(request, table, number, form.errors.get_json_data(), status=422)
    # created False: the same hand, sent at once from another request that stored it first.
    return _stored(request, table, hand, created=created)


def _static_source(name):
    path = finders.find(name)
    if path:
        return Path(path).read_bytes()
    from django.contrib.staticfiles.storage import staticfiles_storage

    with staticfiles_storage.open(name) as handle:
        return handle.read()


@require_GET
def entry_service_worker(request):
    """The entry pages' service worker, served under /t/ so that its scope is the
    tables' pages (a worker's scope cannot reach above the folder of its URL)."""
    response = HttpResponse(
        _static_source("js/entry-sw.js"), content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = request.path.rsplit("/", 1)[0] + "/"
    patch_cache_control(response, no_cache=True, max_age=0)
    return response


@never_cache
@require_GET
def table_preview(request, token):
    """What a hand would bank, for the entry page's script: JSON, nothing saved."""
    table = _table(token)
    declared = table.game.declares_roem()
    form = HandForm(request.GET, declared=declared, ruleset=table.game.get_ruleset())
    for name in ("client_id", "version"):
        form.fields.pop(name)
    if not form.is_valid():
        return JsonResponse({"ok": False, "errors": form.errors.get_json_data()})
    try:
        # With the hand's number (the page sends it) the roefel is checked too.
        result = services.hand_preview(
            game=table.game, data=form.hand_input(), number=form.cleaned_data.get("number")
        )
    except ValidationError as exc:
        apply_validation_error(form, exc)
        return JsonResponse({"ok": False, "errors": form.errors.get_json_data()})
    body = {
        "ok": True,
        "a": result.scores[0],
        "b": result.scores[1],
        "nat": result.nat,
        "verzaakt": str(result.verzaakt or ""),
        "playing": str(result.playing),
        "text": _preview_text(result, declared),
    }
    if declared:
        body["roem"] = list(result.roem)  # the roem that counts
    return JsonResponse(body)


@never_cache
@require_POST
def table_undo(request, token):
    table = _table(token)
    if not table.round.evening.is_open:
        return _closed(request, table)
    form = VersionForm(request.POST)
    version = form.cleaned_data["version"] if form.is_valid() else None
    try:
        hand = services.hand_undo(
            game=table.game,
            expected_version=version,
            by=request.user,
            actor=_actor(request, table),
        )
    except ValidationError as exc:
        state = selectors.entry_state(table=table)
        status = 409 if isinstance(exc, Conflict) else 422
        return _render_entry(request, state, problems=exc.messages, status=status)
    messages.success(request, _("Hand %(number)s is removed.") % {"number": hand.number})
    return redirect(_entry_url(table) + "#hand-form")


def _confirms_with_pin(table) -> bool:
    return table.round.evening.competition.club.confirm_with_pin


@never_cache
@require_POST
def table_confirm(request, token):
    table = _table(token)
    if not table.round.evening.is_open:
        return _closed(request, table)
    state = selectors.entry_state(table=table)
    form = ConfirmForm(request.POST, names=state.confirmers, with_pin=_confirms_with_pin(table))
    if not form.is_valid():
        return _render_entry(request, state, confirm_form=form, status=422)
    try:
        game = services.game_confirm(
            game=state.game,
            name=form.cleaned_data["name"],
            pin=form.cleaned_data.get("pin"),
            expected_version=form.cleaned_data["version"],
            by=request.user,
        )
    except ValidationError as exc:
        state = selectors.entry_state(table=table)
        status = 409 if isinstance(exc, Conflict) else 422
        apply_validation_error(form, exc)
        return _render_entry(
            request, state, confirm_form=form, problems=form.non_field_errors(), status=status
        )
    messages.success(
        request,
        _("Confirmed by %(name)s: wij %(a)s, zij %(b)s. Thank you!")
        % {"name": game.confirmed_by, "a": game.total_a, "b": game.total_b},
    )
    return redirect(_entry_url(table))


@club_required(Capability.SCORE)
def table_score(request, club, pk):
    """A scorer's way to any table of the club: checks the role, opens the table's page."""
    table = get_object_or_404(Table, round__evening__competition__club=club, pk=pk)
    return redirect(_entry_url(table))


# --- The round's QR codes ----------------------------------------------------------------


def _round(club, pk):
    return get_object_or_404(
        Round.objects.select_related("evening__competition__club"),
        evening__competition__club=club,
        pk=pk,
    )


def _table_codes(request, round_):
    """Each table's code, its link made absolute from the request: opened on the
    club laptop at its network address, the codes carry that address."""
    return [
        qr.TableCode(
            number=link.table.number,
            url=request.build_absolute_uri(_entry_url(link.table)),
            names_a=tuple(link.names_a),
            names_b=tuple(link.names_b),
        )
        for link in selectors.round_table_links(round_=round_)
    ]


def _is_loopback(request):
    """Opened as localhost, the codes point at the laptop itself: no phone can follow them."""
    return qr.is_loopback_host(request.get_host())


def _network_addresses(request):
    """This page's address at the other hosts the site answers to (on the club
    laptop: its network addresses, which ``make lan`` puts in ALLOWED_HOSTS)."""
    port = split_domain_port(request.get_host())[1]
    suffix = f":{port}" if port else ""
    return [
        f"{request.scheme}://{host}{suffix}{request.path}"
        for host in settings.ALLOWED_HOSTS
        if "." in host and not host.startswith((".", "*")) and not qr.is_loopback_host(host)
    ]


def _no_store(response):
    # The codes are the tables' private links: not for a shared cache or the history.
    patch_cache_control(response, private=True, no_store=True)
    return response


@club_required(Capability.SCORE)
def round_qr(request, club, pk):
    round_ = _round(club, pk)
    codes = _table_codes(request, round_)
    label = _("QR code of table %(number)s")
    cards = [
        {"code": code, "svg": qr.qr_svg(code.url, label=label % {"number": code.number})}
        for code in codes
    ]
    context = {
        "club": club,
        "round": round_,
        "evening": round_.evening,
        "cards": cards,
        "loopback": _is_loopback(request),
        "addresses": _network_addresses(request) if _is_loopback(request) else [],
    }
    return _no_store(render(request, "scoring/round_qr.html", context))


@club_required(Capability.SCORE)
def round_qr_pdf(request, club, pk):
    round_ = _round(club, pk)
    evening = round_.evening
    sheet = qr.CodeSheet(
        title=f"{evening.competition.name} · {date_format(evening.date, 'j F Y')}",
        subtitle=_("Round %(number)s: the tables' links") % {"number": round_.number},
        table_label=_("Table %(number)s"),
        wij=_("wij"),
        zij=_("zij"),
        hint=_("Scan the code with the phone's camera to enter this table's scores."),
        codes=tuple(_table_codes(request, round_)),
        warning=str(qr.LOOPBACK_WARNING) if _is_loopback(request) else "",
    )
    stem = file_stem(club.slug, "round", f"{evening.date:%Y-%m-%d}", round_.number, "qr")
    # The codes are the tables' links: the one download helper stores it nowhere.
    return download(qr.code_sheet_pdf(sheet), stem, "pdf", inline=True)


# --- The director's grid ----------------------------------------------------------------


def _sheet_rows(state, hands, asked):
    if state.length is not None:
        rows = max(state.length, len(hands)) + 1
    else:
        rows = max(20, len(hands) + 4)
    rows = max(rows, parse_int(asked, default=0, maximum=MAX_SHEET_ROWS))
    return min(rows, MAX_SHEET_ROWS)


@club_required(Capability.RUN_COMPETITIONS)
def game_sheet(request, club, pk):
    table = get_object_or_404(
        selectors.table_queryset(), round__evening__competition__club=club, pk=pk
    )
    if getattr(table, "game", None) is None:
        raise Http404
    state = selectors.entry_state(table=table)
    game = state.game
    hands = [row.hand for row in state.hands]
    rows = _sheet_rows(state, hands, request.GET.get("rows"))
    data = request.POST if request.method == "POST" else None
    sheet = ScoreSheet(
        data,
        rows=rows,
        ruleset=state.ruleset,
        hands=hands,
        version=game.version,
        confirm=True,
        style=state.style,
    )
    status = 200
    if data is not None:
        status = 422
        if sheet.is_valid(ruleset=state.ruleset):
            meta = sheet.meta.cleaned_data
            try:
                services.game_enter_sheet(
                    game=game,
                    rows=sheet.hand_inputs(),
                    by=request.user,
                    reason=meta["reason"],
                    expected_version=meta["version"],
                    confirm=meta["confirm"],
                )
            except SheetErrors as exc:
                sheet.non_form_errors.extend(exc.messages)
                for number, error in exc.rows.items():
                    apply_validation_error(sheet.forms[number - 1], error)
            except Conflict as exc:
                sheet.non_form_errors.extend(exc.messages)
                status = 409
            except ValidationError as exc:
                if hasattr(exc, "error_dict"):
                    apply_validation_error(sheet.meta, exc)
                else:
                    sheet.non_form_errors.extend(exc.messages)
            else:
                messages.success(request, _("The sheet of %(table)s is saved.") % {"table": table})
                url = reverse(
                    "scoring:evening-scores",
                    kwargs={"club": club.slug, "pk": table.round.evening_id},
                )
                return redirect(f"{url}#table-{table.pk}")
    context = {
        "club": club,
        "state": state,
        "table": table,
        "game": game,
        "correction": selectors.latest_corrections([game.pk]).get(game.pk),
        "evening": state.evening,
        "sheet": sheet,
        "more_rows": min(rows + 4, MAX_SHEET_ROWS),
    }
    return render(request, "scoring/game_sheet.html", context, status=status)


# --- The evening overview, adjustments and the audit log ------------------------------


def _evening(club, pk):
    return get_object_or_404(
        Evening.objects.select_related("competition__club"), competition__club=club, pk=pk
    )


def _render_overview(request, club, evening, progress, *, form=None, status=200):
    can_manage = may(request.user, club, Capability.RUN_COMPETITIONS)
    if can_manage and form is None:
        form = AdjustmentForm(progress=progress)
    context = {
        "club": club,
        "evening": evening,
        "progress": progress,
        "can_manage": can_manage,
        "form": form,
    }
    return render(request, "scoring/evening_scores.html", context, status=status)


@club_required(Capability.SCORE)
def evening_scores(request, club, pk):
    if request.GET.get("fragment") == "1":
        return _evening_progress(request, club=club, pk=pk)
    return _evening_scores_page(request, club, pk)


@never_cache
def _evening_scores_page(request, club, pk):
    evening = _evening(club, pk)
    progress = selectors.evening_progress(evening=evening)
    return _render_overview(request, club, evening, progress)


def _progress_version(request, club, pk):
    """The fragment is the same for every scorer (and for every director, who also
    sees the sheets' links) until the evening or the club changes."""
    version = tournament_selectors.evening_version(club=club, pk=pk)
    if version is None:
        return None
    manage = may(request.user, club, Capability.RUN_COMPETITIONS)
    return f"f{club.version}.{version}.{int(manage)}"


@versioned(_progress_version, per_viewer=False)
def _evening_progress(request, club, pk):
    """The tables' progress, which the overview polls (``static/js/entry/refresh.js``)."""
    evening = _evening(club, pk)
    progress = selectors.evening_progress(evening=evening, with_adjustments=False)
    context = {
        "club": club,
        "evening": evening,
        "progress": progress,
        "can_manage": may(request.user, club, Capability.RUN_COMPETITIONS),
    }
    return render(request, "scoring/includes/evening_progress.html", context)


@require_POST
@club_required(Capability.RUN_COMPETITIONS)
def evening_adjust(request, club, pk):
    evening = _evening(club, pk)
    progress = selectors.evening_progress(evening=evening)
    form = AdjustmentForm(request.POST, progress=progress)
    if form.is_valid():
        try:
            services.adjustment_record(evening=evening, by=request.user, **form.service_kwargs())
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("The adjustment is recorded."))
            url = reverse("scoring:evening-scores", kwargs={"club": club.slug, "pk": evening.pk})
            return redirect(f"{url}#adjustments")
    return _render_overview(request, club, evening, progress, form=form, status=422)


@club_required(Capability.RUN_COMPETITIONS)
def evening_audit(request, club, pk):
    evening = _evening(club, pk)
    table = None
    asked = request.GET.get("table", "")
    if asked:
        table = get_object_or_404(Table, round__evening=evening, pk=id_or_404(asked))
    entries = AuditTable(selectors.evening_audit(evening=evening, table=table))
    configure_table(request, entries, per_page=50)
    context = {"club": club, "evening": evening, "entries": entries, "table": table}
    return render(request, "scoring/evening_audit.html", context)
