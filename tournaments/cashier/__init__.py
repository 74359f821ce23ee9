"""The cashier desk: admission, sales, corrections, alternates, exchange rates, check-in, the
ledger every app's money goes through, receipts, the desk's pages, API and reads."""
