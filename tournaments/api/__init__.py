"""REST API for people, structures, tournaments and the cashier desk (thin: one service per call),
one module per desk: ``people``, ``tournaments`` (the director's setup), ``cashier``, ``reports``
(what the desk reads back), ``clock``, ``floor``. The names the URLs and the other apps' APIs
import are re-exported here."""

from tdmanager.idempotency import body_hash, idempotent

from .base import sale_response
from .cashier import (
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
from .clock import CLOCK_OPS, ClockView
from .floor import FloorView, PenaltyActionView, PersonPenaltiesView
from .people import PersonViewSet
from .reports import (
    BannedPaidView,
    CheckInDocumentView,
    DeclaredRebuysView,
    OwedView,
    ReceiptView,
    ReceivablesView,
    RefundsDueView,
    SalesView,
    ShiftView,
)
from .tournaments import ChipSetViewSet, DisplayScreenViewSet, EntryViewSet, StructureViewSet, TournamentTemplateViewSet, TournamentViewSet

__all__ = [
    "CLOCK_OPS", "AddAlternateView", "AddonView", "AdmitAlternateView", "ArrivalView", "BannedPaidView", "CancelReservationView",
    "CashierView", "CheckInDocumentView", "CheckInView", "ChipSetViewSet", "ClockView", "DeclareRebuyView", "DeclaredRebuysView",
    "DisplayScreenViewSet", "EntryViewSet", "ExchangeRatesView", "FloorView", "NoShowView", "OwedView", "PayReservationView",
    "PenaltyActionView", "PersonPenaltiesView", "PersonViewSet", "PreRegisterView", "PresenceView", "RebuyView", "ReceiptView",
    "ReceivablesView", "ReenterView", "RefundDuePayView", "RefundView", "RefundsDueView", "RegisterView", "ReverseView", "SalesView",
    "SettleView", "ShiftView", "StructureViewSet", "TournamentTemplateViewSet", "TournamentViewSet", "TransferClearedView",
    "body_hash", "idempotent", "quick_sale_input", "sale_response",
]
