"""Services: the only code that changes tournament state.

Each public function is one ``transaction.atomic()`` unit: lock what it changes, check the
rules, write the rows, write one event-log row and publish the change on commit.
"""
