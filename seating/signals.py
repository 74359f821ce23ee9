"""What seating announces and asks. Payouts (and formats) react and answer; seating never calls them.

Announcements are sent inside the seating service's transaction, with ``sender=Tournament`` and
keyword arguments ``tournament`` and ``actor``; a receiver that raises rolls the change back.
Questions are asked with ``tournaments.signals.ask``: no answer is an empty answer.
"""

from django.dispatch import Signal

from tournaments import signals as tournaments_signals

#: Players went out (a bust, a removal): ``busts`` (the new Bust rows, places set),
#: ``eliminators`` (``{entry id: [{"entry": id, "pot_share": n or None}, …]}``: who knocked
#: each one out, as the floor listed them, from the button's left; absent for nobody named) and
#: ``winner`` (the last player left's entry id, or None). Payouts ends a satellite whose seats
#: are now decided (FMT-08) and pays the bounties of a bounty event (PAY-02).
players_busted = Signal()

#: Busts were undone (a mistake): ``busts`` (the Bust rows, now void). Payouts takes back the
#: bounties they won (and refuses when a bounty won there has passed on since).
busts_undone = Signal()


# --- What seating asks (read side) ------------------------------------------------------------

#: ``tournament``, ``entries`` (entry ids, or None for the whole field) → ``{entry id: amount}``:
#: the bounty on each player's head (a money string), shown on the table map by his name in a
#: FIXED or PKO event (payouts answers, one query; nothing in another event).
bounties_wanted = Signal()

#: ``tournament``, ``busts`` (Bust ids), ``winner`` (an entry id or None) → in a bounty event
#: (PAY-02) the money those knockouts won, standing awards with a player as winner, in the order
#: recorded: ``[{"bust", "kind", "winner", "entry_number", "name", "knocked_out", "cash", "added",
#: "envelope", "pot_share"}]`` (``bust`` None for the winner's own bounty or the envelopes left,
#: given when ``winner`` is named); None in any other event (payouts answers).
knockouts_wanted = Signal()

#: tournaments' own signal (``tournaments.signals.draw_replay_wanted``): every app answers it.
draw_replay_wanted = tournaments_signals.draw_replay_wanted
