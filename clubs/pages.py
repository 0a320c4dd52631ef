"""What the layers above add to the club's own pages, without clubs importing them.

The home page and the club page are clubs' pages but show what higher apps keep:
the evenings a director runs today and next, the club's competitions, the last
steps of a new club's checklist (tournaments). Such an app registers its
functions in its ``AppConfig.ready()``; a page calls them in the order they were
registered and merges what they return.

- ``home(*, user, today)`` returns a dict for ``clubs/home.html``;
- ``club(*, club)`` returns a dict for ``clubs/club_detail.html``;
- ``first_steps(*, club)`` returns more ``clubs.selectors.Step`` for the checklist.
"""

_home = []
_club = []
_first_steps = []


def register(*, home=None, club=None, first_steps=None) -> None:
    for hooks, hook in ((_home, home), (_club, club), (_first_steps, first_steps)):
        if hook is not None and hook not in hooks:
            hooks.append(hook)


def home_context(*, user, today) -> dict:
    context = {}
    for hook in _home:
        context.update(hook(user=user, today=today))
    return context


def club_context(*, club) -> dict:
    context = {}
    for hook in _club:
        context.update(hook(club=club))
    return context


def more_first_steps(*, club) -> list:
    return [step for hook in _first_steps for step in hook(club=club)]
