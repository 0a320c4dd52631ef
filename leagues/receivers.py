"""The leagues' answers to the signals of the layers below (connected in
``LeaguesConfig.ready()``); each receiver only calls a service."""

from clubs import signals as club_signals

from . import services


def club_deleting(sender, *, club, **kwargs):
    services.club_delete_check(club=club)


def account_ties(sender, *, user, club, **kwargs):
    return services.account_tied_elsewhere(user=user, club=club)


def connect():
    club_signals.club_deleting.connect(club_deleting, dispatch_uid="leagues.club_deleting")
    club_signals.account_ties.connect(account_ties, dispatch_uid="leagues.account_ties")
