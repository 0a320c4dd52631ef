"""The competitions' and evenings' pages' versions (``Competition.version``,
``Evening.version``; see ``common.pagecache``): new whenever something their pages
show changes, in the same transaction.

- An evening's version is new with every change below it: a hand entered, corrected
  or undone, a game confirmed, an adjustment, a round drawn, swapped or taken back,
  the evening closed or reopened (``scoring.results.services.evenings_lock``, which
  every such change already passes through to store the evening's totals), and its
  attendance (saved: here; deleted or checked in at once: ``tournaments.services``
  says so, as a receiver on deletions would cost a club's deletion a query a row).
  Its competition's version is new with it (the standings and the player pages sum
  its evenings).
- A competition's version is new with its settings, periods and pairs (here), and so
  is its club's (a player page lists the club's competitions). Its evenings' rows are
  not touched: an evening's pages hold the competition's version too (a result ranks
  by its settings; ``tournaments.selectors.evening_version``). So every change locks
  an evening before its competition, never the other way round, and two changes
  (a hand, the competition's settings) cannot deadlock.

A change that sends no model signal (a bulk insert) calls :func:`evenings_touch` or
:func:`competitions_touch` itself.
"""

from django.db.models.signals import post_delete, post_save

from clubs.versions import clubs_touch
from common.pagecache import new_version

from .models import Attendance, Competition, Evening, Pair, Period


def evenings_touch(evenings) -> None:
    """A new version for ``evenings`` (ids or a query of ids) and their competitions."""
    version = new_version()
    Evening.objects.filter(pk__in=evenings).update(version=version)
    Competition.objects.filter(
        pk__in=Evening.objects.filter(pk__in=evenings).values("competition_id")
    ).update(version=version)


def competitions_touch(competitions) -> None:
    """A new version for ``competitions`` (ids) and their clubs."""
    Competition.objects.filter(pk__in=competitions).update(version=new_version())
    clubs_touch(Competition.objects.filter(pk__in=competitions).values("club_id"))


def _competition_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        competitions_touch([instance.pk])


def _competition_deleted(sender, instance, **kwargs):
    clubs_touch([instance.club_id])


def _competition_row_changed(sender, instance, raw=False, **kwargs):
    """A period or pair saved or deleted; an evening deleted."""
    if not raw:
        competitions_touch([instance.competition_id])


def _attendance_changed(sender, instance, raw=False, **kwargs):
    if not raw:
        evenings_touch([instance.evening_id])


def connect():
    post_save.connect(_competition_saved, sender=Competition, dispatch_uid="tv.competition")
    post_delete.connect(_competition_deleted, sender=Competition, dispatch_uid="tv.competition-")
    post_delete.connect(_competition_row_changed, sender=Evening, dispatch_uid="tv.evening-")
    for model in (Period, Pair):
        uid = f"tv.{model._meta.model_name}"
        post_save.connect(_competition_row_changed, sender=model, dispatch_uid=uid)
        post_delete.connect(_competition_row_changed, sender=model, dispatch_uid=f"{uid}-")
    post_save.connect(_attendance_changed, sender=Attendance, dispatch_uid="tv.attendance")
