"""A club evening under load: ``make load``.

Starts the site under gunicorn (sync workers, 3 as ``make lan`` runs it; the
app preloaded so they start at once) on 127.0.0.1 only, with the club-laptop
settings, SQLite in WAL mode in a
temporary data folder (``--backends postgres`` with ``--database-url``: a
throw-away database on that PostgreSQL server instead). Through the services it
makes one evening of ``--tables`` tables (4 players each, one round of
``--hands`` hands), then plays it over HTTP as the hall does:

- one thread per table is the scorer's phone: it opens the table's link (GET,
  for the CSRF cookie and the form), saves every hand by posting the form,
  follows the redirect back to the page, and at the end a player of the other
  team confirms. Think time between hands is compressed (``--think`` seconds
  on average instead of minutes);
- reader threads refresh the public pages (evening result as a scoreboard,
  season standings), the director's overview (logged in, page and its 15 s
  fragment) and, as the baseline, a static file.

It reports requests per second, the 50th/95th/99th percentile latency of each
kind of request, every error, who used the CPU meanwhile (the site, the load
generator, other processes: on a shared machine the latencies mean little when
others are busy), and then checks through the ORM that every hand sent is
stored exactly once with the totals the rules core gives. It exits
non-zero on any error, lost or doubled hand, or (``--max-p95``) a hand save
slower than that at the 95th percentile.

Bounded: the phones send a fixed number of requests, the readers stop when
the phones are done, and a hard deadline per run (``--deadline`` seconds)
stops every thread and the server.
With ``BENCH_JSON`` set (``make bench``) the figures are recorded with
``bench.record.record``: the hand save p95 beside the static file p95.

    python bench/load.py                       # 40 tables, SQLite
    python bench/load.py --tables 8 --hands 6  # the suite's short form
    python bench/load.py --backends sqlite,postgres \\
        --database-url postgres://postgres@127.0.0.1:5432/test
"""

import argparse
import http.client
import json
import math
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from collections import defaultdict
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
PASSWORD = "load-test-director"
SETTINGS_MODULE = "klaverjas_loadtest_settings"


def settings_text(base, extra=""):
    """A settings module's text: ``config.settings.<base>`` with static files served from
    the apps' folders (no collectstatic into the project), quiet logs, then ``extra``."""
    return f"""\
from config.settings.{base} import *  # noqa: F403
from config.settings.{base} import MIDDLEWARE, STORAGES  # noqa: F401

STORAGES = {{
    **STORAGES,
    "staticfiles": {{"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}},
}}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = False
LOGGING = {{
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {{"console": {{"class": "logging.StreamHandler"}}}},
    "root": {{"handlers": ["console"], "level": "ERROR"}},
}}
{extra}"""


#: The club-laptop settings.
SETTINGS = settings_text("lan")

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HIDDEN = re.compile(r'name="(client_id|number|version)" value="([^"]*)"')
CONFIRMER = re.compile(r'type="radio" name="name" value="([^"]+)"')
STATIC_FILE = "/static/css/entry.css"

PAGES = {
    "hand save (POST)": "save",
    "table page (GET)": "table",
    "confirm (POST)": "confirm",
    "evening result (GET)": "result",
    "standings (GET)": "standings",
    "director overview (GET)": "overview",
    "overview fragment (GET)": "fragment",
    "static file (GET)": "static",
}


class Stats:
    """Latencies and errors of every request, by kind; thread-safe."""

    def __init__(self):
        self.lock = threading.Lock()
        self.times = defaultdict(list)
        self.errors = defaultdict(int)
        self.samples = []

    def add(self, kind, seconds):
        with self.lock:
            self.times[kind].append(seconds)

    def error(self, kind, what):
        with self.lock:
            self.errors[kind] += 1
            if len(self.samples) < 20:
                self.samples.append(f"{kind}: {what}")

    @property
    def requests(self):
        return sum(len(v) for v in self.times.values())


def percentile(values, q):
    """Nearest rank: the smallest value with at least ``q`` of the values at or below."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


class Browser:
    """One device: its cookies; a new connection per request (gunicorn's sync
    workers close each one, as they do for a phone)."""

    def __init__(self, port, stats, deadline):
        self.port = port
        self.stats = stats
        self.deadline = deadline
        self.cookies = {}

    def request(self, kind, method, path, fields=None, expect=200, headers=None):
        """(status, headers, text); None after an error (counted) or the deadline.
        ``headers`` are sent besides the cookies (e.g. ``If-None-Match``, ``Host``)."""
        if time.monotonic() > self.deadline:
            raise TimeoutError("deadline")
        body = urlencode(fields, doseq=True) if fields is not None else None
        headers = {
            **(headers or {}),
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        connection = http.client.HTTPConnection(HOST, self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException) as exc:
            self.stats.add(kind, time.perf_counter() - started)
            self.stats.error(kind, f"{method} {path}: {exc!r}")
            return None
        finally:
            connection.close()
        self.stats.add(kind, time.perf_counter() - started)
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.coded_value
        if response.status != expect:
            self.stats.error(kind, f"{method} {path}: {response.status}, expected {expect}")
            return None
        return response.status, response.headers, text


# --- The phones ---------------------------------------------------------------------------


def play_table(plan, port, stats, deadline, think, rng, results):
    """One table's phone: open the link, save every hand, have it confirmed."""
    browser = Browser(port, stats, deadline)
    path = f"/t/{plan['token']}/"
    sent = 0
    try:
        # The round is drawn: the tables open their links within a moment of each other.
        time.sleep(rng.uniform(0, think))
        page = open_page(browser, path)
        for deal in plan["deals"]:
            time.sleep(rng.uniform(0, 2 * think))
            fields = hand_form(CSRF_FIELD.search(page).group(1), dict(HIDDEN.findall(page)), deal)
            # A phone that loses the answer sends the same form again (same entry id):
            # the server keeps the hand once.
            for _attempt in range(3):
                answer = browser.request("save", "POST", path + "hand/", fields, expect=302)
                if answer is not None:
                    break
            else:
                results[plan["table"]] = ("gave up", sent)
                return
            sent += 1
            page = open_page(browser, path)
        time.sleep(rng.uniform(0, 2 * think))
        names = CONFIRMER.findall(page)
        fields = {
            "csrfmiddlewaretoken": CSRF_FIELD.search(page).group(1),
            "name": names[0] if names else "",
            "version": dict(HIDDEN.findall(page)).get("version", ""),
        }
        confirmed = browser.request("confirm", "POST", path + "confirm/", fields, expect=302)
        results[plan["table"]] = ("confirmed" if confirmed else "not confirmed", sent)
    except TimeoutError:
        results[plan["table"]] = ("deadline", sent)
    except Exception as exc:  # noqa: BLE001 - one table's crash is reported, others go on
        stats.error("table thread", repr(exc))
        results[plan["table"]] = (f"crashed: {exc!r}", sent)


def hand_form(token, hidden, deal):
    """The fields a phone posts to save ``deal`` (a plan's), with the page's CSRF
    ``token`` and ``hidden`` fields (its entry id, hand number and version)."""
    return {
        "csrfmiddlewaretoken": token,
        "keeper": "A",
        "playing": deal["playing"],
        "points_a": deal["points_a"],
        "points_b": "",
        "roem_a": deal["roem_a"] or "",
        "roem_b": deal["roem_b"] or "",
        "pit": deal["pit"],
        "trump": deal["trump"],
        **hidden,
    }


def open_page(browser, path):
    for _attempt in range(3):
        answer = browser.request("table", "GET", path)
        if answer is not None:
            return answer[2]
    raise RuntimeError(f"{path} does not open")


def read_pages(urls, port, stats, deadline, think, stop, rng, login=False):
    """A reader refreshing ``urls`` (kind, path) in turn until ``stop`` is set."""
    browser = Browser(port, stats, deadline)
    try:
        if login:
            log_in(browser)
        while not stop.is_set():
            for kind, path in urls:
                browser.request(kind, "GET", path)
                time.sleep(rng.uniform(0, 2 * think))
    except TimeoutError:
        pass


def log_in(browser):
    page = browser.request("login", "GET", "/accounts/login/")[2]
    fields = {
        "csrfmiddlewaretoken": CSRF_FIELD.search(page).group(1),
        "username": "director",
        "password": PASSWORD,
    }
    if browser.request("login", "POST", "/accounts/login/", fields, expect=302) is None:
        raise RuntimeError("the director cannot log in")


# --- CPU accounting: the machine is shared, so say who used it -----------------------------

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def machine_cpu():
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0, 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields) - idle) / TICK, sum(fields) / TICK


def group_cpu(pgid):
    """CPU seconds used so far by the processes of group ``pgid`` (gunicorn and workers)."""
    return sum(cpu for _name, group, cpu in processes() if group == pgid)


def command_cpu(name):
    """CPU seconds used so far by the processes called ``name`` (``postgres``: the
    database server's, of every database on it)."""
    return sum(cpu for command, _group, cpu in processes() if command == name)


def processes():
    """(command, process group, CPU seconds so far) of every process, from /proc."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        command = text[text.find("(") + 1 : text.rfind(")")]
        fields = text.rsplit(")", 1)[1].split()
        # fields[2] is the process group; 11-14 the user and system time (and children's)
        yield command, int(fields[2]), sum(int(v) for v in fields[11:15]) / TICK


def own_cpu():
    times = os.times()
    return times.user + times.system


# --- The server and its data --------------------------------------------------------------


def free_port():
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


#: A migrated database to start from instead of migrating (a fresh migrate costs seconds
#: of CPU): an SQLite file, copied whole into the run's data folder, and the name of a
#: PostgreSQL database on the same server, copied by ``CREATE DATABASE ... TEMPLATE``.
#: The test suite passes its own (the migrated laptop, its test databases' template).
SQLITE_TEMPLATE = "BENCH_SQLITE_TEMPLATE"
POSTGRES_TEMPLATE = "BENCH_POSTGRES_TEMPLATE"


def prepare_database(backend, url, tmp, prefix="klaverjas_load"):
    """The DATABASE_URL for this run ('' for SQLite, in ``tmp``'s data folder) and a
    function that drops it; from the template the environment names, if any (see
    :data:`SQLITE_TEMPLATE`): ``setup_django``'s migrate then has nothing to do."""
    if backend == "sqlite":
        template = os.environ.get(SQLITE_TEMPLATE)
        if template and not Path(template).is_file():
            raise SystemExit(f"{SQLITE_TEMPLATE}: there is no SQLite file at {template}")
        if template:
            import sqlite3

            (tmp / "data").mkdir(exist_ok=True)
            source = sqlite3.connect(f"file:{template}?mode=ro", uri=True)
            target = sqlite3.connect(tmp / "data" / "db.sqlite3")
            try:
                source.backup(target)
            finally:
                target.close()
                source.close()
        return "", lambda: None
    import psycopg

    name = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    template = os.environ.get(POSTGRES_TEMPLATE)
    if template and not re.fullmatch(r"\w+", template):
        raise SystemExit(f"{POSTGRES_TEMPLATE} names a database: letters, digits and _ only")
    parts = urlsplit(url)
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
        try:
            if template:
                connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        except psycopg.Error as error:  # gone meanwhile, say: migrated afresh instead
            print(f"{POSTGRES_TEMPLATE} {template!r} not copied ({error}); migrating instead")
            template = None
        if not template:
            connection.execute(f'CREATE DATABASE "{name}"')

    def drop():
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return urlunsplit(parts._replace(path=f"/{name}")), drop


def setup_django(tmp, database_url, settings=SETTINGS):
    """Django set up on ``settings`` (a module's text, written into ``tmp``) and the
    database of ``database_url`` (SQLite in ``tmp`` when empty), migrated."""
    (tmp / f"{SETTINGS_MODULE}.py").write_text(settings)
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS_MODULE
    os.environ["KLAVERJAS_DATA_DIR"] = str(tmp / "data")
    os.environ.pop("DATABASE_URL", None)
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    for path in (str(ROOT), str(tmp)):
        if path not in sys.path:
            sys.path.insert(0, path)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build_evening(tables, hands, seed):
    """Club, director, competition of ``hands`` hands a game, one evening with
    ``tables`` tables drawn; every table's planned deals."""
    import datetime

    from django.contrib.auth import get_user_model

    from clubs.models import Club, ClubRole, Member
    from tournaments import services

    club = Club.objects.create(name="Laadproef", slug="laadproef", results_public=True)
    director = get_user_model().objects.create_user("director", password=PASSWORD)
    ClubRole.objects.create(club=club, user=director, role=ClubRole.Role.DIRECTOR)
    competition = services.competition_create(
        club=club,
        by=director,
        name="Laadproef",
        start_date=datetime.date(2026, 9, 1),
        end_date=datetime.date(2027, 5, 31),
        hands_per_game=hands,
        rounds_per_evening=1,
    )
    evening = services.evening_create(
        competition=competition, date=datetime.date(2026, 10, 6), by=director
    )
    members = Member.objects.bulk_create(
        Member(club=club, name=f"Speler {n:03d}") for n in range(1, 4 * tables + 1)
    )
    plans = draw_and_plan(evening, members, director, seed, hands)
    return club, competition, evening, plans


def draw_and_plan(evening, members, director, seed, hands, games=None):
    """``members`` present at ``evening``, a round drawn through the services, and
    each table's plan: its deals (``hands`` simulated ones; ``games`` different
    games at most, taken in turn, when given) and their totals."""
    from tournaments import services
    from tournaments.models import Attendance

    Attendance.objects.bulk_create(Attendance(evening=evening, member=m) for m in members)
    round_ = services.round_draw(evening=evening, by=director, seed=seed)
    ruleset = evening.competition.ruleset()
    rng = random.Random(seed)
    plans, planned = [], []
    for n, table in enumerate(round_.tables.order_by("number")):
        if games is None or len(planned) < games:
            planned.append(plan_game(ruleset, hands, rng))
        deals, totals = planned[-1] if games is None else planned[n % games]
        plans.append(
            {
                "table": table.number,
                "pk": table.pk,
                "token": table.token,
                "deals": deals,
                "totals": totals,
            }
        )
    return plans


def plan_game(ruleset, hands, rng):
    """``hands`` simulated deals whose totals differ (so the game ends with the last)."""
    from scoring import rules

    while True:
        deals = [
            rules.simulate_deal(ruleset, rng=rng, dealer=(n - 1) % 4, hand_number=n)
            for n in range(1, hands + 1)
        ]
        totals = rules.score_game(ruleset, [d.score() for d in deals]).totals
        if totals.a != totals.b:
            rows = [
                {
                    "playing": str(d.playing),
                    "points_a": d.points[0],
                    "roem_a": d.roem[0],
                    "roem_b": d.roem[1],
                    "pit": str(d.pit) if d.pit else "",
                    "trump": "CDHS"[int(d.trump)],
                }
                for d in deals
            ]
            return rows, (totals.a, totals.b)


def start_server(tmp, port, workers, env, threads=1):
    """gunicorn on 127.0.0.1:``port`` (``workers`` processes of ``threads`` threads,
    the app preloaded) in a process group of its own; its log in ``tmp``."""
    log = open(tmp / "gunicorn.log", "wb")  # noqa: SIM115 - closed in stop_server
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi",
        "--bind",
        f"{HOST}:{port}",
        "--workers",
        str(workers),
        "--timeout",
        "30",
        "--graceful-timeout",
        "5",
        "--preload",
        "--pythonpath",
        f"{ROOT},{tmp}",
        *(["--threads", str(threads)] if threads > 1 else []),
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    process.log = log
    return process


def wait_until_up(process, port, deadline):
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn stopped at start; see gunicorn.log")
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=2)
            connection.request("GET", STATIC_FILE)
            status = connection.getresponse().status
            connection.close()
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("gunicorn did not answer before the deadline")


def warm_up(port, plans, competition, evening, workers, deadline):
    """Every worker loads the code and templates before the measured evening starts
    (a real evening runs for hours): the pages once per thread, not counted."""
    club = competition.club.slug
    paths = [
        f"/t/{plans[0]['token']}/",
        f"/clubs/{club}/evenings/{evening.pk}/result/",
        f"/clubs/{club}/competitions/{competition.pk}/standings/",
        "/accounts/login/",
        STATIC_FILE,
    ]

    def visit():
        browser = Browser(port, Stats(), deadline)
        for path in paths:
            browser.request("warm-up", "GET", path)

    threads = [threading.Thread(target=visit, daemon=True) for _ in range(2 * workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.1, deadline - time.monotonic()))


def stop_server(process):
    """Stop gunicorn and its workers (the process group this script started)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    process.log.close()


# --- The checks ---------------------------------------------------------------------------


def check_hands(plans):
    """(hands sent in the plan, stored as planned, lost, doubled, problems) via the ORM."""
    from scoring.models import AuditEntry, Game, Hand

    planned = stored = lost = doubled = 0
    problems = []
    for plan in plans:
        game = Game.objects.get(table_id=plan["pk"])
        hands = list(Hand.objects.filter(game=game).order_by("number"))
        expected = [
            (d["playing"], d["points_a"], d["roem_a"], d["roem_b"], d["pit"]) for d in plan["deals"]
        ]
        got = [(h.playing, h.points_a, h.roem_a, h.roem_b, h.pit) for h in hands]
        planned += len(expected)
        matching = sum(1 for a, b in zip(got, expected, strict=False) if a == b)
        stored += matching
        lost += len(expected) - matching
        doubled += max(0, len(got) - len(expected))
        creates = AuditEntry.objects.filter(game=game, action="create").count()
        doubled += max(0, creates - len(got))
        where = f"table {plan['table']}"
        if [h.number for h in hands] != list(range(1, len(hands) + 1)):
            problems.append(f"{where}: hand numbers {[h.number for h in hands]}")
        if got == expected and (game.total_a, game.total_b) != tuple(plan["totals"]):
            problems.append(
                f"{where}: totals {game.total_a}-{game.total_b}, rules core {plan['totals']}"
            )
        if got == expected and game.status != Game.Status.CONFIRMED:
            problems.append(f"{where}: game is {game.status}, not confirmed")
    return planned, stored, lost, doubled, problems


# --- One run ------------------------------------------------------------------------------


def run(args, backend):
    started_all = time.monotonic()
    deadline = started_all + args.deadline
    tmp = Path(tempfile.mkdtemp(prefix="klaverjas-load-"))
    (tmp / "data").mkdir()
    database_url, drop = prepare_database(backend, args.database_url, tmp)
    server = None
    try:
        setup_django(tmp, database_url)
        from django.db import connections

        _club, competition, evening, plans = build_evening(args.tables, args.hands, args.seed)
        connections.close_all()
        port = args.port or free_port()
        env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp}"}
        server = start_server(tmp, port, args.workers, env)
        wait_until_up(server, port, deadline)
        warm_up(port, plans, competition, evening, args.workers, deadline)
        cpu = (machine_cpu(), group_cpu(server.pid), own_cpu(), os.getloadavg()[0])
        report = simulate(args, port, plans, competition, evening, deadline)
        report["cpu"] = cpu_report(cpu, server.pid, report)
        stop_server(server)
        server = None
        planned, stored, lost, doubled, problems = check_hands(plans)
        connections.close_all()
        report.update(
            backend=backend,
            hands_planned=planned,
            hands_stored=stored,
            lost=lost,
            doubled=doubled,
            problems=problems,
            total_seconds=round(time.monotonic() - started_all, 1),
        )
        return report
    finally:
        if server is not None:
            stop_server(server)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001, S110 - Django may not be set up
            pass
        drop()
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def cpu_report(before, pgid, report):
    """Who used the machine's CPU during the run: the site, this load generator, others."""
    (busy0, total0), server0, own0, load0 = before
    busy1, total1 = machine_cpu()
    seconds = report["seconds"] or 1
    server = group_cpu(pgid) - server0
    client = own_cpu() - own0
    busy = busy1 - busy0
    cores = (total1 - total0) / seconds if total1 > total0 else os.cpu_count()
    return {
        "cores": round(cores, 1),
        "server_cores": round(server / seconds, 2),
        "load_generator_cores": round(client / seconds, 2),
        "other_cores": round(max(0.0, busy - server - client) / seconds, 2),
        "server_ms_per_request": round(1000 * server / max(1, report["requests"]), 1),
        "load_average": [round(load0, 2), round(os.getloadavg()[0], 2)],
    }


def simulate(args, port, plans, competition, evening, deadline):
    stats = Stats()
    rng = random.Random(args.seed)
    results = {}
    stop = threading.Event()
    club = competition.club.slug
    public = [
        ("result", f"/clubs/{club}/evenings/{evening.pk}/result/?board=1"),
        ("standings", f"/clubs/{club}/competitions/{competition.pk}/standings/"),
    ]
    director = [
        ("overview", f"/clubs/{club}/evenings/{evening.pk}/scores/"),
        ("fragment", f"/clubs/{club}/evenings/{evening.pk}/scores/?fragment=1"),
    ]
    tables = [
        threading.Thread(
            target=play_table,
            args=(plan, port, stats, deadline, args.think, random.Random(rng.random()), results),
            daemon=True,
        )
        for plan in plans
    ]
    readers = [
        threading.Thread(
            target=read_pages,
            args=(urls, port, stats, deadline, think, stop, random.Random(rng.random())),
            kwargs={"login": login},
            daemon=True,
        )
        for urls, think, login in [
            *[(public, args.reader_think, False)] * args.readers,
            (director, args.reader_think, True),
            ([("static", STATIC_FILE)], args.reader_think / 2, False),
        ]
    ]
    started = time.monotonic()
    for thread in readers + tables:
        thread.start()
    for thread in tables:
        thread.join(timeout=max(0.1, deadline - time.monotonic()))
    stop.set()
    for thread in readers:
        thread.join(timeout=max(0.1, min(35, deadline + 35 - time.monotonic())))
    duration = time.monotonic() - started
    hung = sum(1 for thread in tables + readers if thread.is_alive())
    not_done = {n: r for n, r in results.items() if r[0] != "confirmed"}
    missing = len(plans) - len(results)
    pages = {}
    for label, kind in PAGES.items():
        values = stats.times.get(kind, [])
        if not values:
            continue
        pages[label] = {
            "count": len(values),
            "p50_ms": round(percentile(values, 0.50) * 1000, 1),
            "p95_ms": round(percentile(values, 0.95) * 1000, 1),
            "p99_ms": round(percentile(values, 0.99) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1),
            "errors": stats.errors.get(kind, 0),
        }
    errors = sum(stats.errors.values()) + len(not_done) + missing + hung
    return {
        "tables": args.tables,
        "hands_per_table": args.hands,
        "workers": args.workers,
        "think_s": args.think,
        "seconds": round(duration, 1),
        "requests": stats.requests,
        "requests_per_second": round(stats.requests / duration, 1),
        "pages": pages,
        "errors": errors,
        "error_samples": stats.samples
        + [f"table {n}: {r}" for n, r in sorted(not_done.items())][:20]
        + ([f"{hung} threads still running at the deadline"] if hung else []),
    }


def print_report(report):
    print(
        f"\n== {report['backend']}: {report['tables']} tables x {report['hands_per_table']} hands,"
        f" {report['workers']} gunicorn workers, think {report['think_s']} s"
    )
    print(
        f"{report['requests']} requests in {report['seconds']} s: "
        f"{report['requests_per_second']} requests/s"
    )
    print(
        f"{'request':<26} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
        f"{'max ms':>8} {'errors':>6}"
    )
    for label, row in report["pages"].items():
        print(
            f"{label:<26} {row['count']:>6} {row['p50_ms']:>8} {row['p95_ms']:>8} "
            f"{row['p99_ms']:>8} {row['max_ms']:>8} {row['errors']:>6}"
        )
    print(
        f"errors: {report['errors']}; hands sent {report['hands_planned']}, stored as sent "
        f"{report['hands_stored']}, lost {report['lost']}, doubled {report['doubled']}"
    )
    cpu = report.get("cpu")
    if cpu:
        print(
            f"CPU ({cpu['cores']} cores): the site {cpu['server_cores']} cores "
            f"({cpu['server_ms_per_request']} ms a request), this load generator "
            f"{cpu['load_generator_cores']}, other processes {cpu['other_cores']}; "
            f"load average {cpu['load_average'][0]} -> {cpu['load_average'][1]}"
        )
    for line in report["error_samples"] + report["problems"]:
        print("  " + line)


def record_figures(report):
    from bench.record import record

    pages = report["pages"]
    bench = f"load ({report['tables']} tables, {report['backend']})"
    baseline = pages.get("static file (GET)", {}).get("p95_ms")
    for label in ("hand save (POST)", "table page (GET)", "evening result (GET)"):
        if label in pages:
            record(
                bench,
                f"{label} p95",
                pages[label]["p95_ms"],
                "ms",
                baseline=baseline,
                baseline_name="static file GET p95",
                lower_is_better=True,
            )
    record(bench, "requests per second", report["requests_per_second"], "req/s")


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=textwrap.dedent(__doc__.split("\n\n", 1)[1]),
    )
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--hands", type=int, default=16, help="hands per table (default 16)")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (make lan: 3)")
    parser.add_argument(
        "--readers",
        type=int,
        default=2,
        help="threads refreshing the public pages (besides one director and one static file)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=4.0,
        help="mean seconds between a table's hands (default 4: a real hand takes about 5 "
        "minutes, so the phones run 75 times faster than an evening)",
    )
    parser.add_argument(
        "--reader-think",
        type=float,
        default=2.0,
        help="mean seconds between a reader's pages (scoreboard and director: 15-20 s in the hall)",
    )
    parser.add_argument(
        "--backends",
        default=None,
        help="sqlite, postgres or both (default: sqlite, and "
        "postgres too when --database-url is given)",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("LOADTEST_DATABASE_URL", ""),
        help="a PostgreSQL server to make a throw-away database on",
    )
    parser.add_argument("--deadline", type=float, default=300, help="seconds per run, at most")
    parser.add_argument(
        "--max-p95", type=float, default=None, help="fail above this hand-save p95 (ms)"
    )
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="write the reports here as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--backend", help=argparse.SUPPRESS)  # one run, in a child process
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 60 and 1 <= args.hands <= 32 and args.deadline <= 1800):
        parser.error("at most 60 tables, 32 hands and a deadline of 1800 s")

    if args.backend:
        report = run(args, args.backend)
        print(json.dumps(report))
        return 0

    backends = (args.backends or ("sqlite,postgres" if args.database_url else "sqlite")).split(",")
    reports, failed = [], False
    for backend in backends:
        if backend not in ("sqlite", "postgres"):
            parser.error(f"unknown backend {backend!r}: sqlite or postgres")
        if backend == "postgres" and not reachable(args.database_url):
            print(f"== postgres: {args.database_url or '(no --database-url)'} is not reachable")
            # Asked for by name it is a failure; by default it is skipped.
            failed = failed or bool(args.backends)
            continue
        child = [sys.executable, __file__, *(argv or sys.argv[1:]), "--backend", backend]
        done = subprocess.run(
            child, cwd=ROOT, capture_output=True, text=True, timeout=args.deadline + 120
        )
        lines = done.stdout.strip().splitlines()
        if done.returncode != 0 or not lines:
            print(f"== {backend}: the run failed\n{done.stdout}\n{done.stderr}")
            failed = True
            continue
        report = json.loads(lines[-1])
        for line in lines[:-1]:
            print(line)
        reports.append(report)
        print_report(report)
        record_figures(report)
        save = report["pages"].get("hand save (POST)", {}).get("p95_ms")
        if report["errors"] or report["lost"] or report["doubled"] or report["problems"]:
            failed = True
        if args.max_p95 is not None and (save is None or save > args.max_p95):
            print(f"hand save p95 {save} ms is above --max-p95 {args.max_p95} ms")
            failed = True
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=2))
    return 1 if failed else 0


def reachable(url):
    if not url:
        return False
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3):
            return True
    except Exception:  # noqa: BLE001 - any failure means not usable
        return False


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
