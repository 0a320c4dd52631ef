"""The results' one writer: each finished evening's stored totals.

:class:`~scoring.models.EveningTotals` keeps each player's tally of a finished
evening, so the season standings read 40 rows instead of summing 48,000 hands'
games on every request. The standings only read them (``scoring.results.standings``
writes nothing, and a GET takes no write lock); they are stored here, by the change
that makes them, in its own transaction:

- the evening's finishing (the evening saved with its new status) stores them;
- every change below a finished evening (a game saved: a hand entered, undone,
  replaced, a sheet corrected, a game confirmed; an adjustment saved or deleted; a
  seat, table or round saved, moved or deleted: attendance, leaving, substitutes;
  members merged) stores them again, summed with the change;
- an evening that is not finished (reopened, or still in play) has none.

``scoring.receivers`` calls :func:`evening_totals_store` for each such save or
deletion, inside its transaction. A write that sends no signal calls it itself for
the evenings it made: the club archive's restore (raw rows). Where none are stored
(a results import, whose rows are saved in bulk, until a change below its evenings)
the standings sum the evening in memory and store nothing.
"""

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Q

from tournaments.models import Evening
from tournaments.versions import evenings_touch

from ..models import EveningTotals
from .standings import evening_sums


def evenings_lock(*evening_sets) -> dict[int, str]:
    """``{evening_id: status}`` of the evenings in ``evening_sets`` (each a list of
    ids or a query of ids), their rows locked until the caller's transaction ends
    (PostgreSQL's FOR NO KEY UPDATE, in the evenings' order; SQLite's writers hold the
    one write lock anyway): their status cannot change meanwhile. The evenings and
    their competitions get a new version of their pages here
    (``tournaments.versions.evenings_touch``): every change below an evening passes
    through, so its result, board, standings and player pages are asked again. The
    lock is the one that update takes anyway, taken first so that two changes to one
    evening queue instead of deadlocking; hand entries at an evening's tables wait
    for each other only from here to their commit. The first half of
    :func:`evening_totals_store`, taken before a save that may move its row to another
    evening (the old one is known only then)."""
    found = Q()
    for evenings in evening_sets:
        found |= Q(pk__in=evenings)
    query = Evening.objects.filter(found).order_by("pk").values_list("pk", "status")
    try:
        sql, params = query.query.sql_with_params()
    except EmptyResultSet:  # no evening at all (e.g. ``pk__in=[]``)
        return {}
    connection = connections[query.db]
    if connection.vendor == "postgresql":
        sql += " FOR NO KEY UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        statuses = dict(cursor.fetchall())
    if statuses:
        evenings_touch(list(statuses))
    return statuses


def evening_totals_store(*evening_sets, locked: dict[int, str] | None = None) -> None:
    """Store the totals of the finished evenings in ``evening_sets`` (as
    :func:`evenings_lock` takes them), summed now, and throw away those of the
    others; inside the caller's transaction, after its change. ``locked``: the
    evenings' statuses :func:`evenings_lock` returned before the change, instead of
    ``evening_sets``.

    Two changes to one finished evening at once store one after the other: each
    first writes the evening's row of totals (the row lock waits for the other's
    commit), then sums, so the last to commit sums both changes.
    """
    statuses = dict(locked or {})
    if evening_sets:
        statuses.update(evenings_lock(*evening_sets))
    finished = [pk for pk, status in statuses.items() if status == Evening.Status.FINISHED]
    others = [pk for pk in statuses if pk not in finished]
    if others:
        EveningTotals.objects.filter(evening_id__in=others).delete()
    if finished:
        _upsert(dict.fromkeys(finished, b""))  # the rows locked first
        _upsert(evening_sums(finished))


def _upsert(sums):
    EveningTotals.objects.bulk_create(
        [EveningTotals(evening_id=e, sums=data) for e, data in sorted(sums.items())],
        update_conflicts=True,
        unique_fields=["evening"],
        update_fields=["sums"],
    )
