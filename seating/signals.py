"""What seating announces. Payouts (and formats) react; seating never calls them.

Sent inside the seating service's transaction, with ``sender=Tournament`` and keyword
arguments ``tournament`` and ``actor``; a receiver that raises rolls the change back.
"""

from django.dispatch import Signal

#: Players went out (a bust, a removal): ``busts`` (the new Bust rows, places set).
#: Payouts ends a satellite whose seats are now decided (FMT-08).
players_busted = Signal()
