"""Checking: what the rows say together (:func:`check_rows`).

Hands make games (four players, hands 1, 2, 3 ... to the end of the game), each
player has one place per round, each name is one member, and one misspelt cell
is one problem (the blame). Nothing is written.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.utils.translation import gettext as _

from clubs.models import Member
from common.params import parse_id
from common.tabular import Problem
from common.text import name_key, names_close
from scoring import rules

from ..handlog import NAMES
from .values import GamePlan, NearName, _same_as

# ---------------------------------------------------------------- checking


def game_where(game_or_key):
    when, round_number, table = (
        game_or_key
        if isinstance(game_or_key, tuple)
        else (game_or_key.date, game_or_key.round, game_or_key.table)
    )
    return _("%(date)s, round %(round)s, table %(table)s") % {
        "date": when.isoformat(),
        "round": round_number,
        "table": table,
    }


def _games(hands, preview, ruleset):
    """Group hands into games and check each game; returns {key: GamePlan}."""
    title = preview.columns
    games = {}
    for hand in hands:
        game = games.get(hand.game_key)
        if game is None:
            games[hand.game_key] = GamePlan(hand.date, hand.round, hand.table, hand.names, [hand])
            continue
        game.hands.append(hand)
    good = {}
    for key, game in games.items():
        bad = False
        game.names = _most_written(game.hands)
        for hand in game.hands:
            for column, name, expected in zip(NAMES, hand.names, game.names, strict=True):
                if name_key(name) != name_key(expected):
                    bad = True
                    preview.add(
                        Problem(
                            _(
                                "%(name)s, but the other rows of this game (%(where)s) "
                                "have %(expected)s here; a game keeps its four players."
                            )
                            % {"name": name, "where": game_where(key), "expected": expected},
                            row=hand.row,
                            column=title[column],
                        )
                    )
        seen = {}
        for hand in sorted(game.hands, key=lambda h: h.row):
            other = seen.setdefault(hand.hand, hand.row)
            if other != hand.row:
                bad = True
                preview.add(
                    Problem(
                        _("hand %(hand)s of this game (%(where)s) is also on row %(other)s.")
                        % {"hand": hand.hand, "where": game_where(key), "other": other},
                        row=hand.row,
                        column=title["hand"],
                    )
                )
        if bad:
            continue
        game.hands.sort(key=lambda h: h.hand)
        for expected, hand in enumerate(game.hands, 1):
            if hand.hand != expected:
                bad = True
                preview.add(
                    Problem(
                        _("hand %(missing)s of this game (%(where)s) is missing.")
                        % {"missing": expected, "where": game_where(key)},
                        row=hand.row,
                        column=title["hand"],
                    )
                )
                break
        if bad:
            continue
        state = rules.game_state(ruleset, totals=(0, 0), hands_played=0)
        totals = [0, 0]
        for hand in game.hands:
            if state.complete:
                bad = True
                preview.add(
                    Problem(
                        _(
                            "the game (%(where)s) was over after hand %(hands)s "
                            "(%(a)s–%(b)s); this hand comes after its end."
                        )
                        % {
                            "where": game_where(key),
                            "hands": state.hands_played,
                            "a": state.totals[0],
                            "b": state.totals[1],
                        },
                        row=hand.row,
                        column=title["hand"],
                    )
                )
                break
            totals[0] += hand.score_a
            totals[1] += hand.score_b
            state = rules.game_state(ruleset, totals=totals, hands_played=hand.hand)
        if bad:
            continue
        game.result = state
        good[key] = game
    return good


def _is_bad_game(key, bad_games):
    """Whether a game has a bad row: one with its date, round and table, or one whose
    unreadable date, round or table (None) could be this game's (its missing hand
    would only repeat that row's problem)."""
    if key in bad_games:
        return True
    return any(
        None in bad and all(b is None or b == k for b, k in zip(bad, key, strict=True))
        for bad in bad_games
    )


def _misplaced(hands, preview):
    """Rows whose date, round or table is not their game's: (their row numbers, the
    keys of the games they belong to).

    A row is taken for a mistake of its own when the other rows with the same four
    players and the same other two of date, round and table are more, and its hand
    numbers fill exactly the gaps of their game; that row alone is blamed, and its
    game is not checked further (it would only miss the hand).
    """
    title = preview.columns
    strays, covered = set(), set()
    for column, index in (("table", 2), ("round", 1), ("date", 0)):
        groups = defaultdict(lambda: defaultdict(list))
        for hand in hands:
            if hand.row in strays:
                continue
            key = hand.game_key
            rest = key[:index] + key[index + 1 :]
            groups[(rest, tuple(name_key(n) for n in hand.names))][key[index]].append(hand)
        for by_value in groups.values():
            if len(by_value) < 2:
                continue
            value, main = max(by_value.items(), key=lambda item: len(item[1]))
            numbers = {h.hand for h in main}
            for other, rows in by_value.items():
                found = {h.hand for h in rows}
                if (
                    other == value
                    or len(rows) >= len(main)
                    or found & numbers
                    or len(found) != len(rows)
                    or numbers | found != set(range(1, max(numbers | found) + 1))
                ):
                    continue  # another game of the same four players
                where = main[0].game_key
                for hand in rows:
                    strays.add(hand.row)
                    preview.add(
                        Problem(
                            _(
                                "%(value)s, but the other rows of this game (%(where)s) "
                                "have %(expected)s here."
                            )
                            % {
                                "value": _shown(other),
                                "where": game_where(where),
                                "expected": _shown(value),
                            },
                            row=hand.row,
                            column=title[column],
                        )
                    )
                covered.add(where)
    return strays, covered


def _shown(value):
    return value.isoformat() if isinstance(value, date) else str(value)


def _most_written(hands):
    """The four names most rows of a game have, seat by seat (on a tie, the first
    row's): a name misspelt on one row is that row's mistake, not the others'."""
    first = min(hands, key=lambda h: h.row)
    names = []
    for seat, expected in enumerate(first.names):
        counts = defaultdict(int)
        for hand in hands:
            counts[name_key(hand.names[seat])] += 1
        most = max(counts.values())
        if counts[name_key(expected)] == most:
            names.append(expected)
            continue
        written = min(
            (h for h in hands if counts[name_key(h.names[seat])] == most), key=lambda h: h.row
        )
        names.append(written.names[seat])
    return tuple(names)


def _check_places(games, sitouts, preview):
    """Each player at one place per round: one table, or sitting out once."""
    title = preview.columns
    places = {}
    ok = True
    for game in sorted(games.values(), key=lambda g: g.first_row):
        for column, name in zip(NAMES, game.names, strict=True):
            where = (game.date, game.round, name_key(name))
            other = places.setdefault(where, (game.table, game.first_row))
            if other[0] != game.table:
                ok = False
                preview.add(
                    Problem(
                        _(
                            "%(name)s also plays at table %(table)s in this round "
                            "(row %(other)s); a player has one place per round."
                        )
                        % {"name": name, "table": other[0], "other": other[1]},
                        row=game.first_row,
                        column=title[column],
                    )
                )
    for sitout in sitouts:
        where = (sitout.date, sitout.round, name_key(sitout.name))
        other = places.setdefault(where, (None, sitout.row))
        if other[1] != sitout.row:
            ok = False
            preview.add(
                Problem(
                    _("%(name)s already has a place in this round (row %(other)s).")
                    % {"name": sitout.name, "other": other[1]},
                    row=sitout.row,
                    column=title["north"],
                )
            )
    return ok


def _resolve_names(first_seen, preview, club, create_members, *, choices=None):
    """Name key -> member id (or None for a member to add); problems for the rest.

    ``first_seen``: (name, row, column key) of every row that could be read, also
    those of a game with a bad row, so an unknown name is reported in the same
    report. An unknown name close to members' names (:func:`common.text.names_close`:
    Renee beside Renée) is not added on its own: it is asked on the preview
    (``preview.near``, with ``choices`` None), and ``choices`` ({:attr:`NearName.field`:
    member id, or "new"}) holds the answers when applying: a name without one is refused.
    """
    title = preview.columns
    asking, choices = choices is None, choices or {}
    exact, by_key, names = {}, defaultdict(list), {}
    if club is not None:
        for pk, name in Member.objects.filter(club=club).values_list("pk", "name"):
            exact.setdefault(name, []).append(pk)
            by_key[name_key(name)].append(pk)
            names[pk] = name
    first = {}  # name key -> (name, row, column key)
    for name, row, column in first_seen:
        first.setdefault(name_key(name), (name, row, column))
    members, new, aliases = {}, [], {}
    for key, (name, row, column) in sorted(first.items(), key=lambda item: item[1][1]):
        if len(exact.get(name, [])) == 1:
            members[key] = exact[name][0]
        elif len(by_key.get(key, [])) == 1:
            members[key] = by_key[key][0]
        elif len(by_key.get(key, [])) > 1:
            preview.add(
                Problem(
                    _(
                        "%(count)s members of the club are called %(name)s; give them "
                        "different names in the club first."
                    )
                    % {"count": len(by_key[key]), "name": name},
                    row=row,
                    column=title[column],
                )
            )
        elif close := tuple(
            sorted(
                ((pk, other) for pk, other in names.items() if names_close(name, other)),
                key=lambda item: item[1],
            )
        ):
            near = NearName(name, row, title[column], close)
            preview.near.append(near)
            answer = str(choices.get(near.field, ""))
            if answer == "new":
                members[key] = None
                new.append(name)
            elif parse_id(answer) in dict(close):
                members[key] = parse_id(answer)
            elif not asking:
                preview.add(
                    Problem(
                        _(
                            "%(name)s is not a member, but the club has %(members)s: say "
                            "whether it is one of them or a new member."
                        )
                        % {"name": name, "members": ", ".join(n for _pk, n in close)},
                        row=row,
                        column=title[column],
                    )
                )
            else:
                members[key] = None  # asked on the preview; applying needs the answer
                preview._pending[key] = tuple(pk for pk, _name in close)
        elif others := tuple(
            (_same_as(other), other) for other in new if names_close(name, other, typos=False)
        ):
            # Renee and Renée, neither a member: one may be the other. Not one letter
            # apart: a file of new players has Speler 721 and Speler 722.
            near = NearName(name, row, title[column], (), others)
            preview.near.append(near)
            answer = str(choices.get(near.field, ""))
            same = dict(others).get(answer)
            members[key] = None
            if answer == "new":
                new.append(name)
            elif same is not None:
                aliases[key] = name_key(same)
            elif not asking:
                preview.add(
                    Problem(
                        _(
                            "%(name)s is not a member, and neither is %(names)s on an earlier "
                            "row, to be added: say whether it is the same player or another "
                            "new member."
                        )
                        % {"name": name, "names": ", ".join(n for _value, n in others)},
                        row=row,
                        column=title[column],
                    )
                )
        elif create_members:
            members[key] = None
            new.append(name)
        else:
            preview.add(
                Problem(
                    _(
                        "%(name)s is not a member of the club. Add them first, or import "
                        "with new players added as members."
                    )
                    % {"name": name},
                    row=row,
                    column=title[column],
                )
            )
    preview.new_members = new
    preview._aliases = aliases
    return members


def _check_members_once(games, sitouts, totals, preview):
    """Each member once per evening (or round) after the names are resolved: a close
    name answered as a member who is on the same evening already (Jansen is Janssen,
    and Janssen has a row too) is a problem of its row. Names are checked before
    (:func:`_check_places`, :func:`_check_totals`); this finds only the answers."""
    title, members = preview.columns, preview._members
    seen = {}  # (date, round, member id) -> (name key, name, row) of its first row

    def once(when, round_number, name, row, column):
        key = name_key(name)
        if key not in members:
            return  # not resolved: a problem already
        member = members[key]
        if member is None:  # a new member, perhaps the same as another name
            member = ("name", preview._aliases.get(key, key))
        other_key, other, other_row = seen.setdefault(
            (when, round_number, member), (key, name, row)
        )
        if other_key == key:
            return
        if round_number is None:
            message = _(
                "%(name)s is %(member)s, as you answered, who already has a total for this "
                "evening on row %(other)s."
            )
        else:
            message = _(
                "%(name)s is %(member)s, as you answered, who already has a place in this round "
                "on row %(other)s."
            )
        preview.add(
            Problem(
                message % {"name": name, "member": other, "other": other_row},
                row=row,
                column=title[column],
            )
        )

    for game in sorted(games.values(), key=lambda g: g.first_row):
        for column, name in zip(NAMES, game.names, strict=True):
            once(game.date, game.round, name, game.first_row, column)
    for sitout in sitouts:
        once(sitout.date, sitout.round, sitout.name, sitout.row, "north")
    for total in sorted(totals, key=lambda t: t.row):
        once(total.date, total.round, total.name, total.row, "name")


def _check_totals(totals, preview):
    """Each player once per evening (or round); a place that the points contradict."""
    title = preview.columns
    seen = {}
    for entry in totals:
        key = (entry.date, entry.round, name_key(entry.name))
        other = seen.setdefault(key, entry.row)
        if other != entry.row:
            preview.add(
                Problem(
                    _("%(name)s already has a total for this evening on row %(other)s.")
                    % {"name": entry.name, "other": other}
                    if entry.round is None
                    else _("%(name)s already has a total for this round on row %(other)s.")
                    % {"name": entry.name, "other": other},
                    row=entry.row,
                    column=title["name"],
                )
            )
    places = preview._places
    by_date = defaultdict(list)
    for entry in totals:
        by_date[entry.date].append(entry.points)
    for entry, place in places.items():
        points = by_date[entry.date]
        best = 1 + sum(1 for p in points if p > entry.points)  # places ahead, then ties
        worst = sum(1 for p in points if p >= entry.points)
        if not best <= place <= worst:
            preview.add(
                Problem(
                    _(
                        "place %(place)s, but with %(points)s points the player is "
                        "number %(best)s of the evening."
                    )
                    % {"place": place, "points": entry.points, "best": best}
                    if best == worst
                    else _(
                        "place %(place)s, but with %(points)s points the player shares "
                        "places %(best)s to %(worst)s of the evening."
                    )
                    % {"place": place, "points": entry.points, "best": best, "worst": worst},
                    row=entry.row,
                    column=title["place"],
                )
            )


def check_rows(
    hands, sitouts, totals, bad_games, preview, ruleset, *, club, create_members, name_choices
):
    """Check the rows together; the games that hold, {key: GamePlan}. Problems go to
    the preview, and the names' members to ``preview._members``."""
    strays, covered = _misplaced(hands, preview)
    bad_games |= covered
    games = _games(
        [h for h in hands if h.row not in strays and not _is_bad_game(h.game_key, bad_games)],
        preview,
        ruleset,
    )
    _check_places(games, sitouts, preview)
    _check_totals(totals, preview)
    first_seen = [
        (n, hand.row, c) for hand in hands for c, n in zip(NAMES, hand.names, strict=True)
    ]
    first_seen += [(s.name, s.row, "north") for s in sitouts]
    first_seen += [(t.name, t.row, "name") for t in totals]
    preview._members = _resolve_names(
        first_seen, preview, club, create_members, choices=name_choices
    )
    _check_members_once(games, sitouts, totals, preview)
    return games
