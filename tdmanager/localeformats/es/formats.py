"""Spanish card rooms, cash desks and their receipts group thousands with a full stop
("1.234,56 EUR", "30.000 fichas"), as the browsers' Intl.NumberFormat does for ``es`` on the same
page; Django's default is the RAE's non-breaking space."""

THOUSAND_SEPARATOR = "."
