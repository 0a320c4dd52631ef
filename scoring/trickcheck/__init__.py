"""The trick checker: which cards may be played, per rule set, on a page of its own.

:mod:`.views` is the checker itself and knows only the rules core and common (a
contract in ``pyproject.toml``); :mod:`.club_views` opens it with a club's or a
table's rule set.
"""
