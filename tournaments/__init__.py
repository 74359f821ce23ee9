"""Tournaments: people, structures, tournaments and their entries, the desk and its ledger, the
clock, the floor's tools, the event log, the lobby screens and the players' phones."""
