"""Demo data for a fresh site: a season with played evenings and one to run tonight.

Every hand is a random legal deal played out by the rules core's simulator and
entered through the same services a wedstrijdleider uses, so the numbers are
realistic and consistent (162 per hand, possible roem, nat and pit by the rules).
Seeded: the same demo every time. Idempotent: an existing demo season is kept.
"""

import datetime
import random

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.db.models import Q

from clubs.models import DEMO_SLUG, Club
from clubs.services import club_delete
from scoring import rules
from tournaments import services
from tournaments.models import Attendance, Competition, Evening

from . import services as scoring_services
from .models import Game

SEASON_NAME = "Wintercompetitie 2026-2027"
PLAYED_EVENINGS = 4

#: The demo's login. Its password is published (printed by ``manage.py demo``,
#: shown in the README): the account must never be served beyond the laptop.
DEMO_USERNAME = "demo"
DEMO_PASSWORD = "klaverjas"
#: Every account the demo makes, with the password it publishes.
PUBLISHED_ACCOUNTS = {DEMO_USERNAME: DEMO_PASSWORD}


def published_accounts():
    """Active accounts that log in with a published password: the demo's, and any
    site operator (staff or superuser) whose password is one of them.

    Only these few accounts are checked: a password check costs a fraction of a
    second by design. The stored hashes are only read (no rehash is saved).
    """
    passwords = set(PUBLISHED_ACCOUNTS.values())
    named = Q()
    for username in PUBLISHED_ACCOUNTS:
        named |= Q(username__iexact=username)
    candidates = (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(named | Q(is_superuser=True) | Q(is_staff=True))
        .order_by("username")
    )
    return [
        user
        for user in candidates
        if any(check_password(password, user.password) for password in passwords)
    ]


def demo_remove(*, stdout=None):
    """Delete the demo club (through ``club_delete``) and the demo's accounts.

    The demo's accounts go whatever they did since (their roles in other clubs
    go with them); an operator who kept working as ``demo`` makes an account of
    their own first (``manage.py createsuperuser``). Returns what was removed.
    """
    removed = []
    User = get_user_model()
    accounts = User.objects.filter(username__in=PUBLISHED_ACCOUNTS)
    club = Club.objects.filter(slug=DEMO_SLUG).first()
    if club is not None:
        by = accounts.filter(is_superuser=True).first() or (
            User.objects.filter(is_superuser=True, is_active=True).order_by("pk").first()
        )
        if by is None:  # only the demo club's own administrator is left
            by = User.objects.filter(club_roles__club=club, club_roles__role="admin").first()
        if by is None:
            raise ValueError(
                "No account may delete the demo club: make the site's operator first "
                "(python manage.py createsuperuser)."
            )
        club_delete(club=club, by=by, confirm_name=club.name)
        removed.append(f"the demo club {club.name!r}")
    for user in accounts:
        removed.append(f"the account {user.username!r}")
        user.delete()
    if stdout is not None:
        stdout.write(
            "Removed " + (", ".join(removed) if removed else "nothing: no demo here") + "."
        )
    return removed


def next_weekday(day, weekday):
    return day + datetime.timedelta(days=(weekday - day.weekday()) % 7)


def demo_season(*, club, user, today=None, stdout=None):
    if Competition.objects.filter(club=club, name=SEASON_NAME).exists():
        return None
    today = today or datetime.date.today()
    competition = services.competition_create(
        club=club,
        by=user,
        name=SEASON_NAME,
        start_date=datetime.date(today.year if today.month >= 9 else today.year - 1, 9, 1),
        end_date=datetime.date(today.year + 1 if today.month >= 9 else today.year, 5, 31),
        sitout_score=1600,
        tie_breaks=["marsen", "fewer_nat"],
    )
    rng = random.Random(2026)
    members = list(club.members.filter(is_guest=False).order_by("pk"))
    tonight = next_weekday(today, 1)  # club night is Tuesday
    for weeks in range(PLAYED_EVENINGS, 0, -1):
        date = tonight - datetime.timedelta(weeks=weeks)
        if date < competition.start_date:
            continue
        present = rng.sample(members, rng.randint(min(13, len(members)), len(members)))
        play_evening(competition, date, present, user, rng)
    evening = services.evening_create(competition=competition, date=tonight, by=user)
    Attendance.objects.bulk_create(
        Attendance(evening=evening, member=m) for m in rng.sample(members, 13)
    )
    if stdout is not None:
        stdout.write(f"Demo season '{SEASON_NAME}' with {PLAYED_EVENINGS} played evenings.")
    return competition


def play_evening(competition, date, present, user, rng):
    evening = services.evening_create(competition=competition, date=date, by=user)
    Attendance.objects.bulk_create(Attendance(evening=evening, member=m) for m in present)
    ruleset = competition.ruleset()
    for _ in range(competition.rounds_per_evening):
        round_ = services.round_draw(evening=evening, by=user, seed=rng.random())
        for game in Game.objects.filter(table__round=round_).select_related("table"):
            names = list(game.table.seats.filter(position__in=["E", "W"]).select_related("member"))
            scoring_services.game_enter_sheet(game=game, rows=play_game(ruleset, rng), by=user)
            scoring_services.game_confirm(game=game, name=rng.choice(names).player_name)
    services.evening_set_status(evening=evening, status=Evening.Status.FINISHED, by=user)
    return evening


def play_game(ruleset, rng):
    """Hands of simulated deals until the rule set's end (extra hands after a tie)."""
    rows, totals = [], [0, 0]
    while True:
        number = len(rows) + 1
        deal = rules.simulate_deal(ruleset, rng=rng, dealer=(number - 1) % 4, hand_number=number)
        row = scoring_services.HandInput(
            playing=str(deal.playing),
            points_a=deal.points[0],
            points_b=deal.points[1],
            roem_a=deal.roem[0],
            roem_b=deal.roem[1],
            pit=str(deal.pit) if deal.pit else "",
            trump=str(deal.trump),
        )
        result = row.score(ruleset)
        totals = [totals[0] + result.scores[0], totals[1] + result.scores[1]]
        rows.append(row)
        state = rules.game_state(ruleset, totals=totals, hands_played=len(rows))
        if state.complete:
            return rows
