"""REST API of the payouts app (thin: validate, call one service, render), one module per topic
as its services and selectors are: ``pool`` (with the summary of a tournament's payouts),
``table`` (the payout table and the templates), ``deals``, ``prizes`` (what is due, paying it,
its slip, the sign-off), ``bounties``, ``reports`` (with the results sheet), ``satellites``,
``sidepools``, ``tickets``, ``jackpot``; ``common`` for what the views share. The views are
gathered here for the routes (``payouts/api_urls.py``)."""

from .bounties import BountiesView, BountyPayView, BountyReturnView, EnvelopesView
from .deals import DealActionView, DealCalculatorView, DealsView
from .jackpot import JackpotClaimView, JackpotPayView, JackpotView
from .pool import PayoutsSummaryView, PoolView
from .prizes import DueView, PayView, SignoffView, SlipView
from .reports import ReportView, ResultsSheetView
from .satellites import SatelliteCompleteView, SatelliteView
from .sidepools import SidePoolActionView, SidePoolsView
from .table import TableLockView, TableProposeView, TableTemplateView, TableUnlockView, TableView, TemplatesView
from .tickets import TicketRedeemView, TicketsView

__all__ = [
    "BountiesView",
    "BountyPayView",
    "BountyReturnView",
    "DealActionView",
    "DealCalculatorView",
    "DealsView",
    "DueView",
    "EnvelopesView",
    "JackpotClaimView",
    "JackpotPayView",
    "JackpotView",
    "PayView",
    "PayoutsSummaryView",
    "PoolView",
    "ReportView",
    "ResultsSheetView",
    "SatelliteCompleteView",
    "SatelliteView",
    "SidePoolActionView",
    "SidePoolsView",
    "SignoffView",
    "SlipView",
    "TableLockView",
    "TableProposeView",
    "TableTemplateView",
    "TableUnlockView",
    "TableView",
    "TemplatesView",
    "TicketRedeemView",
    "TicketsView",
]
