"""The league's pages' version (``League.version``; see ``common.pagecache``): new
whenever something the league's pages show and its competition's version does not
cover changes, in the same transaction.

A league's page version (``leagues.selectors.league_page_version``) holds the league's
own, its competition's (the matchdays' evenings, their hands and results:
``tournaments.versions``), and the versions of its clubs (their names and their
members' names: ``clubs.versions``). The league's own is new here with its settings,
its organisers (an organiser sees other links), its divisions, teams, captains,
players, matches and their tables, and with a change to the league before it (the
next season names it). The version is read only after the commit, so a change needs
one new version anywhere in its transaction: a bulk insert sends no model signal, and
the schedule (which saves no other row of the league) and a line-up (its seats) call
:func:`leagues_touch` themselves; a match's seating saves its match, the next season its
league. An account's new name, and its deletion, touch the leagues whose pages name it
(organisers, captains, who confirmed a match or acted in its log).
"""

from django.conf import settings
from django.db.models import Q
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete, pre_save

from common.pagecache import new_version

from .models import Division, League, LeagueLog, LeagueMatch, LeagueTeam, MatchTable, TeamPlayer


def leagues_touch(leagues) -> None:
    """A new version for ``leagues`` (ids or a query of ids) and the seasons after them."""
    League.objects.filter(Q(pk__in=leagues) | Q(previous__in=leagues)).update(version=new_version())


def _league_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        leagues_touch([instance.pk])


def _row_changed(sender, instance, raw=False, **kwargs):
    """A division, team, player or match saved or deleted."""
    if not raw:
        leagues_touch([instance.league_id])


def _match_table_changed(sender, instance, raw=False, **kwargs):
    if not raw:
        leagues_touch(LeagueMatch.objects.filter(pk=instance.match_id).values("league_id"))


def _organisers_changed(sender, instance, action, pk_set=None, **kwargs):
    """``league.organisers`` changed, or (from the account's side) the leagues it
    organises."""
    if action.startswith("post_"):
        leagues_touch([instance.pk] if isinstance(instance, League) else pk_set or [])


def _captains_changed(sender, instance, action, pk_set=None, **kwargs):
    """``team.captains`` changed, or (from the account's side) the teams it captains."""
    if not action.startswith("post_"):
        return
    if isinstance(instance, LeagueTeam):
        leagues_touch([instance.league_id])
    else:
        leagues_touch(LeagueTeam.objects.filter(pk__in=pk_set or []).values("league_id"))


def _leagues_naming(user):
    """The leagues whose pages name the account ``user``: as an organiser, a captain,
    who confirmed a match, or who did what in a match's log."""
    return (
        League.objects.filter(
            Q(pk__in=League.organisers.through.objects.filter(user=user).values("league_id"))
            | Q(pk__in=LeagueTeam.objects.filter(captains=user).values("league_id"))
            | Q(
                pk__in=LeagueMatch.objects.filter(
                    Q(confirmed_home_by=user) | Q(confirmed_away_by=user)
                ).values("league_id")
            )
            | Q(pk__in=LeagueLog.objects.filter(user=user).values("league_id"))
        )
        .order_by()
        .values("pk")
    )


def _account_saving(sender, instance, raw=False, update_fields=None, **kwargs):
    """An account about to be saved with a new name (not a new account, nor a login's
    ``last_login``): before its row is written, so that the leagues' rows are locked
    before the account's, as a line-up or a log line (which refer to the account)
    takes them."""
    if raw or instance._state.adding:
        return
    if update_fields is not None and "username" not in update_fields:
        return
    name = sender.objects.filter(pk=instance.pk).values_list("username", flat=True).first()
    if name is not None and name != instance.username:
        leagues_touch(_leagues_naming(instance))


def _account_deleting(sender, instance, **kwargs):
    """An account about to be deleted: its name leaves the pages that name it (the
    cascade that empties those links sends no other signal)."""
    leagues_touch(_leagues_naming(instance))


def connect():
    pre_save.connect(_account_saving, sender=settings.AUTH_USER_MODEL, dispatch_uid="lv.account")
    pre_delete.connect(
        _account_deleting, sender=settings.AUTH_USER_MODEL, dispatch_uid="lv.account-"
    )
    post_save.connect(_league_saved, sender=League, dispatch_uid="lv.league")
    for model in (Division, LeagueTeam, TeamPlayer, LeagueMatch):
        uid = f"lv.{model._meta.model_name}"
        post_save.connect(_row_changed, sender=model, dispatch_uid=uid)
        post_delete.connect(_row_changed, sender=model, dispatch_uid=f"{uid}-")
    post_save.connect(_match_table_changed, sender=MatchTable, dispatch_uid="lv.matchtable")
    post_delete.connect(_match_table_changed, sender=MatchTable, dispatch_uid="lv.matchtable-")
    m2m_changed.connect(
        _organisers_changed, sender=League.organisers.through, dispatch_uid="lv.organisers"
    )
    m2m_changed.connect(
        _captains_changed, sender=LeagueTeam.captains.through, dispatch_uid="lv.captains"
    )
