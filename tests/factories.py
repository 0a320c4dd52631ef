"""Plain factory functions: small, explicit, each makes one valid object."""

import itertools

from django.contrib.auth import get_user_model

from clubs.models import Club, ClubRole, Member

_seq = itertools.count(1)


def user(username=None, *, password="pw", **fields):
    username = username or f"user{next(_seq)}"
    obj = get_user_model().objects.create_user(username=username, password=password, **fields)
    return obj


def club(name=None, **fields):
    n = next(_seq)
    name = name or f"Club {n}"
    fields.setdefault("slug", f"club-{n}")
    return Club.objects.create(name=name, **fields)


def member(club, name=None, **fields):
    n = next(_seq)
    return Member.objects.create(club=club, name=name or f"Speler {n}", **fields)


def members(club, count):
    return [member(club) for _ in range(count)]


def role(club, role, user_obj=None):
    user_obj = user_obj or user()
    ClubRole.objects.create(club=club, user=user_obj, role=role)
    return user_obj


def competition(club, name="Wintercompetitie", **fields):
    import datetime

    from tournaments.models import Competition

    fields.setdefault("start_date", datetime.date(2026, 9, 1))
    fields.setdefault("end_date", datetime.date(2027, 5, 31))
    return Competition.objects.create(club=club, name=name, **fields)


def evening(competition_obj, date=None, *, present=()):
    import datetime

    from tournaments.models import Attendance, Evening

    date = date or competition_obj.start_date + datetime.timedelta(days=7 * next(_seq) % 200)
    obj = Evening.objects.create(competition=competition_obj, date=date)
    Attendance.objects.bulk_create([Attendance(evening=obj, member=m) for m in present])
    return obj
