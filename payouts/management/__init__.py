"""Management commands of payouts."""
