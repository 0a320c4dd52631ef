"""Hostile values in every form find no server error (500).

Every page of the site is opened as club A's admin (and club A's table links as
a phone opens them), every form on it is read from the HTML (its fields'
``name=`` attributes, as a browser would submit it), and then:

- a sweep: each field in turn gets a few values that break careless parsing
  (not a number, with a NUL byte, accents, markup and over 300 characters);
- hypothesis: random mixes of hostile values in several fields at once (huge,
  negative and malformed numbers, unicode, NUL bytes, HTML and script, very
  long strings, lists, impossible dates), bounded and derandomized: the same
  examples every run.

A form may say no (4xx, or the page again with its errors); it may not crash.
The query parameters the pages read (``?period=``, ``?competition=``, ...) get
the sweep's values on every page, all at once. Every request is rolled back, so each one
meets the world as built.

A bug found goes into :data:`KNOWN_BUGS` with a test of its own (``xfail``,
strict) and is left out of the sweeps until it is fixed; the ones found so far
are fixed, and their tests stay at the end as regression tests.
"""

from dataclasses import replace

import pytest
from django.test import Client
from django.urls import resolve, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.conftest import (
    fill,
    natural_objects,
    natural_values,
    send,
    site_routes,
)
from tests.security.forms import page_forms
from tournaments.models import Round

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

EXAMPLES_PER_FORM = 4
#: Forms with more fields than this get the sweep in all fields at once.
SMALL_FORM = 8
#: Every field of every form gets this in turn: no number, a NUL byte, accents,
#: 300+ characters, markup.
SWEEP = ["x\x00" + "é" * 300 + "<b>"]
HOSTILE_TEXT = [
    "",
    " ",
    "0",
    "-1",
    "-0",
    "3.5",
    "1e309",
    "NaN",
    "-inf",
    "9" * 40,
    str(2**31),
    str(2**63),
    str(-(2**63) - 1),
    "0x1F",
    "１２",  # fullwidth digits
    "٣",  # Arabic-Indic three
    "²",  # a superscript two: str.isdigit() is true, int() fails
    "+5",
    "1_000",
    " 12 ",
    "\x00",
    "a\x00b",
    "<script>alert(1)</script>",
    "'\"><img src=x onerror=alert(1)>",
    "{{7*7}}${7*7}%s%n",
    "../../etc/passwd",
    "A" * 100_000,
    "é" * 5_000,
    "🂡" * 1_000,
    "\u202eevil",
    "null",
    "true",
    "[]",
    "2026-02-30",
    "0000-00-00",
    "9999-12-31",
    "99999-01-01",
    "m999999",
    "g999999A",
    "on",
]
VALUE = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(max_size=40),
)
HOSTILE = st.one_of(VALUE, st.lists(VALUE, min_size=2, max_size=3))
#: Query parameters the pages read (``request.GET``): tried on every page.
QUERY_PARAMS = [
    "period",
    "competition",
    "table",
    "rows",
    "fragment",
    "board",
    "wall",
    "sort",
    "page",
    "per_page",
    "rules",
    "next",
    "hand",
]
#: Forms not fuzzed, and why.
NOT_FUZZED = {
    "logout": "ends the session the other forms are posted with",
}
#: (URL name, field or query parameter) that answer 500 today, each with the name
#: of its ``xfail(strict=True)`` test; left out of the sweeps until fixed. The
#: bugs this suite found so far are fixed: their tests are at the end, as
#: regression tests.
KNOWN_BUGS: dict[tuple[str, str], str] = {}
#: URL names whose page answers 500 whatever is sent (same treatment).
KNOWN_PAGE_BUGS: dict[str, str] = {}
FUZZ = settings(
    max_examples=EXAMPLES_PER_FORM,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def _url_name(path):
    match = resolve(path.split("?")[0])
    return match.view_name


def _admin(world):
    client = Client()
    client.force_login(world[0].admin)
    return client


def club_a_pages(world):
    """Every address of club A filled as club A uses it, and its table links."""
    a = world[0]
    natural = natural_objects(a)
    pages = []
    for route in site_routes():
        if route.params and route.params[0] == ("t", "token"):
            if route.route.endswith("<slug:token>/"):
                pages += [fill(route, {"token": token}) for token in natural[("t", "token")]]
            continue
        pages.append(fill(route, natural_values(route, natural)))
    return pages


def open_pages(client, pages):
    """(forms, pages answering 200, their HTML ones, pages answering 500) as ``client``
    opens ``pages``.

    One form per URL name and set of field names (the same form for another
    member or pair is the same code)."""
    forms, opened, html, crashes = {}, [], [], {}
    for path in pages:
        if _url_name(path) in KNOWN_PAGE_BUGS:
            continue
        response = send(client, "GET", path)
        if response.status_code >= 500:
            crashes[f"GET {path}"] = ({}, response)
        if response.status_code != 200:
            continue
        opened.append(path)
        if "text/html" not in response.get("Content-Type", ""):
            continue
        html.append(path)
        for form in page_forms(path, response.content.decode()):
            name = _url_name(form.action)
            if name in NOT_FUZZED or not (form.method == "POST" or form.fields):
                continue
            forms.setdefault((form.method, name, tuple(form.names)), form)
    return list(forms.values()), opened, html, crashes


def _fields(form):
    """The fields to make hostile: not the CSRF token, not a known bug, and of a
    paper sheet's rows only the first (the others are the same fields)."""
    name = _url_name(form.action)
    fields = [*form.names, "unexpected"]
    return [
        f
        for f in fields
        if f != "csrfmiddlewaretoken"
        and (name, f) not in KNOWN_BUGS
        and not (f[:1] == "h" and "-" in f and f.split("-")[0][1:] not in ("", "1"))
    ]


def sweep_forms(client, forms, user=None):
    """Each field of a small form in turn, every field of a large one at once.

    Small forms are the hand-written ones that read ``request.POST`` themselves
    (where one field's value decides which branch reads the next); the large
    ones are model forms, which check every field on its own."""
    crashes = {}
    for form in forms:
        if user is not None:
            client.force_login(user)
        fields = _fields(form)
        for value in SWEEP:
            tries = [{f: value} for f in fields]
            if len(fields) > SMALL_FORM:
                tries = [dict.fromkeys(fields, value)]
            for hostile in tries:
                response = send(client, form.method, form.action, {**form.data(), **hostile})
                if response.status_code >= 500:
                    where = f"{form.method} {form.action} {sorted(hostile)}"
                    crashes.setdefault(where, (hostile, response))
    return crashes


def fuzz_forms(client, forms, user=None):
    """{form: (data, answer)} for each form that answered 500 to some example."""
    crashes = {}
    for form in forms:
        if user is not None:
            client.force_login(user)
        if _fields(form):
            _form_fuzzer(client, form, crashes)()
    return crashes


def _form_fuzzer(client, form, crashes):
    method = "POST" if form.method == "POST" else "GET"

    @FUZZ
    @given(st.dictionaries(st.sampled_from(_fields(form)), HOSTILE, min_size=1, max_size=4))
    def post(hostile):
        response = send(client, method, form.action, {**form.data(), **hostile})
        if response.status_code >= 500:
            crashes.setdefault(f"{method} {form.action} {form.names}", (hostile, response))

    return post


def _query_params(path):
    name = _url_name(path)
    return [p for p in QUERY_PARAMS if (name, p) not in KNOWN_BUGS]


def fuzz_queries(client, pages):
    """{page: (query, answer)} for each page that answered 500 when every query
    parameter the site reads was set at once to each sweep value."""
    crashes = {}
    for path in pages:
        params = _query_params(path)
        for value in SWEEP:
            response = send(client, "GET", path, dict.fromkeys(params, value))
            if response.status_code >= 500:
                crashes.setdefault(f"GET {path}", (value, response))
    return crashes


def _report(crashes):
    return "\n".join(
        f"{where}: {data!r:.200} -> {response!r:.300}"
        for where, (data, response) in crashes.items()
    )


def table_pages(world):
    """Club A's table links: a game in play, one to confirm, one confirmed; and what
    else a table link serves (every route under ``t/<token>/`` answering GET)."""
    pages = []
    for table in world[0].tables:
        for route in site_routes():
            if route.params == (("t", "token"),):
                pages.append(fill(route, {"token": table.token}))
    return pages


# --- The sweeps ------------------------------------------------------------------------


def test_every_page_and_form_of_a_club_admin_takes_hostile_input(world):
    """Every page opens; every page's query parameters and every form's fields
    take hostile values; nothing answers 500."""
    client = _admin(world)
    forms, opened, _html, crashes = open_pages(client, club_a_pages(world))
    assert len(opened) > 60
    names = {_url_name(form.action) for form in forms}
    assert len(names) > 30, sorted(names)
    crashes.update(fuzz_queries(client, opened))
    crashes.update(sweep_forms(client, forms, world[0].admin))
    crashes.update(fuzz_forms(client, forms, world[0].admin))
    assert crashes == {}, _report(crashes)


def test_hostile_values_in_the_table_links_forms_find_no_500(world):
    """The table link's forms (hand, undo, confirm) and the live preview the page's
    script asks with the hand form's fields (GET)."""
    client = Client()
    forms, _opened, _html, crashes = open_pages(client, table_pages(world))
    kinds = {_url_name(form.action) for form in forms}
    assert {"scoring:table-hand", "scoring:table-undo", "scoring:table-confirm"} <= kinds
    hand = next(form for form in forms if _url_name(form.action) == "scoring:table-hand")
    preview = replace(hand, action=hand.action.replace("/hand/", "/preview/"), method="GET")
    assert _url_name(preview.action) == "scoring:table-preview"
    forms.append(preview)
    crashes.update(sweep_forms(client, forms))
    crashes.update(fuzz_forms(client, forms))
    assert crashes == {}, _report(crashes)


# --- Found by the sweeps above, now fixed: kept as regression tests -----------------


def test_trick_checker_with_a_nul_byte_in_the_table_code(world):
    """``trickcheck.club_views.check`` looks the table up by ``?table=`` as given; PostgreSQL
    refuses a NUL byte in a query (DataError, 500). A public page: anyone can.
    SQLite just finds no table (404)."""
    response = send(Client(), "GET", reverse("trickcheck:check"), {"table": "x\x00y"})
    assert response.status_code == 404


def test_login_with_a_nul_byte_in_the_username(db):
    """``clubs.auth.ThrottledAuthenticationForm.clean`` counts failures by the raw
    ``self.data["username"]`` (the field's own NUL check has not stopped it) and
    stores it in ``LoginFailure``: PostgreSQL refuses the NUL byte (DataError, 500).
    Anyone can, on the login page. SQLite stores it and answers the form again."""
    data = {"username": "x\x00y", "password": "wrong"}
    response = send(Client(), "POST", reverse("login"), data)
    assert response.status_code == 200


# --- Found by the sweeps above and fixed (246617b): kept as regression tests -----------


def test_attendance_with_a_member_that_is_no_number(world):
    """``evening_attendance`` looked the member up by ``request.POST["member"]``
    unchecked: a value that is no number raised ValueError (500)."""
    a = world[0]
    url = reverse(
        "tournaments:evening-attendance", kwargs={"club": a.club.slug, "pk": a.evening.pk}
    )
    response = send(_admin(world), "POST", url, {"member": "x", "status": "present"})
    assert response.status_code == 404


def test_seat_swap_with_a_seat_that_is_no_number(world):
    """``seat_swap`` looked the seats up by ``request.POST["first"]``/``["second"]``
    unchecked (500)."""
    a = world[0]
    url = reverse("tournaments:seat-swap", kwargs={"club": a.club.slug, "pk": a.round.pk})
    seat = a.round.seats.first().pk
    client = _admin(world)
    first = send(client, "POST", url, {"first": "x", "second": seat})
    second = send(client, "POST", url, {"first": seat, "second": "x"})
    assert (first.status_code, second.status_code) == (404, 404)


def test_player_page_with_a_competition_that_is_no_number(world):
    """``results_views.player`` passed ``?competition=`` to ``get_object_or_404``
    unchecked (500, for anyone on a public club)."""
    a = world[0]
    url = reverse("results:player", kwargs={"club": a.club.slug, "pk": a.members[0].pk})
    response = send(_admin(world), "GET", url, {"competition": "x"})
    assert response.status_code == 404


def test_standings_with_a_period_that_is_no_number(world):
    """``?period=x`` on the standings page: ``results_views.season_standings`` passed
    it to ``get_object_or_404`` unchecked (500)."""
    a = world[0]
    url = reverse("results:standings", kwargs={"club": a.club.slug, "pk": a.season.pk})
    response = send(_admin(world), "GET", url, {"period": "x"})
    assert response.status_code == 404


def test_club_ranking_with_two_teams_of_one_club_level(world):
    """A club with two teams sharing a place (here: before any match is played)
    broke the league's club ranking: ``league_table.club_ranking`` sorted
    (place, LeagueTeam) tuples, so two equal places compared the teams
    (TypeError, 500 on ``/leagues/<pk>/clubs/``)."""
    league = world[0].extra["league"]
    response = send(_admin(world), "GET", reverse("leagues:club-ranking", kwargs={"pk": league.pk}))
    assert response.status_code == 200


def test_taking_back_a_league_matchs_round(world):
    """Taking back the draw of a league match's round deleted tables that the
    match's ``MatchTable`` rows protect (ProtectedError, 500); it is refused with
    a message now."""
    a = world[0]
    match_round = Round.objects.filter(tables__league_slot__match=a.extra["match"]).first()
    url = reverse("tournaments:round-delete", kwargs={"club": a.club.slug, "pk": match_round.pk})
    response = _admin(world).post(url)
    assert response.status_code in (302, 403, 409, 422)
    assert Round.objects.filter(pk=match_round.pk).exists()


# --- Unicode digits in ids: one parser (common.params) takes ASCII digits only --------

#: ``"²".isdigit()`` is true and ``int("²")`` fails; ``int()`` reads Arabic-Indic and
#: fullwidth digits. None of them is an id.
NOT_ASCII_DIGITS = ["²", "١٢", "１２", "12²"]


def _id_query_cases(a):
    """(method, URL, data) for every page that reads an id from the query or a post."""
    club = a.club.slug
    seat = a.round.seats.order_by("pk").first().pk
    return {
        "standings ?period=": (
            "GET",
            reverse("results:standings", kwargs={"club": club, "pk": a.season.pk}),
            {"period": "{}"},
        ),
        **{
            f"standings.{fmt} ?period=": (
                "GET",
                reverse(f"exports:standings-{fmt}", kwargs={"club": club, "pk": a.season.pk}),
                {"period": "{}"},
            )
            for fmt in ("xlsx", "csv", "pdf")
        },
        "player ?competition=": (
            "GET",
            reverse("results:player", kwargs={"club": club, "pk": a.members[0].pk}),
            {"competition": "{}"},
        ),
        "evening audit ?table=": (
            "GET",
            reverse("scoring:evening-audit", kwargs={"club": club, "pk": a.evening.pk}),
            {"table": "{}"},
        ),
        "seat swap first=": (
            "POST",
            reverse("tournaments:seat-swap", kwargs={"club": club, "pk": a.round.pk}),
            {"first": "{}", "second": seat},
        ),
        "seat swap second=": (
            "POST",
            reverse("tournaments:seat-swap", kwargs={"club": club, "pk": a.round.pk}),
            {"first": seat, "second": "{}"},
        ),
        "attendance member=": (
            "POST",
            reverse("tournaments:evening-attendance", kwargs={"club": club, "pk": a.evening.pk}),
            {"member": "{}", "status": "present"},
        ),
        "merge remove=": (
            "POST",
            reverse("clubs:member-merge", kwargs={"club": club, "pk": a.members[0].pk}),
            {"remove": "{}"},
        ),
    }


ID_CASES = [
    "standings ?period=",
    "standings.xlsx ?period=",
    "standings.csv ?period=",
    "standings.pdf ?period=",
    "player ?competition=",
    "evening audit ?table=",
    "seat swap first=",
    "seat swap second=",
    "attendance member=",
    "merge remove=",
]


@pytest.mark.parametrize("value", NOT_ASCII_DIGITS)
@pytest.mark.parametrize("case", ID_CASES)
def test_an_id_in_other_than_ascii_digits_is_not_found(world, case, value):
    """``?period=²`` on the standings was a 500: the views checked ``isdigit()``,
    then ``int()`` or the database refused the value. Every id now goes through
    ``common.params``: not found (404), or the form's error (200/422)."""
    method, url, data = _id_query_cases(world[0])[case]
    data = {key: value if val == "{}" else val for key, val in data.items()}
    response = send(_admin(world), method, url, data)
    assert response.status_code in (200, 400, 404, 422), response


@pytest.mark.parametrize("value", NOT_ASCII_DIGITS)
def test_the_grids_row_count_in_other_than_ascii_digits_is_the_default(world, value):
    """``?rows=²`` on the director's grid was a 500 (``int("²")``); it is ignored."""
    a = world[0]
    table = a.tables[-1]
    url = reverse("scoring:game-sheet", kwargs={"club": a.club.slug, "pk": table.pk})
    client = _admin(world)
    plain = send(client, "GET", url)
    asked = send(client, "GET", url, {"rows": value})
    assert (asked.status_code, plain.status_code) == (200, 200)
    assert asked.content.count(b"<tr") == plain.content.count(b"<tr")


def test_the_grids_row_count_in_ascii_digits_is_taken(world):
    a = world[0]
    url = reverse("scoring:game-sheet", kwargs={"club": a.club.slug, "pk": a.tables[-1].pk})
    client = _admin(world)
    plain = send(client, "GET", url)
    asked = send(client, "GET", url, {"rows": "60"})
    assert asked.content.count(b"<tr") > plain.content.count(b"<tr")


def test_a_nul_byte_in_the_json_entry_id_is_refused(world):
    """``POST /t/<token>/hands.json`` with ``{"client_id": "x\\u0000y"}`` looked the id
    up before any check: PostgreSQL refuses NUL in text (500); SQLite answered 422."""
    import json

    table = world[0].tables[-1]
    url = reverse("scoring:table-hands-json", kwargs={"token": table.token})
    body = {"client_id": "x\x00y", "number": 1, "playing": "A", "points_a": 100}
    response = send(Client(), "POST", url, json.dumps(body), content_type="application/json")
    assert response.status_code == 422
