"""The reconciliation report as the controller reads it, whole: its lines in their order, each
amount "0.00" unless a test names it, then the notes (no amount)."""

from payouts import reports
from tournaments.models import Tournament

LINES = [
    "Money in: prize parts",
    "Money in: fees",
    "Money in: side pools",
    "Money in: jackpot fees (to the venue's jackpot fund)",
    "Money in: total",
    "Prize pool",
    "Carried to Day 2",
    "Deductions kept by the house",
    "Chip-leader prizes of the Day 1 flights",
    "Overlay added by the house",
    "Fees kept by the house",
    "… of which amounts owed, paid (no-shows, REG-09)",
    "Money in not accounted for",
    "Money out: prizes paid",
    "… of which chip-leader prizes (from the event's pool)",
    "Money out: side prizes paid",
    "Money out: jackpots paid (from the venue's jackpot fund)",
    "Prize pool not yet paid",
    "… prizes won, not yet collected",
    "… places still to be decided",
    "… not yet assigned to a place by the payout table",
    "… assigned by the payout table beyond the prize pool (to edit before it is locked)",
    "… odd cents of shared places kept by the house",
    "… forfeited prizes held by the house (PEN-07)",
    "… forfeited prizes due to places still to be decided (PEN-07)",
    "Difference not explained",
    "Side pools: still held",
    "Receivables: amounts owed, not yet paid (not money in)",
]


BOUNTY_IN = "Money in: bounty parts (apart from the prize pool)"
BOUNTY_LINES = [
    "Bounty money taken in (apart from the prize pool)",
    "… bounties paid out",
    "… bounties won, not yet collected",
    "… still on the heads of the players in",
    "… bounties kept by the house",
    "… bounty parts of cancelled entries, still to refund",
    "Bounty difference not explained",
]


def expected(
    amounts: dict[str, str], notes: tuple[str, ...] = (), refunds: tuple[tuple[str, str], ...] = (), bounty: dict[str, str] | None = None
) -> list[list[str]]:
    """The rows of an event: ``amounts`` by label, the rest 0.00; a cancelled event's
    ``refunds`` lines where the report puts them, after the fees; a bounty event's money in
    (``amounts[BOUNTY_IN]``) after the jackpot fees and its ``bounty`` lines by label after the
    rest (the cancelled entries' line only when given)."""
    assert set(amounts) <= set(LINES) | {BOUNTY_IN}, set(amounts) - set(LINES)
    lines = list(LINES)
    if bounty is not None:
        assert set(bounty) <= set(BOUNTY_LINES), set(bounty) - set(BOUNTY_LINES)
        lines.insert(lines.index("Money in: total"), BOUNTY_IN)
        lines += [label for label in BOUNTY_LINES if label in bounty or "cancelled entries" not in label]
    rows = [[label, (bounty or {}).get(label, amounts.get(label, "0.00"))] for label in lines]
    at = lines.index("Money in not accounted for")
    return rows[:at] + [list(r) for r in refunds] + rows[at:] + [[note, ""] for note in notes]


def read(t) -> tuple[list[list[str]], str]:
    """The report's rows and its result, the tournament read afresh as a download reads it."""
    report = reports.reconciliation(Tournament.objects.get(pk=t.pk))
    return report["rows"], str(dict(report["totals"])["Result"])


BALANCED = "Balanced: every cent is explained."
