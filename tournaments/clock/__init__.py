"""The tournament clock: its arithmetic (levels, breaks, hand-for-hand), the stored clock read
through it, the director's actions, the page and the API."""
