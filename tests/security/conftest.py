"""A world to attack: a private club A with everything a club has, and a club B.

Club A (results not public) has members, a season with a period, a pairs
competition with pairs, an evening with 13 players present and round 1 drawn
(3 tables, one player sitting out), a confirmed game, a complete game waiting
for confirmation, a game in play, an adjustment, and a private league it
organises (divisions, teams, players, captains, a seated match). Every name
club A shows contains :data:`MARKER`, so a page that leaks club A's data can be
told by its body.

Club B has its own admin, members, evening, round and tables; its table link
is the "other table" that tries club A's pages.

:func:`site_routes` walks the URL conf; :func:`natural_objects` says which of
club A's objects each URL parameter names. A parameter it does not know fails
the tests, so a new URL is never skipped silently. (Club A's slug has no
marker in it: a 404 page may show the address asked for.)
"""

import datetime
import random
import re
from dataclasses import dataclass, field

import pytest
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver

from clubs.models import Invitation
from clubs.services import invitation_create
from leagues import services as league_services
from leagues.models import Division, LeagueMatch, LeagueTeam, TeamPlayer
from scoring import services as scoring_services
from scoring.demo import play_game
from scoring.models import Hand
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import Competition, Period, Round, Seat, Table

#: Every name club A shows contains this; no outsider's page may.
MARKER = "Zwijgzaam"
#: Top-level URL prefixes not walked: Django's admin, static files, language switch.
SKIPPED_PREFIXES = ("admin/", "static/", "i18n/")
#: A table code no table has.
WRONG_TOKEN = "nietbestaandetafelcode0"


@dataclass
class ClubWorld:
    club: object
    admin: object
    members: list
    season: object
    evening: object
    round: object
    tables: list
    extra: dict = field(default_factory=dict)

    def token(self, index=0):
        return self.tables[index].token


def _club_world(prefix, *, players, name, slug, seed):
    club = factories.club(name=name, slug=slug, results_public=False)
    admin = factories.role(club, "admin", factories.user(f"{slug}-admin"))
    members = [factories.member(club, f"{prefix} Lid {n:02d}") for n in range(1, players + 1)]
    season = factories.competition(club, name=f"{prefix} seizoen")
    evening = factories.evening(season, datetime.date(2026, 10, 6), present=members)
    round_ = tournament_services.round_draw(evening=evening, by=admin, seed=seed)
    tables = list(round_.tables.order_by("number").select_related("game"))
    return ClubWorld(club, admin, members, season, evening, round_, tables)


def build_world():
    """Club A (13 players, private, with a league) and club B (8 players)."""
    rng = random.Random(9)
    a = _club_world(MARKER, players=13, name=f"{MARKER}e Klaverjasclub", slug="stille-club", seed=4)
    invitation_create(club=a.club, role="member", member=a.members[0], by=a.admin)
    ruleset = a.season.ruleset()
    first, second, third = (t.game for t in a.tables)
    factories.game_played(
        first, play_game(ruleset, rng), by=a.admin, confirmed_by=f"{MARKER} Lid 01"
    )
    for row in play_game(ruleset, rng):
        scoring_services.hand_record(game=second, data=row, keeper="A")
    for row in play_game(ruleset, rng)[:3]:
        scoring_services.hand_record(game=third, data=row, keeper="B")
    scoring_services.adjustment_record(
        evening=a.evening,
        kind="verzaken",
        points=-100,
        reason=f"{MARKER}: verzaakt",
        by=a.admin,
        member=a.members[0],
    )
    period = Period.objects.create(
        competition=a.season,
        name=f"{MARKER} najaar",
        start_date=a.season.start_date,
        end_date=datetime.date(2026, 12, 31),
    )
    pairs_season = factories.competition(
        a.club, name=f"{MARKER} parencompetitie", kind=Competition.Kind.PAIRS
    )
    pairs = [
        tournament_services.pair_add(
            competition=pairs_season, first=a.members[i], second=a.members[i + 1], by=a.admin
        )
        for i in (0, 2)
    ]
    scorer = factories.role(a.club, "scorer", factories.user("zwijgzaam-scorer"))
    a.extra.update(
        period=period,
        pairs_season=pairs_season,
        pairs=pairs,
        scorer=scorer,
        **_league(a),
    )
    b = _club_world("Anderlid", players=8, name="Andere Tafel", slug="andere-tafel", seed=5)
    return a, b


def _league(a):
    league = league_services.league_create(
        club=a.club,
        by=a.admin,
        name=f"{MARKER}e bond",
        season="2026-2027",
        start_date=datetime.date(2026, 9, 1),
        end_date=datetime.date(2027, 6, 30),
        hands_per_game=4,
        tables_per_match=2,
        games_per_table=1,
        is_public=False,
    )
    division = league.divisions.get()
    teams, captains = [], []
    for n in (1, 2):
        team = league_services.team_create(
            league=league, division=division, club=a.club, name=f"{MARKER} team {n}", by=a.admin
        )
        for member in factories.members(a.club, 4):
            member.name = f"{MARKER} speler {member.pk}"
            member.save(update_fields=["name"])
            league_services.team_player_add(team=team, member=member, by=a.admin)
        # A captain is an account of the team's club (leagues.services.team_captain_add).
        captain = factories.role(a.club, "member", factories.user(f"zwijgzaam-captain-{n}"))
        league_services.team_captain_add(team=team, user=captain, by=a.admin)
        teams.append(team)
        captains.append(captain)
    league_services.schedule_generate(
        league=league, by=a.admin, start_date=datetime.date(2026, 9, 15), seed=1
    )
    match = LeagueMatch.objects.filter(league=league).order_by("date", "pk").first()
    for side in ("home", "away"):
        team = match.team(side)
        players = [p.member for p in team.players.order_by("pk")]
        league_services.match_lineup_set(match=match, side=side, players=players, by=a.admin)
    return {
        "league": league,
        "division": division,
        "teams": teams,
        "captains": captains,
        "match": match,
    }


@pytest.fixture(scope="module")
def world(module_db):
    """Built once per module (each test's writes are rolled back in its own savepoint):
    the sweeps send hundreds of requests to one world, and building it is a second."""
    return build_world()


# --- The URL conf, walked and filled ------------------------------------------------------

PARAM = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")


@dataclass(frozen=True)
class Route:
    route: str  # "clubs/<slug:club>/evenings/<int:pk>/"
    name: str  # "tournaments:evening-detail"
    params: tuple  # ((previous literal segment, parameter name), ...)


def _walk(patterns, prefix="", namespace=""):
    for pattern in patterns:
        text = str(pattern.pattern)
        if not prefix and text.startswith(SKIPPED_PREFIXES):
            continue
        if isinstance(pattern, URLResolver):
            space = namespace
            if pattern.namespace:
                space = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from _walk(pattern.url_patterns, prefix + text, space)
        elif isinstance(pattern, URLPattern):
            if text.startswith("^"):
                raise AssertionError(f"regex URL pattern {text!r}: teach tests/security")
            route = prefix + text
            name = f"{namespace}:{pattern.name}" if namespace else (pattern.name or "")
            yield Route(route, name, _params(route))


def _params(route):
    """(the literal path segment before it, name) of each parameter."""
    params = []
    for match in PARAM.finditer(route):
        literals = [s for s in route[: match.start()].split("/") if s and "<" not in s]
        params.append((literals[-1] if literals else "", match.group("name")))
    return tuple(params)


def site_routes():
    """Every route of the site but the admin's, static files' and language switch's."""
    seen, routes = set(), []
    for route in _walk(get_resolver().url_patterns):
        if route.route not in seen:  # "accounts/login/" twice: the first one answers
            seen.add(route.route)
            routes.append(route)
    return routes


def fill(route, values):
    """The path of ``route`` with ``values`` ({parameter name: value})."""
    return "/" + PARAM.sub(lambda m: str(values[m.group("name")]), route.route)


def natural_objects(world_a):
    """For each (segment, parameter) of the site: club A's objects it names.

    A URL parameter missing here fails the tests: add it with the objects it
    should be tried with.
    """
    a, extra = world_a, world_a.extra
    club = a.club
    league = extra["league"]
    return {
        ("clubs", "club"): [club.slug],
        ("competitions", "pk"): list(Competition.objects.filter(club=club)),
        ("evenings", "pk"): [a.evening],
        ("rounds", "pk"): _first(a.round, Round.objects.filter(evening__competition__club=club)),
        ("tables", "pk"): _first(
            a.tables[0], Table.objects.filter(round__evening__competition__club=club)
        ),
        ("members", "pk"): list(club.members.all()),
        ("players", "pk"): list(club.members.all()),
        ("pairs", "pair"): extra["pairs"],
        ("periods", "period"): [extra["period"]],
        ("roles", "user_id"): [a.admin, extra["scorer"]],
        ("leagues", "pk"): [league],
        ("divisions", "division"): list(Division.objects.filter(league=league)),
        ("teams", "team"): list(LeagueTeam.objects.filter(league=league)),
        ("matches", "match"): list(LeagueMatch.objects.filter(league=league)),
        ("players", "player"): list(TeamPlayer.objects.filter(team__league=league)),
        ("captains", "user"): extra["captains"],
        ("lineup", "side"): ["home", "away"],
        ("t", "token"): [t.token for t in a.tables],
        ("invitations", "pk"): list(Invitation.objects.filter(club=club)),
        ("invitation", "token"): [WRONG_TOKEN],
        ("reset", "uidb64"): ["MQ"],
        ("reset", "token"): ["set-password"],
    }


def _first(obj, queryset):
    """``obj`` first (the club evening's), then the rest (the league's)."""
    return [obj, *queryset.exclude(pk=obj.pk).order_by("pk")]


def representatives(world_a):
    """One primary key of every kind of club A's objects: tried for every number
    in a URL, so a view that looks up the wrong model still shows up."""
    a = world_a
    objects = [
        a.season,
        a.evening,
        a.round,
        a.tables[0],
        Seat.objects.filter(round=a.round).first(),
        a.tables[0].game,
        Hand.objects.filter(game__table__round=a.round).last(),
        a.members[-1],
        a.extra["pairs"][0],
        a.extra["period"],
        a.extra["league"],
        a.extra["teams"][0],
        a.extra["match"],
        a.admin,
    ]
    return sorted({obj.pk for obj in objects})


def _value(obj):
    return getattr(obj, "pk", obj)


def natural_values(route, natural):
    """The first of club A's objects for every parameter: the URL as club A uses it."""
    values = {}
    for key in route.params:
        if key not in natural:
            raise AssertionError(
                f"{route.route}: parameter {key} is unknown to tests/security/conftest.py"
            )
        values[key[1]] = _value(natural[key][0])
    return values


def candidate_values(route, natural, extra_pks):
    """Fillings of ``route`` to try: every club-A object each parameter names
    (one parameter varied at a time), and every kind's primary key for numbers."""
    base = natural_values(route, natural)
    fillings = [base]
    for (segment, name), converter in zip(route.params, _converters(route), strict=True):
        options = [_value(obj) for obj in natural[(segment, name)]]
        if converter == "int":
            options += extra_pks
        for option in dict.fromkeys(options):
            if option != base[name]:
                fillings.append({**base, name: option})
    return fillings


def names_club_a_object(route, values, natural):
    """Whether a parameter other than the club's slug holds one of club A's objects
    of the kind the URL names (such a URL is club A's, whatever the slug says)."""
    for segment, name in route.params:
        if (segment, name) == ("clubs", "club"):
            continue
        if values[name] in [_value(obj) for obj in natural[(segment, name)]]:
            return True
    return False


def _converters(route):
    return [m.group("converter") or "str" for m in PARAM.finditer(route.route)]


def send(client, method, path, data=None, **extra):
    """One request whose changes are rolled back; an exception is an answer of 500."""
    try:
        with transaction.atomic():
            if method == "GET":
                response = client.get(path, data or {}, **extra)
            else:
                response = client.post(path, data or {}, **extra)
            transaction.set_rollback(True)
    except Exception as exc:  # noqa: BLE001 - a crash is what the tests look for
        response = _Crash(exc)
    return response


class _Crash:
    status_code = 500

    def __init__(self, exc):
        self.exc = exc
        self.content = repr(exc).encode()
        self.headers = {}

    def __getitem__(self, key):
        raise KeyError(key)

    def get(self, key, default=None):
        return default

    def __repr__(self):
        return f"<500 {self.exc!r}>"
