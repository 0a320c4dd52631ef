"""Every way a score changes: entering, undoing, confirming, correcting, adjusting.

Each service is one transaction that locks the game row first, so two devices
at one table, a double tap or a phone resending after a lost connection queue
behind each other and see the state the other left. Inputs are checked by the
rules core; its ``InvalidHand`` becomes a translated ``ValidationError`` on the
field it names. Totals are recomputed from the game's hands in the same
transaction and stored on the game.

Game totals (``Game.total_a``/``total_b``) are the hands' totals only; a
team's verzaken is a hand (``HandInput.verzaakt``), so it counts in them, toward
a target score and in a tie-break. Adjustments (sit-out, absence, a player's
-100 verzaken penalty, a director's score) are their own entries beside the
game; pages show them next to the totals and the rankings add hands and
adjustments together.

The roefel (hand 1 under a rule set with ``roefel``) is checked by the core for
every hand a service builds (``HandInput.score(number=...)``), so the entry
page, the grid and the import refuse another team or trump with one message;
an empty trump is stored as clubs.

Every change to a hand or a game leaves an ``AuditEntry``: who, when, the
state before and after, and why.
"""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.permissions import Capability, require
from scoring import rules
from tournaments.models import Evening, Round, Seat, Table

from .messages import hand_error
from .models import Adjustment, AuditEntry, Game, Hand, Team
from .selectors import game_confirmers

HAND_INPUTS = (
    "playing",
    "trump",
    "points_a",
    "points_b",
    "roem_a",
    "roem_b",
    "declared_a",
    "declared_b",
    "pit",
    "verzaakt",
)


class Conflict(ValidationError):
    """Someone else changed the game first: the caller shows both versions."""

    def __init__(self, message, *, current=None):
        super().__init__(message, code="conflict")
        self.current = current


def hand_snapshot(hand):
    fields = ("number", *HAND_INPUTS, "score_a", "score_b", "nat")
    return {name: getattr(hand, name) for name in fields}


def _inputs(hand):
    return tuple(getattr(hand, name) or "" for name in HAND_INPUTS)


def _changed_numbers(old, new):
    """The numbers of the hands a sheet adds, removes or changes."""
    before = {h.number: _inputs(h) for h in old}
    after = {h.number: _inputs(h) for h in new}
    return [n for n in sorted(before.keys() | after.keys()) if before.get(n) != after.get(n)]


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
    #: Declared roem (match-1500): what each team declared, "50+20+stuk". When either
    #: is given under a declared-roem rule set, the core counts them and roem_a/roem_b
    #: are not used; otherwise roem_a/roem_b are the roem that counts.
    declared_a: str = ""
    declared_b: str = ""
    #: The team that reneged ("A"/"B"): the hand ended in verzaken (or, when the
    #: rule set punishes the player, counts as played).
    verzaakt: str = ""
    #: The seat ("N", "E", "S", "W") of the player who reneged: needed when the rule
    #: set gives that player the penalty personally (``VerzakenRule.PERSONAL``).
    offender: str = ""

    def uses_declarations(self, ruleset):
        return ruleset.roem_rule is rules.RoemRule.DECLARED and bool(
            self.declared_a or self.declared_b
        )

    def declarations(self, ruleset):
        """The written form of each team's declarations as stored ("", "" without)."""
        if not self.uses_declarations(ruleset):
            return "", ""
        try:
            items = rules.check_declarations((self.declared_a, self.declared_b))
        except rules.InvalidHand as exc:
            raise hand_error(exc, declared=True) from exc
        return rules.format_declarations(items[0]), rules.format_declarations(items[1])

    def score(self, ruleset, *, number=None):
        """The core's result; raises ValidationError with the field the core names.

        With ``number`` (the hand's number in its game) the roefel is checked too.
        """
        declared = self.uses_declarations(ruleset)
        roem = (self.declared_a, self.declared_b) if declared else (self.roem_a, self.roem_b)
        try:
            if number is not None:
                rules.check_roefel(ruleset, number, playing=self.playing, trump=self.trump)
            return rules.score_hand(
                ruleset,
                playing=self.playing,
                points=(self.points_a, self.points_b),
                roem=roem,
                pit=self.pit or None,
                verzaakt=self.verzaakt or None,
            )
        except rules.InvalidHand as exc:
            raise hand_error(exc, declared=declared) from exc

    def stored_trump(self, ruleset, number):
        """The trump to store: as entered, or clubs for the roefel left empty."""
        if self.trump:
            return self.trump
        roefel = rules.roefel_of(ruleset, number)
        return roefel.trump.letter if roefel is not None else ""


def _user(by):
    return by if by is not None and by.is_authenticated else None


def _actor(by, actor):
    if actor:
        return actor
    if by is not None and by.is_authenticated:
        return by.get_username()
    return _("table")


def _lock(game):
    """The game row, locked until the transaction ends (only the game row: locking
    the joined evening too would make every table of the evening wait for each other)."""
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("table__round__evening__competition")
        .get(pk=game.pk)
    )


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


def _summary(game, hands):
    """The rules core's view of a game from its stored banked scores."""
    return rules.score_game(game.get_ruleset(), [(h.score_a, h.score_b) for h in hands])


def game_counts(hands, ruleset):
    """The counts a game stores beside its totals, by ``Game`` field
    (``marsen_a`` ...), from its hands (stored ``Hand`` rows or anything with the same
    fields): the rules core counts them (:func:`scoring.rules.count_game`)."""
    return rules.count_game(ruleset, hands).by_column()


def game_recount(game, hands):
    """Set the game's stored totals, counts and winner from its ``hands`` (their
    banked scores), without saving: the one place a game's sums are counted
    (:func:`_recompute` here, and the club archive's import). Returns the core's
    summary of the game."""
    summary = _summary(game, hands)
    game.total_a, game.total_b = summary.totals
    game.hands_entered = len(hands)
    game.winner = summary.winner or ""
    for name, value in game_counts(hands, game.get_ruleset()).items():
        setattr(game, name, value)
    return summary


def game_hands_build(*, game: Game, rows: list[HandInput]):
    """``rows`` as the game's hands 1, 2, 3 ..., each scored by the rules core under
    the game's rule set as :func:`hand_record` scores it (the roefel checked), and the
    game's totals counted from them (:func:`game_recount`); nothing is saved. Returns
    (the hands, the core's summary of the game). Raises the ValidationError of the
    first hand the core refuses, with ``.hand_index`` (0-based)."""
    ruleset = game.get_ruleset()
    hands = []
    for index, row in enumerate(rows):
        try:
            hands.append(_build_hand(game, index + 1, row, ruleset))
        except ValidationError as exc:
            exc.hand_index = index
            raise
    return hands, game_recount(game, hands)


def _recompute(game, hands):
    """Store the game's totals, counts and status from its hands.

    A confirmed game stays confirmed while it is complete; a correction that
    leaves it incomplete takes the confirmation away.
    """
    summary = game_recount(game, hands)
    if game.status == Game.Status.CONFIRMED and not summary.complete:
        _check_no_player_substitutes(game)
    if game.status != Game.Status.CONFIRMED or not summary.complete:
        game.status = Game.Status.COMPLETE if summary.complete else Game.Status.OPEN
        game.confirmed_by = ""
        game.confirmed_at = None
    game.version += 1
    game.save()
    return summary


def _check_no_player_substitutes(game):
    """Refuse to take the confirmation of a game away while one of its players fills
    in as the substitute at another table of the round (the competition's
    ``finished_may_substitute``): he was seated there because this table had finished,
    and he cannot play on at both. The game is locked (:func:`_lock`), as the seating
    locks it while it checks, so the two cannot pass each other."""
    away = (
        Seat.objects.filter(
            round_id=game.table.round_id,
            table__isnull=False,
            substitute_member__in=Seat.objects.filter(
                table_id=game.table_id, member__isnull=False
            ).values("member_id"),
        )
        .exclude(table_id=game.table_id)
        .select_related("table", "substitute_member")
        .order_by("table__number")
        .first()
    )
    if away is not None:
        raise ValidationError(
            _(
                "%(name)s fills in as the substitute at table %(table)s in this round; "
                "seat another substitute there first. A correction that leaves this game "
                "incomplete takes its confirmation away, and %(name)s would have to play "
                "on here."
            )
            % {"name": away.substitute_member.name, "table": away.table.number}
        )


def _build_hand(game, number, data: HandInput, ruleset):
    result = data.score(ruleset, number=number)
    declared_a, declared_b = data.declarations(ruleset)
    return Hand(
        game=game,
        number=number,
        playing=data.playing,
        trump=data.stored_trump(ruleset, number),
        points_a=result.points[0],
        points_b=result.points[1],
        roem_a=result.roem[0],
        roem_b=result.roem[1],
        declared_a=declared_a,
        declared_b=declared_b,
        pit=data.pit or "",
        score_a=result.scores[0],
        score_b=result.scores[1],
        nat=result.nat,
        verzaakt=data.verzaakt if ruleset.verzaken_rule.ends_hand else "",
        offender=data.offender if _punishes_the_player(data, ruleset) else "",
    )


def _punishes_the_player(data: HandInput, ruleset):
    return bool(data.verzaakt) and ruleset.verzaken_rule is rules.VerzakenRule.PERSONAL


def _offender_penalty(game, number, data: HandInput, ruleset, by):
    """Under ``VerzakenRule.PERSONAL``: the -penalty of the player who reneged in hand
    ``number``, as an adjustment of the hand's round (None when nobody reneged or the
    rule set does not punish the player). The seat must be of the team that verzaakt.

    A seat without a member of the club (a substitute whose name was typed) has
    nobody to give the penalty to: None as well. The hand is stored all the same (it
    counts as played, so the table's scores are right) with the seat in
    ``Hand.offender`` and no ``Hand.penalty``; the entry page says that the director
    gives the penalty on the evening's scores page (:func:`penalty_missing`)."""
    if not _punishes_the_player(data, ruleset):
        return None
    if data.offender not in Seat.TEAM_OF or Seat.TEAM_OF[data.offender] != data.verzaakt:
        raise ValidationError(
            {"offender": _("Choose the player of the team that verzaakt who reneged.")},
            code="offender",
        )
    table = game.table
    seat = table.seats.filter(position=data.offender).first()
    member = seat and (seat.member or seat.substitute_member)
    if member is None:
        return None
    adjustment = Adjustment(
        evening=table.round.evening,
        round=table.round,
        kind=Adjustment.Kind.VERZAKEN,
        member=member,
        points=-ruleset.verzaken_bonus,
        reason=_("Verzaakt in hand %(number)s of table %(table)s")
        % {"number": number, "table": table.number},
        created_by=_user(by),
    )
    adjustment.full_clean()
    return adjustment


def penalty_missing(hand) -> bool:
    """Whether ``hand`` names a player who reneged but gave nobody the penalty: the
    seat held no member of the club (see :func:`_offender_penalty`)."""
    return bool(hand.offender) and hand.penalty_id is None


def _withdraw_penalty(hand, by, *, reason=None):
    """Undoing, replacing or correcting ``hand``: the player's verzaken penalty its
    stored version gave (``Hand.penalty``) is withdrawn by an adjustment with the
    opposite points (adjustments are never edited). The hand lets go of it, and a
    hand that is removed takes no penalty with it, so a penalty is withdrawn once."""
    penalty = hand.penalty
    if penalty is None:
        return
    Adjustment.objects.create(
        evening=penalty.evening,
        round=penalty.round,
        kind=penalty.kind,
        member=penalty.member,
        points=-penalty.points,
        reason=reason
        or _("Hand %(number)s undone: its verzaken penalty is withdrawn") % {"number": hand.number},
        created_by=_user(by),
    )
    hand.penalty = None


def _clean(hand):
    # The rules core has checked everything the check constraints state, and the
    # game lock keeps hand numbers and entry ids unique; validating the constraints
    # again would cost three queries each inside the write lock. The database still
    # holds them.
    hand.full_clean(exclude=["game"], validate_constraints=False)


def hand_preview(*, game: Game, data: HandInput, number=None) -> rules.HandResult:
    """What each team would bank for ``data`` (as hand ``number``, when given: the
    roefel is checked), without saving anything."""
    return data.score(game.get_ruleset(), number=number)


def hand_same_as(*, hand: Hand, data: HandInput) -> bool:
    """Whether ``data``, entered as ``hand``'s number, is what ``hand`` stores: the
    same inputs as the rules core reads them (a second phone entering the same hand),
    and, where the player who reneged gets the penalty, the same seat reneged."""
    try:
        built = _build_hand(hand.game, hand.number, data, hand.game.get_ruleset())
    except ValidationError:
        return False
    return (_inputs(built), built.offender) == (_inputs(hand), hand.offender)


def hand_record(**kwargs) -> Hand:
    """Enter the next hand of a game: the hand, stored now or before
    (:func:`hand_record_or_get` takes the same arguments and says which)."""
    return hand_record_or_get(**kwargs)[0]


@transaction.atomic
def hand_record_or_get(
    *,
    game: Game,
    data: HandInput,
    number: int | None = None,
    client_id: str | None = None,
    expected_version: int | None = None,
    keeper: str = "",
    by=None,
    actor: str = "",
    via: str = "table",
) -> tuple[Hand, bool]:
    """Enter the next hand of a game: ``(hand, created)``, as ``get_or_create``.

    ``client_id`` makes a retry harmless: the same id returns the hand already
    stored, with ``created`` False. That is decided under the game's lock, so
    of two identical sends at once exactly one is told it stored the hand.
    ``number`` (the hand the scorer thinks it is entering) and
    ``expected_version`` turn a stale form into a Conflict instead of a wrong
    hand number. ``keeper`` (``"A"`` or ``"B"``) is the team keeping score,
    recorded once, so that the other team confirms.
    """
    game = _lock(game)
    if client_id:
        existing = Hand.objects.filter(game=game, client_id=client_id).first()
        if existing is not None:
            return existing, False
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
    if _summary(game, hands).complete:
        raise ValidationError(
            _("This game is complete; no more hands can be entered. Confirm it or undo a hand.")
        )
    if keeper and not game.scorer_team:
        if keeper not in Team.values:
            raise ValidationError({"keeper": _("Choose the team that keeps score.")})
        game.scorer_team = keeper
    ruleset = game.get_ruleset()
    hand = _build_hand(game, next_number, data, ruleset)
    penalty = _offender_penalty(game, next_number, data, ruleset, by)
    hand.client_id = client_id or None
    hand.entered_by = _user(by)
    hand.entered_via = via
    if penalty is not None:
        penalty.save()
        hand.penalty = penalty
    _clean(hand)
    hand.save()
    after = hand_snapshot(hand)
    if penalty is not None:
        # The hand's audit entry names its penalty, for the record.
        after["penalty"] = penalty.pk
    _recompute(game, [*hands, hand])
    AuditEntry.objects.create(
        game=game,
        hand_number=hand.number,
        action=AuditEntry.Action.CREATE,
        user=hand.entered_by,
        actor=_actor(by, actor),
        after=after,
    )
    return hand, True


@transaction.atomic
def hand_replace(
    *,
    game: Game,
    number: int,
    data: HandInput,
    expected_version: int,
    client_id: str | None = None,
    by=None,
    actor: str = "",
) -> Hand:
    """Replace stored hand ``number`` with ``data``: the table chose this version of a
    hand two phones entered differently. Only while the game can take hands (not
    confirmed, the evening open); ``expected_version`` is the game as the phone saw
    it when it was shown both versions, so a change made meanwhile is a Conflict
    instead of a lost update. ``client_id`` (the phone's entry id) makes a resend
    harmless: the hand already stored with it is returned unchanged."""
    game = _lock(game)
    if client_id:
        existing = Hand.objects.filter(game=game, client_id=client_id).first()
        if existing is not None:
            return existing
    _check_writable(game)
    _check_version(game, expected_version)
    hands = list(game.hands.order_by("number"))
    index = int(number) - 1
    if not 0 <= index < len(hands):
        raise ValidationError(_("Hand %(number)s is not stored.") % {"number": number})
    old = hands[index]
    ruleset = game.get_ruleset()
    hand = _build_hand(game, old.number, data, ruleset)
    penalty = _offender_penalty(game, old.number, data, ruleset, by)
    hands[index] = hand
    for cut in range(1, len(hands)):
        if _summary(game, hands[:cut]).complete:
            raise ValidationError(
                _(
                    "With this version the game ends after hand %(number)s; "
                    "undo the hands after it first."
                )
                % {"number": cut}
            )
    before = hand_snapshot(old)
    for name in (*HAND_INPUTS, "score_a", "score_b", "nat", "offender"):
        setattr(old, name, getattr(hand, name))
    old.client_id = client_id or None
    old.entered_by = _user(by)
    hand = hands[index] = old
    # The penalty follows the chosen version: the stored one's is withdrawn, this
    # version's (if it names an offender) recorded and named by the edit entry.
    _withdraw_penalty(
        hand,
        by,
        reason=_("Hand %(number)s replaced: its verzaken penalty is withdrawn")
        % {"number": hand.number},
    )
    if penalty is not None:
        penalty.save()
    hand.penalty = penalty
    _clean(hand)
    hand.save()
    _recompute(game, hands)
    after = hand_snapshot(hand)
    if penalty is not None:
        after["penalty"] = penalty.pk
    AuditEntry.objects.create(
        game=game,
        hand_number=hand.number,
        action=AuditEntry.Action.EDIT,
        user=hand.entered_by,
        actor=_actor(by, actor),
        before=before,
        after=after,
        reason=_("Two phones entered this hand differently; the table chose this version."),
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
    _withdraw_penalty(last, by)
    last.delete()
    _recompute(game, hands)
    AuditEntry.objects.create(
        game=game,
        hand_number=before["number"],
        action=AuditEntry.Action.DELETE,
        user=_user(by),
        actor=_actor(by, actor),
        before=before,
    )
    return last


def _check_confirmer_pin(game, *, name, pin):
    from clubs.services import member_pin_check

    seat = (
        Seat.objects.filter(table=game.table, member__isnull=False, member__name=name)
        .select_related("member")
        .first()
    )
    if seat is None:
        raise ValidationError(
            {"pin": _("This club confirms with a PIN; ask the tournament director to confirm.")}
        )
    member_pin_check(member=seat.member, pin=pin, place=f"table:{game.table_id}")


def _confirm(game, *, name, by):
    game.status = Game.Status.CONFIRMED
    game.confirmed_by = name[:120]
    game.confirmed_at = timezone.now()
    game.version += 1
    game.save()
    AuditEntry.objects.create(
        game=game,
        action=AuditEntry.Action.CONFIRM,
        user=_user(by),
        actor=name[:150],
        after={"total_a": game.total_a, "total_b": game.total_b},
    )


@transaction.atomic
def game_confirm(
    *, game: Game, name: str, pin: str | None = None, expected_version=None, by=None
) -> Game:
    """A player of the other team confirms the totals: the game is locked.

    When the table recorded which team keeps score, ``name`` must be a player
    of the other team. When the club confirms with a PIN, ``pin`` must be that
    player's PIN (throttled: see ``clubs.services.member_pin_check``); a seat
    without a member (a substitute) cannot confirm then: the director does.
    """
    game = _lock(game)
    _check_writable(game)
    _check_version(game, expected_version)
    if game.status != Game.Status.COMPLETE:
        raise ValidationError(_("The game is not complete yet."))
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": _("Choose who confirms.")})
    if game.scorer_team and name not in game_confirmers(game):
        raise ValidationError({"name": _("A player of the other team confirms.")})
    if game.table.round.evening.competition.club.confirm_with_pin:
        _check_confirmer_pin(game, name=name, pin=pin)
    _confirm(game, name=name, by=by)
    return game


@transaction.atomic
def game_enter_sheet(
    *,
    game: Game,
    rows: list[HandInput],
    by,
    reason: str = "",
    expected_version=None,
    confirm: bool = False,
) -> Game:
    """Replace a game's hands with a whole paper score sheet, all or nothing.

    Used by the director's grid: for a game without hands it is plain entry;
    changing a game with hands (or a confirmed one) is a correction and needs a
    reason. Every row is checked; errors are reported per row and nothing is
    saved. A sheet equal to the stored hands changes nothing. With ``confirm``
    (the sheet is signed by both teams) a complete game is confirmed as well.
    """
    game = _lock(game)
    club = game.table.round.evening.competition.club
    require(by, club, Capability.RUN_COMPETITIONS)
    _check_version(game, expected_version)
    old = list(game.hands.select_related("penalty").order_by("number"))
    ruleset = game.get_ruleset()
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
        if _summary(game, new[:cut]).complete:
            raise ValidationError(
                _("The game was complete after hand %(number)s; remove the rows after it.")
                % {"number": cut}
            )
    if [_inputs(h) for h in old] != [_inputs(h) for h in new]:
        correcting = bool(old) or game.is_locked
        if correcting and not reason.strip():
            raise ValidationError({"reason": _("Give the reason for the correction.")})
        before = [hand_snapshot(h) for h in old]
        _sheet_keeps_penalties(old, new, by)
        game.hands.all().delete()
        for hand in new:
            hand.entered_by = by
            hand.entered_via = "sheet"
            _clean(hand)
        Hand.objects.bulk_create(new)
        _recompute(game, new)
        changed = _changed_numbers(old, new)
        after = [hand_snapshot(h) for h in new]
        for snapshot, hand in zip(after, new, strict=True):
            if hand.penalty is not None:
                snapshot["penalty"] = hand.penalty.pk
        AuditEntry.objects.create(
            game=game,
            hand_number=changed[0] if len(changed) == 1 else None,
            action=AuditEntry.Action.CORRECT if correcting else AuditEntry.Action.CREATE,
            user=by,
            actor=_actor(by, ""),
            before=before or None,
            after=after,
            reason=reason.strip(),
        )
    if confirm and game.status == Game.Status.COMPLETE:
        name = _("%(user)s (paper sheet)") % {"user": by.get_username()}
        _confirm(game, name=name, by=by)
    return game


def _sheet_keeps_penalties(old, new, by):
    """A sheet replacing hands: a row equal to the stored hand keeps that hand's
    player and penalty (the grid has no column for who reneged: the director gives
    a penalty on the evening's scores page); a stored hand the sheet changes or
    removes has its penalty withdrawn."""
    rows = {hand.number: hand for hand in new}
    for hand in old:
        row = rows.get(hand.number)
        if row is not None and _inputs(row) == _inputs(hand):
            row.offender, row.penalty = hand.offender, hand.penalty
        else:
            _withdraw_penalty(
                hand,
                by,
                reason=_(
                    "Hand %(number)s corrected on the sheet: its verzaken penalty is withdrawn"
                )
                % {"number": hand.number},
            )


class SheetErrors(ValidationError):
    """Errors of a score sheet, per row number: ``.rows`` maps row -> ValidationError."""

    def __init__(self, rows):
        super().__init__(_("Some rows are not right; nothing was saved."), code="sheet")
        self.rows = rows


@transaction.atomic
def adjustment_record(
    *,
    evening: Evening,
    kind: str,
    points: int,
    reason: str,
    by,
    member=None,
    game: Game | None = None,
    team: str = "",
    round=None,
) -> Adjustment:
    """Record a score that is not a hand, with its reason: for one player
    (``member``: sit-out, absence, a -100 verzaken penalty) or for one team of a
    game (``game`` and ``team``: a director's score). A team's verzaken is not an
    adjustment but the hand it ended (``HandInput.verzaakt``); older verzaken
    rows for a team stay as they are and still count.

    Adjustments are never edited: a wrong one is undone by another with the
    opposite points and its own reason.
    """
    club = evening.competition.club
    require(by, club, Capability.RUN_COMPETITIONS)
    if kind == Adjustment.Kind.TOTALS:
        raise ValidationError(
            {"kind": _("An imported total comes only from a results import.")},
            code="totals_are_imported",
        )
    if (member is None) == (game is None):
        raise ValidationError(
            {"target": _("Choose one player or one team.")}, code="adjustment_target"
        )
    if member is not None and member.club_id != club.pk:
        raise ValidationError({"target": _("This player is not of this club.")})
    if game is not None and kind == Adjustment.Kind.VERZAKEN:
        raise ValidationError(
            {
                "kind": _(
                    "A team's verzaken is entered as the hand it ended (verzaakt on the score "
                    "sheet), so that it counts in the game. A player's -100 stays an adjustment."
                )
            },
            code="verzaken_is_a_hand",
        )
    if game is not None:
        game = _lock(game)
        if game.table.round.evening_id != evening.pk:
            raise ValidationError({"target": _("This game is not of this evening.")})
        if team not in Team.values:
            raise ValidationError({"target": _("Choose the team (wij or zij).")})
        round = game.table.round
    if round is not None and round.evening_id != evening.pk:
        raise ValidationError({"round": _("This round is not of this evening.")})
    if kind in (Adjustment.Kind.SITOUT, Adjustment.Kind.ABSENCE) and round is None:
        raise ValidationError({"round": _("Choose the round this score is for.")})
    adjustment = Adjustment(
        evening=evening,
        round=round,
        kind=kind,
        member=member,
        game=game,
        team=team if game is not None else "",
        points=points,
        reason=(reason or "").strip(),
        created_by=_user(by),
    )
    adjustment.full_clean()
    adjustment.save()
    if game is not None:
        AuditEntry.objects.create(
            game=game,
            action=AuditEntry.Action.ADJUST,
            user=_user(by),
            actor=_actor(by, ""),
            after={"kind": kind, "team": team, "points": points},
            reason=adjustment.reason,
        )
    return adjustment


# What follows a change of the tournaments layer below: its services send
# ``tournaments.signals`` inside their transaction and ``scoring.receivers`` calls
# these (so a failure here undoes the draw, the swap or the change).


def sitout_adjustment(*, round_, member_id, points, marsen, by) -> Adjustment:
    """The (unsaved) score of a player who sits out ``round_``: the one way it is made,
    by a round's draw (the competition's sit-out score) and by the results import (the
    file's); the caller saves it in its transaction."""
    return Adjustment(
        evening=round_.evening,
        round=round_,
        kind=Adjustment.Kind.SITOUT,
        member_id=member_id,
        points=points,
        marsen=marsen,
        reason=_("Sat out round %(number)s") % {"number": round_.number},
        created_by=by,
    )


def _sitout_adjustment(round_, member_id, competition, by):
    return sitout_adjustment(
        round_=round_,
        member_id=member_id,
        points=competition.sitout_score,
        marsen=1 if competition.sitout_mars else 0,
        by=by,
    )


@transaction.atomic
def games_create(*, tables, ruleset: rules.Ruleset, each=None, **fields) -> list[Game]:
    """The one way games come to be: a game at each of ``tables``, in bulk, playing
    ``ruleset`` (its snapshot is stored with the game, so a later change of the
    competition's rules leaves it as played). ``fields`` are every game's, ``each``
    (in the order of ``tables``) a game's own: an imported game's totals. In the
    caller's transaction, under the caller's locks."""
    snapshot = ruleset.to_dict()
    tables = list(tables)
    each = [{}] * len(tables) if each is None else list(each)
    games = [
        Game(table=table, ruleset=snapshot, **fields, **own)
        for table, own in zip(tables, each, strict=True)
    ]
    return Game.objects.bulk_create(games, batch_size=2000)


@transaction.atomic
def round_games_create(*, round_: Round, sitouts, by) -> None:
    """Give each table of a freshly drawn round its game, by the competition's rule
    set, and each player sitting out (``sitouts``: member ids) the sit-out score."""
    competition = round_.evening.competition
    tables = Table.objects.filter(round=round_).order_by("pk")
    games_create(tables=tables, ruleset=competition.ruleset())
    Adjustment.objects.bulk_create(
        [_sitout_adjustment(round_, member_id, competition, by) for member_id in sitouts]
    )


@transaction.atomic
def sitout_adjustments_move(*, round_: Round, sitting_out, back_in, by) -> None:
    """The sit-out scores of a round follow its players after a swap: those ``back_in``
    at a table lose theirs, those ``sitting_out`` now get one (unless they have it)."""
    sitouts = Adjustment.objects.filter(round=round_, kind=Adjustment.Kind.SITOUT)
    sitouts.filter(member_id__in=back_in).delete()
    competition = round_.evening.competition
    for member_id in sitting_out:
        if not sitouts.filter(member_id=member_id).exists():
            _sitout_adjustment(round_, member_id, competition, by).save()


@transaction.atomic
def round_games_delete(*, round_: Round) -> None:
    """Remove the games and the scores of a round that is taken back (no hand entered)."""
    Adjustment.objects.filter(round=round_).delete()
    Game.objects.filter(table__round=round_).delete()


def evenings_results_delete(*, evenings) -> None:
    """Remove the adjustments and the games (their hands and audit go with them) of
    ``evenings`` (a query), which are being deleted: inside the caller's
    transaction (``tournaments.services.evening_delete``, which checks who may)."""
    Adjustment.objects.filter(evening__in=evenings).delete()
    Game.objects.filter(table__round__evening__in=evenings).delete()


def competition_games_lock(*, competition) -> None:
    """The competition's games without a hand, locked until the transaction ends, in
    their order (SQLite's writers hold the one write lock anyway): taken before the
    competition's row, as a hand's entry takes its game's lock before it touches the
    competition, so a rule-set change waits for a first hand in flight (and then
    sees it) instead of deadlocking with it."""
    games = Game.objects.filter(table__round__evening__competition=competition, hands_entered=0)
    list(games.order_by("pk").select_for_update(of=("self",)).values_list("pk", flat=True))


@transaction.atomic
def competition_games_ruleset_set(*, competition, ruleset: rules.Ruleset) -> None:
    """The games of a competition without a hand play by its new rule set."""
    Game.objects.filter(table__round__evening__competition=competition).update(
        ruleset=ruleset.to_dict()
    )
