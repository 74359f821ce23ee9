"""What every API body of tournaments bounds alike: the reason's length, the largest stack, a
number's upper bound with its refusal in the reader's language."""

REASON = 200  # the reason columns (LedgerRow.reason, Person.banned_reason, ChipAdjustment.reason)

#: The most a stack (starting, rebuy, add-on, the rebuy threshold), a chip's value or a count of
#: one colour of a chip set may be: a billion, far above any room's, and within the integer
#: columns of every database (their own bound, 2^31 or 2^63, is no number a person should read).
MAX_STACK = 10**9


def at_most(n: int):
    """A refusal of a number above ``n`` with ``n`` written in the reader's language (1.000.000.000)."""
    from django.utils.formats import number_format
    from django.utils.functional import lazy
    from django.utils.translation import gettext

    return lazy(lambda: gettext("At most %(n)s.") % {"n": number_format(n, force_grouping=True)}, str)()


def bounded(n: int) -> dict:
    """A serializer field's ``max_value`` with its refusal in words (``at_most``)."""
    return {"max_value": n, "error_messages": {"max_value": at_most(n)}}
