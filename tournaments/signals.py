"""What tournaments announces. Other apps react; tournaments never calls them.

Each signal is sent by the service that made the change, inside its transaction, with
``sender=Tournament`` and keyword arguments ``tournament``, ``actor`` and what the signal names.
A receiver that raises rolls the whole action back (``send``, not ``send_robust``): seating
that cannot seat a paid player must refuse the sale, not leave a player without a seat record.
Receivers connect in their app's ``AppConfig.ready()`` (``seating/apps.py``, ``payouts/apps.py``).
"""

from django.dispatch import Signal

from .models import Tournament

#: A sale (or a prize seat, a ticket) made an entry playing. ``entry``.
entry_paid = Signal()

#: A busted entry bought back in (rebuy): its bust no longer counts. ``entry``.
entry_revived = Signal()

#: A rebuy that revived a busted entry was reversed: the entry is out again, its bust counts. ``entry``.
entry_revival_undone = Signal()

#: An entry was cancelled (reversal, refund, cancelled tournament). ``entry``.
entry_cancelled = Signal()

#: A player was removed from play by a penalty (disqualification, PEN-07). ``entry``, ``reason``.
entry_removed = Signal()

#: REG-09 FORFEIT_AT: at the deadline the players not arrived are out together, at ``now``, in
#: one bust (their order cannot be told: they share the places, ELM-06). ``entries``, ``reason``, ``now``.
entries_forfeited = Signal()

#: The tournament started: every paid entry needs a seat. ``seat_later_sessions``: the director
#: confirmed that players drawn in advance into a later session are seated now (SEAT-02).
tournament_started = Signal()

#: PAY-05: the last sale that feeds the prize pool closed at the end of level ``after_level`` (late
#: registration, and in a rebuy event the rebuys and the add-on too): the pool is final.
sales_closed = Signal()

#: CLK-06: the director closed the hand-for-hand hand at every table at once (the next hand, or
#: hand-for-hand ended), the tables that had not reported it taken as done: the balancing moves
#: that waited for a table's hand are made now (seating).
h4h_hand_closed = Signal()

#: A sit & go still registering sold a place (sent after ``entry_paid``, so the player is seated
#: first): the formats start it by itself once its last place is paid (FMT-09). ``entry``.
sit_and_go_place_paid = Signal()


# --- What tournaments asks: the apps above answer (read side) --------------------------------
# Tournaments works without them: no answer is an empty answer.

#: ``entry`` → ``{"table": n, "seat": s}`` while the entry is seated (seating answers).
seat_wanted = Signal()

#: ``tournament`` → the numbers of the tables in play (seating answers).
tables_wanted = Signal()

#: ``tournament`` → the number of places paid (payouts answers; CLK-06's hand-for-hand announcement).
places_paid_wanted = Signal()

#: ``tournament``, ``hand`` → how many players went out in that hand-for-hand hand of the
#: session in play (seating answers; CLK-06: whether the hand reached the money).
h4h_hand_busts_wanted = Signal()

#: ``tournament`` → the hand-for-hand hand number the latest standing bust carries, or None
#: (seating answers; a new announcement numbers its hands past it, so that its busts never join
#: the last hand of the one before).
last_bust_h4h_hand_wanted = Signal()

#: ``tournament``, ``table`` → how many players sit at that table (seating answers).
table_players_wanted = Signal()

#: ``tournament`` → ``{"table": n, "is_final": bool}`` for the TV table in play (ROLE-08), else
#: None (seating answers).
tv_table_wanted = Signal()

#: ``tournament`` → ``{"final_table_formed": bool, "free_seat": bool}``: whether the final table
#: is formed, and whether a new player would find an open seat at a table in play (else a new table
#: opens; None before the final table) — what the desk's admission asks before seating a late entry
#: (REG-04, BAL-09; seating answers).
room_wanted = Signal()

#: ``tournament``, ``actor``, ``dealers`` (the demo's dealer logins): the demo was loaded (in the
#: installation's language, active while it is sent); seating gives it a room with its tables,
#: the dealers on the roster, where the demo's event draws its tables.
demo_loaded = Signal()

#: ``tournament``, ``entries`` → a dict merged into the live snapshot every lobby screen receives,
#: the same size whatever the field (seating: tables in play, the seats version, the first moves to
#: make; payouts: prize pool and payouts). ``entries``: the entries playing or out, counted by the
#: snapshot already (the field for places paid: not counted again).
snapshot_parts = Signal()

#: ``tournament``, ``page``, ``size`` → one page of the lobby screens' rotating seat lookup,
#: ``{"seats_version", "page", "pages", "size", "total", "seats": [{"name", "table", "seat"}]}``
#: (seating answers).
seat_page_wanted = Signal()

#: ``tournament``, ``people`` (person ids) → ``{person id: entry id}``: those of ``people`` who
#: played another event of the tournament's series, each with his latest entry there (formats
#: answers for its leagues and leaderboard series). The players' notices tell them when the
#: event's late registration closes at the end of the level being played.
series_players_wanted = Signal()

#: ``entry`` → a dict merged into what the player's phone page shows about that entry alone
#: (seating: ``seat`` and the ``move`` to make; payouts: the ``prizes`` won and, in a bounty
#: event, its ``bounty``: on its head, won, collected, to collect).
entry_view_parts = Signal()

#: ``tournament``, ``snapshot`` → ``{entry id: dict}``: ``entry_view_parts`` for every entry of
#: the tournament at once, read in a few queries whatever the field (the players' phones of a
#: tournament are served from one index per change, never a read per phone); ``snapshot``: the
#: lobby snapshot of the same change (what it says need not be read again).
entries_view_parts = Signal()

#: ``tournament`` → a dict merged into the floor overview row of a running tournament
#: (seating: tables in play, moves pending, halted tables).
overview_parts = Signal()

#: ``tournament`` → the sessions of its draw in advance (SEAT-02), in the order the director named
#: them (the start plays the first), or None without one (seating answers).
predraw_sessions_wanted = Signal()

#: ``tournament`` → ``[{"label", "url"}]``: buttons on the tournament page (each app's pages).
page_links = Signal()

#: ``tournament`` → ``[{"name", "label", "pdf", "csv"}]``: the reports for the control authority
#: (payouts: the pre-start report and its addenda, the rulings), linked from the tournament page
#: and the rulings page (ROLE-02, ROLE-05).
report_links = Signal()

#: ``tournament``, ``buy_in``, ``fee`` → why another app refuses this price (payouts: a satellite
#: awards seats in the tournament, so it cannot become free), or None.
price_checked = Signal()

#: ``tournament``, ``guarantee`` (the new one, None when taken away) → why another app refuses
#: the change, or None (payouts: its prize parts make another tournament's pool, a Day 1 flight's
#: Day 2's, so its own pool is none to guarantee); a ``(code, why)`` pair when the refusal has a
#: code of its own (payouts: the payout table is locked or a paid place decided on the pool as
#: it stands, PAY-05).
guarantee_checked = Signal()

#: ``tournament``, ``field_cap`` (the new one, None when taken away) → why another app refuses it,
#: or None (formats: a heads-up bracket seats no more players than it has places).
field_cap_checked = Signal()

#: ``tournament``, ``entry`` → why the entry of a tournament that plays on cannot be cancelled by a
#: reversal or a refund (formats: he is drawn in a heads-up bracket, whose matches decide), or None.
entry_cancel_checked = Signal()

#: ``tournament``, ``now`` → why the progressive jackpot's fee cannot be sold now (payouts: the
#: jackpot was won today, PAY-12), or None.
jackpot_sale_checked = Signal()

#: ``tournament``, ``entry`` → why another app refuses to refund this entry of a tournament that
#: plays (payouts: he has won a bounty, so he has played, REG-12), or None; a ``(code, why)``
#: pair when the refusal has a code of its own (payouts: the entry is in a deal, PAY-09).
refund_checked = Signal()

#: ``tournament``, ``prize`` (the prize part leaving the pool) → why another app refuses to take
#: it out of a tournament that plays (payouts: a paid place is decided on that pool, or its payout
#: table is locked and published with that money in its places, PAY-05), as ``(code, message)``,
#: or None.
pool_out_checked = Signal()

#: ``tournament`` → why another app refuses to cancel it, as ``(code, message)``, or None
#: (payouts: prizes paid from its pool stand; the cancellation would refund every entry on top, FMT-02).
cancel_checked = Signal()

#: ``tournament`` → ``{place: players}``: the shared places still being decided and how many
#: players each will hold (formats: a heads-up round still playing, whose losers all share the
#: round's place). Payouts shares such a place's prizes over all of them and pays none before.
place_spans_pending = Signal()

#: ``person`` → ``{"prize_payments": [...], "tickets": [...], "prizes_unpaid": [...], "bounties":
#: [...], "bounties_unpaid": [...]}``: what the apps above hold about one person, for his data
#: export and the erasure's refusal (payouts answers).
person_data_wanted = Signal()

#: ``person`` (after the change) — his name was corrected or erased: the apps above that keep
#: his name in a cache forget it, so no page shows the old one (formats: the public leaderboard).
person_changed = Signal()

#: ``person``, ``entries`` (his entries) → ``{entry id: dict}``: what the apps above add to each
#: row of a player's history page (payouts: the ``prizes`` won; formats: the ``league`` points).
history_parts = Signal()

#: ``tournament``, ``request`` → a response for the lobby screen instead of the clock (a
#: heads-up event shows its bracket), or None.
display_wanted = Signal()

#: ``tournament``, ``action`` (a logged event's) → for a draw another app makes (payouts: a
#: mystery envelope; tournaments: a chip race; the formats: a heads-up bracket), the function
#: that replays it: payload → (the part the draw decided, as logged; the same part recomputed
#: from the logged seed and inputs); None otherwise (``seating.replay``). Here, at the bottom,
#: so that tournaments' own draws answer it too.
draw_replay_wanted = Signal()


def ask(signal: Signal, **kwargs) -> list:
    """Every answer to a read-side signal, None answers left out."""
    return [answer for _receiver, answer in signal.send(sender=Tournament, **kwargs) if answer is not None]


def ask_one(signal: Signal, default=None, **kwargs):
    """The first answer to a read-side signal, else ``default``."""
    answers = ask(signal, **kwargs)
    return answers[0] if answers else default


def announce(signal: Signal, tournament, actor, **kwargs) -> None:
    """Send ``signal`` about ``tournament`` inside the caller's transaction."""
    signal.send(sender=Tournament, tournament=tournament, actor=actor, **kwargs)
