"""Every way a score changes: entering, undoing, confirming and correcting.

Each service is one transaction that locks the game row first, so two devices
at one table, a double tap or a phone resending after a lost connection queue
behind each other and see the state the other left. Inputs are checked by the
rules core; its ``InvalidHand`` becomes a translated ``ValidationError`` on the
field it names. Totals are recomputed from the game's hands in the same
transaction and stored on the game.
"""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import rules
from tournaments.models import Evening

from .messages import hand_error
from .models import AuditEntry, Game, Hand

HAND_INPUTS = ("playing", "trump", "points_a", "points_b", "roem_a", "roem_b", "pit")


class Conflict(ValidationError):
    """Someone else changed the game first: the caller shows both versions."""

    def __init__(self, message, *, current=None):
        super().__init__(message, code="conflict")
        self.current = current


def game_ruleset(game):
    data = dict(game.ruleset)
    return rules.ruleset_from(data.pop("name"), data)


def ruleset_snapshot(ruleset):
    return ruleset.to_dict()


def hand_snapshot(hand):
    return {name: getattr(hand, name) for name in ("number", *HAND_INPUTS, "score_a", "score_b")}


@dataclass(frozen=True)
class HandInput:
    """What a scorer enters for one hand, checked and scored by the rules core."""

    playing: str
    points_a: int
    points_b: int
    roem_a: int = 0
    roem_b: int = 0
    pit: str = ""
    trump: str = ""

    def score(self, ruleset):
        """The core's result; raises ValidationError with the field the core names."""
        try:
            return rules.score_hand(
                ruleset,
                playing=self.playing,
                points=(self.points_a, self.points_b),
                roem=(self.roem_a, self.roem_b),
                pit=self.pit or None,
            )
        except rules.InvalidHand as exc:
            raise hand_error(exc) from exc


def _actor(by, actor):
    if actor:
        return actor
    if by is not None and by.is_authenticated:
        return by.get_username()
    return _("table")


def _lock(game):
    return Game.objects.select_for_update().select_related("table__round__evening").get(pk=game.pk)


def _check_writable(game, *, director=False):
    evening = game.table.round.evening
    if evening.status == Evening.Status.FINISHED and not director:
        raise ValidationError(_("This evening is closed; ask the tournament director."))
    if game.is_locked and not director:
        raise ValidationError(
            _("This game is confirmed and locked; only the tournament director can correct it.")
        )


def _check_version(game, expected_version):
    if expected_version is not None and int(expected_version) != game.version:
        raise Conflict(
            _("Someone else saved this game meanwhile. Check the hands below and enter again."),
            current=game,
        )


def _recompute(game, hands):
    """Store the game's totals and status from its hands (already scored)."""
    ruleset = game_ruleset(game)
    results = [
        rules.score_hand(
            ruleset,
            playing=h.playing,
            points=(h.points_a, h.points_b),
            roem=(h.roem_a, h.roem_b),
            pit=h.pit or None,
        )
        for h in hands
    ]
    summary = rules.score_game(ruleset, results)
    game.total_a, game.total_b = summary.totals
    game.hands_entered = len(hands)
    game.winner = summary.winner or ""
    game.marsen_a = sum(1 for h in hands if h.pit == "A")
    game.marsen_b = sum(1 for h in hands if h.pit == "B")
    game.nat_a = sum(1 for h in hands if h.nat and h.playing == "A")
    game.nat_b = sum(1 for h in hands if h.nat and h.playing == "B")
    game.roem_a = sum(h.roem_a for h in hands)
    game.roem_b = sum(h.roem_b for h in hands)
    if game.status != Game.Status.CONFIRMED:
        game.status = Game.Status.COMPLETE if summary.complete else Game.Status.OPEN
    game.version += 1
    game.save()
    return summary


def _game_complete(game, hands):
    ruleset = game_ruleset(game)
    results = [
        rules.score_hand(
            ruleset,
            playing=h.playing,
            points=(h.points_a, h.points_b),
            roem=(h.roem_a, h.roem_b),
            pit=h.pit or None,
        )
        for h in hands
    ]
    return rules.score_game(ruleset, results).complete


def _build_hand(game, number, data: HandInput, ruleset):
    result = data.score(ruleset)
    return Hand(
        game=game,
        number=number,
        playing=data.playing,
        trump=data.trump or "",
        points_a=data.points_a,
        points_b=data.points_b,
        roem_a=data.roem_a,
        roem_b=data.roem_b,
        pit=data.pit or "",
        score_a=result.scores[0],
        score_b=result.scores[1],
        nat=result.nat,
    )


@transaction.atomic
def hand_record(
    *,
    game: Game,
    data: HandInput,
    number: int | None = None,
    client_id: str | None = None,
    expected_version: int | None = None,
    by=None,
    actor: str = "",
    via: str = "table",
) -> Hand:
    """Enter the next hand of a game.

    ``client_id`` makes a retry harmless: the same id returns the hand already
    stored. ``number`` (the hand the scorer thinks it is entering) and
    ``expected_version`` turn a stale form into a Conflict instead of a wrong
    hand number.
    """
    game = _lock(game)
    if client_id:
        existing = Hand.objects.filter(game=game, client_id=client_id).first()
        if existing is not None:
            return existing
    _check_writable(game)
    hands = list(game.hands.order_by("number"))
    next_number = len(hands) + 1
    if number is not None and int(number) != next_number:
        if int(number) < next_number:
            raise Conflict(
                _("Hand %(number)s is already entered (on another device?).") % {"number": number},
                current=game,
            )
        raise ValidationError(
            _("The next hand is %(next)s, not %(number)s.")
            % {"next": next_number, "number": number}
        )
    _check_version(game, expected_version)
    if _game_complete(game, hands):
        raise ValidationError(
            _("This game is complete; no more hands can be entered. Confirm it or undo a hand.")
        )
    ruleset = game_ruleset(game)
    hand = _build_hand(game, next_number, data, ruleset)
    hand.client_id = client_id or None
    hand.entered_by = by if by is not None and by.is_authenticated else None
    hand.entered_via = via
    hand.full_clean(exclude=["game"])
    hand.save()
    _recompute(game, [*hands, hand])
    AuditEntry.objects.create(
        game=game,
        hand_number=hand.number,
        action=AuditEntry.Action.CREATE,
        user=hand.entered_by,
        actor=_actor(by, actor),
        after=hand_snapshot(hand),
    )
    return hand


@transaction.atomic
def hand_undo(*, game: Game, expected_version=None, by=None, actor="") -> Hand | None:
    """Remove the last hand of a game that is not yet confirmed."""
    game = _lock(game)
    _check_writable(game)
    _check_version(game, expected_version)
    hands = list(game.hands.order_by("number"))
    if not hands:
        raise ValidationError(_("There is no hand to undo."))
    last = hands.pop()
    before = hand_snapshot(last)
    last.delete()
    _recompute(game, hands)
    AuditEntry.objects.create(
        game=game,
        hand_number=before["number"],
        action=AuditEntry.Action.DELETE,
        user=by if by is not None and by.is_authenticated else None,
        actor=_actor(by, actor),
        before=before,
    )
    return last


@transaction.atomic
def game_confirm(*, game: Game, name: str, expected_version=None, by=None) -> Game:
    """A player of the other team confirms the totals: the game is locked."""
    game = _lock(game)
    _check_writable(game)
    _check_version(game, expected_version)
    if game.status != Game.Status.COMPLETE:
        raise ValidationError(_("The game is not complete yet."))
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": _("Choose who confirms.")})
    game.status = Game.Status.CONFIRMED
    game.confirmed_by = name
    game.confirmed_at = timezone.now()
    game.version += 1
    game.save()
    AuditEntry.objects.create(
        game=game,
        action=AuditEntry.Action.CONFIRM,
        user=by if by is not None and by.is_authenticated else None,
        actor=name,
        after={"total_a": game.total_a, "total_b": game.total_b},
    )
    return game


@transaction.atomic
def game_enter_sheet(
    *, game: Game, rows: list[HandInput], by, reason: str = "", expected_version=None
) -> Game:
    """Replace a game's hands with a whole paper score sheet, all or nothing.

    Used by the director's grid: for a game without hands it is plain entry;
    for a game with hands (or a confirmed one) it is a correction and needs a
    reason. Every row is checked; errors are reported per row and nothing is
    saved.
    """
    from clubs.permissions import Role, require_role

    game = _lock(game)
    club = game.table.round.evening.competition.club
    require_role(by, club, Role.DIRECTOR)
    _check_version(game, expected_version)
    old = list(game.hands.order_by("number"))
    correcting = bool(old) or game.is_locked
    if correcting and not reason.strip():
        raise ValidationError({"reason": _("Give the reason for the correction.")})
    ruleset = game_ruleset(game)
    errors, new = {}, []
    for index, row in enumerate(rows, start=1):
        try:
            new.append(_build_hand(game, index, row, ruleset))
        except ValidationError as exc:
            errors[index] = exc
    if errors:
        raise SheetErrors(errors)
    # A game ends by the rule set: a sheet may not run past its end.
    for cut in range(1, len(new)):
        if _game_complete(game, new[:cut]):
            raise ValidationError(
                _("The game was complete after hand %(number)s; remove the rows after it.")
                % {"number": cut}
            )
    before = [hand_snapshot(h) for h in old]
    game.hands.all().delete()
    for hand in new:
        hand.entered_by = by
        hand.entered_via = "sheet"
        hand.full_clean(exclude=["game"])
    Hand.objects.bulk_create(new)
    _recompute(game, new)
    AuditEntry.objects.create(
        game=game,
        action=AuditEntry.Action.CORRECT if correcting else AuditEntry.Action.CREATE,
        user=by,
        actor=_actor(by, ""),
        before=before or None,
        after=[hand_snapshot(h) for h in new],
        reason=reason.strip(),
    )
    return game


class SheetErrors(ValidationError):
    """Errors of a score sheet, per row number: ``.rows`` maps row -> ValidationError."""

    def __init__(self, rows):
        super().__init__(_("Some rows are not right; nothing was saved."), code="sheet")
        self.rows = rows
