"""Storage for seating: tables, occupied seats, busts and move slips.

Rules do not live here: the pure engine is ``seating/engine/`` and every change goes
through ``seating/services.py``. The seat map of a tournament is the ``Table`` rows in play
plus one ``Seat`` row per seated player; an empty seat has no row.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, Person, Tournament, TournamentEvent

from . import labels


class Table(models.Model):
    """One table of a tournament and where its blinds are (POS-01).

    ``big_blind_seat`` is BB(h), the big blind of the last completed hand, and
    ``previous_big_blind_seat`` BB(h−1); the next hand's button, small and big blind follow
    from them (``seating.engine.next_hand_positions``). A table that is broken (or merged
    into the final table) stays as a row with ``in_play`` False, so its number and its
    history remain; a table opened again later reuses the row.
    """

    tournament = models.ForeignKey(Tournament, related_name="tables", on_delete=models.CASCADE, db_index=False)
    number = models.PositiveIntegerField(_("table"))
    capacity = models.PositiveSmallIntegerField(_("seats"))
    big_blind_seat = models.PositiveSmallIntegerField(_("big blind of the last hand"), null=True, blank=True)
    previous_big_blind_seat = models.PositiveSmallIntegerField(_("big blind of the hand before"), null=True, blank=True)
    big_blind_twice = models.BooleanField(default=False, help_text="the big blind posts again alone (BAL-04 SINGLE_BB)")
    locked = models.BooleanField(_("locked"), default=False)
    locked_seats = models.JSONField(_("locked seats"), default=list, blank=True)
    halt_waived = models.BooleanField(_("halt waived"), default=False)
    is_final = models.BooleanField(_("final table"), default=False)
    tv = models.BooleanField(_("TV table"), default=False, help_text="the feature table the cameras film (ROLE-08, SEAT-07)")
    in_play = models.BooleanField(default=True)
    opened_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="seating_table_number_unique")]
        indexes = [models.Index(fields=["tournament", "in_play"])]

    def __str__(self):
        return f"table {self.number}"


class Seat(models.Model):
    """A seated player: which table and seat. An entry sits in at most one seat (its key).

    His chips are his entry's (they move with him). ``wait_for_button`` is SEAT-05: he was
    placed between the button and the small blind and is not dealt in until the button
    passes him.
    """

    # Indexes (written on every seat change): (tournament, table) and the unique (table,
    # number) also serve the keys' own lookups.
    tournament = models.ForeignKey(Tournament, related_name="seats", on_delete=models.CASCADE, db_index=False)
    table = models.ForeignKey(Table, related_name="seats", on_delete=models.CASCADE, db_index=False)
    number = models.PositiveSmallIntegerField(_("seat"))
    entry = models.OneToOneField(Entry, primary_key=True, related_name="seat", on_delete=models.CASCADE)
    wait_for_button = models.BooleanField(default=False)
    seated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["table__number", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="seating_seat_unique")]
        indexes = [models.Index(fields=["tournament", "table"])]


class Bust(models.Model):
    """One elimination (ELM-01): who, where, when, and the place it gave.

    Busts recorded together on one hand at one table share ``hand_group``; busts during one
    hand-for-hand hand carry its number (``h4h_hand``). ``place`` is the best place of the
    player's tie group and ``shared_with`` the size of that group (ELM-06: "k (shared)").
    An undone bust (a mistake) or a bust bought back by a rebuy stays as a row with
    ``void`` set, for the audit trail; it no longer counts for places.
    """

    BUST, REMOVED = "BUST", "REMOVED"
    UNDONE, REBOUGHT = "UNDONE", "REBOUGHT"

    tournament = models.ForeignKey(Tournament, related_name="busts", on_delete=models.CASCADE, db_index=False)
    entry = models.ForeignKey(Entry, related_name="busts", on_delete=models.CASCADE)
    order = models.PositiveIntegerField(help_text="bust sequence in the tournament, first out first")
    kind = models.CharField(max_length=10, default=BUST)
    table_number = models.PositiveIntegerField()
    seat_number = models.PositiveSmallIntegerField()
    hand_group = models.PositiveIntegerField(null=True, blank=True, help_text="same hand at the same table")
    h4h_hand = models.PositiveIntegerField(null=True, blank=True)
    starting_stack = models.PositiveBigIntegerField(null=True, blank=True)
    # ELM-03: busts at different tables whose order cannot be told, marked simultaneous by the
    # floor (at recording or afterwards, with a reason): one tie group, sharing the places.
    simultaneous_group = models.PositiveIntegerField(null=True, blank=True)
    simultaneous_reason = models.CharField(max_length=200, blank=True)
    busted_at = models.DateTimeField(default=timezone.now)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, db_index=False)
    reason = models.CharField(max_length=200, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)
    shared_with = models.PositiveIntegerField(default=1)
    event = models.ForeignKey(TournamentEvent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False)
    void = models.CharField(max_length=10, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "order"]
        indexes = [models.Index(fields=["tournament", "order"])]


class PendingMove(models.Model):
    """A move slip (BAL-08): player, from table/seat, to table/seat, and why.

    A balancing move is PROPOSED until the floor confirms it is done (then the seat map
    changes: ``applied``); a newer plan that no longer contains it SUPERSEDES it. Break and
    final-table moves are drawn and applied to the seat map at once (``applied`` from the
    start); they stay PROPOSED until the floor confirms the player has moved. A manual move
    is DONE when it is recorded. An undone move is UNDONE.

    During hand-for-hand a balancing move off or onto a table still playing the hand is
    WAITING (CLK-06): its tables are known, its player and seat (kept as the plan has them
    now) are not shown and not final; it becomes PROPOSED, the player and the seat chosen
    then, once both tables have finished the hand. It cannot be confirmed while it waits.
    """

    PROPOSED, DONE, SUPERSEDED, UNDONE, WAITING = "PROPOSED", "DONE", "SUPERSEDED", "UNDONE", "WAITING"
    STATUSES = [
        (PROPOSED, _("proposed")),
        (DONE, _("done")),
        (SUPERSEDED, _("superseded")),
        (UNDONE, _("undone")),
        (WAITING, _("waiting for the hand")),
    ]
    BALANCE, BREAK, FINAL_TABLE, MANUAL = "BALANCE", "BREAK", "FINAL_TABLE", "MANUAL"
    KINDS = [(BALANCE, _("balancing")), (BREAK, _("table break")), (FINAL_TABLE, _("final table")), (MANUAL, _("by hand"))]

    # Indexes: (tournament, status) and the entry; the links to events and users are followed
    # from the slip, never searched (events are never deleted).
    tournament = models.ForeignKey(Tournament, related_name="moves", on_delete=models.CASCADE, db_index=False)
    entry = models.ForeignKey(Entry, related_name="moves", on_delete=models.CASCADE)
    kind = models.CharField(max_length=12, choices=KINDS, default=BALANCE)
    status = models.CharField(max_length=10, choices=STATUSES, default=PROPOSED)
    applied = models.BooleanField(default=False, help_text="the seat map already shows the player at the destination")
    from_table = models.PositiveIntegerField()
    from_seat = models.PositiveSmallIntegerField()
    to_table = models.PositiveIntegerField()
    to_seat = models.PositiveSmallIntegerField()
    reason = models.TextField(blank=True, help_text="a move by hand: the words typed (older slips: the engine's English)")
    reason_data = models.JSONField(
        null=True, blank=True, help_text="the engine's reason: codes and parameters, put into words in the reader's language when shown (seating.labels)"
    )
    card = models.CharField(max_length=4, blank=True)
    wait_for_button = models.BooleanField(default=False)
    single_big_blind = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    done_at = models.DateTimeField(null=True, blank=True)
    done_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False)
    event = models.ForeignKey(
        TournamentEvent,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        help_text="the event that made the slip (the draw, the plan, the manual move)",
    )
    cause = models.ForeignKey(
        TournamentEvent,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        help_text="the undoable action that led to it (a bust, a confirmed move)",
    )
    done_event = models.ForeignKey(
        TournamentEvent,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        help_text="the confirmation that changed the seat map (the undo source)",
    )

    class Meta:
        ordering = ["tournament", "id"]
        indexes = [models.Index(fields=["tournament", "status"])]

    @property
    def reason_code(self) -> str:
        """The code of the engine's reason ("" for a move by hand)."""
        return labels.reason_code(self.reason_data)

    @property
    def reason_text(self) -> str:
        """Why, in the active language (the words typed for a move by hand)."""
        return labels.reason_text(self.reason_data) if self.reason_data else self.reason


class CardRoom(models.Model):
    """A room of the venue (the main hall, a side room) and its physical tables, shared by every
    event that plays there (``RoomTable``). An event plays in the room it is first drawn in
    (``SeatingState.card_room``); its tables then carry the numbers of the room's tables, so the
    number a table map, a slip, a seat card or a phone shows is the one on the felt."""

    name = models.CharField(_("name"), max_length=60, unique=True)
    position = models.PositiveSmallIntegerField(_("order"), default=0, help_text="the rooms in the order the staff list them")
    # The dealers' rotation (``seating.engine.dealers``): a push every ``push_minutes``, a break
    # of ``break_minutes`` after ``break_after`` minutes dealt.
    push_minutes = models.PositiveSmallIntegerField(_("minutes between pushes"), default=30)
    break_after = models.PositiveSmallIntegerField(_("a break after (minutes dealt)"), default=120)
    break_minutes = models.PositiveSmallIntegerField(_("minutes of a break"), default=20)
    last_push_at = models.DateTimeField(null=True, blank=True)
    pushes = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self):
        return self.name


#: An event in one of these states holds no table of the room, held or kept (its tables are free).
ENDED_EVENTS = (Tournament.FINISHED, Tournament.CANCELLED)


class RoomTable(models.Model):
    """A physical table of a room: its number (the one the staff use), its seats, where it is
    (a ``zone`` of the room, and ``position``: the house's order of taking tables, nearest
    first), and its state: free, held by the event playing on it (``held_by``), kept for an
    event that has not started (``reserved_for``: a draw in advance put its players there), or
    out of service (``out_of_service``: why). An event that finished or was cancelled holds
    nothing: its tables are free again."""

    room = models.ForeignKey(CardRoom, related_name="tables", on_delete=models.PROTECT)
    number = models.PositiveIntegerField(_("table"))
    seats = models.PositiveSmallIntegerField(_("seats"), default=9)
    zone = models.CharField(_("zone"), max_length=30, blank=True)
    position = models.PositiveIntegerField(_("order"), default=0)
    out_of_service = models.CharField(_("out of service because"), max_length=120, blank=True)
    held_by = models.ForeignKey(Tournament, null=True, blank=True, related_name="+", on_delete=models.SET_NULL)
    reserved_for = models.ForeignKey(Tournament, null=True, blank=True, related_name="+", on_delete=models.SET_NULL)

    class Meta:
        ordering = ["room", "position", "number"]
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="seating_roomtable_number_unique")]

    def __str__(self):
        return f"{self.room} {self.number}"


class DealerShift(models.Model):
    """A dealer on the roster: in the room from when to when (a login of the dealer role)."""

    room = models.ForeignKey(CardRoom, related_name="shifts", on_delete=models.CASCADE)
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.CASCADE)
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"))

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["room", "ends_at"])]


class DealerAssignment(models.Model):
    """Where a dealer was, from when to when: dealing a table of the room (its number), on a break,
    or waiting in the pool. The open row (``ends_at`` empty) is where he is now; the rows are his
    shift's record (the payroll report)."""

    DEAL, BREAK, POOL = "DEAL", "BREAK", "POOL"
    KINDS = [(DEAL, _("dealing")), (BREAK, _("on a break")), (POOL, _("in the pool"))]

    room = models.ForeignKey(CardRoom, related_name="+", on_delete=models.CASCADE)
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.CASCADE)
    kind = models.CharField(max_length=5, choices=KINDS)
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    push = models.PositiveIntegerField(default=0, help_text="the push that made it (0: a table opened or closed, a shift began)")

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["room", "ends_at"]), models.Index(fields=["dealer", "ends_at"])]


class SeatingState(models.Model):
    """Per tournament: counters, and a token that changes with every change of the seat map.

    Services keep the last seat map they wrote in memory (``seating.services.room``); it is
    reused only while this token is unchanged, so a change by another process, or a rolled
    back transaction, makes the next service read the map from the database again.
    """

    tournament = models.OneToOneField(Tournament, primary_key=True, related_name="seating_state", on_delete=models.CASCADE)
    token = models.CharField(max_length=32, default="")
    bust_seq = models.PositiveIntegerField(default=0)
    group_seq = models.PositiveIntegerField(default=0)
    # Counts the changes that moved, seated or unseated somebody (not a hand, not a lock): the
    # lobby screens' seat lookup is read again only when it changes (``seats_version``).
    seats_seq = models.PositiveIntegerField(default=0)
    # SEAT-07: the tournament may have keep-apart pairs or seats given by hand (read with the
    # lock, so a tournament without any never looks for them).
    constraints = models.BooleanField(default=False)
    # The room the tournament plays in (set by its first draw when the venue has rooms): its
    # tables are that room's physical tables. None: the tournament numbers its own tables.
    card_room = models.ForeignKey(CardRoom, null=True, blank=True, related_name="+", on_delete=models.PROTECT)


class KeepApart(models.Model):
    """Two people who must not sit at one table (SEAT-07: relatives, partners), for one
    tournament or, with no tournament, for every tournament. Every draw and balancing move
    honours the pair when it can; when it cannot, the change is flagged in the event log."""

    tournament = models.ForeignKey(Tournament, null=True, blank=True, related_name="+", on_delete=models.CASCADE, help_text="empty: every tournament")
    person_a = models.ForeignKey(Person, related_name="+", on_delete=models.CASCADE)
    person_b = models.ForeignKey(Person, related_name="+", on_delete=models.CASCADE)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False)

    class Meta:
        ordering = ["id"]


class SeatReservation(models.Model):
    """A seat the director assigns by hand to one entry (SEAT-07, TDA 9: special needs),
    with the reason; the seat is taken out of the random draw and the entry sits there."""

    tournament = models.ForeignKey(Tournament, related_name="+", on_delete=models.CASCADE, db_index=False)
    entry = models.OneToOneField(Entry, related_name="seat_reservation", on_delete=models.CASCADE)
    table_number = models.PositiveIntegerField(_("table"))
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    reason = models.CharField(_("reason"), max_length=200)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False)

    class Meta:
        ordering = ["table_number", "seat_number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "table_number", "seat_number"], name="seating_reservation_unique")]


class ManualDraw(models.Model):
    """A draw made with paper seat cards (SEAT-01, SEAT-04, ``draw_mode`` MANUAL).

    INITIAL: ``cards`` are the seat tickets (table, seat) printed for the start; the floor
    enters which card each entry drew. BREAK: ``cards`` are step 1's seat cards of broken
    table ``table``; the floor enters for each of its players the seat card and the high
    card he drew (step 2). The draw is applied when every player has a card; until then
    the breaking table and the seat cards are locked (``locks``: what was locked before).
    ``assigned``: entry id (as text) → {"table", "seat", "card"}.
    """

    INITIAL, BREAK = "INITIAL", "BREAK"
    OPEN, DONE, CANCELLED = "OPEN", "DONE", "CANCELLED"

    tournament = models.ForeignKey(Tournament, related_name="+", on_delete=models.CASCADE, db_index=False)
    kind = models.CharField(max_length=10, default=INITIAL)
    status = models.CharField(max_length=10, default=OPEN)
    table = models.PositiveIntegerField(null=True, blank=True, help_text="BREAK: the table that breaks")
    cards = models.JSONField(default=list)
    players = models.JSONField(default=list, help_text="the entries who draw (BREAK: [entry, from seat])")
    assigned = models.JSONField(default=dict)
    locks = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    done_at = models.DateTimeField(null=True, blank=True)
    event = models.ForeignKey(TournamentEvent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["tournament", "status"])]


class PreDrawSeat(models.Model):
    """SEAT-02 (004): a registrant's session, table and seat, drawn before the event so that his
    schedule can be sent to him (his phone page shows it; the staff print or export the list)."""

    tournament = models.ForeignKey(Tournament, related_name="predraw_seats", on_delete=models.CASCADE)
    entry = models.OneToOneField(Entry, related_name="predraw_seat", on_delete=models.CASCADE)
    session = models.CharField(max_length=20)
    table = models.PositiveIntegerField()
    seat = models.PositiveIntegerField()
    drawn_at = models.DateTimeField()

    class Meta:
        ordering = ["session", "table", "seat"]
