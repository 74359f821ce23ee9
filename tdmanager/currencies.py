"""Currencies: ISO 4217 codes, and the ones this installation prices tournaments in.

``TDM_CURRENCIES`` (default: ``TDM_CURRENCY``, EUR) lists the currencies a tournament may be
priced in and an exchange rate may be counted into; every code in it must be an ISO 4217
currency (a system check says so at start). ``XXX`` ("no currency"), ``XTS`` (testing) and the
metals are not currencies a desk takes.
"""

from django.conf import settings

#: The active ISO 4217 currency codes (list one of 2025), funds and metals left out.
ISO_4217 = frozenset(
    """
AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD
CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD
GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT
LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR
NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP
STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD
XCG XOF XPF YER ZAR ZMW ZWG
""".split()
)


def accepted() -> tuple[str, ...]:
    """The currencies a tournament may be priced in here (``TDM_CURRENCIES``), the house's first."""
    codes = [settings.TDM_CURRENCY] + [c for c in settings.TDM_CURRENCIES if c != settings.TDM_CURRENCY]
    return tuple(c.strip().upper() for c in codes if c.strip())


def is_accepted(code) -> bool:
    return isinstance(code, str) and code in accepted() and code in ISO_4217
