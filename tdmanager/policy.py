"""Who may do what: the one table of roles for every route the project serves.

Each routed URL name maps HTTP methods to the roles that may call them. A method may map to
a dict of actions instead (``op``: from the URL for the API, from the form's ``op`` field for
a page POST), with ``"*"`` for the actions not named. ``PUBLIC`` needs no login (a display
screen's token, a seat lookup, the login page). A director holds every staff role.

Enforced in two places that both read this table and nothing else: the API's default DRF
permission (:class:`tdmanager.roles.HasRole`) and, for pages, :class:`RolePolicyMiddleware`.
A route with no entry here is refused to everybody, and ``tests/test_role_matrix.py`` fails
until it gets a decision.

What the display role sees is exactly what a lobby screen shows: tournaments, blinds and the
clock, players left, prize pool and payouts; brackets and leaderboards through their public
pages, which name players as every public page does (``tournaments.people.names``). Money
detail, entries, the event log, devices and personal data (the API's standings and formats,
which name players in full) are staff-only.

The dealer (ROLE-01, «poker-boy») reads the tables, the clock and the busts and reports from
his table what a dealer announces: a hand completed (hand-for-hand included) and a player out.
Nothing with money, no move, draw, penalty, clock control or personal data.

The administrative controller (ROLE-01, «Controllore Amministrativo») reads what he signs and
witnesses: the ranking's second signature (ELM-07) and the witness sign-off on seat draws and
balancing moves are his alone; a director does not hold this role (the two-person rule). The
regulator (the municipal control corps) reads the reports, ledgers and event logs of the
tournaments a director granted him (``BY_TOURNAMENT``: routes whose ``pk`` is a tournament)
and changes nothing.
"""

DIRECTOR, FLOOR, CASHIER, DISPLAY = "director", "floor", "cashier", "display"
DEALER = "dealer"
CONTROLLER, REGULATOR = "controller", "regulator"
PUBLIC = "public"  # pseudo-role: anybody, logged in or not
OWN_ROLES = frozenset({CONTROLLER})  # roles a director does not hold (ELM-07: a second person)

D = (DIRECTOR,)
DF = (DIRECTOR, FLOOR)
DC = (DIRECTOR, CASHIER)
STAFF = (DIRECTOR, FLOOR, CASHIER)
DFL = (DIRECTOR, FLOOR, DEALER)  # ROLE-01: what is reported from a table: a hand completed, a player out
LOBBY = STAFF + (DISPLAY,)
ANYONE = (PUBLIC,)
CTRL = (CONTROLLER,)
AUDIT = (CONTROLLER, REGULATOR)  # read what is signed, witnessed and reported (ROLE-01)
STAFF_AUDIT = STAFF + AUDIT
LOBBY_AUDIT = LOBBY + AUDIT
DF_AUDIT = DF + AUDIT
SIGNERS = (DIRECTOR, CONTROLLER)  # the two signatures on the ranking (ELM-07)
LOGGED_IN = STAFF + (DEALER, DISPLAY) + AUDIT  # every login: its own devices
# What an answer holds by role, not who may call a route (read with ``roles.has_role``). The
# whole document number is read at the desk (check-in, a director's reveal), so only these
# roles find a person by it: a search matching a part would tell the rest, a character at a time.
DOCUMENT_READERS = DC
# A ledger row's link to the player's phone page (its token is the page's key: name, seat,
# place, prizes) goes to who hands the player his receipt with its QR code.
PHONE_PAGE_GIVERS = DC
# Routes about the caller's own login, not the room: every role may use them (a regulator too,
# outside his tournaments), and a role that changes nothing in the room may still log a device out.
OWN_LOGIN = frozenset({"login", "logout", "set_language", "api-token", "api-tokens", "api-token-revoke", "devices"})
# A player's own phone: it subscribes to his notices or stops them, keyed by his page's token.
# Anybody holding the page may, and nothing in the room changes (the read-only roles included).
OWN_PHONE = frozenset({"phone-push"})

# Actions of the seating table-map page that only a director may take.
_TABLE_PAGE_OPS = {"draw": D, "redraw": D, "tv": D, "untv": D, "*": DF}
_DEALER_PAGE_OPS = {"hand": DFL, "bust": DFL}
_ROOM_PAGE_OPS = {"add_shift": DF, "remove_shift": DF, "push": DF, "*": D}  # the floor keeps the dealers' roster and pushes
_CLOCK_OPS = {"call-clock": DF, "*": D}  # a hand completed is reported on its table (api-seating-table-op)
_FLIGHT_OPS = {"bag": DF, "*": D}
_BRACKET_OPS = {"seat-request": DC, "*": D}
_MATCH_OPS = {"replacement": DC, "*": DF}
_HEADSUP_PAGE_OPS = {"draw": D, "allocate": D, "replacement": DC, "request": DC, "start": DF, "seat": DF, "game": DF, "free": DF, "bye": DF, "lateness": DF}

POLICY: dict[str, dict[str, tuple | dict]] = {
    # --- API: people, structures, tournaments ---------------------------------------------
    "api-root": {"GET": STAFF},
    "api-token": {"POST": ANYONE},
    "api-tokens": {"GET": LOGGED_IN},  # the caller's devices; a director's ?everyone=true: every user's
    "api-token-revoke": {"POST": LOGGED_IN},  # one's own device; a director: anyone's (tournaments.staff.logins)
    "api-staff": {"GET": D, "POST": D},  # the staff page's logins: add one (tournaments.staff.services)
    "api-staff-login": {"GET": D},
    "api-staff-login-op": {"POST": D},  # a login's role, password, disabled or enabled
    "api-login-lockouts": {"GET": D},  # staff login lock-outs (tdmanager.security)
    "api-import-preview": {"POST": D},  # a sheet's preview: people, a structure, a payout table, league results
    "api-import": {"POST": D},  # the sheet imported: all its accepted rows or nothing
    "api-export": {"GET": D},  # the same kinds as a sheet (people: personal data, a director's)
    "api-login-lockout-lift": {"POST": D},
    "schema": {"GET": ANYONE},  # the API's shape is public (it is in the source); data is not
    "api-docs": {"GET": ANYONE},
    "api-redoc": {"GET": ANYONE},
    "person-list": {"GET": STAFF, "POST": DC},
    "person-detail": {"GET": STAFF, "PUT": DC, "PATCH": DC},
    "person-ban": {"POST": D},
    "person-export": {"GET": D},  # GDPR access: everything held about the person, logged
    "person-erase": {"POST": D},  # GDPR erasure: the person becomes a pseudonym, the money trail stays
    "person-document": {"POST": D},  # the whole document number revealed (logged)
    "api-person-penalties": {"GET": DF},
    "structure-list": {"GET": LOBBY, "POST": D},
    "structure-import-": {"POST": D},
    "structure-detail": {"GET": LOBBY, "PUT": D, "PATCH": D, "DELETE": D},
    "structure-export": {"GET": STAFF},
    "tournament-list": {"GET": LOBBY, "POST": D},
    "tournament-detail": {"GET": LOBBY_AUDIT, "PUT": D, "PATCH": D, "DELETE": D},
    "tournament-open-registration": {"POST": D},
    "tournament-start": {"POST": D},
    "tournament-stop-waiting": {"POST": D},
    "tournament-finish": {"POST": D},
    "tournament-cancel": {"POST": D},
    "tournament-copy": {"POST": D},  # a new tournament as a copy of this one
    "tournament-save-template": {"POST": D},
    "tournament-overview": {"GET": DF},  # the floor overview of every running tournament
    "tournament-template-list": {"GET": D},
    "tournament-template-detail": {"GET": D},
    "tournament-template-create-tournament": {"POST": D},
    "tournament-streaming": {"POST": D},
    "tournament-entries": {"GET": STAFF_AUDIT},
    "tournament-ledger": {"GET": STAFF_AUDIT},
    "tournament-events": {"GET": STAFF_AUDIT},
    "tournament-changes": {"GET": LOBBY_AUDIT},  # FMT-02: a published event's versions, as the lobby announces them
    "tournament-change-reason": {"POST": D},  # FMT-02: the director shows the players why a version changed
    "api-regulators": {"GET": D, "POST": D},  # which tournaments a regulator login reads (ROLE-01)
    "api-stub-reports": {"GET": STAFF_AUDIT, "POST": DC},  # ROLE-02: the pre-start report's addenda
    "tournament-alternates": {"GET": STAFF},
    "entry-detail": {"GET": STAFF},
    "screen-list": {"GET": DF, "POST": D},
    "screen-detail": {"GET": DF, "PUT": D, "PATCH": D, "DELETE": D},
    "screen-revoke-token": {"POST": D},  # the screen's link stops working (its open streams end)
    "screen-rotate-token": {"POST": D},  # a new link; the old one stops working
    "chipset-list": {"GET": DF, "POST": D},
    "chipset-detail": {"GET": DF, "PUT": D, "PATCH": D, "DELETE": D},
    # --- API: the cashier desk -------------------------------------------------------------
    "api-register": {"POST": DC},
    "api-preregister": {"POST": DC},
    "api-pay": {"POST": DC},
    "api-cancel-reservation": {"POST": DC},
    "api-check-in": {"POST": DC},  # REG-02: the desk checks the player in (identity document)
    "api-check-in-document": {"GET": DC},  # REG-02: the whole document of the player checked in (logged)
    "api-transfer-cleared": {"POST": DC},  # REG-02: the cashier confirms the transfer cleared
    "api-presence": {"POST": STAFF},  # ELM-05: absent / withdrawn, seen at the desk or the table
    "api-no-show": {"POST": DC},  # REG-09
    "api-banned-paid": {"GET": DC},  # REG-05: paid, banned since: the refunds to offer
    "api-receivables": {"GET": STAFF_AUDIT},  # REG-02 / REG-09: what players owe (004 no-shows)
    "api-arrival": {"POST": STAFF},  # REG-09: a seated player marked not arrived (or arrived), at the table or the desk
    "api-settle": {"POST": DC},  # REG-09: the desk takes the money of an amount owed
    "api-owed": {"GET": DC},  # REG-09: what the player picked at the desk still owes
    "api-desk-offers": {"GET": DC},  # what the desk may sell the player picked, and why not
    "api-reenter": {"POST": DC},
    "api-rebuy": {"POST": DC},
    "api-rebuy-declare": {"POST": STAFF},  # FMT-04 / TDA 27: a rebuy declared before the hand, at the table or the desk
    "api-declared-rebuys": {"GET": STAFF},  # FMT-04: the declared rebuys the desk still has to collect
    "api-addon": {"POST": DC},
    "api-reverse": {"POST": DC},  # which rows a role may reverse: tdmanager.policy.REVERSIBLE_BY
    "api-refund": {"POST": D},
    "api-refund-due-pay": {"POST": DC},  # FMT-02: a cancelled tournament's refund, handed out by the cashier on his shift
    "api-refunds-due": {"GET": DC},  # FMT-02: the refunds of a cancelled tournament still to hand out
    "api-alternate-add": {"POST": DC},
    "api-alternate-admit": {"POST": DC},
    "api-shift": {"GET": DC},
    "api-sales": {"GET": DC},  # the desk's last sales: the signed-in cashier's own rows
    "api-exchange-rates": {"GET": DC, "POST": D},  # REG-06: the cashiers' supervisor sets the rate of the day
    "api-receipt": {"GET": STAFF},
    # --- API: clock and floor ---------------------------------------------------------------
    "api-clock": {"GET": LOBBY_AUDIT + (DEALER,), "POST": _CLOCK_OPS},
    "api-clock-op": {"GET": LOBBY_AUDIT + (DEALER,), "POST": _CLOCK_OPS},
    "api-floor": {"GET": DF},
    "api-floor-op": {"GET": DF, "POST": DF},
    "api-penalty-op": {"POST": DF},
    "api-rulings": {"GET": DF_AUDIT, "POST": DF},  # ROLE-05: the floor decides, the controller and regulator read
    "api-ruling-notes": {"POST": DF},  # a decision is final: it is only annotated
    "api-draw-replay": {"GET": D + AUDIT},  # SEAT-01: a logged draw recomputed from its seed (read-only)
    "api-witness": {"GET": STAFF_AUDIT, "POST": CTRL},  # ROLE-01: the controller witnesses draws and moves
    # --- API: seating ----------------------------------------------------------------------
    "api-rooms": {"GET": DF, "POST": D},  # the room's physical tables: the floor reads, the director keeps them
    "api-room": {"GET": DF, "PATCH": D},  # the room map
    "api-room-tables": {"POST": D},
    "api-room-table-range": {"POST": D},  # tables 1 to 12 added at once
    "api-room-table": {"PATCH": D, "DELETE": D},
    "api-room-table-op": {"POST": D},
    "api-room-dealers": {"GET": DF, "POST": DF},  # the dealers' roster, where each is, the next push
    "api-room-shift": {"DELETE": DF},
    "api-room-push": {"POST": DF},  # push the dealers now
    "api-room-rotation": {"PUT": D},
    "api-room-bring-in": {"POST": D},
    "api-room-dealer-report": {"GET": D},  # minutes dealt, breaks: payroll
    "api-seating-tables": {"GET": STAFF_AUDIT + (DEALER,)},
    "api-seating-predraw": {"GET": STAFF, "POST": D},  # SEAT-02: the pre-event draw into sessions
    "api-seating-table-op": {"POST": {"tv": D, "hand-completed": DFL, "*": DF}},
    "api-seating-draw": {"POST": D},
    "api-seating-manual-draw": {"GET": DF_AUDIT, "POST": DF},  # SEAT-01/04: the floor enters the cards drawn
    "api-seating-manual-draw-clear": {"POST": DF},
    "api-seating-keep-apart": {"GET": DF, "POST": D},  # SEAT-07: the director decides who is kept apart
    "api-seating-keep-apart-detail": {"DELETE": D},
    "api-seating-reservations": {"POST": D},
    "api-seating-reservation-detail": {"DELETE": D},
    "api-seating-busts": {"GET": STAFF_AUDIT + (DEALER,), "POST": DFL},  # the dealer announces «Player Out» (003 Art. 4.8)
    "api-seating-bust-undo": {"POST": DF},
    "api-seating-busts-simultaneous": {"POST": DF},  # ELM-03: the floor marks busts it cannot order
    "api-seating-moves": {"GET": STAFF_AUDIT, "POST": DF},
    "api-seating-move-op": {"POST": DF},
    "api-seating-moves-confirm": {"POST": DF},  # several slips done at once (a broken table has sat down)
    "api-seating-break-order": {"POST": DF},
    "api-seating-standings": {"GET": STAFF_AUDIT},  # names in full: the lobby shows places through its snapshot (public_names)
    "api-seating-draws": {"GET": DF_AUDIT},
    # --- API: payouts ----------------------------------------------------------------------
    "api-payouts": {"GET": LOBBY_AUDIT},
    "api-payouts-pool": {"GET": LOBBY_AUDIT},
    "api-payouts-table": {"GET": LOBBY_AUDIT, "POST": D, "PUT": D},
    "api-payouts-table-propose": {"POST": D},
    "api-payouts-table-lock": {"POST": D},
    "api-payouts-table-unlock": {"POST": D},  # PAY-05: a published table changes only after this, with a reason
    "api-payouts-table-template": {"POST": D},
    "api-deal-calculate": {"POST": DF},
    "api-deals": {"GET": DF_AUDIT, "POST": D},
    "api-deal-action": {"POST": {"accept": DF, "*": D}},
    "api-signoff": {"GET": STAFF_AUDIT, "POST": SIGNERS},  # ELM-07: the director and the controller
    "api-satellite": {"POST": D},
    "api-satellite-complete": {"POST": D},
    "api-side-pools": {"GET": STAFF_AUDIT, "POST": D},
    "api-side-pool-action": {"POST": {"token": DC, "*": D}},  # REG-10: the desk hands over the Last Longer chip or plaque
    "api-payouts-report": {"GET": STAFF_AUDIT},
    "api-payouts-results": {"GET": STAFF_AUDIT},  # the results sheet for the club's site: names as public pages show them
    "api-payout-templates": {"GET": STAFF, "POST": D},
    "api-payouts-due": {"GET": STAFF},
    "api-payouts-pay": {"POST": DC},
    "api-payouts-slip": {"GET": STAFF},
    "api-bounties": {"GET": STAFF_AUDIT},  # PAY-02: heads, awards and the bounty money
    "api-bounties-pay": {"POST": DC},  # the desk pays the bounties a player won
    "api-bounties-returned": {"POST": DC},  # the desk takes back a bounty paid (its bust to be undone), on its own shift
    "api-bounties-envelopes": {"POST": D},  # the director fills the mystery envelopes
    "api-tickets": {"GET": DC, "POST": D},  # PAY-11: a person's tickets at the desk; a series ticket issued by the director
    "api-ticket-redeem": {"POST": DC},
    "api-jackpot": {"GET": STAFF, "PUT": D},  # the fund and its winners (REG-11, PAY-12); the lobby gets the fund by the snapshot
    "api-jackpot-claim": {"POST": DF},  # PAY-12: the floor verifies a royal flush at the table
    "api-jackpot-pay": {"POST": DC},  # the desk pays it
    # --- API: formats ----------------------------------------------------------------------
    "api-formats-sng": {"POST": D},
    "api-formats-multiday-create": {"POST": D},
    # The formats' reads name players in full (a bracket's seat requests too): staff only. The
    # lobby shows brackets and leaderboards through their public pages and its snapshot.
    "api-formats-multiday": {"GET": STAFF, "POST": D},
    "api-formats-multiday-op": {"GET": STAFF, "POST": D},
    "api-formats-flight": {"GET": STAFF, "POST": _FLIGHT_OPS},
    "api-formats-flight-op": {"GET": STAFF, "POST": _FLIGHT_OPS},
    "api-formats-stack-options": {"GET": STAFF, "POST": D},
    "api-formats-stack-choice": {"POST": DC},
    "api-formats-bracket-create": {"POST": D},
    "api-formats-bracket": {"GET": STAFF, "POST": _BRACKET_OPS},
    "api-formats-bracket-op": {"GET": STAFF, "POST": _BRACKET_OPS},
    "api-formats-match": {"GET": STAFF, "POST": _MATCH_OPS},
    "api-formats-match-op": {"GET": STAFF, "POST": _MATCH_OPS},
    "api-formats-timed-create": {"POST": D},
    "api-formats-timed": {"GET": STAFF, "POST": D},
    "api-formats-timed-op": {"GET": STAFF, "POST": D},
    "api-formats-qualifier-groups": {"POST": D},
    "api-formats-series-create": {"POST": D},
    "api-formats-series": {"GET": STAFF, "POST": D},
    "api-formats-series-op": {"GET": STAFF, "POST": D},
    # --- Public: lobby screens, the player's phone, signing in ----------------------------
    "login": {"GET": ANYONE, "POST": ANYONE},
    "favicon": {"GET": ANYONE},  # every browser asks for it, logged in or not
    "manifest": {"GET": ANYONE},  # the web app manifest: name, icons, start page (no data)
    "floor-manifest": {"GET": ANYONE},  # the floor's app manifest (no data)
    "floor-worker": {"GET": ANYONE},  # the floor's service worker: code and the static names (no data)
    "logout": {"GET": ANYONE, "POST": ANYONE},
    "trust": {"GET": ANYONE},  # how a staff device comes to trust the room's secure address
    "trust-ca": {"GET": ANYONE},  # the room's authority certificate (public by nature; its key is never served)
    "trust-profile": {"GET": ANYONE},  # the same in an Apple profile
    "trust-check": {"GET": ANYONE},  # the device reached the secure address: nothing private in the answer
    "set_language": {"GET": ANYONE, "POST": ANYONE},
    "live-time": {"GET": ANYONE},
    "live-state": {"GET": ANYONE},  # a display screen's token or a staff login (checked by the view)
    "live-stream": {"GET": ANYONE},  # the same
    "live-seats": {"GET": ANYONE},  # the same: the lobby screens' seat lookup, a page at a time
    "display": {"GET": ANYONE},  # the screen's token is its read-only key
    "overlay": {"GET": ANYONE},  # the same key: the screen drawn for a stream (OBS's browser source)
    "seating-lookup": {"GET": ANYONE},  # a player finds his seat on his phone
    "seating-lookup-find": {"GET": ANYONE},  # the same lookup as you type (JSON)
    "public-rules": {"GET": ANYONE},  # BAL-05, ROLE-06: the house's procedures, for players
    "public-changes": {"GET": ANYONE},  # FMT-02: the event's published changes (JSON)
    "phone": {"GET": ANYONE},  # the player's page from the receipt's QR code: the entry's token is its key
    "phone-state": {"GET": ANYONE},  # the same token; only what that entry may see
    "phone-stream": {"GET": ANYONE},
    "phone-qr": {"GET": ANYONE},
    "phone-worker": {"GET": ANYONE},  # the phone page's service worker: the same code for everyone
    "phone-push": {"GET": ANYONE, "POST": ANYONE, "DELETE": ANYONE},  # this phone's notices: the same token is the key
    "formats-bracket-display": {"GET": ANYONE},  # names and results are public
    "formats-leaderboard": {"GET": ANYONE},
    # --- Pages ----------------------------------------------------------------------------
    "dashboard": {"GET": LOBBY_AUDIT + (DEALER,)},
    "dealer-home": {"GET": DFL},  # a dealer's own page: his table and his next push, or that he has none
    "dealer-table": {"GET": DFL, "POST": _DEALER_PAGE_OPS},  # ROLE-01: the dealer's table: hand completed, player out
    "desk": {"GET": DC},
    "receipt": {"GET": STAFF},
    "receipt-pdf": {"GET": STAFF},
    "people": {"GET": STAFF},
    "person": {"GET": STAFF, "POST": {"erase": D, "reveal": D, "*": DC}},  # POST: the player opts out of the public seat lookup; erase (director)
    "structures": {"GET": STAFF},
    "chipsets": {"GET": DF},
    "tournament-new": {"GET": D, "POST": D},
    "tournament-templates": {"GET": D, "POST": D},  # a new tournament from a saved template
    "floor-overview": {"GET": DF},  # every running tournament at a glance
    "tournament-edit": {"GET": D, "POST": D},
    "tournament": {"GET": STAFF_AUDIT, "POST": {"addendum": DC, "*": D}},
    "rulings": {"GET": DF_AUDIT, "POST": DF},
    "witness": {"GET": STAFF_AUDIT, "POST": CTRL},
    "clock-control": {"GET": DF},
    "api-screen-layouts": {"GET": D, "POST": D},
    "api-screen-layout": {"GET": D, "PUT": D, "DELETE": D},
    "api-screen-layout-export": {"GET": D},
    "api-screen-layout-import": {"POST": D},
    "api-screen-images": {"GET": D, "POST": D},
    "screen-layouts": {"GET": D, "POST": D},  # the lobby screens' layouts, images, import and export
    "screen-layout-edit": {"GET": D},  # the layout editor (it saves through the API)
    "screen-layout-preview": {"GET": D},  # the editor's live preview on a tournament's data
    "screen-layout-export": {"GET": D},
    "screen-image": {"GET": ANYONE},  # a logo or sponsor image the product re-encoded, shown by every screen
    "displays": {"GET": DF, "POST": D},  # the lobby screens and their rotation (changes: the screens API, director; POST: a screen's link revoked or renewed)
    "staff": {"GET": D, "POST": D},  # the staff page: logins, roles, passwords, disabled
    "imports": {"GET": D},  # what can be brought in and taken out
    "imports-upload": {"GET": D, "POST": D},  # a kind's import page: upload, and its export
    "imports-preview": {"GET": D, "POST": D},  # an uploaded sheet's mapping, preview and confirmation
    "imports-refused": {"GET": D},  # its refused rows, to fix
    "imports-export": {"GET": D},
    "login-lockouts": {"GET": D, "POST": D},  # staff login lock-outs: a director lifts one
    "devices": {"GET": LOGGED_IN, "POST": LOGGED_IN},  # the devices logged in through the API: one's own, a director's every user's
    "floor-tools": {"GET": DF},
    "seating-tables": {"GET": DF, "POST": _TABLE_PAGE_OPS},
    "room-map": {"GET": DF, "POST": _ROOM_PAGE_OPS},  # the room's tables at a glance; the director keeps the inventory there
    "room-map-of": {"GET": DF, "POST": _ROOM_PAGE_OPS},
    "room-push-list": {"GET": DF},  # the next push of the dealers, printable
    "room-dealers-csv": {"GET": D},  # the dealers' shift report (payroll)
    "room-dealers-pdf": {"GET": D},
    "room-screen": {"GET": DF},  # the room map on a screen of its own for the floor
    "seating-predraw": {"GET": STAFF, "POST": D},  # SEAT-02: run it, print it, export it (CSV)
    "seating-slips": {"GET": DF},
    "seating-draws": {"GET": DF_AUDIT},
    "seating-cards": {"GET": DF},  # SEAT-01/04: seat cards to print
    "seating-cards-pdf": {"GET": DF},
    "seating-manual-draw": {"GET": DF, "POST": DF},
    "seating-constraints": {"GET": DF, "POST": D},  # SEAT-07: keep-apart pairs, seats reserved by hand
    "payouts-tournament": {"GET": STAFF_AUDIT, "POST": {"signoff": SIGNERS, "token": DC, "*": D}},
    "payouts-deal": {"GET": DF, "POST": DF},
    "payouts-report": {"GET": STAFF_AUDIT},
    "payouts-results": {"GET": STAFF_AUDIT},
    "payouts-due": {"GET": DC, "POST": DC},
    "payouts-slip": {"GET": STAFF},
    "payouts-slip-pdf": {"GET": STAFF},
    "formats": {"GET": STAFF},
    "formats-sng-new": {"GET": D, "POST": D},
    "formats-multiday-new": {"GET": D, "POST": D},
    "formats-multiday": {"GET": STAFF, "POST": {"bag": DF, "*": D}},
    "formats-stack-choice": {"GET": DC, "POST": DC},
    "formats-headsup-new": {"GET": D, "POST": D},
    "formats-headsup": {"GET": STAFF, "POST": _HEADSUP_PAGE_OPS},
    "formats-timed-new": {"GET": D, "POST": D},
    "formats-timed": {"GET": STAFF, "POST": D},
    "formats-qualifiers-new": {"GET": D, "POST": D},
    "formats-series-new": {"GET": D, "POST": D},
    "formats-series": {"GET": STAFF, "POST": D},
}

# Ledger rows a role may reverse: only a role that may create the row (ROLE table, REG-07).
# Kinds not listed are reversible by a director only.
# A prize payment and a refund are the director's to undo, even where a cashier paid it out.
REVERSIBLE_BY: dict[str, tuple] = {
    "BUY_IN": DC,
    "RE_ENTRY": DC,
    "REBUY": DC,
    "ADD_ON": DC,
    "SIDE": DC,
    "SETTLEMENT": DC,  # REG-09: a payment of an amount owed taken by mistake (waiving the debt itself: director)
    "REFUND": D,
    "PAYOUT": D,
}

# Routes a regulator may read, all keyed by the tournament's ``pk``: he reads them only for the
# tournaments a director granted him (anything else answers 404), and nothing else but the
# dashboard (``tests/test_role_matrix.py`` checks both).
BY_TOURNAMENT = frozenset(name for name, rules in POLICY.items() if REGULATOR in (rules.get("GET") or ()) and name != "dashboard" and name not in OWN_LOGIN)

_READ_METHODS = {"HEAD": "GET", "OPTIONS": "GET"}


def holds(held: set[str], roles) -> bool:
    """True when a user holding ``held`` has one of ``roles``; a director holds every staff role
    but the controller's (``OWN_ROLES``: the second signature is another person's)."""
    roles = set(roles)
    return bool(held & roles) or (DIRECTOR in held and bool(roles - OWN_ROLES))


def regulator_only(held: set[str], url_name: str | None, method: str, op: str | None = None) -> bool:
    """True when only the regulator role lets this user make the call: the call is then
    limited to the tournaments granted to him."""
    return REGULATOR in held and not permits(held - {REGULATOR}, url_name, method, op)


def decision(url_name: str | None, method: str, op: str | None = None):
    """The roles that may call ``url_name`` with ``method`` (and action ``op``), or None when the
    table has no decision (refused)."""
    rules = POLICY.get(url_name or "")
    if rules is None:
        return None
    method = _READ_METHODS.get(method.upper(), method.upper())
    roles = rules.get(method)
    if isinstance(roles, dict):
        if op in roles:
            return roles[op]
        if "*" in roles:
            return roles["*"]
        # An action nobody named: whoever may take some action here learns it does not exist.
        return tuple({r for rs in roles.values() for r in rs})
    return roles


def permits(held: set[str], url_name: str | None, method: str, op: str | None = None) -> bool:
    """True when a user holding the roles ``held`` may make this call."""
    roles = decision(url_name, method, op)
    if roles is None:
        return False
    return PUBLIC in roles or holds(held, roles)


def may_reverse(held: set[str], kind: str) -> bool:
    """True when a user holding ``held`` may reverse a ledger row of this kind."""
    return holds(held, REVERSIBLE_BY.get(kind, D))


def is_public(url_name: str | None, method: str, op: str | None = None) -> bool:
    roles = decision(url_name, method, op)
    return roles is not None and PUBLIC in roles
