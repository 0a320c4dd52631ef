"""The permission model (docs/permissions.md) as a matrix over every address of the site.

Every route of the URL conf (``conftest.site_routes``), filled with club A's own
objects, is sent as GET and as POST by each kind of person: anonymous, an
account without a role, a member, a scorer, a director, a secretary and the
administrator of club A, the administrator of club B, and a site operator. What
each may do is read from docs/permissions.md: the table at its end says which
capability (or role) each address takes, and the table of capabilities which
roles have it. So a new address fails here until its line is written there, and
a line that says something else than the site does fails too.

Allowed: neither 403 nor the permission check's 404 nor the login page nor 405,
never a 500 (a 404 of a missing object, such as a POST naming no member, is let
in). Refused: a stranger to club A (which is private) gets the permission
check's 404 (``clubs.permissions.NotVisible``), as for a club that does not
exist; one of its people below the role gets 403; a page for any
account sends an anonymous visitor to the login page. A refused request writes
nothing to the database, and neither does a POST to an address that takes none.
"""

import functools
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from clubs.models import Invitation
from clubs.permissions import NotVisible
from tests import factories
from tests.security.conftest import fill, natural_objects, natural_values, send, site_routes

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]

DOC = Path(__file__).resolve().parents[2] / "docs" / "permissions.md"
LINE = re.compile(r"^\| `(?P<name>[\w:-]+)` \| (?P<get>[^|]+) \| (?P<post>[^|]+) \|$")
WORD = re.compile(r"`([^`]+)`")
ROLES = ["member", "scorer", "director", "secretary", "admin"]
#: A line of the document's table of capabilities: the capability, what it is, and a
#: cell per role ("yes" or empty).
CAPABILITY_LINE = re.compile(
    rf"^\| `(?P<name>[\w-]+)` \|(?P<cells>(?:[^|]*\|){{{1 + len(ROLES)}}})$"
)
KINDS = [
    "anonymous",
    "account",
    "member",
    "scorer",
    "director",
    "secretary",
    "admin",
    "other_admin",
    "operator",
]
#: Tables a request may write whatever its answer: the session and the login brake.
BOOKKEEPING = ("django_session", "axes_")


@functools.cache
def capability_table():
    """{capability: {roles that have it}} from the document's table of capabilities
    (read once a run: ``allowed`` and ``refusal`` ask for it on every request)."""
    table = {}
    for text in DOC.read_text(encoding="utf-8").splitlines():
        match = CAPABILITY_LINE.match(text.strip())
        if not match:
            continue
        cells = [cell.strip() for cell in match["cells"].split("|")[1:-1]]
        assert set(cells) <= {"yes", ""}, f"{match['name']}: cells are 'yes' or empty: {cells}"
        table[match["name"]] = {role for role, cell in zip(ROLES, cells, strict=True) if cell}
    assert len(table) > 5, "docs/permissions.md: the table of capabilities is missing"
    return table


def role_capabilities(role):
    """The capabilities of ``role`` by the document's table."""
    return {name for name, roles in capability_table().items() if role in roles}


def club_words():
    """Words of the model that are about a club (or a league of a club): a stranger to a
    private club is refused them with 404."""
    return {"public", "organiser", "team", "captain", *ROLES, *capability_table()}


def known_words():
    return {"anyone", "link", "login", "operator", "off", "—", *club_words()}


@functools.cache
def model_lines():
    """{URL name: (GET word, POST word)} from the document's table."""
    known = known_words()
    lines = {}
    for text in DOC.read_text(encoding="utf-8").splitlines():
        match = LINE.match(text.strip())
        if not match:
            continue
        words = []
        for cell in (match["get"], match["post"]):
            cell = cell.strip()
            found = WORD.findall(cell)
            word = "—" if cell.startswith("`—`") or cell == "—" else (found[0] if found else cell)
            assert word in known, f"{match['name']}: unknown word {word!r} in docs/permissions.md"
            words.append(word)
        assert match["name"] not in lines, f"{match['name']} twice in docs/permissions.md"
        lines[match["name"]] = tuple(words)
    return lines


def capabilities_in_club_a(kind):
    """What ``kind`` may in club A, by the document: its role's capabilities (a site
    operator: every one; anyone else: none)."""
    if kind == "operator":
        return set(capability_table())
    return role_capabilities(kind) if kind in ROLES else set()


def allowed(word, kind):
    held = capabilities_in_club_a(kind)
    if word in ("anyone", "link"):
        return True
    if word == "login":
        return kind != "anonymous"
    if word == "operator":
        return kind == "operator"
    if word == "off":
        return False
    if word == "public":  # club A and its league are private: their people only
        return "view" in held
    if word in ROLES:  # whoever may everything the role may
        return role_capabilities(word) <= held
    if word in capability_table():
        return word in held
    # organiser, team, captain: club A's people who run its competitions and leagues
    return "run-competitions" in held


def refusal(word, kind):
    """The answer a refused request gets: "hidden" (the permission check's 404), 404
    (an address switched off), 403 or "login"."""
    if word == "off":
        return 404
    if word in club_words():
        if kind == "anonymous" or not capabilities_in_club_a(kind):
            return "hidden"
        return 403
    return "login" if kind == "anonymous" else 403


@pytest.fixture(scope="module")
def people(world):
    a, b = world
    a.club.confirm_with_pin = True  # so the PIN page is the admin's, as the model says
    a.club.save(update_fields=["confirm_with_pin"])
    return {
        "anonymous": None,
        "account": factories.user("matrix-account"),
        "member": factories.role(a.club, "member", factories.user("matrix-member")),
        "scorer": a.extra["scorer"],
        "director": factories.role(a.club, "director", factories.user("matrix-director")),
        "secretary": factories.role(a.club, "secretary", factories.user("matrix-secretary")),
        "admin": a.admin,
        "other_admin": b.admin,
        "operator": factories.user("matrix-operator", is_staff=True, is_superuser=True),
    }


@pytest.fixture(scope="module")
def addresses(world):
    """(URL name, path) of every route, filled with club A's own objects (once a
    module: every kind of person tries the same addresses)."""
    a, _b = world
    natural = natural_objects(a)
    invitation = Invitation.objects.filter(club=a.club).open().first()
    natural[("invitation", "token")] = [invitation.token]
    return [(route.name, fill(route, natural_values(route, natural))) for route in site_routes()]


class Writes:
    """The INSERT, UPDATE and DELETE statements a request sends (bookkeeping left out)."""

    def __init__(self):
        self.statements = []

    def __call__(self, execute, sql, params, many, context):
        head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        if head in ("INSERT", "UPDATE", "DELETE") and not any(t in sql for t in BOOKKEEPING):
            self.statements.append(sql[:120])
        return execute(sql, params, many, context)


def _is_login(response):
    return response.status_code == 302 and response["Location"].startswith(
        reverse(settings.LOGIN_URL)
    )


def _answer(response):
    """ "login", "hidden" (the permission check's 404: ``clubs.permissions.NotVisible``),
    or the status code (a 404 of a missing object stays 404)."""
    if _is_login(response):
        return "login"
    context = getattr(response, "context", None)
    if (
        response.status_code == 404
        and context is not None
        and context.get("exception") == NotVisible.__name__
    ):
        return "hidden"
    return response.status_code


def check(kind, user, addresses):
    lines = model_lines()
    client = Client()
    if user is not None:
        client.force_login(user)
    problems = []
    for name, path in addresses:
        if name not in lines:
            problems.append(f"{name}: no line in docs/permissions.md")
            continue
        for method, word in zip(("GET", "POST"), lines[name], strict=True):
            writes = Writes()
            with connection.execute_wrapper(writes):
                response = send(client, method, path)
            if name == "logout" and user is not None:
                client.force_login(user)  # and on with the same person
            answer = _answer(response)
            where = f"{method} {path} ({name}, {word!r}) as {kind}: {answer}"
            if answer == 500 or (isinstance(answer, int) and answer >= 500):
                problems.append(f"{where} {response!r}")
                continue
            if word == "—":
                if method == "GET" and answer != 405:
                    problems.append(f"{where}, expected 405")
                elif method == "POST" and answer != 405 and writes.statements:
                    problems.append(f"{where} wrote {writes.statements[:2]}")
                continue
            if allowed(word, kind):
                if answer in (403, 405, "login", "hidden"):
                    problems.append(f"{where}, expected to be let in")
            else:
                expected = refusal(word, kind)
                if answer != expected:
                    problems.append(f"{where}, expected {expected}")
                elif writes.statements:
                    problems.append(f"{where} (refused) wrote {writes.statements[:2]}")
    return problems


@pytest.mark.parametrize("kind", KINDS)
def test_every_address_answers_each_kind_of_person_as_the_model_says(addresses, people, kind):
    problems = check(kind, people[kind], addresses)
    assert problems == [], "\n".join(problems)


def test_the_model_names_every_address_and_no_other():
    lines = model_lines()
    routes = {route.name for route in site_routes()}
    assert sorted(routes - set(lines)) == []
    assert sorted(set(lines) - routes) == []
    assert len(lines) > 100
