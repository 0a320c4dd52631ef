"""Many tables entering at once against a live server: nothing lost, nothing doubled.

Every table has two devices (two phones at one table) entering the same boompje
from one plan. Both send every hand; mostly with the same entry id (client_id),
so the second send finds the first; for every fourth hand (2, 6, 10, 14) each
phone makes its own entry id, so exactly one of the two is stored and the other
is refused with 409. The first phone sends each hand twice (resending after a
lost connection); for hands 4, 8, 12, 16 the second also sends a stale form (the
hand number it already saw stored, a new entry id): 409. Runs on SQLite (WAL,
IMMEDIATE transactions) and, with DATABASE_URL, on PostgreSQL.
"""

import http.client
import random
import re
import threading
import time
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

import pytest

from scoring import rules
from scoring.models import AuditEntry, Game, Hand
from tests import factories

TABLES = 8
DEVICES_PER_TABLE = 2
HANDS = 16
TIME_LIMIT = 120  # seconds, for the whole run
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def plan_game(rng):
    """16 simulated deals whose totals are not equal (so the game ends after 16)."""
    ruleset = rules.get_ruleset("rotterdam")
    while True:
        deals = [
            rules.simulate_deal(ruleset, rng=rng, dealer=(n - 1) % 4) for n in range(1, HANDS + 1)
        ]
        totals = rules.score_game(ruleset, [d.score() for d in deals]).totals
        if totals.a != totals.b:
            return deals, totals


class Device:
    """One phone at a table: its own connection, cookies and CSRF token."""

    def __init__(self, port, token):
        self.port = port
        self.path = f"/t/{token}/"
        self.cookies = {}
        self.csrf = None

    def request(self, method, path, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return response.status, text
        finally:
            connection.close()

    def open(self):
        status, text = self.request("GET", self.path)
        assert status == 200, status
        self.csrf = CSRF_FIELD.search(text).group(1)

    def send(self, deal, number, client_id):
        fields = {
            "csrfmiddlewaretoken": self.csrf,
            "keeper": "A",
            "playing": str(deal.playing),
            "points_a": deal.points.a,
            "points_b": "",
            "roem_a": deal.roem.a,
            "roem_b": deal.roem.b,
            "pit": str(deal.pit) if deal.pit else "",
            "trump": "CDHS"[int(deal.trump)],
            "client_id": client_id,
            "number": number,
        }
        status, _text = self.request("POST", self.path + "hand/", urlencode(fields))
        return status


@pytest.mark.django_db(transaction=True)
def test_many_tables_at_once_lose_and_double_nothing(live_server, drawn_evening):
    club = factories.club()
    director = factories.role(club, "director")
    play = drawn_evening(club, director, players=TABLES * 4)
    assert len(play.tables) == TABLES
    rng = random.Random(2026)
    plans = {table.pk: plan_game(rng) for table in play.tables}
    port = urlsplit(live_server.url).port
    statuses, failures = {}, []
    lock = threading.Lock()

    def run(table, device_number):
        try:
            device = Device(port, table.token)
            device.open()
            deals, _totals = plans[table.pk]
            for number, deal in enumerate(deals, start=1):
                client_id = f"{table.pk}-{number}"
                if number % 4 == 2:
                    client_id += f"-phone-{device_number}"
                sends = [("hand", client_id)]
                if device_number == 0:
                    sends.append(("resend", client_id))
                if device_number == 1 and number % 4 == 0:
                    sends.append(("stale", f"{client_id}-stale"))
                for kind, cid in sends:
                    status = device.send(deal, number, cid)
                    with lock:
                        statuses[table.number, number, device_number, kind] = status
        except Exception as exc:  # noqa: BLE001 - reported below with the table
            with lock:
                failures.append((table.number, device_number, repr(exc)))

    threads = [
        threading.Thread(target=run, args=(table, n), daemon=True)
        for table in play.tables
        for n in range(DEVICES_PER_TABLE)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIME_LIMIT)
    duration = time.monotonic() - started
    assert not any(thread.is_alive() for thread in threads), "a device hung"
    assert failures == []
    assert duration < TIME_LIMIT

    for table in play.tables:
        for number in range(1, HANDS + 1):
            first, second = (statuses[table.number, number, n, "hand"] for n in (0, 1))
            resend = statuses[table.number, number, 0, "resend"]
            if number % 4 == 2:
                # Two phones, two entry ids, one hand: one stored, one refused.
                assert sorted([first, second]) == [302, 409], (table.number, number)
                assert resend == first
            else:
                assert (first, second, resend) == (302, 302, 302), (table.number, number)
            if number % 4 == 0:
                assert statuses[table.number, number, 1, "stale"] == 409

    # Every hand exactly once, as planned, and the totals the rules core gives.
    for table in play.tables:
        deals, totals = plans[table.pk]
        game = Game.objects.get(table=table)
        hands = list(Hand.objects.filter(game=game).order_by("number"))
        assert [h.number for h in hands] == list(range(1, HANDS + 1))
        entered = [(h.playing, h.points_a, h.roem_a, h.roem_b, h.pit) for h in hands]
        planned = [
            (str(d.playing), d.points.a, d.roem.a, d.roem.b, str(d.pit) if d.pit else "")
            for d in deals
        ]
        assert entered == planned
        assert (game.total_a, game.total_b) == (totals.a, totals.b)
        assert (game.hands_entered, game.status) == (HANDS, Game.Status.COMPLETE)
        assert game.version == HANDS
        assert AuditEntry.objects.filter(game=game, action="create").count() == HANDS
    print(
        f"\n{len(threads)} devices on {TABLES} tables sent {len(statuses)} hands "
        f"({TABLES * HANDS} stored) in {duration:.1f} s"
    )
