"""The keys a tournament's ``settings`` may hold (README "House rules") and what each accepts.

Pure: ``check_settings(value)`` returns the messages for what is wrong (empty when all is
well). The API's serializer and every service that writes ``settings`` use it, so a
tournament is never stored with a setting its pages cannot read.
"""

from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _


def _choice(*values):
    return lambda v: v in values, ", ".join(values)


def _bool():
    return lambda v: isinstance(v, bool), "true / false"


def _int(lo, hi, null=False):
    return (lambda v: (null and v is None) or (isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi)), f"{lo}…{hi}"


def _number(lo, hi, null=False, above=False):
    """A finite number (or its string), lo ≤ v ≤ hi (lo < v with ``above``)."""

    def ok(v):
        if null and v is None:
            return True
        if isinstance(v, bool) or not isinstance(v, (int, float, str)):
            return False
        try:
            d = Decimal(str(v))
        except (InvalidOperation, ValueError):
            return False
        if not d.is_finite():
            return False
        return (lo < d if above else lo <= d) and d <= hi

    return ok, f"{lo}…{hi}"


def _late_reg_stack(v):
    if v == "FULL":
        return True
    if not isinstance(v, dict) or len(v) != 1:
        return False
    (key, n), = v.items()
    if isinstance(n, bool) or not isinstance(n, int):
        return False
    return (key == "percent" and 1 <= n <= 100) or (key == "chips" and 1 <= n <= 10**12)


def _break_order(v):
    return v is None or (isinstance(v, list) and len(v) <= 1000
                         and all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 10_000 for n in v))


SETTINGS = {
    # cashier (REG-04, FMT-14, FMT-04, REG-09, FMT-09)
    "late_reg_stack": (_late_reg_stack, '"FULL", {"percent": 1…100} or {"chips": n}'),
    "field_cap_counts": _choice("ENTRIES", "LIVE_PLAYERS"),
    "rebuy_before_start": _bool(),
    "late_entry_prebooked_only": _bool(),
    "sng_tables": _int(1, 100),
    "require_prestart_report": _bool(),
    # clock (CLK-06)
    "h4h_seconds_per_hand": _int(1, 3600),
    "h4h_break_policy": _choice("TAKE_BREAK", "SKIP_BREAK"),
    # chip races (CR-02, CR-03)
    "race_conversion": _choice("ROUND_HALF_UP", "FLOOR"),
    "race_start": _choice("SEAT_1", "LAST_HAND_SB"),
    "race_tie": _choice("SUIT_ORDER", "FIRST_DEALT"),
    # penalties (PEN-02)
    "penalty_preset": _choice("TDA", "SANREMO_003", "MONTEGALDA_004", "HEADS_UP_001"),
    # seating (BAL-*, SEAT-01, ELM-04)
    "balance_trigger_difference": _int(1, 10),
    "mover_rule": _choice("NEXT_BB", "CURRENT_BB", "BUTTON_CASH"),
    "dest_rule": _choice("WORST_POSITION", "NEAREST_BB", "SAME_RELATIVE_POSITION"),
    "vacated_bb_seat": _choice("EXCLUDED", "SINGLE_BB"),
    "tie_break": _choice("TABLE_ORDER", "RANDOM_DRAW"),
    "break_order": (_break_order, "null or a list of table numbers"),
    "final_table_size": _int(2, 11),
    "start_players_per_table": _int(2, 11, null=True),
    "h4h_policy": _choice("SHARE", "RANK_BY_STARTING_STACK"),
    "h4h_simultaneous_policy": _choice("SHARE", "RANK_BY_STARTING_STACK"),
    # payouts (PAY-*, LB-*)
    "category": _choice("MAIN", "SIDE"),
    "percent_paid": _number(0, 100, null=True, above=True),
    "places_paid_counts": _choice("ENTRIES", "PLAYERS"),
    "payout_rounding": _number(0, 100000, above=True),
    "min_cash_multiple": _number(0, 1000),
    "guarantee_is_gross": _bool(),
    "display_pool": _choice("NET", "GROSS"),
    "shared_odd_cents": _choice("FIRST_LISTED", "HOUSE"),
    "lb_mode": _choice("A", "B", "C", "D"),
    "lb_shared_rule": _choice("AVERAGE_PLACE", "BEST_PLACE"),
    # formats (set by their services)
    "multiday_day": _int(1, 2),
}


def check_settings(value) -> dict[str, str]:
    """``{key: message}`` for each thing wrong with ``value`` (``{"": message}`` when it is not an object)."""
    if not isinstance(value, dict):
        return {"": _("The house settings must be an object of settings (see the README's house rules).")}
    errors = {}
    for key, v in value.items():
        spec = SETTINGS.get(key)
        if spec is None:
            errors[key] = _("Unknown setting.")
            continue
        ok, expected = spec
        if not ok(v):
            errors[key] = _("Expected %(expected)s.") % {"expected": expected}
    return errors
