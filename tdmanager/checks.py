"""System checks for a safe deployment (``manage.py check --deploy``, docs/operating.md, "HTTPS deployment")."""

import ipaddress

from django.conf import settings
from django.core import checks

from .currencies import ISO_4217, accepted


@checks.register(checks.Tags.security)
def trusted_proxies_are_addresses(app_configs, **kwargs):
    errors = []
    for entry in getattr(settings, "TDM_TRUSTED_PROXIES", ()):
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            errors.append(
                checks.Error(
                    f"TDM_TRUSTED_PROXIES: {entry!r} is not an IP address or network.",
                    hint="Give the reverse proxies' addresses, e.g. 127.0.0.1,10.0.0.0/24.",
                    id="tdmanager.E001",
                )
            )
    return errors


@checks.register()
def currencies_are_iso_4217(app_configs, **kwargs):
    return [
        checks.Error(
            f"TDM_CURRENCY / TDM_CURRENCIES: {code!r} is not an ISO 4217 currency code.",
            hint="Give three capital letters such as EUR, CHF, USD.",
            id="tdmanager.E002",
        )
        for code in accepted()
        if code not in ISO_4217
    ]


@checks.register(checks.Tags.security, deploy=True)
def deployment_settings(app_configs, **kwargs):
    warnings = []
    if not getattr(settings, "ALLOWED_HOSTS_EXPLICIT", True):
        warnings.append(
            checks.Warning(
                "ALLOWED_HOSTS is not set: only loopback names (127.0.0.1, localhost) are served.",
                hint="Set ALLOWED_HOSTS to the names the site is reached by, e.g. ALLOWED_HOSTS=tdm.example.com.",
                id="tdmanager.W001",
            )
        )
    if "*" in settings.ALLOWED_HOSTS:
        warnings.append(
            checks.Warning(
                "ALLOWED_HOSTS contains '*': any Host header is believed (password-reset links, absolute URLs).",
                hint="List the site's names instead.",
                id="tdmanager.W002",
            )
        )
    if getattr(settings, "TDM_TRUSTED_PROXIES", None) and settings.SECURE_SSL_REDIRECT and not settings.SECURE_PROXY_SSL_HEADER:
        warnings.append(
            checks.Warning(
                "SECURE_SSL_REDIRECT is on behind a proxy but SECURE_PROXY_SSL_HEADER is not set: every request "
                "forwarded over plain HTTP looks insecure and is redirected again (a redirect loop).",
                hint="Set SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto and make the proxy set it.",
                id="tdmanager.W003",
            )
        )
    if settings.SECURE_PROXY_SSL_HEADER and not getattr(settings, "TDM_TRUSTED_PROXIES", None):
        warnings.append(
            checks.Warning(
                "SECURE_PROXY_SSL_HEADER says a proxy is in front, but TDM_TRUSTED_PROXIES is empty: every client "
                "looks like the proxy, so the event log records its address and the per-address login limit "
                "locks everyone out at once.",
                hint="List the proxy's address in TDM_TRUSTED_PROXIES, e.g. TDM_TRUSTED_PROXIES=127.0.0.1.",
                id="tdmanager.W004",
            )
        )
    return warnings


@checks.register("serving")
def web_threads_fit_the_database_pool(app_configs, **kwargs):
    """Each web thread (staff's and public's) may hold a connection of PostgreSQL's pool at
    once; with no connection left a request waits for one, up to the pool's timeout, then fails."""
    pool = (settings.DATABASES.get("default", {}).get("OPTIONS") or {}).get("pool")
    if not isinstance(pool, dict) or not pool.get("max_size") or not settings.TDM_WEB_THREADS:
        return []
    threads = settings.TDM_WEB_THREADS + settings.TDM_WEB_PUBLIC_THREADS
    if threads < pool["max_size"]:
        return []
    return [
        checks.Warning(
            f"DB_POOL_MAX ({pool['max_size']}) is not above the web threads of a process (TDM_WEB_THREADS "
            f"{settings.TDM_WEB_THREADS} + TDM_WEB_PUBLIC_THREADS {settings.TDM_WEB_PUBLIC_THREADS}): while they "
            "all hold one, the live streams' threads (and, past it, web threads) wait for a connection.",
            hint="Raise DB_POOL_MAX or lower the threads.",
            id="tdmanager.W005",
        )
    ]
