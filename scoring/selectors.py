"""Reads for the score-entry pages, each with its joins (the query counts are pinned
in the tests).

The first dealer of a game is North: hand 1 is dealt by North and the deal
passes clockwise (``scoring.rules.dealer_of_hand``), so in a boompje each player
deals four times. Clubs that cut for the first deal seat the draw accordingly.
"""

from dataclasses import dataclass, field
from functools import cached_property

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Member
from scoring import rules
from tournaments.models import Evening, Round, Seat, Table

from .messages import MARK_LEGENDS
from .models import Adjustment, AuditEntry, Game, Hand, Team, sheet_mark

POSITIONS = Seat.ORDER  # N E S W: seat index 0..3 of the rules core
FIRST_DEALER = 0  # North deals hand 1


def table_queryset():
    """Tables with everything a score page shows about where they are."""
    return Table.objects.select_related("round__evening__competition__club", "game")


def _seats_by_table(seats):
    by_table = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, {})[seat.position] = seat
    return by_table


def _ordered(by_position):
    return [by_position.get(p) for p in POSITIONS]


def _names(seats):
    return [seat.player_name if seat is not None else "?" for seat in seats]


def table_seats(table):
    """The four seats of a table in N E S W order (None for an empty seat)."""
    seats = Seat.objects.filter(table=table).select_related("member")
    return _ordered({s.position: s for s in seats})


def team_names(seats, team):
    """The names of a team's two players, from seats in N E S W order."""
    names = _names(seats)
    return [names[0], names[2]] if team == Team.A else [names[1], names[3]]


def _confirmers(game, seats):
    if game.scorer_team:
        other = Team.B if game.scorer_team == Team.A else Team.A
        return team_names(seats, other)
    return _names(seats)


def game_confirmers(game):
    """Names that may confirm: the other team's players when the keeper is known,
    otherwise any of the four."""
    return _confirmers(game, table_seats(game.table))


@dataclass
class HandRow:
    """One line of the running score sheet."""

    hand: Hand
    dealer: str
    running_a: int
    running_b: int
    #: The hand is the roefel (hand 1 under a rule set with the roefel).
    roefel: bool = False
    #: How the club's sheets mark a pit (``Club.mark_style``).
    style: rules.sheet.MarkStyle = rules.sheet.MarkStyle.PIT_TEAM

    @property
    def pit_a(self):
        """Wij's pit mark as the club's score sheet writes it (``sheet_mark``): M or
        TP, I, or P or M in the column of the team that took no trick."""
        return self._pit("A")

    @property
    def pit_b(self):
        return self._pit("B")

    def _pit(self, team):
        if not self.hand.pit:
            return ""
        return sheet_mark(self.hand, team, self.style) if self.hand.verzaakt != team else ""


@dataclass
class EntryState:
    """Everything the table's entry page shows."""

    table: Table
    game: Game
    seats: list
    hands: list[HandRow]
    ruleset: rules.Ruleset
    state: rules.GameResult
    next_number: int | None
    dealer_position: str | None
    dealer_name: str | None
    confirmers: list[str] = field(default_factory=list)
    #: How the club's sheets mark a pit (``Club.mark_style``).
    style: rules.sheet.MarkStyle = rules.sheet.MarkStyle.PIT_TEAM

    @property
    def mark_legend(self):
        """The sheet's pit marks in the club's style, for the legend."""
        return MARK_LEGENDS[self.style]

    @property
    def evening(self):
        return self.table.round.evening

    @property
    def names_a(self):
        return team_names(self.seats, Team.A)

    @property
    def names_b(self):
        return team_names(self.seats, Team.B)

    @property
    def length(self):
        """Hands in a game of this rule set (None for a match to a target)."""
        if self.ruleset.game_end is rules.GameEnd.HANDS:
            return self.ruleset.hands_per_game
        return None

    @property
    def declares_roem(self):
        """Roem is declared from the hand (match-1500): the table enters declarations."""
        return self.ruleset.roem_rule is rules.RoemRule.DECLARED

    @property
    def dealer_seat(self):
        """The dealer's seat in words (North, East, ...)."""
        return Seat.Position(self.dealer_position).label if self.dealer_position else None

    @property
    def is_extra_hand(self):
        return self.length is not None and (self.next_number or 0) > self.length

    @property
    def target(self):
        return self.ruleset.target_score if self.length is None else None

    @property
    def roefel(self):
        """The ``rules.Roefel`` when the next hand is the roefel, else None."""
        if self.next_number is None:
            return None
        return rules.roefel_of(self.ruleset, self.next_number, first_dealer=FIRST_DEALER)

    @property
    def first_dealers(self):
        """(name, seat in words) of the dealers of hands 1 to 4; hand n is dealt by
        the ((n - 1) % 4)-th, for a page that counts hands while offline."""
        dealers = []
        for number in range(1, 5):
            position, name = _dealer(number, self.seats)
            dealers.append((name, Seat.Position(position).label))
        return dealers


def _dealer(number, seats):
    if number is None:
        return None, None
    index = int(rules.dealer_of_hand(number, FIRST_DEALER))
    seat = seats[index]
    return POSITIONS[index], (seat.player_name if seat is not None else "?")


def entry_state(*, table) -> EntryState:
    """The entry page of one table: its seats, its game's hands with running totals,
    the next hand and its dealer. Three queries with the table (table, seats, hands)."""
    game = table.game
    seats = table_seats(table)
    hands = list(game.hands.order_by("number"))
    ruleset = game.get_ruleset()
    style = table.round.evening.competition.club.mark_style()
    state = rules.game_state(
        ruleset, totals=(game.total_a, game.total_b), hands_played=game.hands_entered
    )
    rows, a, b = [], 0, 0
    for hand in hands:
        a, b = a + hand.score_a, b + hand.score_b
        rows.append(
            HandRow(
                hand, _dealer(hand.number, seats)[1], a, b, ruleset.is_roefel(hand.number), style
            )
        )
    next_number = state.next_hand if game.status == Game.Status.OPEN else None
    position, name = _dealer(next_number, seats)
    return EntryState(
        table=table,
        game=game,
        seats=seats,
        hands=rows,
        ruleset=ruleset,
        state=state,
        next_number=next_number,
        dealer_position=position,
        dealer_name=name,
        confirmers=_confirmers(game, seats),
        style=style,
    )


@dataclass(frozen=True)
class Correction:
    """The last correction of a game: who made it and why."""

    actor: str
    reason: str


def latest_corrections(games) -> dict:
    """{game id: Correction} for the games (a queryset or ids) corrected at least once."""
    entries = (
        AuditEntry.objects.filter(game__in=games, action=AuditEntry.Action.CORRECT)
        .order_by("created_at", "pk")
        .values_list("game_id", "actor", "reason")
    )
    return {game_id: Correction(actor, reason) for game_id, actor, reason in entries}


@dataclass
class TableProgress:
    table: Table
    game: Game | None
    seats: list
    adjustment_a: int = 0
    adjustment_b: int = 0
    correction: "Correction | None" = None

    @property
    def names_a(self):
        return team_names(self.seats, Team.A)

    @property
    def names_b(self):
        return team_names(self.seats, Team.B)

    @cached_property
    def length(self):
        """Hands in the game (None for a match to a target score)."""
        if self.game is None:
            return None
        ruleset = self.game.get_ruleset()
        return ruleset.hands_per_game if ruleset.game_end is rules.GameEnd.HANDS else None

    @property
    def percent(self):
        if self.game is None:
            return 0
        if self.game.status != Game.Status.OPEN:
            return 100
        if not self.length:
            return 0
        return min(99, round(100 * self.game.hands_entered / self.length))

    @property
    def how_far(self):
        """In words: "12 of 16 hands", "16 hands, to be confirmed", "confirmed"."""
        if self.game is None:
            return _("not started")
        if self.game.status == Game.Status.CONFIRMED:
            return _("confirmed")
        count = self.game.hands_entered
        if self.length:
            hands = _("%(count)s of %(length)s hands") % {"count": count, "length": self.length}
        else:
            hands = ngettext("%(count)s hand", "%(count)s hands", count) % {"count": count}
        if self.game.status == Game.Status.COMPLETE:
            return _("%(hands)s, to be confirmed") % {"hands": hands}
        return hands

    @property
    def missing(self):
        """What the table still owes: None when confirmed."""
        if self.game is None or self.game.status == Game.Status.CONFIRMED:
            return None
        return self.game.status


@dataclass
class RoundProgress:
    round: Round
    tables: list[TableProgress]


@dataclass
class EveningProgress:
    evening: Evening
    rounds: list[RoundProgress]
    adjustments: list[Adjustment]
    members: list[Member]

    @property
    def tables(self):
        return [t for r in self.rounds for t in r.tables]

    def count(self, status):
        return sum(1 for t in self.tables if t.game is not None and t.game.status == status)

    @property
    def confirmed(self):
        return self.count(Game.Status.CONFIRMED)

    @property
    def to_confirm(self):
        return self.count(Game.Status.COMPLETE)

    @property
    def in_play(self):
        return self.count(Game.Status.OPEN)

    @property
    def missing(self):
        return [t for t in self.tables if t.missing]


def evening_progress(*, evening, with_adjustments=True) -> EveningProgress:
    """Every table of every round of an evening with its game and players; the
    evening's adjustments and the players who came (for the adjustment form).

    Five queries (tables with games, seats, corrections, adjustments, members),
    three without the adjustments."""
    tables = list(
        Table.objects.filter(round__evening=evening)
        .select_related("round", "game")
        .order_by("round__number", "number")
    )
    seats = _seats_by_table(
        Seat.objects.filter(round__evening=evening, table__isnull=False).select_related("member")
    )
    adjustments, members = [], []
    if with_adjustments:
        adjustments = list(
            Adjustment.objects.filter(evening=evening)
            .select_related("member", "round", "game__table", "created_by")
            .order_by("created_at", "pk")
        )
        members = list(
            Member.objects.filter(club_id=evening.competition.club_id)
            .filter(attendances__evening=evening)
            .order_by("name")
            .distinct()
        )
    corrections = latest_corrections(Game.objects.filter(table__round__evening=evening))
    team_extra = {}
    for adjustment in adjustments:
        if adjustment.game_id:
            key = (adjustment.game_id, adjustment.team)
            team_extra[key] = team_extra.get(key, 0) + adjustment.points
    rounds = {}
    for table in tables:
        game = getattr(table, "game", None)
        progress = TableProgress(table, game, _ordered(seats.get(table.pk, {})))
        if game is not None:
            progress.adjustment_a = team_extra.get((game.pk, "A"), 0)
            progress.adjustment_b = team_extra.get((game.pk, "B"), 0)
            progress.correction = corrections.get(game.pk)
        rounds.setdefault(table.round_id, RoundProgress(table.round, []))
        rounds[table.round_id].tables.append(progress)
    return EveningProgress(
        evening=evening,
        rounds=list(rounds.values()),
        adjustments=adjustments,
        members=members,
    )


@dataclass
class TableLink:
    """A table of a round with its players, for the sheet of QR codes."""

    table: Table
    seats: list

    @property
    def names_a(self):
        return team_names(self.seats, Team.A)

    @property
    def names_b(self):
        return team_names(self.seats, Team.B)


def round_table_links(*, round_) -> list[TableLink]:
    """The tables of a round that play a game, in order, with their seats
    (two queries: tables, seats)."""
    tables = list(Table.objects.filter(round=round_, game__isnull=False).order_by("number"))
    seats = _seats_by_table(
        Seat.objects.filter(round=round_, table__isnull=False).select_related("member")
    )
    return [TableLink(table, _ordered(seats.get(table.pk, {}))) for table in tables]


@dataclass(frozen=True)
class SyncState:
    """Where a game stands, for a phone whose queued hand was refused: the next hand
    number, the version and the stored hand of the number it sent (if any)."""

    status: str
    version: int
    hands: int
    next_number: int | None
    current: Hand | None


def sync_state(*, game, number=None) -> SyncState:
    """The game as stored now (one query for the game, one for the hand asked about)."""
    game = Game.objects.get(pk=game.pk)
    state = rules.game_state(
        game.get_ruleset(), totals=(game.total_a, game.total_b), hands_played=game.hands_entered
    )
    current = None
    if number is not None:
        current = Hand.objects.filter(game=game, number=number).first()
    return SyncState(
        status=game.status,
        version=game.version,
        hands=game.hands_entered,
        next_number=state.next_hand if game.status == Game.Status.OPEN else None,
        current=current,
    )


def hand_by_client_id(*, game, client_id):
    """The hand a device already sent with this entry id, or None."""
    if not client_id:
        return None
    return Hand.objects.filter(game=game, client_id=client_id).first()


def evening_audit(*, evening, table=None):
    """The audit log of an evening's games, newest first, with their tables."""
    entries = AuditEntry.objects.filter(game__table__round__evening=evening)
    if table is not None:
        entries = entries.filter(game__table=table)
    return entries.select_related("game__table__round", "user").order_by("-created_at", "-pk")


def play_entered(*, competition=None, round_=None) -> bool:
    """Whether a hand is entered in the competition or in the round (one query)."""
    hands = Hand.objects.all()
    if competition is not None:
        hands = hands.filter(game__table__round__evening__competition=competition)
    if round_ is not None:
        hands = hands.filter(game__table__round=round_)
    return hands.exists()


def round_finished_tables(*, round_, lock=()) -> set[int]:
    """The ids of the round's tables that have finished: their game is confirmed. The
    games of the tables in ``lock`` are locked first (until the transaction ends), so
    what is read of them holds while the caller acts on it."""
    if lock:
        list(
            Game.objects.filter(table__round=round_, table_id__in=lock)
            .select_for_update(of=("self",))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
    return set(
        Game.objects.filter(table__round=round_, status=Game.Status.CONFIRMED).values_list(
            "table_id", flat=True
        )
    )


def evenings_result_counts(*, evenings) -> dict:
    """What results hang on ``evenings`` (a query of evenings): their games, how many
    of those are confirmed, their hands and their adjustments (three queries)."""
    games = Game.objects.filter(table__round__evening__in=evenings)
    counts = games.aggregate(
        games=Count("pk"), confirmed=Count("pk", filter=Q(status=Game.Status.CONFIRMED))
    )
    counts["hands"] = Hand.objects.filter(game__in=games).count()
    counts["adjustments"] = Adjustment.objects.filter(evening__in=evenings).count()
    return counts


def evening_open_game_count(*, evening) -> int:
    """How many games of the evening are not confirmed yet."""
    return (
        Game.objects.filter(table__round__evening=evening)
        .exclude(status=Game.Status.CONFIRMED)
        .count()
    )
