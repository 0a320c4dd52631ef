"""Plain factory functions: small, explicit, each makes one valid object.

The games and hands go through the real services (``tournaments.services.round_draw``,
``scoring.services.hand_record``, ``game_enter_sheet``, ``game_confirm``): validated,
scored by the rules core, the game's totals, version and audit log kept, as a test of
service behaviour needs. Only :func:`hand` with ``raw=True`` writes a bare row, for a
state the services would not make (a hand without its game's totals).
"""

import itertools
from types import SimpleNamespace

from django.contrib.auth import get_user_model

from clubs.models import Club, ClubRole, Member
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Game, Hand
from scoring.services import HandInput

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


def named_members(club, names):
    """``{name: member}``: a member "Speler <name>" for each letter of ``names``."""
    return {name: member(club, f"Speler {name}") for name in names}


def drawn_round(club, director=None, *, players=8, seed=1, **competition_fields):
    """Round 1 drawn through ``tournaments.services.round_draw``: a new competition
    (``competition_fields``, e.g. ``ruleset_preset="match-1500"``), one evening with
    ``players`` new members present, ``players // 4`` tables each with its game.

    A namespace with ``season``, ``evening``, ``round``, ``members``, ``tables`` (by
    number, with their game), ``games``, and ``table`` and ``game``: the first ones."""
    from tournaments import services

    director = director or role(club, "director")
    season = competition(club, **competition_fields)
    present = members(club, players)
    evening_obj = evening(season, present=present)
    round_ = services.round_draw(evening=evening_obj, by=director, seed=seed)
    tables = list(round_.tables.order_by("number").select_related("game"))
    return SimpleNamespace(
        season=season,
        evening=evening_obj,
        round=round_,
        members=present,
        tables=tables,
        games=[t.game for t in tables],
        table=tables[0],
        game=tables[0].game,
    )


def game(club, director=None, **competition_fields):
    """The game of a drawn table of four (:func:`drawn_round` with ``players=4``)."""
    return drawn_round(club, director, players=4, **competition_fields).game


def hand_input(playing="A", points_a=None, **fields):
    """What a scorer enters: ``playing`` played, wij took ``points_a`` card points (100;
    with ``verzaakt``, the other team took all 162) and zij the rest of the hand's 162
    (unless ``points_b`` is given); ``fields`` are the other
    :class:`~scoring.services.HandInput` fields (roem, pit, declared, verzaakt)."""
    if points_a is None:
        verzaakt = fields.get("verzaakt")
        points_a = 100 if not verzaakt else 0 if verzaakt == "A" else rules.HAND_TOTAL
    fields.setdefault("points_b", rules.HAND_TOTAL - points_a)
    return HandInput(playing=playing, points_a=points_a, **fields)


def hand(game, playing="A", points_a=None, *, raw=False, number=None, **fields):
    """The next hand of ``game`` (wij played and made 100 against 62 by default).

    Through ``scoring.services.hand_record``: checked, scored, the game's totals and
    version updated and the entry in the audit log; ``fields`` are :func:`hand_input`'s
    and ``hand_record``'s (``keeper``, ``by``, ``client_id``, ...).

    With ``raw=True`` a bare ``Hand`` row, neither checked nor scored: it banks its card
    points (``score_a``/``score_b``, not nat unless given) and the game's totals stay
    as they were. For a test that needs only that a hand exists, in a state the
    services would not leave."""
    if raw:
        points_a = 100 if points_a is None else points_a
        fields.setdefault("points_b", rules.HAND_TOTAL - points_a)
        fields.setdefault("score_a", points_a)
        fields.setdefault("score_b", fields["points_b"])
        fields.setdefault("nat", False)
        number = number or game.hands.count() + 1
        return Hand.objects.create(
            game=game, number=number, playing=playing, points_a=points_a, **fields
        )
    entry = {k: fields.pop(k) for k in ("keeper", "by", "client_id", "actor") if k in fields}
    data = hand_input(playing, points_a, **fields)
    return scoring_services.hand_record(game=game, data=data, number=number, **entry)


def hands(game, count, playing="A", points_a=None, **fields):
    """``count`` hands as :func:`hand` (through the service); the game, read again."""
    for _ in range(count):
        hand(game, playing, points_a, **fields)
    game.refresh_from_db()
    return game


def game_played(game, rows, *, by, confirmed_by="Tegenpartij"):
    """``rows`` (``HandInput``) entered as the game's sheet by ``by``
    (``scoring.services.game_enter_sheet``) and confirmed in the name of
    ``confirmed_by`` (``game_confirm``; ``None`` leaves it open). The game, read again."""
    scoring_services.game_enter_sheet(game=game, rows=rows, by=by)
    if confirmed_by is not None:
        scoring_services.game_confirm(game=game, name=confirmed_by)
    game.refresh_from_db()
    return game


def round_played(round_, sheets=None, *, by, rng=None, confirmed_by="Tegenpartij"):
    """Each table of ``round_`` (by number) plays its sheet of ``sheets`` with
    :func:`game_played`; a sheet is a list of ``HandInput`` or one ``HandInput``.

    With ``rng`` instead of ``sheets``, each table in turn plays a whole random game
    of the competition's rule set (``scoring.demo.play_game``, drawn from ``rng``)."""
    games = list(Game.objects.filter(table__round=round_).order_by("table__number"))
    if rng is not None:
        from scoring.demo import play_game

        ruleset = round_.evening.competition.ruleset()
        sheets = (play_game(ruleset, rng) for _ in games)
    for game_obj, rows in zip(games, sheets, strict=True):
        rows = [rows] if isinstance(rows, HandInput) else rows
        game_played(game_obj, rows, by=by, confirmed_by=confirmed_by)
    return round_
