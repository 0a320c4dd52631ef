"""A federation's night: ``python -m bench.federation`` (part of ``make bench``;
``make federation`` runs it alone).

Builds a federation on a throw-away PostgreSQL database (``FED_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/postgres``; a database ``klaverjas_bench_<pid>_…``
is made beside it and dropped afterwards): ``FED_CLUBS`` clubs with ``FED_PLAYERS``
players between them, each club a season of ``FED_HISTORY_EVENINGS`` finished evenings
made in bulk (3 rounds, every player at a table, 16 hands a game:
``bench.standings.season_history``), and tonight an evening in every club with its
round drawn through the services. Then it starts gunicorn (``FED_WORKERS`` ×
``FED_THREADS``, the production settings, 127.0.0.1 only) and plays the night over
HTTP, compressed in time by ``FED_COMPRESS``:

- a table's phone saves a hand every 5–8 minutes (divided by the compression): it
  posts the hand form, follows the redirect to its page;
- readers (``FED_READERS`` per table) load tonight's result, the season standings
  and a player's page in turn, TV boards (``FED_BOARDS``) the live scoreboard and
  directors (``FED_DIRECTORS``, logged in) the scores fragment, each every 15 s
  (divided by the compression). They keep each page's ``ETag`` and
  ``Last-Modified`` and send ``If-None-Match``/``If-Modified-Since`` as a browser
  does, so a ``304`` counts as an answer.

N phones at compression C ask what N × C tables at a real pace ask (the pollers scale
with them), and each evening changes as often per poll as at a real pace; the report
speaks of those real-pace tables. Every step of ``FED_STEPS`` (tables at a real pace)
is measured for ``FED_SECONDS`` seconds after its actors are seated, first on the
site's pages, then with every request sent to a minimal Django view on the same stack
(``bench.federation_site.baseline``: gunicorn, every middleware, the same load shape);
each stops stepping at the first step where an endpoint's p95 exceeds ``FED_P95_MS``
(100) or any request fails. Per endpoint it reports, at the first step (the night),
the rate, p50/p95/p99, errors, share of 304s, the server's CPU ms and SQL queries per
request (from the thread's CPU time and a query counter in a middleware, headers of
the answer: ``bench.federation_site.measured``), all beside the baseline's, and the
tables one box serves at p95 ≤ 100 ms beside the baseline's. Markdown into the
``make bench`` report; ``FED_JSON`` names a file for the whole report as JSON.

Sizes and limits from the environment (``DEFAULTS`` below: the issue's shape, 200
clubs, 8,000 players, 1.92 M hands of history, steps up to 16,000 tables; about 2
minutes of building here): ``FED_HISTORY_EVENINGS`` scales the history (each evening
adds 96,000 hands at the default size), ``FED_SEAT_SECONDS`` the least time newcomers are
given to open their pages, ``FED_SEED`` the draw. ``DJANGO_CACHE_URL`` in the
environment reaches the server as in production.

Bounded: the steps are a fixed list, each phase its seconds, and ``FED_DEADLINE``
(seconds) stops stepping. The load generator is one asyncio loop with a plain
HTTP/1.1 client (a connection a request, as a phone polling every 15 s has); its
own CPU is reported. Exits non-zero on a failed request at the night step or a hand
lost or doubled.

    python -m bench.federation
    FED_CLUBS=20 FED_PLAYERS=800 FED_HISTORY_EVENINGS=4 FED_STEPS=200,400 \\
        python -m bench.federation
"""

import asyncio
import datetime
import json
import math
import os
import random
import secrets
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

from bench import load
from bench.record import record, record_section

#: The issue's shape: 200 clubs, 8,000 players; 500 readers, 200 TV boards and 200
#: directors for 2,000 tables; tables stepping up past 12,000.
DEFAULTS = {
    "FED_DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
    "FED_CLUBS": "200",
    "FED_PLAYERS": "8000",
    "FED_HISTORY_EVENINGS": "20",
    "FED_STEPS": "2000,3000,4000,6000,8000,12000,16000",
    "FED_COMPRESS": "10",
    "FED_READERS": "0.25",
    "FED_BOARDS": "0.1",
    "FED_DIRECTORS": "0.1",
    "FED_WORKERS": "4",
    "FED_THREADS": "4",
    "FED_SECONDS": "20",
    "FED_SEAT_SECONDS": "3",
    "FED_P95_MS": "100",
    "FED_DEADLINE": "1200",
    "FED_SEED": "2028",
}
#: Response headers of ``bench.federation_site.measured``: the server's CPU time
#: (microseconds, of the thread that answered, from the first middleware in to the
#: last out) and the SQL queries of the request.
CPU_HEADER = "X-Bench-CPU-us"
QUERIES_HEADER = "X-Bench-Queries"
#: The minimal view (``bench.federation_site.baseline``).
BASELINE_PATH = "/bench/baseline/"
HAND_SECONDS = (300, 480)  # a table saves a hand every 5-8 minutes
POLL_SECONDS = 15
ROUNDS, HANDS = 3, 16

ENDPOINTS = {
    "save": "hand save (POST)",
    "table": "table page (GET)",
    "result": "evening result (GET)",
    "standings": "season standings (GET)",
    "player": "player page (GET)",
    "board": "TV board (GET)",
    "fragment": "director fragment (GET)",
}
SETTINGS = load.settings_text(
    "production",
    'MIDDLEWARE = ["bench.federation_site.measured", *MIDDLEWARE]\n'
    'ROOT_URLCONF = "bench.federation_site"\n',
)


def config(environ=None):
    environ = {**DEFAULTS, **{k: v for k, v in (environ or os.environ).items() if k in DEFAULTS}}
    number = {k: float(v) for k, v in environ.items() if k not in ("FED_DATABASE_URL", "FED_STEPS")}
    steps = sorted({int(s) for s in environ["FED_STEPS"].split(",") if s.strip()})
    conf = {
        "database_url": environ["FED_DATABASE_URL"],
        "steps": steps,
        **{k[4:].lower(): v for k, v in number.items()},
    }
    for name in ("clubs", "players", "history_evenings", "workers", "threads", "seed"):
        conf[name] = int(conf[name])
    if not (
        conf["clubs"] >= 1
        and 0 <= conf["history_evenings"] <= 39
        and 1 <= len(steps) <= 12
        and conf["deadline"] <= 3600
    ):
        raise SystemExit(
            "FED_CLUBS >= 1, FED_HISTORY_EVENINGS 0 to 39, 1 to 12 FED_STEPS, "
            "FED_DEADLINE <= 3600 s"
        )
    return conf


# --- The federation ------------------------------------------------------------------------


def build(conf, phones):
    """Clubs, players, a season of history each, and tonight's evenings with ``phones``
    tables between them; (clubs, every table's plan in the order the steps take them)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from bench.standings import season_history
    from clubs.models import Club, ClubRole, Member
    from scoring.results.services import evening_totals_store
    from tournaments import services
    from tournaments.models import Evening

    rng = random.Random(conf["seed"])
    clubs_n = conf["clubs"]
    per_club = max(4, conf["players"] // clubs_n // 4 * 4)
    tables_per_club = math.ceil(phones / clubs_n)
    # Hands enough for the longest a phone may play, every step's site phase (its
    # window and the seating before it); a phone whose game is played out stops saving.
    longest = len(conf["steps"]) * (conf["seconds"] + 5 * conf["seat_seconds"] + 10)
    hands = max(HANDS, math.ceil(longest * conf["compress"] / HAND_SECONDS[0]) + 1)
    first = datetime.date(2026, 9, 1)
    tonight = first + datetime.timedelta(weeks=conf["history_evenings"])
    clubs, plans = [], []
    with transaction.atomic():
        made = Club.objects.bulk_create(
            Club(name=f"Club {n:03d}", slug=f"club-{n:03d}", results_public=True)
            for n in range(clubs_n)
        )
        users = get_user_model().objects.bulk_create(
            get_user_model()(username=f"director-{n:03d}", password=make_password(None))
            for n in range(clubs_n)
        )
        ClubRole.objects.bulk_create(
            ClubRole(club=club, user=user, role=ClubRole.Role.DIRECTOR)
            for club, user in zip(made, users, strict=True)
        )
        for n, (club, director) in enumerate(zip(made, users, strict=True)):
            members = Member.objects.bulk_create(
                Member(club=club, name=f"Speler {club.pk}-{m:03d}")
                for m in range(max(per_club, 4 * tables_per_club))
            )
            competition = services.competition_create(
                club=club,
                by=director,
                name="Seizoen",
                start_date=first,
                end_date=first + datetime.timedelta(weeks=40),
                hands_per_game=hands,
                rounds_per_evening=ROUNDS,
            )
            if conf["history_evenings"]:
                season_history(
                    competition,
                    members[:per_club],
                    evenings=conf["history_evenings"],
                    rounds=ROUNDS,
                    hands=HANDS,
                    rng=rng,
                    first=first,
                )
            evening = services.evening_create(competition=competition, date=tonight, by=director)
            club_plans = load.draw_and_plan(
                evening, members[: 4 * tables_per_club], director, conf["seed"] + n, hands, games=4
            )
            clubs.append(
                {
                    "slug": club.slug,
                    "evening": evening.pk,
                    "competition": competition.pk,
                    "players": [m.pk for m in members[:per_club]],
                    "session": director_session(director),
                }
            )
            plans.append(club_plans)
        evening_totals_store(Evening.objects.filter(status=Evening.Status.FINISHED).values("pk"))
    # Table 1 of every club first, then table 2 of every club, ...: every club plays at
    # every step.
    ordered = [p for row in zip(*plans, strict=True) for p in row]
    return clubs, ordered[:phones], hands


def director_session(user):
    """A logged-in session of ``user`` (made here: no password hash, no login request)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return {settings.SESSION_COOKIE_NAME: store.session_key}


def hands_stored(clubs):
    from scoring.models import Hand

    return Hand.objects.filter(
        game__table__round__evening_id__in=[c["evening"] for c in clubs]
    ).count()


# --- The load generator --------------------------------------------------------------------


class Window:
    """Every answer while a phase is measured: latency, status, the server's CPU and
    queries (its headers), by endpoint; and every hand saved in a site phase."""

    def __init__(self):
        self.open_at = self.close_at = None
        self.rows = defaultdict(list)  # kind -> (seconds, status, cpu_us, queries)
        self.errors = defaultdict(int)
        self.samples = []
        self.saved = 0

    def counts(self, started):
        return self.open_at is not None and self.open_at <= started < (self.close_at or 1e18)

    def add(self, kind, started, seconds, status, headers):
        if self.counts(started):
            cpu = headers.get(CPU_HEADER.lower())
            queries = headers.get(QUERIES_HEADER.lower())
            self.rows[kind].append(
                (seconds, status, int(cpu) if cpu else None, int(queries) if queries else None)
            )

    def error(self, kind, started, what):
        if self.counts(started):
            self.errors[kind] += 1
            if len(self.samples) < 10:
                self.samples.append(f"{ENDPOINTS.get(kind, kind)}: {what}")


class Device:
    """A browser: its cookies and, per page, the last ETag and Last-Modified."""

    def __init__(self, port, cookies=None):
        self.port = port
        self.cookies = dict(cookies or {})
        self.validators = {}

    async def request(self, window, kind, method, path, fields=None, expect=(200,)):
        """(status, headers, body) of the answer; None after an error (counted)."""
        body = urlencode(fields).encode() if fields is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {load.HOST}", "Connection: close"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        etag, modified = self.validators.get(path, (None, None))
        if etag:
            lines.append(f"If-None-Match: {etag}")
        if modified:
            lines.append(f"If-Modified-Since: {modified}")
        if fields is not None:
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Origin: http://{load.HOST}",
            ]
        lines.append(f"Content-Length: {len(body)}")
        started = time.monotonic()
        try:
            async with asyncio.timeout(30):
                status, headers, text = await exchange(
                    self.port, ("\r\n".join(lines) + "\r\n\r\n").encode() + body
                )
        except (OSError, ValueError, TimeoutError) as exc:
            window.error(kind, started, f"{method} {path}: {exc!r}")
            return None
        window.add(kind, started, time.monotonic() - started, status, headers)
        for value in headers.get("set-cookie", []):
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.coded_value
        if method == "GET" and status == 200:
            self.validators[path] = (headers.get("etag"), headers.get("last-modified"))
        if status not in expect:
            window.error(kind, started, f"{method} {path}: {status}, expected {expect}")
            return None
        return status, headers, text


async def exchange(port, request):
    """Send ``request`` on a new connection; the answer's (status, headers, body text).
    Headers by lower-case name; ``set-cookie`` a list."""
    reader, writer = await asyncio.open_connection(load.HOST, port)
    try:
        writer.write(request)
        data = await reader.read()
    finally:
        writer.close()
    if not data:
        raise ValueError("the connection closed without an answer")
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {"set-cookie": []}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        if name == "set-cookie":
            headers[name].append(value)
        else:
            headers[name] = value
    if headers.get("transfer-encoding") == "chunked":
        body = dechunk(body)
    return status, headers, body.decode("utf-8", "replace")


def dechunk(body):
    out, rest = [], body
    while rest:
        size, _, rest = rest.partition(b"\r\n")
        size = int(size.split(b";")[0], 16)
        if not size:
            break
        out.append(rest[:size])
        rest = rest[size + 2 :]
    return b"".join(out)


@dataclass
class Phone:
    """A table's phone: its page's form, the hands it saves in turn."""

    port: int
    plan: dict
    page_path: str
    hand_path: str
    hands: int
    device: Device = None
    page: str = ""
    saved: int = 0

    def __post_init__(self):
        self.device = Device(self.port)

    async def open(self, window):
        answer = await self.device.request(window, "table", "GET", self.page_path)
        self.page = answer[2] if answer else ""

    async def run(self, window, stop, seat_seconds, compress, rng):
        low, high = (s / compress for s in HAND_SECONDS)
        if not self.page:
            if await stop.pause(rng.uniform(0, seat_seconds)):
                return
            await self.open(window)
        # The phones' saves fall anywhere in their 5-8 minutes, not all at once.
        if await stop.pause(rng.uniform(0, high)):
            return
        while True:
            await self.save(window)
            if await stop.pause(rng.uniform(low, high)):
                return

    async def save(self, window):
        token = load.CSRF_FIELD.search(self.page)
        hidden = dict(load.HIDDEN.findall(self.page))
        number = int(hidden.get("number") or 0)
        if token is None or not number:
            await self.open(window)
            return
        if number > self.hands:
            return  # the game is played out
        deal = self.plan["deals"][(number - 1) % len(self.plan["deals"])]
        fields = load.hand_form(token.group(1), hidden, deal)
        answer = await self.device.request(window, "save", "POST", self.hand_path, fields, (302,))
        if answer is None:
            self.page = ""
            return
        window.saved += 1
        self.saved += 1
        location = answer[1].get("location", self.page_path)
        answer = await self.device.request(window, "table", "GET", location)
        self.page = answer[2] if answer else ""


@dataclass
class Poller:
    """A reader, TV board or director: its pages (kind, path) in turn, every 15 s."""

    port: int
    pages: list
    cookies: dict = field(default_factory=dict)
    device: Device = None
    turn: int = 0

    def __post_init__(self):
        self.device = Device(self.port, self.cookies)

    async def run(self, window, stop, seat_seconds, compress, rng):
        interval = POLL_SECONDS / compress
        if await stop.pause(rng.uniform(0, interval)):
            return
        while True:
            kind, path = self.pages[self.turn % len(self.pages)]
            self.turn += 1
            await self.device.request(window, kind, "GET", path, expect=(200, 304))
            if await stop.pause(rng.uniform(0.8 * interval, 1.2 * interval)):
                return


class Stop:
    """The end of a phase: actors asleep then stop at once, one in a request after it."""

    def __init__(self):
        self.stopped = False
        self.sleeping = set()

    async def pause(self, seconds):
        """Sleep ``seconds``; True when the phase ended meanwhile."""
        if self.stopped:
            return True
        task = asyncio.current_task()
        self.sleeping.add(task)
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            if not self.stopped:
                raise
            task.uncancel()
        finally:
            self.sleeping.discard(task)
        return self.stopped

    def set(self):
        self.stopped = True
        for task in list(self.sleeping):
            task.cancel()


class Crowd:
    """Everyone of one phase kind (the site's pages or the baseline), made as the steps
    need them and kept from step to step (their pages, cookies and validators)."""

    def __init__(self, port, clubs, plans, hands, conf, baseline):
        self.port, self.clubs, self.plans, self.hands = port, clubs, plans, hands
        self.conf, self.baseline = conf, baseline
        self.phones, self.pollers = [], {"reader": [], "board": [], "director": []}
        self.rng = random.Random(conf["seed"] + baseline)

    def url(self, kind, path):
        return f"{BASELINE_PATH}?as={kind}" if self.baseline else path

    def sizes(self, tables):
        phones = math.ceil(tables / self.conf["compress"])
        share = {"reader": "readers", "board": "boards", "director": "directors"}
        return phones, {k: max(1, round(phones * self.conf[v])) for k, v in share.items()}

    def grow(self, tables):
        phones, pollers = self.sizes(tables)
        for plan in self.plans[len(self.phones) : phones]:
            token = plan["token"]
            self.phones.append(
                Phone(
                    self.port,
                    plan,
                    self.url("table", f"/t/{token}/"),
                    self.url("save", f"/t/{token}/hand/"),
                    self.hands,
                )
            )
        for kind, count in pollers.items():
            have = self.pollers[kind]
            for n in range(len(have), count):
                club = self.clubs[n % len(self.clubs)]
                have.append(Poller(self.port, self.pages(kind, club), self.cookies(kind, club)))
        return self.phones[:phones] + [p for k, c in pollers.items() for p in self.pollers[k][:c]]

    def pages(self, kind, club):
        base = f"/clubs/{club['slug']}"
        if kind == "board":
            return [
                ("board", self.url("board", f"{base}/evenings/{club['evening']}/result/?board=1"))
            ]
        if kind == "director":
            path = f"{base}/evenings/{club['evening']}/scores/?fragment=1"
            return [("fragment", self.url("fragment", path))]
        player = self.rng.choice(club["players"])
        return [
            ("result", self.url("result", f"{base}/evenings/{club['evening']}/result/")),
            (
                "standings",
                self.url("standings", f"{base}/competitions/{club['competition']}/standings/"),
            ),
            ("player", self.url("player", f"{base}/players/{player}/")),
        ]

    def cookies(self, kind, club):
        return club["session"] if kind == "director" else {}


async def phase(crowd, tables, server_pid):
    """One measured phase of ``tables`` real-pace tables: seat the newcomers, measure
    ``FED_SECONDS``, let every request in flight finish. Its figures."""
    conf = crowd.conf
    window = Window()
    stop = Stop()
    before = len(crowd.phones)
    actors = crowd.grow(tables)
    phones = sum(1 for a in actors if isinstance(a, Phone))
    new = max(0, phones - before)
    # Newcomers open their table's page spread over a few seconds (at most about twice
    # the steady rate of table pages) before the window opens.
    mean = sum(HAND_SECONDS) / 2 / conf["compress"]
    seat = max(conf["seat_seconds"], new * mean / (2 * phones))
    rng = crowd.rng
    tasks = [
        asyncio.create_task(
            a.run(window, stop, seat, conf["compress"], random.Random(rng.random()))
        )
        for a in actors
    ]
    await asyncio.sleep(seat + 0.5)
    cpu0 = cpu_now(server_pid)
    window.open_at = time.monotonic()
    await asyncio.sleep(conf["seconds"])
    window.close_at = time.monotonic()
    cpu1 = cpu_now(server_pid)
    stop.set()
    _done, pending = await asyncio.wait(tasks, timeout=35)
    for task in pending:
        task.cancel()
        window.errors["hung"] += 1
    for task in _done:
        if task.exception() is not None:
            window.errors["crashed"] += 1
            window.samples.append(repr(task.exception()))
    seconds = window.close_at - window.open_at
    return summary(window, seconds, tables, phones, cpu0, cpu1, conf)


def cpu_now(server_pid):
    """CPU seconds so far: the server's, this load generator's, the database server's,
    and the machine's (busy, total)."""
    return (
        load.group_cpu(server_pid),
        load.own_cpu(),
        load.command_cpu("postgres"),
        load.machine_cpu(),
    )


def percentile(values, q):
    return load.percentile(values, q)


def summary(window, seconds, tables, phones, cpu0, cpu1, conf):
    endpoints = {}
    total = 0
    for kind in ENDPOINTS:
        rows = window.rows.get(kind, [])
        total += len(rows)
        times = [r[0] for r in rows]
        cpu = [r[2] for r in rows if r[2] is not None]
        queries = [r[3] for r in rows if r[3] is not None]
        endpoints[kind] = {
            "count": len(rows),
            "rate": round(len(rows) / seconds, 2),
            "p50_ms": ms(percentile(times, 0.50)),
            "p95_ms": ms(percentile(times, 0.95)),
            "p99_ms": ms(percentile(times, 0.99)),
            "errors": window.errors.get(kind, 0),
            "not_modified": round(sum(1 for r in rows if r[1] == 304) / max(1, len(rows)), 3),
            "cpu_ms": round(sum(cpu) / len(cpu) / 1000, 2) if cpu else None,
            "queries": round(sum(queries) / len(queries), 2) if queries else None,
        }
    server = cpu1[0] - cpu0[0]
    busy = cpu1[3][0] - cpu0[3][0]
    errors = sum(window.errors.values())
    worst = max(endpoints, key=lambda k: endpoints[k]["p95_ms"] or 0)
    return {
        "tables": tables,
        "phones": phones,
        "seconds": round(seconds, 1),
        "requests": total,
        "rate": round(total / seconds, 1),
        "errors": errors,
        "error_samples": window.samples,
        "endpoints": endpoints,
        "worst": worst,
        "worst_p95_ms": endpoints[worst]["p95_ms"],
        "server_cores": round(server / seconds, 2),
        "server_cpu_ms": round(1000 * server / max(1, total), 2),
        "load_generator_cores": round((cpu1[1] - cpu0[1]) / seconds, 2),
        "database_cores": round((cpu1[2] - cpu0[2]) / seconds, 2),
        "machine_busy_cores": round(busy / seconds, 2),
        "saved": window.saved,
        "ok": errors == 0
        and all(not e["count"] or e["p95_ms"] <= conf["p95_ms"] for e in endpoints.values()),
    }


def shown(value):
    return "–" if value is None else value


def ms(seconds):
    return None if seconds is None else round(seconds * 1000, 1)


async def night(conf, port, server_pid, clubs, plans, hands, deadline):
    """Every step, the site then the baseline, until each is over its p95 or fails."""
    crowds = {
        "site": Crowd(port, clubs, plans, hands, conf, baseline=False),
        "baseline": Crowd(port, clubs, plans, hands, conf, baseline=True),
    }
    steps = {"site": [], "baseline": []}
    saved = 0
    for tables in conf["steps"]:
        for name, crowd in crowds.items():
            done = steps[name]
            if (done and not done[-1]["ok"]) or time.monotonic() > deadline:
                continue
            result = await phase(crowd, tables, server_pid)
            saved += result["saved"] if name == "site" else 0
            print(
                f"{name:>8} {tables:>6} tables ({result['phones']} phones): {result['rate']} req/s,"
                f" worst p95 {result['worst_p95_ms']} ms ({ENDPOINTS[result['worst']]}),"
                f" {result['errors']} errors, cores: server {result['server_cores']},"
                f" database {result['database_cores']},"
                f" load generator {result['load_generator_cores']},"
                f" machine {result['machine_busy_cores']}",
                flush=True,
            )
            for line in result["error_samples"][:5]:
                print("    " + line)
            done.append(result)
    phone_saves = sum(p.saved for p in crowds["site"].phones)
    return steps, phone_saves


def served(steps):
    """The most tables of a step at p95 within the limit and no error, before the
    first that is not; with whether every step passed (then it is a lower bound)."""
    best = 0
    for step in steps:
        if not step["ok"]:
            return best, False
        best = step["tables"]
    return best, True


# --- The report ----------------------------------------------------------------------------


def markdown(report):
    conf = report["config"]
    site, base = report["steps"]["site"], report["steps"]["baseline"]
    night_site, night_base = site[0], base[0]
    lines = [
        f"### Federation night: {conf['clubs']} clubs, {report['players']:,} players, "
        f"{report['history_hands']:,} hands of history; gunicorn {conf['workers']}×"
        f"{conf['threads']}, production settings, PostgreSQL",
        "",
        f"Compressed {conf['compress']:g}×: {night_site['phones']} phones saving a hand every "
        f"{HAND_SECONDS[0] / conf['compress']:g}–{HAND_SECONDS[1] / conf['compress']:g} s ask what "
        f"{night_site['tables']:,} tables at a real pace ask; pollers every "
        f"{POLL_SECONDS / conf['compress']:g} s. {conf['seconds']:g} s measured a step. "
        "Baseline: the same load shape answered by a minimal Django view on the same stack; "
        "ratio = site / baseline.",
        "",
        f"At {night_site['tables']:,} tables: {night_site['rate']} requests/s "
        f"(baseline {night_base['rate']}), server {night_site['server_cores']} cores "
        f"({night_site['server_cpu_ms']} ms CPU a request by process accounting; baseline "
        f"{night_base['server_cores']} cores, {night_base['server_cpu_ms']} ms), PostgreSQL "
        f"{night_site['database_cores']} cores (baseline {night_base['database_cores']}), "
        f"load generator {night_site['load_generator_cores']} cores, the whole machine "
        f"{night_site['machine_busy_cores']} of {os.cpu_count()} busy.",
        "",
        "| endpoint | req/s | p50 ms | p95 ms | p99 ms | errors | 304s | CPU ms/req "
        "| queries/req | baseline req/s | baseline p95 ms | baseline CPU ms | baseline queries "
        "| p95 ratio | p99 ratio | CPU ratio |",
        "|---|" + "---:|" * 15,
    ]
    for kind, label in ENDPOINTS.items():
        s, b = night_site["endpoints"][kind], night_base["endpoints"][kind]
        cells = [s["rate"], s["p50_ms"], s["p95_ms"], s["p99_ms"], s["errors"]]
        cells += [f"{s['not_modified']:.0%}", s["cpu_ms"], s["queries"]]
        cells += [b["rate"], b["p95_ms"], b["cpu_ms"], b["queries"]]
        cells += [ratio(s[k], b[k]) for k in ("p95_ms", "p99_ms", "cpu_ms")]
        lines.append(f"| {label} | " + " | ".join(str(shown(c)) for c in cells) + " |")
    (site_n, _), (base_n, _) = served(site), served(base)
    lines += [
        "",
        f"Tables one box serves at p95 ≤ {conf['p95_ms']:g} ms with no error: "
        f"{served_text(site, conf)} (baseline {served_text(base, conf)}; "
        f"ratio {shown(ratio(site_n, base_n) or None)}).",
        "",
        "| tables | phase | req/s | worst p95 ms | endpoint | errors | server cores "
        "| database cores | ok |",
        "|---:|---|---:|---:|---|---:|---:|---:|---|",
    ]
    for name, steps in report["steps"].items():
        for step in steps:
            lines.append(
                f"| {step['tables']:,} | {name} | {step['rate']} | {step['worst_p95_ms']} "
                f"| {ENDPOINTS[step['worst']]} | {step['errors']} | {step['server_cores']} "
                f"| {step['database_cores']} | {'yes' if step['ok'] else 'no'} |"
            )
    lines += [
        "",
        f"Hands saved {report['phone_saves']:,}, stored {report['hands_stored']:,}; "
        f"built in {report['build_seconds']} s.",
    ]
    return "\n".join(lines) + "\n"


def served_text(steps, conf):
    """The tables served, said: "≥ 16,000" when every step passed, "< 2,000" when the
    first did not."""
    tables, every = served(steps)
    if not tables:
        return f"< {conf['steps'][0]:,}"
    return f"{'≥ ' if every else ''}{tables:,}"


def ratio(value, baseline):
    return f"{value / baseline:.3g}" if value is not None and baseline else ""


def record_figures(report):
    conf = report["config"]
    bench = f"federation night ({report['steps']['site'][0]['tables']:,} tables, PostgreSQL)"
    night_site, night_base = report["steps"]["site"][0], report["steps"]["baseline"][0]
    for kind, label in ENDPOINTS.items():
        s, b = night_site["endpoints"][kind], night_base["endpoints"][kind]
        for figure, unit, key in (("p95", "ms", "p95_ms"), ("CPU a request", "ms", "cpu_ms")):
            if s[key] is not None:
                record(
                    bench,
                    f"{label} {figure}",
                    s[key],
                    unit,
                    baseline=b[key],
                    baseline_name=f"minimal view {figure}",
                    lower_is_better=True,
                )
    (site_n, _), (base_n, _) = served(report["steps"]["site"]), served(report["steps"]["baseline"])
    record(
        bench,
        f"tables served at p95 ≤ {conf['p95_ms']:g} ms",
        site_n,
        "tables",
        baseline=base_n,
        baseline_name="minimal view",
    )
    record_section(markdown(report))


# --- One run -------------------------------------------------------------------------------


def run(conf):
    started = time.monotonic()
    deadline = started + conf["deadline"]
    tmp = Path(tempfile.mkdtemp(prefix="klaverjas-federation-"))
    (tmp / "data").mkdir()
    os.environ.update(
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS=load.HOST,
        DJANGO_SECURE_SSL_REDIRECT="0",
    )
    database_url, drop = load.prepare_database(
        "postgres", conf["database_url"], tmp, prefix="klaverjas_bench"
    )
    server = None
    try:
        load.setup_django(tmp, database_url, SETTINGS)
        from django.db import connections

        from scoring.models import Hand

        phones = math.ceil(conf["steps"][-1] / conf["compress"])
        clubs, plans, hands = build(conf, phones)
        history = Hand.objects.count()
        players = sum(len(c["players"]) for c in clubs)
        build_seconds = round(time.monotonic() - started, 1)
        print(f"built {len(clubs)} clubs, {players} players, {history} hands in {build_seconds} s")
        connections.close_all()
        port = load.free_port()
        env = {**os.environ, "PYTHONPATH": f"{load.ROOT}{os.pathsep}{tmp}"}
        server = load.start_server(tmp, port, conf["workers"], env, threads=conf["threads"])
        load.wait_until_up(server, port, deadline)
        asyncio.run(warm_up(port, clubs, plans, conf))
        steps, phone_saves = asyncio.run(
            night(conf, port, server.pid, clubs, plans, hands, deadline)
        )
        load.stop_server(server)
        server = None
        stored = hands_stored(clubs)
        connections.close_all()
        return {
            "config": conf,
            "players": players,
            "history_hands": history,
            "build_seconds": build_seconds,
            "steps": steps,
            "phone_saves": phone_saves,
            "hands_stored": stored,
            "total_seconds": round(time.monotonic() - started, 1),
        }
    finally:
        if server is not None:
            load.stop_server(server)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001, S110 - Django may not be set up
            pass
        drop()
        shutil.rmtree(tmp, ignore_errors=True)


async def warm_up(port, clubs, plans, conf):
    """Every thread of every worker answers each kind of page once before the steps
    (a real night has run for hours), not counted."""
    crowd = Crowd(port, clubs[:1], plans[:1], 1, conf, baseline=False)
    window = Window()
    pages = [
        page for kind in ("reader", "board", "director") for page in crowd.pages(kind, clubs[0])
    ]
    pages += [("table", f"/t/{plans[0]['token']}/"), ("base", f"{BASELINE_PATH}?as=table")]

    async def visit():
        device = Device(port, clubs[0]["session"])
        for kind, path in pages:
            await device.request(window, kind, "GET", path)

    await asyncio.gather(*(visit() for _ in range(conf["workers"] * conf["threads"])))


def main():
    conf = config()
    if not load.reachable(conf["database_url"]):
        print(
            f"federation night skipped: no PostgreSQL at {conf['database_url']} (FED_DATABASE_URL)"
        )
        return 0
    report = run(conf)
    text = markdown(report)
    print("\n" + text)
    record_figures(report)
    if os.environ.get("FED_JSON"):
        Path(os.environ["FED_JSON"]).write_text(json.dumps(report, indent=2))
    night_site = report["steps"]["site"][0]
    failed = night_site["errors"] or report["steps"]["baseline"][0]["errors"]
    if report["phone_saves"] != report["hands_stored"]:
        print(f"{report['phone_saves']} hands saved, {report['hands_stored']} stored")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
