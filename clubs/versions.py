"""The club's pages' version (``Club.version``; see ``common.pagecache``): new whenever
something every page of the club may show changes, in the same transaction.

Every versioned page's version holds the club's: its name and settings, its members'
names (a player page, a result, a board), its competitions (a player page lists them;
``tournaments.versions`` calls :func:`clubs_touch`). A change that sends no model
signal (a queryset update, a bulk insert: the member import, the results import) calls
:func:`clubs_touch` itself. A member is deleted only when merged into another, whose
save says so: no receiver on deletions, which would cost a club's deletion a query per
member. Roles need none: the permission is asked before any version, and the pages
show no role (a fragment that does says so in its version).
"""

from django.db.models.signals import post_save

from common.pagecache import new_version

from .models import Club, Member


def clubs_touch(*club_sets) -> None:
    """A new version for the clubs in ``club_sets`` (lists of ids or queries of ids)."""
    version = new_version()
    for clubs in club_sets:
        Club.objects.filter(pk__in=clubs).update(version=version)


def _club_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        clubs_touch([instance.pk])


def _member_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        clubs_touch([instance.club_id])


def connect():
    post_save.connect(_club_saved, sender=Club, dispatch_uid="clubs.versions.club")
    post_save.connect(_member_saved, sender=Member, dispatch_uid="clubs.versions.member")
