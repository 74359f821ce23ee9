"""Storage for tournaments, people, structures, entries, the cashier ledger and the event log.

One module per topic (``people``, ``structures``, ``tournaments``, ``cashier``, ``eventlog``,
``staff``, ``clock``, ``screens``, ``floor``, ``oversight``, ``notices``, ``imports``; ``common``
for what they share); every name is imported from here, ``tournaments.models``, as the
migrations name it. Rules do not live here: see ``tournaments/services`` (state changes) and
the pure engine modules (``clock.py``, ``chiprace.py``, ``penalties.py``).
"""

from .cashier import ExchangeRate, LedgerRow, Sequence
from .clock import Clock, HandForHandReport
from .common import ERASED_FIRST_NAME, MONEY, NOT_NEGATIVE, POSITIVE, AppendOnlyModel, AppendOnlyQuerySet, plausible_date, shown_name
from .eventlog import TournamentEvent
from .floor import ChipAdjustment, ChipCount, ChipDenomination, ChipRaceRecord, ChipSet, Penalty
from .imports import ImportFile, Td3Event, Td3Player
from .notices import NoticeMark, PushKeys, PushSubscription, RegistrationNotice
from .oversight import RegulatorGrant, Ruling, RulingNote, StubReport, Witness
from .people import Person
from .screens import DisplayScreen, ScreenImage, ScreenLayout
from .staff import BrowserSession, DeviceToken, IdempotencyRecord, LoginLanguage
from .structures import BlindStructure, StructureItem
from .tournaments import Alternate, Entry, Tournament, TournamentChange, TournamentTemplate, WaitingStart, new_phone_token

__all__ = [
    # common
    "ERASED_FIRST_NAME",
    "MONEY",
    "NOT_NEGATIVE",
    "POSITIVE",
    "AppendOnlyModel",
    "AppendOnlyQuerySet",
    "plausible_date",
    "shown_name",
    # people
    "Person",
    # structures
    "BlindStructure",
    "StructureItem",
    # tournaments
    "Alternate",
    "Entry",
    "Tournament",
    "TournamentChange",
    "TournamentTemplate",
    "WaitingStart",
    "new_phone_token",
    # cashier
    "ExchangeRate",
    "LedgerRow",
    "Sequence",
    # eventlog
    "TournamentEvent",
    # staff
    "BrowserSession",
    "DeviceToken",
    "IdempotencyRecord",
    "LoginLanguage",
    # clock
    "Clock",
    "HandForHandReport",
    # screens
    "DisplayScreen",
    "ScreenImage",
    "ScreenLayout",
    # floor
    "ChipAdjustment",
    "ChipCount",
    "ChipDenomination",
    "ChipRaceRecord",
    "ChipSet",
    "Penalty",
    # oversight
    "RegulatorGrant",
    "Ruling",
    "RulingNote",
    "StubReport",
    "Witness",
    # notices
    "NoticeMark",
    "PushKeys",
    "PushSubscription",
    "RegistrationNotice",
    # imports
    "ImportFile",
    "Td3Event",
    "Td3Player",
]
