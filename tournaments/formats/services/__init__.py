"""Format services: the only code in this app that changes state.

Each public function is one ``transaction.atomic()`` unit: it locks the tournament row
first (``tournaments.cashier.ledger.lock_tournament``), checks the rules (``..engine``),
writes the rows and one ``formats.<noun>.<verb>`` event-log row. Where a service drives a
service of another module (a sale, a start, a finish), that service logs its own row too.
"""
