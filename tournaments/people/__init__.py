"""People: the players' records, the duplicate rule, the search, how public pages name a player,
and their personal data (access, export, erasure)."""
