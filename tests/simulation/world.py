"""The world a simulated card-room day plays in: its staff, its players, its events and its
virtual clock. Everything the actions choose from is read from the product (the database the
services wrote), never from a model kept by the driver: the world only remembers what a person
in the room would know without asking the product (who works today, which events were put on
the schedule, whom a player asked to be forgotten)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from seating.models import DealerShift, PendingMove, Seat
from seating.services import dealers
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, Person, Tournament
from tournaments.people import services as people

#: Every simulated day starts at noon (Rome); days of a soak follow each other.
FIRST_DAY = datetime(2026, 3, 2, 12, 0, tzinfo=ZoneInfo("Europe/Rome"))

FIRST_NAMES = ["Mario", "Lucia", "Paolo", "Giulia", "Marco", "Sara", "Luca", "Elena", "Dario", "Anna", "Enzo", "Rita", "Ugo", "Vera", "Ivo", "Olga"]
LAST_NAMES = ["Rossi", "Bianchi", "Verdi", "Neri", "Russo", "Ferrari", "Conti", "Gallo", "Costa", "Fontana", "Moretti", "Greco"]


class Skip(Exception):
    """The action has nothing to act on in this state (no event running, nobody busted…): the
    step is not played and is counted as skipped, apart from refusals."""


def staff(username: str, role: str):
    """A staff login of ``role``, made once per database and reused by every later day."""
    user, made = get_user_model().objects.get_or_create(username=username)
    if made:
        user.set_unusable_password()
        user.save()
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


#: The venue's rooms (issue #42): each day opens a room of its own (9- and 10-seat tables, a zone
#: of 10-seat ones at the back), listed first (``FIRST_POSITION`` less the day), so the day's events
#: draw from it and the dealers rostered there deal them: yesterday's events, still playing when
#: the soak moves on, keep theirs.
FIRST_POSITION = 30000
ROOM_TABLES = [(n, 9, "") for n in range(1, 13)] + [(n, 10, "") for n in range(13, 31)] + [(n, 10, "back") for n in range(31, 41)]


SIM_DEALERS = 10


def sim_room(director: Actor, day: int):
    from seating.models import CardRoom
    from seating.services import cardrooms

    room = CardRoom.objects.filter(name=f"Sim hall {day}").first()
    if room is None:
        room = cardrooms.save_room(f"Sim hall {day}", actor=director, position=max(0, FIRST_POSITION - day))
        for number, seats, zone in ROOM_TABLES:
            cardrooms.save_table(room, number, seats=seats, zone=zone, actor=director)
    return room


@dataclass
class World:
    """One simulated day: the staff on duty, the day's events and the virtual clock."""

    seed: int
    day: int = 0
    now: datetime = field(default=FIRST_DAY)
    events: list[int] = field(default_factory=list)
    #: whom a player asked to be forgotten: the strings that must be gone from every public answer
    erased: dict[int, list[str]] = field(default_factory=dict)
    #: the event of a predraw: {tournament id: True} (the director knows he drew in advance)
    predrawn: set[int] = field(default_factory=set)
    names: int = 0
    #: the players who came to the desk today (the regulars the desk may see again)
    people: list[int] = field(default_factory=list)
    #: the events the current step acted on; None: check every event of the day
    touched: set[int] | None = None
    #: the day's events as a pass of the invariants found them (read once a pass)
    checking: list[Tournament] | None = None
    #: the backups the director took today, oldest first, in a folder of the day's own
    backups: list = field(default_factory=list)
    backup_dir: object = None
    #: API keys of device logins that were ended (revoked, or their password changed)
    ended_keys: list[str] = field(default_factory=list)
    #: the current step pushed the room's dealers (the invariants then ask for every table's dealer)
    pushed: bool = False
    #: the push list the current step read (the invariants compare it with the room map)
    push_list: dict | None = None
    #: the current step changed the lobby's layouts or screens (the invariants then read them)
    designed: bool = False
    #: the people the current step looked up, or whose data it exported (the invariants ask the
    #: product about them after the step)
    looked_up: list[int] = field(default_factory=list)
    exported: list[int] = field(default_factory=list)
    #: what the current step brought in from a sheet: (kind, id), which the invariants export again
    imported: list[tuple[str, int]] = field(default_factory=list)
    #: the notices the current step told: (event id, ``notices.services.Message``, (person, kinds) of
    #: its phone as the step found it); the phones subscribed today, to name each one's endpoint
    told: list = field(default_factory=list)
    phones: int = 0
    #: the lobby screens' links ended today (token, the event it showed), which answer nobody, and
    #: the new links the current step gave, which show their event
    ended_links: list[tuple[str, int]] = field(default_factory=list)
    screen_links: list[tuple[str, int]] = field(default_factory=list)
    #: the logins that picked a language in this step, and the language
    languages_chosen: list[tuple[object, str]] = field(default_factory=list)

    def __post_init__(self):
        self.now = FIRST_DAY + timedelta(days=self.day)
        self.director = Actor(staff("sim-director", "director"), "sim-floor-laptop")
        self.cashiers = [Actor(staff(f"sim-cashier-{n}", "cashier"), f"sim-desk-{n}") for n in (1, 2)]
        self.floor = Actor(staff("sim-floor", "floor"), "sim-tablet")
        self.dealer = Actor(staff("sim-dealer", "dealer"), "sim-dealer-tablet")
        self.controller = Actor(staff("sim-controller", "controller"), "sim-office")
        self.staff_logins = [self.director, *self.cashiers, self.floor, self.dealer, self.controller]
        self.room = sim_room(self.director, self.day)
        self.dealers = [staff(f"sim-dealer-{n}", "dealer") for n in range(1, SIM_DEALERS + 1)]
        if not DealerShift.objects.filter(room=self.room, starts_at__lte=self.now, ends_at__gt=self.now).exists():
            for user in self.dealers:  # the day's roster: the room opens at noon, the dealers stay twelve hours
                dealers.add_shift(self.room, user, self.now, self.now + timedelta(hours=12), actor=self.director)
        self.day_start = self.now

    def forget_what_is_gone(self) -> str:
        """After a restore: the events and players the room knew of that the backup did not hold
        are gone (the director knows he restored; whom a player asked to forget stays known,
        since the product must keep him forgotten)."""
        events = set(Tournament.objects.filter(pk__in=self.events).values_list("pk", flat=True))
        people = set(Person.objects.filter(pk__in=self.people).values_list("pk", flat=True))
        gone = [pk for pk in self.events if pk not in events]
        self.events = [pk for pk in self.events if pk in events]
        self.people = [pk for pk in self.people if pk in people]
        self.predrawn = {pk for pk in self.predrawn if pk in events}
        self.ended_links = []  # the screens as the backup held them, their links with them
        self.checking = None
        return ", ".join(f"event {pk}" for pk in gone)

    # --- what the actions choose from (read from the product) -----------------------------

    def tournaments(self, *statuses) -> list[Tournament]:
        qs = Tournament.objects.filter(pk__in=self.events).order_by("pk")
        if statuses:
            qs = qs.filter(status__in=statuses)
        return list(qs)

    def to_check(self, *statuses) -> list[Tournament]:
        """The events the invariants read after this step: those it acted on, or all of the day's
        (``touched`` None: the driver does so every few steps and at the end of the day)."""
        if self.checking is None:
            self.checking = self.tournaments()
        events = [t for t in self.checking if not statuses or t.status in statuses]
        return events if self.touched is None else [t for t in events if t.pk in self.touched]

    def entries(self, t: Tournament, *statuses) -> list[Entry]:
        qs = Entry.objects.filter(tournament=t).select_related("person").order_by("number")
        if statuses:
            qs = qs.filter(status__in=statuses)
        return list(qs)

    def seats(self, t: Tournament) -> dict[int, dict[int, int]]:
        """{table number: {seat number: entry id}} as the table map shows it."""
        out: dict[int, dict[int, int]] = {}
        for table, seat, entry in Seat.objects.filter(tournament=t, entry__isnull=False).values_list("table__number", "number", "entry_id"):
            out.setdefault(table, {})[seat] = entry
        return {k: dict(sorted(v.items())) for k, v in sorted(out.items())}

    def slips(self, t: Tournament) -> list[PendingMove]:
        return list(PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED).order_by("pk"))

    def cashier(self, rng: random.Random) -> Actor:
        return rng.choice(self.cashiers)

    def person(self, rng: random.Random) -> Person:
        """A player at the desk: a regular (somebody who played before, never an erased one) or a
        newcomer, with a phone and a document as the desk takes them."""
        regulars = list(Person.objects.filter(pk__in=self.people, first_name__in=FIRST_NAMES, banned=False).order_by("pk"))
        if regulars and rng.random() < 0.2:
            return rng.choice(regulars)
        self.names += 1
        first = rng.choice(FIRST_NAMES)
        # a fixed width, so that no name is part of another (x1 in x10): an erased person's
        # name found in a page is his
        last = f"{rng.choice(LAST_NAMES)}{self.seed % 1000}x{self.names:04d}"
        nickname = f"nick{self.seed % 997}x{self.names:04d}" if rng.random() < 0.3 else ""
        phone, document = f"+39 3{rng.randrange(10**8, 10**9)}", f"SIM{rng.randrange(10**6, 10**7)}"
        if self.names % 20 == 0:  # pasted from a message: invisible characters and a line break (kept out by the desk)
            first, last = f"\u200b{first}", f"{last}\u202e\n"
        person = people.create_person(
            actor=self.cashiers[self.names % len(self.cashiers)],
            confirm_duplicate=True,  # the desk has seen the warning (a document number drawn twice)
            first_name=first,
            last_name=last,
            nickname=nickname,
            phone=phone,
            document_id=document,
        )
        self.people.append(person.pk)
        return person


def money(value) -> Decimal:
    return Decimal(value).quantize(Decimal("0.01"))
