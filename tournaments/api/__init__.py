"""REST API for people, structures, tournaments and the cashier desk (thin: one service per call),
one module per desk: ``people``, ``tournaments`` (the director's setup), ``cashier``, ``reports``
(what the desk reads back), ``clock``, ``floor``. The names the URLs and the other apps' APIs
import are re-exported here."""

from tdmanager.idempotency import body_hash, idempotent
from tournaments.cashier.api import (
    AddAlternateView,
    AddonView,
    AdmitAlternateView,
    ArrivalView,
    CancelReservationView,
    CashierView,
    CheckInView,
    DeclareRebuyView,
    ExchangeRatesView,
    NoShowView,
    PayReservationView,
    PreRegisterView,
    PresenceView,
    RebuyView,
    ReenterView,
    RefundDuePayView,
    RefundView,
    RegisterView,
    ReverseView,
    SettleView,
    TransferClearedView,
    quick_sale_input,
)
from tournaments.cashier.reports import (
    BannedPaidView,
    CheckInDocumentView,
    DeclaredRebuysView,
    DeskOffersView,
    OwedView,
    ReceiptView,
    ReceivablesView,
    RefundsDueView,
    SalesView,
    ShiftView,
)
from tournaments.clock.api import CLOCK_OPS, ClockView
from tournaments.floor.api import ChipSetViewSet, FloorView, PenaltyActionView, PersonPenaltiesView
from tournaments.people.api import PersonViewSet
from tournaments.screens.api import DisplayScreenViewSet
from tournaments.setup.api import ChangeReasonView, EntryViewSet, TournamentTemplateViewSet, TournamentViewSet
from tournaments.staff.api import StaffLoginView, StaffView
from tournaments.structures.api import StructureViewSet

from .base import sale_response

__all__ = [
    "StaffLoginView",
    "StaffView",
    "CLOCK_OPS",
    "AddAlternateView",
    "AddonView",
    "AdmitAlternateView",
    "ArrivalView",
    "BannedPaidView",
    "CancelReservationView",
    "ChangeReasonView",
    "CashierView",
    "CheckInDocumentView",
    "CheckInView",
    "ChipSetViewSet",
    "ClockView",
    "DeclareRebuyView",
    "DeclaredRebuysView",
    "DeskOffersView",
    "DisplayScreenViewSet",
    "EntryViewSet",
    "ExchangeRatesView",
    "FloorView",
    "NoShowView",
    "OwedView",
    "PayReservationView",
    "PenaltyActionView",
    "PersonPenaltiesView",
    "PersonViewSet",
    "PreRegisterView",
    "PresenceView",
    "RebuyView",
    "ReceiptView",
    "ReceivablesView",
    "ReenterView",
    "RefundDuePayView",
    "RefundView",
    "RefundsDueView",
    "RegisterView",
    "ReverseView",
    "SalesView",
    "SettleView",
    "ShiftView",
    "StructureViewSet",
    "TournamentTemplateViewSet",
    "TournamentViewSet",
    "TransferClearedView",
    "body_hash",
    "idempotent",
    "quick_sale_input",
    "sale_response",
]
