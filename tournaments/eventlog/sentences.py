"""The event log read as sentences: one translatable template per ``Action``, filled from the payload.

``sentence(action, payload, ...)`` is pure (no database): what it needs beyond the payload comes
in as arguments — the actor's name, the tournament's currency and the names of the entries the
payload points at (``entry_refs(payload)`` says which; ``selectors.event_sentences`` looks them
up in one query). Only the keys a template names are shown, each formatted for a person (money
and numbers by the active locale, codes by their labels): a payload's other keys — seat maps,
card orders, ids — never reach the page. A template whose key is missing from an old row falls
back to the action's label. ``tests/test_eventlog.py`` renders every action.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext, ngettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from tdmanager.formatting import money as fmt_money
from tdmanager.formatting import num as fmt_num
from tdmanager.roles import ROLE_LABELS
from tournaments.eventlog.actions import Action
from tournaments.imports import rules as import_rules
from tournaments.labels import ADJUSTMENT_KINDS, METHODS, humanize, penalty_kind_label, penalty_reason_label

A = Action

#: The payload keys of the staff page's actions that name a role (``tdmanager.roles.ROLES``).
STAFF_ROLE_KEYS = {A.STAFF_LOGIN_ADDED: ("role",), A.STAFF_ROLE_CHANGED: ("old", "new")}

#: CLK-06: a table's state in a hand-for-hand hand, as the log and the pages say it.
H4H_STATES = {"IN_HAND": _("playing the hand"), "ALL_IN_HOLD": _("all-in, cards held face down"), "COMPLETE": _("hand finished")}

#: One sentence per action. ``%(actor)s`` is who did it; the other names are payload keys,
#: formatted by ``_context``. Keys ending in ``_suffix`` are optional tails ("" when absent).
SENTENCES: dict[str, object] = {  # a value is a template or (plural template, counting key)
    # --- cashier ---
    A.CASHIER_ADDON_SOLD: _("%(actor)s sold an add-on to %(entry)s — %(amount)s, %(chips)s chips"),
    A.CASHIER_ALTERNATE_ADDED: _("%(actor)s put %(name)s on the alternates list (number %(position)s)"),
    A.CASHIER_BUYIN_SOLD: _("%(actor)s sold entry #%(entry_number)s to %(name)s — %(amount)s %(method)s"),
    A.CASHIER_PREREGISTRATION_CANCELLED: _("%(actor)s cancelled the pre-registration of %(entry)s%(reason_suffix)s"),
    A.CASHIER_PREREGISTRATION_CREATED: _("%(actor)s pre-registered %(name)s"),
    A.CASHIER_REBUY_DECLARED: _("%(actor)s recorded that %(entry)s declared a rebuy before the hand: it must be made (TDA 27)"),
    A.CASHIER_REBUY_SOLD: _("%(actor)s sold rebuy %(rebuy_no)s to %(entry)s — %(amount)s, %(chips)s chips"),
    A.CASHIER_REENTRY_SOLD: _("%(actor)s sold re-entry #%(entry_number)s to %(name)s — %(amount)s %(method)s"),
    A.CASHIER_REFUND_PAID: _("%(actor)s refunded %(entry)s — %(amount)s%(reason_suffix)s"),
    A.CASHIER_ROW_REVERSED: _("%(actor)s reversed receipt #%(receipt)s — %(amount)s%(reason_suffix)s"),
    A.CASHIER_ENTRY_CHECKED_IN: _("%(actor)s checked in %(name)s (entry #%(entry_number)s)"),
    A.CASHIER_ENTRY_NO_SHOW: _("%(actor)s recorded %(entry)s as a no-show"),
    A.CASHIER_ENTRY_PRESENCE: _("%(actor)s changed the presence of %(name)s (entry #%(entry_number)s)%(reason_suffix)s"),
    A.CASHIER_ENTRY_NOT_ARRIVED: _("%(actor)s marked %(name)s (entry #%(entry_number)s) as not arrived%(reason_suffix)s"),
    A.CASHIER_ENTRY_ARRIVED: _("%(actor)s marked %(name)s (entry #%(entry_number)s) as arrived"),
    A.CASHIER_NO_SHOWS_FORFEITED: (
        ngettext_lazy(
            "End of level %(level)s plus %(minutes)s minutes: %(count)s player not arrived forfeited",
            "End of level %(level)s plus %(minutes)s minutes: %(count)s players not arrived forfeited",
            "count",
        ),
        "entries",
    ),
    A.CASHIER_RECEIVABLE_SETTLED: _("%(actor)s took %(amount)s from %(name)s for the amount owed of receipt #%(receivable)s (receipt #%(receipt)s)"),
    A.CASHIER_TRANSFER_CLEARED: _("%(actor)s confirmed the bank transfer of %(name)s as cleared (receipt #%(receipt)s)"),
    # --- formats ---
    A.FORMATS_BAGGING_RECORDED: _("%(actor)s recorded the bags: %(bagged_chips)s chips bagged"),
    A.FORMATS_BRACKET_CREATED: _("%(actor)s created a heads-up bracket of %(size)s players"),
    A.FORMATS_BRACKET_DRAWN: _("%(actor)s drew the bracket"),
    A.FORMATS_DAY2_BUILT: _("%(actor)s assigned %(players)s players to Day 2 (%(chips)s chips)"),
    A.FORMATS_DAY2_FINISHED: _("Day 2 finished: %(name)s won"),
    A.FORMATS_FLIGHT_CLOSED: _("%(actor)s closed flight %(flight)s: %(survivors)s players go on%(reason_suffix)s"),
    A.FORMATS_MATCH_BYE_AWARDED: _("Bye awarded to entry #%(winner)s"),
    A.FORMATS_MATCH_GAME_RECORDED: _("%(actor)s recorded game %(game)s: entry #%(winner)s won (%(score)s)"),
    A.FORMATS_MATCH_LATENESS_CHECKED: _("Lateness checked for a match"),
    A.FORMATS_MATCH_PLAYER_SEATED: _("%(actor)s seated %(entry)s at the match"),
    A.FORMATS_MATCH_REPLACEMENT_SEATED: _("%(actor)s seated %(name)s as a replacement"),
    A.FORMATS_MATCH_SEAT_FREED: _("%(actor)s freed the seat of %(name)s, who did not show up"),
    A.FORMATS_MATCH_STARTED: _("Match of round %(round)s started at table %(table)s"),
    A.FORMATS_MULTIDAY_CREATED: _("%(actor)s created a multi-day event"),
    A.FORMATS_QUALIFIER_WINNER_SENT: _("%(name)s goes to the final"),
    A.FORMATS_QUALIFIERS_CREATED: _("%(actor)s created the qualifiers"),
    A.FORMATS_SEATREQUEST_ALLOCATED: _("%(actor)s allocated the open seats (%(open_places)s)"),
    A.FORMATS_SEATREQUEST_CREATED: _("%(actor)s recorded a seat request from %(name)s"),
    A.FORMATS_SERIES_ATTACHED: _("%(actor)s added the tournament to the series %(name)s"),
    A.FORMATS_SERIES_CREATED: _("%(actor)s created the series %(name)s"),
    A.FORMATS_SERIES_CYCLE_CLOSED: _("Series cycle %(cycle)s closed"),
    A.FORMATS_SERIES_DAILY_SCHEDULED: _("%(actor)s scheduled a daily tournament"),
    A.FORMATS_SERIES_SCORED: _("Series points given to %(participants)s players"),
    A.FORMATS_SERIES_TIE_SETTLED: _("%(actor)s settled a series tie%(reason_suffix)s"),
    A.FORMATS_SITANDGO_CREATED: _("%(actor)s created a sit & go for %(players)s players"),
    A.FORMATS_STACKOPTION_ADDED: _("%(actor)s added the stack option %(label)s (%(chips)s chips)"),
    A.FORMATS_TIMED_CONFIGURED: _("%(actor)s configured the timed event"),
    A.FORMATS_TIMED_FINISHED: _("The timed event finished"),
    # --- payouts ---
    A.PAYOUTS_BOUNTY_PAID: _("%(actor)s paid the bounties won by %(name)s — %(amount)s %(method)s"),
    A.PAYOUTS_BOUNTY_RETURNED: _("%(actor)s took back from %(name)s the bounty paid on receipt #%(receipt)s — %(amount)s%(reason_suffix)s"),
    A.PAYOUTS_BOUNTY_UNDONE: _("%(actor)s undid a bust: its bounties (%(cash)s) are taken back"),
    A.PAYOUTS_BOUNTY_WON: _("Bounty: %(bounty_what)s"),
    A.PAYOUTS_DEAL_ACCEPTED: _("%(name)s accepted the deal"),
    A.PAYOUTS_DEAL_APPROVED: _("%(actor)s approved the deal"),
    A.PAYOUTS_DEAL_CANCELLED: _("%(actor)s cancelled the deal%(reason_suffix)s"),
    A.PAYOUTS_DEAL_PROPOSED: _("%(actor)s proposed a deal"),
    A.PAYOUTS_JACKPOT_LOCKED: _("The jackpot is locked until tomorrow (won in %(won_in)s)"),
    A.PAYOUTS_JACKPOT_PAID: _("%(actor)s paid the jackpot to %(name)s — %(amount)s %(method)s"),
    A.PAYOUTS_JACKPOT_WON: _("%(actor)s verified a royal flush at level %(level)s: jackpot of %(amount)s"),
    A.PAYOUTS_MYSTERY_DRAWN: _("Mystery envelope no. %(envelope)s drawn for %(name)s, who knocked out %(knocked_out_name)s: %(cash)s (seed %(seed)s)"),
    A.PAYOUTS_MYSTERY_ENVELOPES_SET: _("%(actor)s set up %(envelopes)s mystery envelopes, %(total)s in all"),
    A.PAYOUTS_PRIZE_PAID: _("%(actor)s paid the prize for place %(place)s to %(name)s — %(amount)s %(method)s"),
    A.PAYOUTS_RANKING_SIGNED: (
        ngettext_lazy("%(actor)s signed the ranking (%(places)s place)", "%(actor)s signed the ranking (%(places)s places)", "count"),
        "places",
    ),
    A.PAYOUTS_SATELLITE_COMPLETED: (ngettext_lazy("Satellite completed: %(seats)s seat won", "Satellite completed: %(seats)s seats won", "count"), "seats"),
    A.PAYOUTS_SATELLITE_LINKED: _("%(actor)s linked the satellite to its target tournament"),
    A.PAYOUTS_SIDEPOOL_AWARDED: _("%(actor)s awarded a side prize"),
    A.PAYOUTS_SIDEPOOL_CONTRIBUTED: _("%(actor)s added %(amount)s to a side pool"),
    A.PAYOUTS_SIDEPOOL_CREATED: _("%(actor)s created the side pool %(name)s"),
    A.PAYOUTS_TABLE_EDITED: _("%(actor)s edited the payout table (prize pool %(prize_pool)s)%(reason_suffix)s"),
    A.PAYOUTS_TABLE_LOCKED: (
        ngettext_lazy(
            "%(actor)s locked the payout table: %(places)s place, prize pool %(prize_pool)s",
            "%(actor)s locked the payout table: %(places)s places, prize pool %(prize_pool)s",
            "count",
        ),
        "places",
    ),
    A.PAYOUTS_LAST_LONGER_TOKEN_ISSUED: _("%(actor)s handed Last Longer chip or plaque %(label)s to %(name)s (entry #%(entry_number)s)"),
    A.PAYOUTS_TABLE_UNLOCKED: _("%(actor)s unlocked the published payout table%(reason_suffix)s"),
    A.PAYOUTS_TABLE_PROPOSED: (ngettext_lazy("Payout table proposed: %(places)s place", "Payout table proposed: %(places)s places", "count"), "places"),
    A.PAYOUTS_TEMPLATE_APPLIED: _("%(actor)s applied the payout template %(template)s"),
    A.PAYOUTS_TEMPLATE_SAVED: _("%(actor)s saved the payout template %(template)s"),
    A.PAYOUTS_TICKET_ISSUED: _("%(actor)s issued a ticket worth %(amount)s to %(name)s"),
    A.PAYOUTS_TICKET_REDEEMED: _("%(name)s redeemed a ticket"),
    # --- the room's physical tables ---
    A.ROOM_SAVED: _("%(actor)s saved the room %(name)s"),
    A.ROOM_TABLES_ADDED: (
        ngettext_lazy(
            "%(actor)s added %(count)s table of %(seats)s seats to %(room_name)s (tables %(first)s to %(last)s)",
            "%(actor)s added %(count)s tables of %(seats)s seats to %(room_name)s (tables %(first)s to %(last)s)",
            "count",
        ),
        "added",
    ),
    A.ROOM_TABLE_SAVED: _("%(actor)s saved table %(table)s of %(room_name)s: %(seats)s seats"),
    A.ROOM_TABLE_REMOVED: _("%(actor)s removed table %(table)s from %(room_name)s"),
    A.ROOM_TABLE_OUT: _("%(actor)s took table %(table)s of %(room_name)s out of service: %(reason)s"),
    A.ROOM_TABLE_BACK: _("%(actor)s put table %(table)s of %(room_name)s back in service"),
    A.ROOM_TABLE_RESERVED: _("%(actor)s kept table %(table)s of %(room_name)s for this event"),
    A.ROOM_EVENT_BROUGHT_IN: _("%(actor)s brought the event to the tables of %(room_name)s: it plays at their numbers (%(numbers)s)"),
    A.ROOM_TABLE_RELEASED: _("%(actor)s no longer keeps table %(table)s of %(room_name)s for this event"),
    A.ROOM_SHIFT_ADDED: _("%(actor)s put %(dealer)s on the roster of %(room_name)s"),
    A.ROOM_SHIFT_REMOVED: _("%(actor)s took %(dealer)s off the roster of %(room_name)s"),
    A.ROOM_ROTATION_SET: _(
        "%(actor)s set the dealers' rotation of %(room_name)s: a push every %(push_minutes)s minutes, a break of %(break_minutes)s minutes after %(break_after)s"
    ),
    A.ROOM_DEALERS_PUSHED: (
        ngettext_lazy("Push %(push)s in %(room_name)s: %(count)s dealer moved", "Push %(push)s in %(room_name)s: %(count)s dealers moved", "count"),
        "moves",
    ),
    # --- people ---
    A.PEOPLE_PERSON_CREATED: _("%(actor)s added %(name)s"),
    A.PEOPLE_PERSON_BANNED: _("%(actor)s banned a person%(reason_suffix)s"),
    A.PEOPLE_PERSON_UNBANNED: _("%(actor)s lifted a ban%(reason_suffix)s"),
    A.PEOPLE_PERSON_EXPORTED: _("%(actor)s exported the personal data of person #%(person)s"),
    A.PEOPLE_PERSON_ERASED: _("%(actor)s erased the personal data of person #%(person)s%(reason_suffix)s"),
    A.PEOPLE_PERSON_CHANGED: _("%(actor)s corrected the data of person #%(person)s: %(fields)s"),
    A.PEOPLE_DOCUMENT_VIEWED: _("%(actor)s viewed the identity document number of person #%(person)s"),
    A.PEOPLE_PUSH_SUBSCRIBED: _("A phone subscribed to the notices of person #%(person)s"),
    A.PEOPLE_PUSH_UNSUBSCRIBED: _("A phone stopped the notices of person #%(person)s"),
    A.PEOPLE_PERSON_LOOKUP_PRIVACY: _("%(actor)s changed whether person #%(person)s is shown on the public seat lookup"),
    # --- logins, receipts after a restore, lobby screens' links ---
    A.AUTH_LOCKOUT_STARTED: _("%(failures)s wrong passwords: logins locked for %(seconds)s seconds (%(username)s at %(address)s)"),
    A.AUTH_LOCKOUT_LIFTED: _("%(actor)s lifted the login lock-out of %(username)s at %(address)s"),
    A.AUTH_TOKEN_ISSUED: _("%(user)s logged in through the API from the device %(name)s"),
    A.AUTH_TOKEN_REVOKED: _("%(actor)s ended the API login of %(user)s on the device %(name)s"),
    A.AUTH_SESSION_ENDED: _("%(actor)s ended the login of %(user)s in the browser %(name)s"),
    A.STAFF_LOGIN_ADDED: _("%(actor)s added the login %(username)s as %(role)s"),
    A.STAFF_ROLE_CHANGED: _("%(actor)s changed the role of %(username)s from %(old)s to %(new)s"),
    A.STAFF_PASSWORD_RESET: _("%(actor)s reset the password of %(username)s: its sessions and devices are logged out"),
    A.STAFF_LOGIN_DISABLED: _("%(actor)s disabled the login %(username)s"),
    A.STAFF_LOGIN_ENABLED: _("%(actor)s enabled the login %(username)s again"),
    A.STAFF_LOGIN_DELETED: _("%(actor)s deleted the login %(username)s: its sessions and devices are logged out"),
    A.IMPORT_DONE: _("%(actor)s imported %(file)s (%(kind)s): %(created)s added, %(updated)s updated, %(unchanged)s already in, %(left_out)s left out"),
    A.CASHIER_RECEIPTS_LOST_IN_RESTORE: _("After a restore, receipts %(first)s to %(last)s are skipped: they may have been printed before it"),
    A.TOURNAMENTS_DISPLAY_TOKEN_REVOKED: _("%(actor)s revoked the link of the lobby screen %(screen)s"),
    A.TOURNAMENTS_DISPLAY_TOKEN_ROTATED: _("%(actor)s gave the lobby screen %(screen)s a new link"),
    # --- seating ---
    A.SEATING_BIG_BLIND_SET: _("%(actor)s set the big blind at table %(table)s to seat %(big_blind_seat)s%(reason_suffix)s"),
    A.SEATING_BREAK_ORDER_SET: _("%(actor)s set the order in which tables break%(reason_suffix)s"),
    A.SEATING_BUST_UNDONE: _("%(actor)s undid a bust%(reason_suffix)s"),
    A.SEATING_PREDRAW: _("%(actor)s drew %(players)s registrants into sessions and tables: %(session_list)s"),
    A.SEATING_DRAW_INITIAL: (
        ngettext_lazy("Seats drawn: %(players)s players at %(tables)s table", "Seats drawn: %(players)s players at %(tables)s tables", "count"),
        "tables",
    ),
    A.SEATING_FINAL_TABLE_FORMED: _("Final table formed at table %(table)s"),
    A.SEATING_HALT_WAIVED: _("%(actor)s let table %(table)s play on%(reason_suffix)s"),
    A.SEATING_HAND_COMPLETED: _("Table %(table)s finished a hand"),
    A.SEATING_MOVE_CONFIRMED: _(
        "%(actor)s confirmed the move of %(entry)s from table %(from_table)s seat %(from_seat)s to table %(to_table)s seat %(to_seat)s"
    ),
    A.SEATING_MOVE_UNDONE: _("%(actor)s undid the move of %(entry)s back to table %(to_table)s seat %(to_seat)s"),
    A.SEATING_MOVES_CONFIRMED: (ngettext_lazy("%(actor)s confirmed %(moves_count)s move", "%(actor)s confirmed %(moves_count)s moves", "count"), "moves"),
    A.SEATING_MOVES_PROPOSED: (ngettext_lazy("Balancing: %(moves_count)s move proposed", "Balancing: %(moves_count)s moves proposed", "count"), "moves"),
    # Written only when no new slip replaces them: the tables no longer need the moves.
    A.SEATING_MOVES_SUPERSEDED: (
        ngettext_lazy("%(count)s move slip withdrawn: the tables no longer need it", "%(count)s move slips withdrawn: the tables no longer need them", "count"),
        "superseded",
    ),
    A.SEATING_PLAYER_BUSTED: (
        ngettext_lazy(
            "%(actor)s recorded a player out: %(busts)s%(override_suffix)s", "%(actor)s recorded %(count)s players out: %(busts)s%(override_suffix)s", "count"
        ),
        "busts",
    ),
    A.SEATING_PLAYER_MOVED: _("%(actor)s moved %(name)s from table %(from_table)s seat %(from_seat)s to table %(to_table)s seat %(to_seat)s"),
    A.SEATING_PLAYER_SEATED: _("%(name)s seated at table %(table)s seat %(seat)s"),
    A.SEATING_SEAT_LOCKED: _("%(actor)s locked seat %(seat)s at table %(table)s%(reason_suffix)s"),
    A.SEATING_SEAT_RELEASED: _("Seat %(seat)s at table %(table)s freed"),
    A.SEATING_SEAT_UNLOCKED: _("%(actor)s unlocked seat %(seat)s at table %(table)s"),
    A.SEATING_TABLE_BROKEN: (
        ngettext_lazy("Table %(table)s broken: %(moves_count)s player moved", "Table %(table)s broken: %(moves_count)s players moved", "count"),
        "moves",
    ),
    A.SEATING_TABLE_LOCKED: _("%(actor)s locked table %(table)s%(reason_suffix)s"),
    A.SEATING_TABLE_UNLOCKED: _("%(actor)s unlocked table %(table)s%(reason_suffix)s"),
    A.SEATING_TABLE_TV_MARKED: _("%(actor)s made table %(table)s the TV table"),
    A.SEATING_TABLE_TV_UNMARKED: _("%(actor)s ended the TV table at table %(table)s"),
    A.SEATING_BUSTS_SIMULTANEOUS: _("%(actor)s marked busts as simultaneous: %(busts)s%(reason_suffix)s"),
    A.SEATING_KEEP_APART_ADDED: _("%(actor)s asked to keep %(names)s apart%(reason_suffix)s"),
    A.SEATING_KEEP_APART_REMOVED: _("%(actor)s removed a keep-apart pair%(reason_suffix)s"),
    A.SEATING_KEEP_APART_UNMET: _("A keep-apart pair had to be seated at the same table"),
    A.SEATING_MANUAL_DRAW_COMPLETED: _("%(actor)s completed the manual seat draw"),
    A.SEATING_MANUAL_DRAW_OPENED: _("%(actor)s opened a manual seat draw%(reason_suffix)s"),
    A.SEATING_MISDEAL_REPORTED: _("%(actor)s reported a misdeal at table %(table)s%(reason_suffix)s"),
    A.SEATING_SEAT_CARD_CLEARED: _("%(actor)s cleared the seat card of %(entry)s%(reason_suffix)s"),
    A.SEATING_SEAT_CARD_ENTERED: _("%(actor)s entered the seat card of %(entry)s: table %(table)s seat %(seat)s"),
    A.SEATING_SEAT_RESERVATION_REMOVED: _("%(actor)s removed a seat reservation%(reason_suffix)s"),
    A.SEATING_SEAT_RESERVED: _("%(actor)s reserved table %(table)s seat %(seat)s for %(name)s%(reason_suffix)s"),
    # --- tournaments ---
    A.TOURNAMENTS_ADDON_CLOSED: _("Add-ons closed after level %(after_level)s"),
    A.TOURNAMENTS_ADDON_OPENED: _("Add-ons open after level %(after_level)s"),
    A.TOURNAMENTS_CHIPRACE_RECORDED: _("%(actor)s recorded the chip race at table %(table)s: seats %(winners)s won a chip"),
    A.TOURNAMENTS_CHIPS_ADJUSTED: _("%(actor)s recorded %(chips)s chips: %(kind)s%(reason_suffix)s"),
    A.TOURNAMENTS_CHIPS_COUNTED: _("%(actor)s recorded a chip count of %(players)s players: %(counted_total)s chips"),
    A.TOURNAMENTS_CLOCK_BREAK_INSERTED: _("%(actor)s inserted a break of %(minutes)s minutes%(reason_suffix)s"),
    A.TOURNAMENTS_CLOCK_BREAK_STARTED: _("Break of %(minutes)s minutes after level %(after_level)s"),
    A.TOURNAMENTS_CLOCK_CALLED: (
        ngettext_lazy(
            "%(actor)s called the clock at table %(table)s (%(seconds)s second)", "%(actor)s called the clock at table %(table)s (%(seconds)s seconds)", "count"
        ),
        "seconds",
    ),
    A.TOURNAMENTS_CLOCK_CALL_TIME_SET: (
        ngettext_lazy(
            "%(actor)s set the clock-call time of %(name)s to %(seconds)s second",
            "%(actor)s set the clock-call time of %(name)s to %(seconds)s seconds",
            "count",
        ),
        "seconds",
    ),
    A.TOURNAMENTS_CLOCK_FINISHED: _("%(actor)s stopped the clock for good%(reason_suffix)s"),
    A.TOURNAMENTS_PLAYERS_TOLD: _("%(actor)s told the players' phones: %(text)s"),
    A.TOURNAMENTS_CLOCK_HAND_COMPLETED: _("Hand-for-hand: table %(table)s finished hand %(hand)s"),
    A.TOURNAMENTS_CLOCK_HAND_FOR_HAND_ENDED: _("%(actor)s ended hand-for-hand"),
    A.TOURNAMENTS_CLOCK_HAND_FOR_HAND_NEXT_HAND: _("Hand-for-hand: every table done, next hand"),
    A.TOURNAMENTS_CLOCK_HAND_FOR_HAND_STARTED: _("%(actor)s started hand-for-hand with %(players_left)s players left%(paid_suffix)s"),
    A.TOURNAMENTS_CLOCK_H4H_TABLE_STATE: _("%(actor)s set table %(table)s in hand-for-hand hand %(hand)s: %(h4h_state)s"),
    A.TOURNAMENTS_CLOCK_JUMPED: _("%(actor)s moved the clock to %(where)s%(reason_suffix)s"),
    A.TOURNAMENTS_CLOCK_LEVEL_STARTED: _("Level %(level)s started: blinds %(small_blind)s/%(big_blind)s%(ante_suffix)s"),
    A.TOURNAMENTS_CLOCK_PAUSED: _("%(actor)s paused the clock at %(where)s%(reason_suffix)s"),
    A.TOURNAMENTS_CLOCK_RESUMED: _("%(actor)s resumed the clock at %(where)s%(reason_suffix)s"),
    A.TOURNAMENTS_CLOCK_STARTED: _("%(actor)s started the clock at %(where)s"),
    A.TOURNAMENTS_CLOCK_TIME_ADDED: (
        ngettext_lazy(
            "%(actor)s changed the time left by %(seconds)s second%(reason_suffix)s",
            "%(actor)s changed the time left by %(seconds)s seconds%(reason_suffix)s",
            "count",
        ),
        "seconds",
    ),
    A.TOURNAMENTS_CLOCK_TIME_SET: _("%(actor)s set the time left to %(time_left)s%(reason_suffix)s"),
    A.TOURNAMENTS_COLORUP_ANNOUNCED: _("Colour-up announced after level %(after_level)s"),
    A.TOURNAMENTS_CHIPSET_DELETED: _("%(actor)s deleted the chip set %(name)s"),
    A.TOURNAMENTS_CHIPSET_SAVED: _("%(actor)s saved the chip set %(name)s"),
    A.TOURNAMENTS_DISPLAY_CREATED: _("%(actor)s added the lobby screen %(screen)s"),
    A.TOURNAMENTS_DISPLAY_UPDATED: _("%(actor)s changed a lobby screen"),
    A.TOURNAMENTS_DISPLAY_DELETED: _("%(actor)s removed the lobby screen %(screen)s"),
    A.TOURNAMENTS_COLORUP_DISCRETIONARY: _("%(actor)s announced a colour-up"),
    A.TOURNAMENTS_EXCHANGE_RATE_SET: _("%(actor)s set the exchange rate of %(currency)s for %(date)s: %(rate)s"),
    A.TOURNAMENTS_FEE_OVERRIDDEN: _("%(actor)s set a fee of %(fee)s instead of the statutory %(statutory_fee)s%(reason_suffix)s"),
    A.TOURNAMENTS_LATE_REGISTRATION_CLOSED: _("Late registration closed after level %(after_level)s"),
    A.TOURNAMENTS_PENALTY_CANCELLED: _("%(actor)s cancelled a penalty%(reason_suffix)s"),
    A.TOURNAMENTS_PENALTY_HANDS_SERVED: (
        ngettext_lazy("Penalty: %(served)s hand served, %(left)s left", "Penalty: %(served)s hands served, %(left)s left", "count"),
        "served",
    ),
    A.TOURNAMENTS_PENALTY_SERVED: _("%(entry)s finished serving a penalty"),
    A.TOURNAMENTS_PENALTY_STARTED: (
        ngettext_lazy("The penalty of %(entry)s started: %(hands)s hand", "The penalty of %(entry)s started: %(hands)s hands", "count"),
        "hands",
    ),
    A.TOURNAMENTS_PENALTY_ISSUED: _("%(actor)s gave %(name)s a penalty: %(kind)s — %(reason_code)s"),
    A.TOURNAMENTS_REBUY_CLOSED: _("Rebuys closed after level %(after_level)s"),
    A.TOURNAMENTS_REENTRY_CLOSED: _("Re-entries closed after level %(after_level)s"),
    A.TOURNAMENTS_REGISTRATION_OPENED: _("%(actor)s opened registration"),
    A.TOURNAMENTS_REGULATOR_GRANTED: _("%(actor)s gave the regulator %(user)s access"),
    A.TOURNAMENTS_REGULATOR_REVOKED: _("%(actor)s removed the access of the regulator %(user)s"),
    A.TOURNAMENTS_RULING_ANNOTATED: _("%(actor)s annotated a ruling"),
    A.TOURNAMENTS_RULING_RECORDED: _("%(actor)s recorded a ruling"),
    A.TOURNAMENTS_SITANDGO_STARTED: _("Sit & go started with %(players)s players"),
    A.TOURNAMENTS_STREAMING_STARTED: _("%(actor)s started streaming live"),
    A.TOURNAMENTS_STREAMING_STOPPED: _("%(actor)s stopped streaming live"),
    A.TOURNAMENTS_STRUCTURE_DELETED: _("%(actor)s deleted the structure %(name)s"),
    A.TOURNAMENTS_STRUCTURE_SAVED: _("%(actor)s saved the structure %(name)s"),
    A.TOURNAMENTS_STUBS_REPORTED: (
        ngettext_lazy(
            "%(actor)s issued ticket-stub report %(number)s: %(stubs)s stub, %(total)s",
            "%(actor)s issued ticket-stub report %(number)s: %(stubs)s stubs, %(total)s",
            "count",
        ),
        "stubs",
    ),
    A.TOURNAMENTS_TOURNAMENT_CANCELLED: (
        ngettext_lazy(
            "%(actor)s cancelled the tournament; %(owed)s entry is owed a refund%(reason_suffix)s",
            "%(actor)s cancelled the tournament; %(owed)s entries are owed a refund%(reason_suffix)s",
            "count",
        ),
        "refunds_due",
    ),
    A.TOURNAMENTS_TOURNAMENT_CREATED: _("%(actor)s created the tournament %(name)s"),
    A.TOURNAMENTS_TOURNAMENT_DELETED: _("%(actor)s deleted the tournament %(name)s"),
    A.TOURNAMENTS_TOURNAMENT_FINISHED: _("%(actor)s finished the tournament"),
    A.TOURNAMENTS_LAYOUT_SAVED: _("%(actor)s saved the screen layout %(layout)s (%(blocks)s blocks)"),
    A.TOURNAMENTS_LAYOUT_DELETED: _("%(actor)s deleted the screen layout %(layout)s"),
    A.TOURNAMENTS_SCREEN_IMAGE_UPLOADED: _("%(actor)s uploaded the image %(image)s for the screens (%(width)s × %(height)s)"),
    A.TOURNAMENTS_TOURNAMENT_STARTED: _("%(actor)s started the tournament with %(players)s players"),
    A.TOURNAMENTS_START_WAITING: (
        ngettext_lazy(
            "%(actor)s asked to start the tournament: the room has %(missing)s free table too few, it starts by itself once it is free",
            "%(actor)s asked to start the tournament: the room has %(missing)s free tables too few, it starts by itself once they are free",
            "count",
        ),
        "missing",
    ),
    A.TOURNAMENTS_START_WAIT_STOPPED: _("%(actor)s stopped waiting for free tables: the tournament will not start by itself"),
    A.TOURNAMENTS_START_WAIT_REFUSED: _("The tables were free but the start was refused (%(code)s): the tournament no longer waits to start"),
    A.TOURNAMENTS_TOURNAMENT_UPDATED: _("%(actor)s changed the tournament"),
    A.TOURNAMENTS_TOURNAMENT_COPIED: _("%(actor)s created the tournament as a copy of %(copied_from)s"),
    A.TOURNAMENTS_TEMPLATE_SAVED: _("%(actor)s saved the tournament as the template %(template_name)s"),
    A.TOURNAMENTS_TOURNAMENT_VERSIONED: _("%(actor)s changed the published event (a new version is announced)"),
    A.TOURNAMENTS_CHANGE_REASON_SHOWN: _("%(actor)s showed the players why version %(version)s changed"),
    A.TOURNAMENTS_CHANGE_REASON_HIDDEN: _("%(actor)s kept from the players why version %(version)s changed"),
    A.TOURNAMENTS_WITNESS_SIGNED: _("%(name)s witnessed: %(witnessed_label)s"),
}

#: A person's fields as a rectification's sentence names them (``people.person.changed``).
PERSON_FIELDS = {
    "first_name": _("first name"),
    "last_name": _("last name"),
    "nickname": _("nickname"),
    "email": _("email"),
    "phone": _("phone"),
    "document_id": _("identity document"),
    "notes": _("notes"),
}

MONEY_KEYS = ("amount", "fee", "statutory_fee", "prize_pool", "total", "buy_in", "cash", "added")
NUMBER_KEYS = (
    "hands",
    "chips",
    "bagged_chips",
    "counted_total",
    "seconds",
    "players",
    "players_left",
    "tables",
    "size",
    "places",
    "refunded",
    "stubs",
    "served",
    "left",
    "minutes",
    "survivors",
    "participants",
    "seats",
    "open_places",
)
#: Free text a person typed (shown as the ": reason" tail); the engines' own explanations are not.
HUMAN_REASON = {
    A.CASHIER_PREREGISTRATION_CANCELLED,
    A.CASHIER_REFUND_PAID,
    A.CASHIER_ROW_REVERSED,
    A.FORMATS_FLIGHT_CLOSED,
    A.FORMATS_SERIES_TIE_SETTLED,
    A.PAYOUTS_BOUNTY_RETURNED,
    A.PAYOUTS_DEAL_CANCELLED,
    A.PAYOUTS_TABLE_EDITED,
    A.PAYOUTS_TABLE_UNLOCKED,
    A.PEOPLE_PERSON_BANNED,
    A.PEOPLE_PERSON_ERASED,
    A.PEOPLE_PERSON_UNBANNED,
    A.SEATING_BIG_BLIND_SET,
    A.SEATING_BREAK_ORDER_SET,
    A.SEATING_BUST_UNDONE,
    A.CASHIER_ENTRY_PRESENCE,
    A.CASHIER_ENTRY_NOT_ARRIVED,
    A.SEATING_BUSTS_SIMULTANEOUS,
    A.SEATING_KEEP_APART_ADDED,
    A.SEATING_KEEP_APART_REMOVED,
    A.SEATING_MANUAL_DRAW_OPENED,
    A.SEATING_MISDEAL_REPORTED,
    A.SEATING_SEAT_CARD_CLEARED,
    A.SEATING_SEAT_RESERVATION_REMOVED,
    A.SEATING_SEAT_RESERVED,
    A.SEATING_HALT_WAIVED,
    A.SEATING_SEAT_LOCKED,
    A.SEATING_TABLE_LOCKED,
    A.SEATING_TABLE_UNLOCKED,
    A.TOURNAMENTS_CHIPS_ADJUSTED,
    A.TOURNAMENTS_CLOCK_BREAK_INSERTED,
    A.TOURNAMENTS_CLOCK_FINISHED,
    A.TOURNAMENTS_CLOCK_JUMPED,
    A.TOURNAMENTS_CLOCK_PAUSED,
    A.TOURNAMENTS_CLOCK_RESUMED,
    A.TOURNAMENTS_CLOCK_TIME_ADDED,
    A.TOURNAMENTS_CLOCK_TIME_SET,
    A.TOURNAMENTS_FEE_OVERRIDDEN,
    A.TOURNAMENTS_PENALTY_CANCELLED,
    A.TOURNAMENTS_TOURNAMENT_CANCELLED,
}


#: SEAT-02: the start after a draw in advance (a ``seating.draw.initial`` with ``predraw_session``)
#: says the seats came from it.
PREDRAW_START = (
    ngettext_lazy(
        "Seats as drawn in advance (session %(predraw_session)s): %(kept)s player where that draw put them; "
        "drawn into the free seats: %(drawn)s; tables: %(tables)s",
        "Seats as drawn in advance (session %(predraw_session)s): %(kept)s players where that draw put them; "
        "drawn into the free seats: %(drawn)s; tables: %(tables)s",
        "count",
    ),
    "predrawn",
)


#: CLK-06: hand-for-hand that ended by itself with the hand that reached the money (a
#: ``tournaments.clock.hand_for_hand_ended`` with ``money_reached``).
H4H_ENDED_AT_MONEY = _(
    "Hand-for-hand ended by itself: the money is reached (%(players_left)s players left%(paid_suffix)s) and every table has finished the hand"
)


#: CLK-06: a balancing plan during hand-for-hand whose moves all wait for a table's hand (a
#: ``seating.moves.proposed`` with no move proposed yet, only ``waiting`` ones).
MOVES_WAIT_FOR_HAND = (
    ngettext_lazy(
        "Balancing: %(count)s move waits until its tables have finished the hand-for-hand hand",
        "Balancing: %(count)s moves wait until their tables have finished the hand-for-hand hand",
        "count",
    ),
    "waiting",
)


#: A login added in the Django admin: its first form names no role (a group chosen next).
LOGIN_ADDED_NO_ROLE = _("%(actor)s added the login %(username)s, with no role yet")
#: A login the Django admin left in no group: its role, as a role change reads it.
NO_ROLE = _("no role")


def entry_refs(payload) -> set[int]:
    """The entry ids (primary keys) a payload points at, for the caller to name."""
    refs: set[int] = set()
    if not isinstance(payload, Mapping):
        return refs
    if isinstance(payload.get("entry"), int):
        refs.add(payload["entry"])
    for b in payload.get("busts") or []:
        if isinstance(b, Mapping) and isinstance(b.get("entry"), int):
            refs.add(b["entry"])
    override = payload.get("eliminator_override")
    for e in override.get("eliminators") or [] if isinstance(override, Mapping) else []:
        if isinstance(e, Mapping) and isinstance(e.get("entry"), int):
            refs.add(e["entry"])
    for e in payload.get("eliminators_moved") or [] if isinstance(payload.get("eliminators_moved"), list) else []:
        if isinstance(e, Mapping) and isinstance(e.get("entry"), int):
            refs.add(e["entry"])
    return refs


def _entry(ref, entries: Mapping[int, str]) -> str:
    return entries.get(ref) or (gettext("entry %(id)s") % {"id": ref} if ref is not None else "")


def _busts(busts, entries) -> str:
    parts = []
    for b in busts if isinstance(busts, list) else []:
        if not isinstance(b, Mapping):
            continue
        part = gettext("%(who)s (table %(table)s seat %(seat)s)") % {"who": _entry(b.get("entry"), entries), "table": b.get("table"), "seat": b.get("seat")}
        if isinstance(b.get("tapped_table"), int):  # queued offline at the table he sat at then, moved since
            part += " " + gettext("(tapped at table %(tapped)s, before a move)") % {"tapped": b["tapped_table"]}
        if b.get("place"):
            part += " — " + gettext("place %(place)s") % {"place": b["place"]}
        parts.append(part)
    return ", ".join(parts)


def _override(override, entries) -> str:
    """PAY-02: "; the director let count … at another table: reason" for a bust whose eliminators
    sat elsewhere; "" for any other."""
    if not isinstance(override, Mapping):
        return ""
    who = [_entry(e.get("entry"), entries) for e in override.get("eliminators") or [] if isinstance(e, Mapping)]
    return "; " + gettext("the director let count an eliminator from another table (%(who)s): %(reason)s") % {
        "who": ", ".join(who),
        "reason": override.get("reason", ""),
    }


def _eliminators_moved(moved, entries) -> str:
    """ "; eliminator … at table 4 when it was tapped, moved since": a bust a tablet queued
    offline whose eliminators the server had moved before it arrived; "" for any other."""
    if not isinstance(moved, list):
        return ""
    parts = [
        gettext("eliminator %(who)s at table %(tapped)s when it was tapped, moved since")
        % {"who": _entry(e.get("entry"), entries), "tapped": e.get("tapped_table")}
        for e in moved
        if isinstance(e, Mapping)
    ]
    return "; " + ", ".join(parts) if parts else ""


def _person_changes(fields: str, changes) -> str:
    """ "phone +39 1 → +39 2, identity document": each field changed, with old → new when logged."""
    parts = []
    for name in (f.strip() for f in fields.split(",") if f.strip()):
        part = str(PERSON_FIELDS.get(name, name))
        values = changes.get(name) if isinstance(changes, Mapping) else None
        if isinstance(values, Mapping):
            part += f" {values.get('old') or '—'} → {values.get('new') or '—'}"
        parts.append(part)
    return ", ".join(parts)


def _bounty_what(p: Mapping, ctx: Mapping) -> str:
    """What one bounty award was, for its sentence: who won what, and why."""
    kind, name, out, cash = p.get("kind"), ctx.get("name", ""), p.get("knocked_out_name") or "", ctx.get("cash", "")
    if kind == "OWN":
        return gettext("The winner %(name)s collects the bounty on the winning entry: %(cash)s") % {"name": name, "cash": cash}
    if kind == "LEFTOVER":
        if not p.get("entry"):
            return gettext("the envelopes left, %(cash)s, are carried over") % {"cash": cash}
        return gettext("%(name)s, the winner, takes the envelopes left, %(cash)s") % {"name": name, "cash": cash}
    if kind == "HOUSE":
        return gettext("the house keeps %(cash)s of the bounty of %(out)s") % {"cash": cash, "out": out}
    if kind == "DEAL":
        if p.get("shared") or p.get("bounty_in_deal") == "ADDED":
            return gettext("%(name)s takes %(cash)s of the bounty money shared in the deal") % {"name": name, "cash": cash}
        return gettext("With the deal, %(name)s collects the bounty on that entry: %(cash)s") % {"name": name, "cash": cash}
    text = gettext("%(name)s knocked out %(out)s and wins %(cash)s") % {"name": name, "out": out, "cash": cash}
    if p.get("added") not in (None, "", "0", "0.00"):
        text += gettext(", and %(added)s is added to the eliminator's bounty") % {"added": ctx.get("added", "")}
    return text


def _where(p) -> str:
    if "level" not in p:
        return ""
    return gettext("the break after level %(level)s") % {"level": p["level"]} if p.get("is_break") else gettext("level %(level)s") % {"level": p["level"]}


def _context(action: str, p: Mapping, *, actor: str, currency: str, entries: Mapping[int, str]) -> dict:
    ctx: dict[str, object] = {}
    for key, value in p.items():
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            ctx[key] = value
    for key in MONEY_KEYS:
        if p.get(key) not in (None, ""):
            ctx[key] = fmt_money(p[key], currency)
    if action in (A.CASHIER_REFUND_PAID, A.CASHIER_ROW_REVERSED) and str(p.get("amount", "")).startswith("-"):
        ctx["amount"] = fmt_money(str(p["amount"])[1:], currency)  # the sentence says "refunded": no minus
    if action in STAFF_ROLE_KEYS:  # a role by its name on the page, never its code
        for key in STAFF_ROLE_KEYS[action]:
            if isinstance(p.get(key), str):
                ctx[key] = str(ROLE_LABELS.get(p[key], p[key])) if p[key] else str(NO_ROLE)
    if action == A.IMPORT_DONE and isinstance(p.get("kind"), str):  # the kind of sheet by its name, never its code
        found = import_rules.get(p["kind"])
        ctx["kind"] = gettext(found.title) if found else humanize(p["kind"])
    if isinstance(p.get("witnessed"), str):
        ctx["witnessed_label"] = Action.label_of(p["witnessed"])
    for key in NUMBER_KEYS:
        if isinstance(p.get(key), (int, float)) and not isinstance(p.get(key), bool):
            ctx[key] = fmt_num(p[key])
    if "entry" in p:
        ctx["entry"] = p.get("name") or _entry(p.get("entry"), entries)
    if "name" not in ctx and "entry" in p:
        ctx["name"] = _entry(p.get("entry"), entries)
    if "method" in p:
        ctx["method"] = str(METHODS.get(p["method"], "")).lower()
    if action == A.PAYOUTS_BOUNTY_WON:
        ctx["bounty_what"] = _bounty_what(p, ctx)
    if action == A.TOURNAMENTS_PENALTY_ISSUED:
        ctx["kind"] = penalty_kind_label(p.get("kind", ""))
        ctx["reason_code"] = penalty_reason_label(p.get("reason_code", ""))
    elif action == A.TOURNAMENTS_CHIPS_ADJUSTED:
        ctx["kind"] = str(ADJUSTMENT_KINDS.get(p.get("kind"), _("Correction")))
    elif action == A.PEOPLE_PERSON_CHANGED and isinstance(p.get("fields"), str):
        ctx["fields"] = _person_changes(p["fields"], p.get("changes"))
    if "busts" in p:
        ctx["busts"] = _busts(p["busts"], entries)
    ctx["override_suffix"] = _override(p.get("eliminator_override"), entries) + _eliminators_moved(p.get("eliminators_moved"), entries)
    if isinstance(p.get("moves"), list):
        ctx["moves_count"] = fmt_num(len(p["moves"]))
    if action == A.SEATING_DRAW_INITIAL and isinstance(p.get("predrawn"), list):
        ctx["kept"] = fmt_num(len(p["predrawn"]))
        ctx["drawn"] = fmt_num(len(p.get("assignment") or []))
    if isinstance(p.get("refunds_due"), list):  # a cancelled tournament: the entries the desk owes a refund
        ctx["owed"] = fmt_num(len(p["refunds_due"]))
    if p.get("source_name"):
        ctx["copied_from"] = p["source_name"]
    elif p.get("template_name"):
        ctx["copied_from"] = gettext("the template %(name)s") % {"name": p["template_name"]}
    if isinstance(p.get("names"), list):
        ctx["names"] = gettext(" and ").join(str(n) for n in p["names"] if isinstance(n, str))
    if isinstance(p.get("winners"), list):
        ctx["winners"] = ", ".join(str(w) for w in p["winners"] if isinstance(w, int)) or "—"
    reason = p.get("reason")
    ctx["reason_suffix"] = (": " + reason) if action in HUMAN_REASON and isinstance(reason, str) and reason.strip() else ""
    ctx["ante_suffix"] = (", " + gettext("ante %(ante)s") % {"ante": fmt_num(p["ante"])}) if p.get("ante") else ""
    ctx["where"] = _where(p)
    # CLK-06: the announcement says how many are paid ("28 players left, 27 paid").
    paid = p.get("places_paid")
    ctx["paid_suffix"] = (", " + ngettext("%(n)s paid", "%(n)s paid", paid) % {"n": fmt_num(paid)}) if isinstance(paid, int) else ""
    if action == A.TOURNAMENTS_CLOCK_H4H_TABLE_STATE:
        ctx["h4h_state"] = str(H4H_STATES.get(p.get("state"), p.get("state", "")))
    if "seconds_left" in p and isinstance(p["seconds_left"], (int, float)):
        s = int(p["seconds_left"])
        ctx["time_left"] = f"{s // 60}:{s % 60:02d}"
    ctx["actor"] = actor
    return ctx


def actor_name(label: str) -> str:
    """Who did it, as a person reads it ("system" is the product itself)."""
    return gettext("TDManager") if not label or label == "system" else label


def sentence(action: str, payload, *, actor: str = "", currency: str = "", entries: Mapping[int, str] | None = None) -> str:
    """The event as one sentence in the active language (the action's label when it cannot be filled)."""
    template = SENTENCES.get(action)
    label = Action.label_of(action)
    if template is None:
        return label
    p = payload if isinstance(payload, Mapping) else {}
    if action == A.SEATING_DRAW_INITIAL and isinstance(p.get("predraw_session"), str):
        template = PREDRAW_START
    if action == A.TOURNAMENTS_CLOCK_HAND_FOR_HAND_ENDED and p.get("money_reached") is True:
        template = H4H_ENDED_AT_MONEY
    if action == A.SEATING_MOVES_PROPOSED and not p.get("moves") and p.get("waiting"):
        template = MOVES_WAIT_FOR_HAND
    if action == A.STAFF_LOGIN_ADDED and not p.get("role"):
        template = LOGIN_ADDED_NO_ROLE
    ctx = _context(action, p, actor=actor_name(actor), currency=currency, entries=entries or {})
    if isinstance(template, tuple):  # (plural-aware template, the payload key that counts)
        template, key = template
        raw = p.get(key)
        ctx["count"] = len(raw) if isinstance(raw, list) else abs(raw) if isinstance(raw, int) else 0
    try:
        text = str(template % ctx)
    except (KeyError, TypeError, ValueError):
        return label
    return text[:1].upper() + text[1:]
