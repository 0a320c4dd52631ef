"""The club's log, written out in the reader's language.

A :class:`~clubs.models.ClubLog` line stores what happened (its ``action``) and
the plain values it is told with (``params``: names, numbers, a role's value);
the sentence is made when the line is read, in the active language, so a
Dutch club's log reads in Dutch whoever acted in English. Each action has one
function here making its sentence; an app above clubs registers the sentences of
its own actions (:func:`register`, from its ``AppConfig.ready()``). Lines written
before the log stored values (``params`` is None) keep the ``summary`` written
then.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

_sentences = {}


def register(action, sentence) -> None:
    """``sentence(params) -> str`` tells the lines of ``action``."""
    _sentences[str(action)] = sentence


def line_text(entry) -> str:
    """The sentence of the log line ``entry`` in the active language."""
    sentence = _sentences.get(entry.action)
    if entry.params is None or sentence is None:
        return entry.summary
    return sentence(entry.params)


def _role(value):
    from .models import ClubRole

    Role = ClubRole.Role

    return str(Role(value).label) if value in Role.values else str(value)


def _member_import(params):
    if params.get("changed") is not None:
        return _("Member import from %(file)s: %(added)s added, %(changed)s changed") % params
    return (
        ngettext(
            "%(count)s member imported from %(file)s",
            "%(count)s members imported from %(file)s",
            params["count"],
        )
        % params
    )


def _role_revoke(params):
    if "user" in params:
        return _("%(user)s no longer has a role") % params
    return _("An account with the role %(role)s was deleted by its owner") % {
        "role": _role(params.get("role"))
    }


def _with_role(text):
    return lambda params: text() % {**params, "role": _role(params.get("role"))}


def _fixed(text):
    return lambda params: text() % params


def _register_clubs_sentences():
    from .models import ClubLog

    action = ClubLog.Action
    register(action.MEMBER_IMPORT, _member_import)
    register(action.MEMBER_MERGE, _fixed(lambda: _("%(remove)s merged into %(keep)s")))
    register(action.ROLE_GRANT, _with_role(lambda: _("%(user)s is now %(role)s")))
    register(action.ROLE_REVOKE, _role_revoke)
    register(
        action.CLUB_CREATE,
        lambda params: (
            _("Club started from an archive") if params.get("from_archive") else _("Club started")
        ),
    )
    register(action.CLUB_UPDATE, _fixed(lambda: _("Club settings saved")))
    register(
        action.INVITATION_CREATE,
        _with_role(lambda: _("Invitation made for the role %(role)s")),
    )
    register(action.INVITATION_REVOKE, _fixed(lambda: _("Invitation withdrawn")))
    register(
        action.INVITATION_ACCEPT,
        _with_role(lambda: _("%(user)s accepted an invitation as %(role)s")),
    )
    register(action.PASSWORD_LINK, _fixed(lambda: _("Password link made for %(user)s")))
    register(
        action.MEMBER_FORGET,
        _fixed(lambda: _("Personal data of member record %(number)s erased")),
    )
