"""TDManager settings. Everything that differs between machines comes from the environment.

Defaults run the embedded single-machine product: SQLite (WAL) in ./var and a Redis
the launcher starts itself. Scaling out is configuration only: DATABASE_URL and REDIS_URL.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.utils.translation import gettext_lazy as _
from kombu import Exchange, Queue

from tdmanager import bodylimits, lan

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name, default="False"):
    return os.getenv(name, default).lower() in ("1", "true", "yes", "on")


def envint(name, default):
    return int(os.getenv(name, default))


VAR_DIR = Path(os.getenv("TDM_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key():
    """A stable per-installation secret: from the environment, else one generated once into var/."""
    if os.getenv("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = VAR_DIR / "secret_key"
    if not path.exists():
        import secrets

        # Written whole, then linked into place: processes starting at once (the launcher's, test
        # workers) agree on the first key made, and none reads a half-written one.
        draft = VAR_DIR / f"secret_key.{os.getpid()}"
        draft.write_text(secrets.token_urlsafe(50))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = envbool("DEBUG", "False")


def envlist(name):
    return [v.strip() for v in os.getenv(name, "").split(",") if v.strip()]


# --- Hosts, HTTPS and proxies (docs/operating.md, "HTTPS deployment") ------------------------------
# ALLOWED_HOSTS unset: loopback names only (the embedded product on 127.0.0.1). The launcher
# adds the address it binds to and refuses to listen on every interface without it; the
# deploy check (manage.py check --deploy) warns while it is not set explicitly.
TDM_LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
ALLOWED_HOSTS_EXPLICIT = bool(envlist("ALLOWED_HOSTS"))
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS") or list(TDM_LOOPBACK_HOSTS)
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS")
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE")
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE")
SESSION_COOKIE_HTTPONLY = True  # the pages' scripts read the CSRF cookie, never the session's
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT")
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# The header a TLS-terminating proxy sets, "X-Forwarded-Proto" (value https) or "Name: value".
_ssl_header = os.getenv("SECURE_PROXY_SSL_HEADER", "").strip()
if _ssl_header:
    _ssl_name, _sep, _ssl_value = _ssl_header.partition(":")
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _ssl_name.strip().upper().replace("-", "_"), _ssl_value.strip() or "https")
# Proxies (addresses or networks) whose X-Forwarded-For is believed; nobody's by default.
TDM_TRUSTED_PROXIES = envlist("TDM_TRUSTED_PROXIES")

# --- The room's own network (docs/operating.md, "The room's own network") ---------------------------
# ``manage.py serve --lan`` sets TDM_LAN, TDM_ROOM_NAMES (its --name values, then the machine's
# names; the first is the room's name), TDM_ROOM_ADDRESSES, TDM_PORT and TDM_HTTPS_PORT for its
# processes; everything else follows from them here. TDM_ROOM_URL: the staff's secure address
# (derived on the room's network; set it behind a proxy). TDM_PUBLIC_URL: the players' (a public
# name with a public certificate: a player's phone cannot install the room's authority).
TDM_LAN = envbool("TDM_LAN")
TDM_PORT = envint("TDM_PORT", 8000)
TDM_HTTPS_PORT = envint("TDM_HTTPS_PORT", 8443)
TDM_ROOM_NAMES = [n.lower() for n in envlist("TDM_ROOM_NAMES")]
TDM_ROOM_ADDRESSES = envlist("TDM_ROOM_ADDRESSES")
TDM_ROOM_URL = os.getenv("TDM_ROOM_URL", "").rstrip("/") or (lan.origin(TDM_ROOM_NAMES[0], TDM_HTTPS_PORT) if TDM_LAN and TDM_ROOM_NAMES else "")
TDM_PUBLIC_URL = os.getenv("TDM_PUBLIC_URL", "").rstrip("/")
# Seconds between the launcher's looks at the server's certificate (made again within 30 days
# of its end, or for a new address of the machine; the HTTPS web server restarts to serve it).
TDM_ROOM_CERT_CHECK_SECONDS = max(1, envint("TDM_ROOM_CERT_CHECK_SECONDS", 3600))
if TDM_LAN:
    _room_hosts = [*TDM_ROOM_NAMES, *(lan.as_host(a) for a in TDM_ROOM_ADDRESSES)]
    _room_origins = [lan.origin(h, TDM_HTTPS_PORT) for h in _room_hosts]
    if TDM_PUBLIC_URL:  # the players' name, its proxy passing the Host on to the HTTPS port
        _public = urlsplit(TDM_PUBLIC_URL)
        _room_hosts.append(_public.hostname or "")
        _room_origins.append(f"{_public.scheme}://{_public.netloc.lower()}")
    ALLOWED_HOSTS = list(dict.fromkeys([*ALLOWED_HOSTS, *filter(None, _room_hosts)]))
    ALLOWED_HOSTS_EXPLICIT = True
    CSRF_TRUSTED_ORIGINS = list(dict.fromkeys([*CSRF_TRUSTED_ORIGINS, *_room_origins]))
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    # A day, this name only: a browser that has been to the room over HTTPS never goes plain
    # again, yet a device given another address (or a room run without --lan) is free again soon.
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 86400)
    # The deploy check's HTTPS advice, answered otherwise here: the plain port redirects by
    # itself (tdmanager.lan), and a room's private names have neither subdomains nor a place on
    # the browsers' preload list.
    SILENCED_SYSTEM_CHECKS = ["security.W008", "security.W005", "security.W021"]

# Login throttling (tdmanager.security): failures per username and per client address in a
# window; over the limit the login page and the token endpoint refuse until the window ends.
TDM_LOGIN_FAILURES_PER_USER = envint("TDM_LOGIN_FAILURES_PER_USER", 5)
TDM_LOGIN_FAILURES_PER_ADDRESS = envint("TDM_LOGIN_FAILURES_PER_ADDRESS", 20)
TDM_LOGIN_WINDOW_SECONDS = envint("TDM_LOGIN_WINDOW_SECONDS", 900)
TDM_LOGIN_MAX_DELAY_SECONDS = envint("TDM_LOGIN_MAX_DELAY_SECONDS", 86400)
# Failures for one username from every address together in a window: past it the username is
# refused everywhere until the window ends, except from a device it logged in from before (a
# signed cookie kept TDM_LOGIN_DEVICE_DAYS), which only its own failures there lock.
TDM_LOGIN_FAILURES_PER_ACCOUNT = envint("TDM_LOGIN_FAILURES_PER_ACCOUNT", 50)
TDM_LOGIN_DEVICE_DAYS = max(1, envint("TDM_LOGIN_DEVICE_DAYS", 90))
# Minutes without activity after which a staff login session ends (tdmanager.idle); 0: never.
TDM_SESSION_IDLE_MINUTES = max(0, envint("TDM_SESSION_IDLE_MINUTES", 120))
# Minutes an API token may go unused before it expires (tdmanager.authentication); 0: never.
# A shift's length by default: a desk's tablet left overnight logs in again in the morning.
TDM_TOKEN_IDLE_MINUTES = max(0, envint("TDM_TOKEN_IDLE_MINUTES", 720))
# Open live streams that need no login, per web process: a phone token's (past it the oldest is
# ended: the newest page wins), and a client address's, phones and lobby screens together (past
# it a new one is refused, 429). Generous per address: a card room's players may all share the
# venue Wi-Fi's one public address.
TDM_STREAMS_PER_TOKEN = max(1, envint("TDM_STREAMS_PER_TOKEN", 3))
TDM_STREAMS_PER_ADDRESS = max(1, envint("TDM_STREAMS_PER_ADDRESS", 1000))
# Seconds between two looks of each web process at the others' open live streams (through Redis):
# one holding more than 1.5x the least loaded one's ends some of its streams, whose browsers
# reconnect through the balancer; after a restart the processes share the room again within a
# minute (tdmanager.realtime.streams_to_shed). 0: never; no Redis, one process: nothing to compare.
TDM_STREAM_BALANCE_SECONDS = max(0, envint("TDM_STREAM_BALANCE_SECONDS", 15))
# A process tells the others of a tournament's change at most once every TDM_PUBLISH_GAP_MS;
# the changes between are folded into the next notice (tdmanager.realtime.Publisher). 0: each
# change its own notice.
TDM_PUBLISH_GAP_MS = max(0, envint("TDM_PUBLISH_GAP_MS", 50))
AUTHENTICATION_BACKENDS = ["tdmanager.security.ThrottledModelBackend"]


def _namespace():
    """What this installation's Redis keys and channels start with. Every process of one
    installation shares SECRET_KEY (sessions need it), and two installations never do, so the
    default is derived from it; TDM_NAMESPACE overrides it."""
    if os.getenv("TDM_NAMESPACE"):
        return os.environ["TDM_NAMESPACE"]
    import hashlib

    return "tdm-" + hashlib.sha256(("tdmanager namespace:" + SECRET_KEY).encode()).hexdigest()[:12]


TDM_NAMESPACE = _namespace()

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tdmanager",
    "tournaments",
    "tournaments.formats",
    "seating",
    "payouts",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "tdmanager.lan.PlainPortMiddleware",  # on the room's network, the plain port sends all but the trust page to HTTPS
    "tdmanager.csp.ContentSecurityPolicyMiddleware",  # CSP on every response, static files included
    "tdmanager.middleware.StaticFilesMiddleware",  # WhiteNoise, its file index made once per process
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # a body over its route's limit: 413, before anything reads it; under /api/ every error answer is {"code", "detail"}
    "tdmanager.errorpages.ApiErrorMiddleware",
    "tdmanager.middleware.RefuseNulMiddleware",  # a NUL character anywhere: 400, before any query
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournaments.staff.languages.LoginLanguageMiddleware",  # a staff login's chosen language over the browser's
    "tdmanager.idle.IdleSessionMiddleware",  # a staff login ends after TDM_SESSION_IDLE_MINUTES without activity
    "tdmanager.sitedata.SessionMarkerMiddleware",  # whose session an answer the floor's tablets keep was for
    "tdmanager.roles.RolePolicyMiddleware",
    "tdmanager.middleware.PageMessageMiddleware",  # Django's MessageMiddleware, pages only (not under /api/)
    "tdmanager.middleware.JsonObjectBodyMiddleware",  # under /api/ a JSON body is an object, read or not
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "tdmanager.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "tdmanager.roles.roles_context",
            ],
        },
    },
]

WSGI_APPLICATION = "tdmanager.wsgi.application"
ASGI_APPLICATION = "tdmanager.asgi.application"

# --- Database -------------------------------------------------------------------------
# SQLite by default. WAL lets the web server read while the worker writes; IMMEDIATE
# transactions take the write lock at BEGIN, so two writers queue on the busy timeout
# instead of failing with "database is locked" half-way through a sale.
SQLITE_PATH = Path(os.getenv("TDM_SQLITE_PATH", VAR_DIR / "tdmanager.sqlite3"))
DATABASE_URL = os.getenv("DATABASE_URL", "")
TDM_PG_PREPARE = max(0, envint("TDM_PG_PREPARE", 5))
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and envbool("DB_POOL", "True"):
        # Under ASGI each request's sync code may run on a new thread, so per-thread persistent
        # connections are reconnected per request; a process-wide pool keeps them open (the web
        # processes' alone: a Celery worker drops it, tdmanager.celery.without_connection_pool).
        DATABASES["default"]["OPTIONS"] = {"pool": {"min_size": 2, "max_size": envint("DB_POOL_MAX", 20), "timeout": 30}}
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = envint("DB_CONN_MAX_AGE", 60)
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and TDM_PG_PREPARE:
        # The hot statements (tdmanager.compiled.prepared_cursor: the seat map's lock and write-back,
        # compiled reads, inserts and updates) are kept prepared by the server after this many runs
        # on a connection, with one generic plan (every one is an indexed lookup by key), so they are
        # neither parsed nor planned again; every other query is bound on the client as before.
        # 0 turns it off (a transaction-mode pooler that cannot keep prepared statements).
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["prepare_threshold"] = TDM_PG_PREPARE
        options["options"] = (options.get("options", "") + " -c plan_cache_mode=force_generic_plan").strip()
else:
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": SQLITE_PATH}}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        # synchronous=FULL: a commit returns once the write-ahead log is on the disk, so a sale the
        # desk confirmed survives a power cut or an OS crash (NORMAL could lose the last commits;
        # docs/operating.md "What a power cut can lose"). It costs an fsync a commit (about 0.7 ms).
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
    }
    # Tests use a file, not :memory:, so that threads and processes share one database.
    # One file per test run, so two runs in one checkout never share (and break) a database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Web serving (tdmanager/asgi.py) -----------------------------------------------------
# Threads per web process that run the sync views (pages, API, static files) side by side;
# the live streams (async views) run on the event loop and take none. Each thread holds at
# most one database connection at a time, so keep DB_POOL_MAX above it (with the public
# threads below; check W005). 0: no pool, every request through Django's ASGI handler (the
# serving of before, to compare).
TDM_WEB_THREADS = max(0, envint("TDM_WEB_THREADS", 8))
# Threads per web process for the URLs anyone may ask without a login (tdmanager.public: a
# player's phone page, the lobby screens, the seat lookup), apart from TDM_WEB_THREADS so that
# a flood of them never makes the desk or the floor wait; they hold database connections too
# (keep DB_POOL_MAX above the sum: check W005). 0: they share the staff's threads.
TDM_WEB_PUBLIC_THREADS = max(0, envint("TDM_WEB_PUBLIC_THREADS", 2))
# Requests a second and burst of those public URLs, per client address and per token (a
# player's /p/<token>/, a screen's display token), in the memory of each web process; past
# either the answer is 429 with Retry-After, given on the event loop without a thread or a
# database read. The address's rate is what a web process serves beside the staff: measured on
# 2 cores with 2 web processes (benchmarks/public_flood.py --rate limit, docs/benchmarks.md), one
# address asking 20 a second of each kept the cashier's p95 within 1.5x its quiet value + 10 ms
# in 5 runs of 5, 30 did not (POST p95 x1.66) nor 40 (x2.16, GET x2.79). The players of a card
# room often share the venue Wi-Fi's one NAT address: their phones hold a stream (no request per
# change); 100 phones that can only poll, every 5 s, are 20 a second (answered from memory), 200
# fill two processes; the burst lets a restart bring them all back within seconds. 0 as a rate:
# no limit of that kind.
TDM_PUBLIC_ADDRESS_RATE = max(0, envint("TDM_PUBLIC_ADDRESS_RATE", 20))
TDM_PUBLIC_ADDRESS_BURST = max(1, envint("TDM_PUBLIC_ADDRESS_BURST", 600))
TDM_PUBLIC_TOKEN_RATE = max(0, envint("TDM_PUBLIC_TOKEN_RATE", 2))
TDM_PUBLIC_TOKEN_BURST = max(1, envint("TDM_PUBLIC_TOKEN_BURST", 20))
# Different names one client address may look up on the public seat lookup a minute, over every
# tournament (the cache: all processes together); 0: no limit beyond the public URLs' rate.
TDM_SEAT_LOOKUP_PER_MINUTE = max(0, envint("TDM_SEAT_LOOKUP_PER_MINUTE", 60))
# Receipt numbers reserved at a time in var/receipts.journal (tdmanager.receipt_journal): one append
# and fsync per block of sales; after a restore at most a block minus one numbers are skipped.
TDM_RECEIPT_JOURNAL_BLOCK = max(1, envint("TDM_RECEIPT_JOURNAL_BLOCK", 100))
TDM_RECEIPT_JOURNAL = os.getenv("TDM_RECEIPT_JOURNAL", "")  # default: VAR_DIR / receipts.journal
TDM_ERASURE_JOURNAL = os.getenv("TDM_ERASURE_JOURNAL", "")  # default: VAR_DIR / erasures.journal
# Seconds a refused public request waits for its 429 (a timer on the event loop, no thread): a
# client that asks again as soon as it is refused asks once per delay on each connection.
TDM_PUBLIC_REFUSAL_DELAY = max(0.0, float(os.getenv("TDM_PUBLIC_REFUSAL_DELAY", "5")))
# Clients that open connections and never finish a request (tdmanager.httpserver, the protocol
# uvicorn speaks; tdmanager.asgi for bodies). Seconds a connection has to send a request's whole
# head, from its opening or, kept alive, from the first byte after its last answer (closed
# past it); seconds a request's whole body has from its head (answered 408 past it,
# before a thread is taken). Connections waiting for their head per client address and web
# process: one more closes the address's oldest (staff requests arrive whole, so never wait there).
TDM_HEADER_TIMEOUT = max(1, envint("TDM_HEADER_TIMEOUT", 10))
TDM_BODY_TIMEOUT = max(1, envint("TDM_BODY_TIMEOUT", 30))
TDM_INCOMPLETE_PER_ADDRESS = max(1, envint("TDM_INCOMPLETE_PER_ADDRESS", 50))
# Bytes a request's body may have, per kind of route (tdmanager.bodylimits; docs/operating.md,
# "Request bodies"); a larger one is refused 413 before it is read (a declared length) or as soon
# as it passes the limit (sent chunked). The small ones are all an anonymous client can reach (the
# login, the token endpoint, the public pages): an API call's JSON and a page's form. The staff's
# file uploads: an image for the screens (5 MB, the layouts service's figure) and a layout file
# (8 MB) and a sheet to import (10 MB), each with room for the form around it.
TDM_BODY_JSON = max(1024, envint("TDM_BODY_JSON", 1024 * 1024))
TDM_BODY_FORM = max(1024, envint("TDM_BODY_FORM", 1024 * 1024))
TDM_BODY_IMAGE = max(1024, envint("TDM_BODY_IMAGE", bodylimits.IMAGE_FILE + bodylimits.MULTIPART_ROOM))
TDM_BODY_LAYOUT = max(1024, envint("TDM_BODY_LAYOUT", bodylimits.LAYOUT_FILE + bodylimits.MULTIPART_ROOM))
TDM_BODY_SHEET = max(1024, envint("TDM_BODY_SHEET", bodylimits.SHEET_FILE + bodylimits.MULTIPART_ROOM))
# Django's own ceiling is the largest of them: each route's limit is checked before anything
# reads the body, so Django never refuses what a route allows (and reads an upload whole).
DATA_UPLOAD_MAX_MEMORY_SIZE = max(TDM_BODY_JSON, TDM_BODY_FORM, TDM_BODY_IMAGE, TDM_BODY_LAYOUT, TDM_BODY_SHEET)
# Seconds a web pool thread keeps its database connection between requests (0: a new SQLite
# connection, or one from PostgreSQL's pool, per request). TDM_WEB_SQLITE_KEEP: its old name.
TDM_WEB_DB_KEEP = max(0, envint("TDM_WEB_DB_KEEP", os.getenv("TDM_WEB_SQLITE_KEEP", "60")))
# Microseconds a busy thread of a web process may keep the interpreter before another thread
# (one whose database answer has arrived, the event loop sending the screens' frames) gets it
# (sys.setswitchinterval; Python's own is 5,000). Set once at startup (tdmanager.asgi).
TDM_WEB_SWITCH_US = max(100, envint("TDM_WEB_SWITCH_US", 1000))

# --- Redis and Celery -----------------------------------------------------------------
# REDIS_URL unset: the launcher (manage.py serve) starts an embedded Redis and exports it.
REDIS_URL = os.getenv("REDIS_URL", "")
# The cache (login throttling counters) is shared by every process through Redis; keys start
# with the namespace. Without Redis (tests, management commands) it is per process.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": TDM_NAMESPACE,
            "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "KEY_PREFIX": TDM_NAMESPACE}}
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
# Every key and channel Celery writes carries the installation's namespace (docs/operating.md).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600, "global_keyprefix": f"{TDM_NAMESPACE}:"}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The players' notices go out from a queue of their own: ``manage.py serve`` gives it a worker
# process of its own at the lowest priority (``tdmanager.celery.idle_once_ready``), so thousands of
# phones' notices take the core the desk's requests leave, never both, and never delay the
# clock's tasks. A worker started without ``-Q`` serves both queues.
CELERY_TASK_QUEUES = (Queue("celery", Exchange("celery"), routing_key="celery"), Queue("notices", Exchange("notices"), routing_key="notices"))
CELERY_TASK_ROUTES = {"tournaments.tasks.send_notices": {"queue": "notices"}, "tournaments.tasks.send_notice": {"queue": "notices"}}
# Periodic tasks go out at the lowest priority (on Redis 0 is the highest and the default, 9 the
# lowest): a beat that ran while no worker did leaves a backlog, and the clock's countdowns and a
# returning worker's clock catch-up (tournaments.tasks) are served before it.
TDM_PERIODIC_TASK_OPTIONS = {"priority": 9}
# Seconds between beat's looks for the players' notices that time alone brings (an event
# starting soon, a break ending): each look schedules those due before the next.
TDM_TIMED_NOTICES_SECONDS = 30.0
CELERY_BEAT_SCHEDULE = {
    # The clock safety net: overdue clocks advance within a second or two even if a
    # countdown task was lost, a worker restarted or Redis was flushed. A sweep not run
    # within 5 s is dropped (the next one does its work).
    "sweep-clocks": {"task": "tournaments.tasks.sweep_clocks", "schedule": 1.0, "options": {**TDM_PERIODIC_TASK_OPTIONS, "expires": 5.0}},
    # Heads-up matches: a no-show's seat is freed at the end of level 1, the bye given at the
    # end of the grace, final-day lateness forfeited (FMT-12), within a few seconds.
    "sweep-heads-up-matches": {"task": "tournaments.formats.tasks.sweep_heads_up_matches", "schedule": 5.0, "options": TDM_PERIODIC_TASK_OPTIONS},
    # The dealers' rotation: a room whose push is due (every ``push_minutes``) is pushed within a minute.
    "push-dealers": {"task": "seating.tasks.push_dealers", "schedule": 60.0, "options": {**TDM_PERIODIC_TASK_OPTIONS, "expires": 50.0}},
    # Starts waiting for free tables start within seconds of the tables' being free
    # (a table given back also sends the task at once).
    "start-waiting-events": {"task": "tournaments.tasks.start_waiting_events", "schedule": 10.0, "options": {**TDM_PERIODIC_TASK_OPTIONS, "expires": 9.0}},
    # Idempotency keys are kept TDM_IDEMPOTENCY_TTL_HOURS (at least a day), then forgotten.
    "purge-idempotency-keys": {"task": "tournaments.tasks.purge_idempotency_keys", "schedule": 3600.0, "options": TDM_PERIODIC_TASK_OPTIONS},
    # A sheet uploaded to be imported holds people's data: forgotten 50 minutes after its upload
    # (tournaments.imports.services.KEPT_FOR), so within the hour with this sweep every 10 minutes.
    "forget-import-files": {"task": "tournaments.tasks.forget_import_files", "schedule": 600.0, "options": TDM_PERIODIC_TASK_OPTIONS},
    # GDPR retention: people with no activity for TDM_PERSON_RETENTION_DAYS are erased (pseudonym kept), daily.
    "erase-inactive-people": {"task": "tournaments.tasks.erase_inactive_people", "schedule": 86400.0, "options": TDM_PERIODIC_TASK_OPTIONS},
    # A player's phone hears that the event starts soon, or that the break ends, at that moment:
    # each look schedules the moments before the next one (and tells any it missed).
    "tell-timed-players": {
        "task": "tournaments.tasks.tell_timed_players",
        "schedule": TDM_TIMED_NOTICES_SECONDS,
        "options": {**TDM_PERIODIC_TASK_OPTIONS, "expires": TDM_TIMED_NOTICES_SECONDS - 5},
    },
    # The phones of players whose last event is past the house's push_keep_days are forgotten, daily.
    "forget-old-push-subscriptions": {"task": "tournaments.tasks.forget_old_push_subscriptions", "schedule": 86400.0, "options": TDM_PERIODIC_TASK_OPTIONS},
}
# The Celery worker's nice level under ``manage.py serve`` (0-19; 0: the web server's own): its
# bursts of work yield the cores to the desk's requests (the notices' worker runs lower still:
# CELERY_TASK_QUEUES). The clock does not wait on the worker (its state is arithmetic).
TDM_WORKER_NICE = min(19, max(0, envint("TDM_WORKER_NICE", 10)))
TDM_ARM_CLOCK_TASKS = envbool("TDM_ARM_CLOCK_TASKS", "True")
TDM_IDEMPOTENCY_TTL_HOURS = max(24, envint("TDM_IDEMPOTENCY_TTL_HOURS", 48))
# Days a person with no activity (no entry, sale, payment or penalty) is kept before his personal
# data is erased (GDPR storage limitation). 3650: ten years, the longest the law asks a gaming venue
# to keep a customer's identification (anti-money-laundering, D.lgs. 231/2007 art. 31). 0: never.
TDM_PERSON_RETENTION_DAYS = max(0, envint("TDM_PERSON_RETENTION_DAYS", 3650))

# --- Players' notices (Web Push, docs/operating.md "Notices on the players' phones") ---------
# The push services a subscription's endpoint may name: hosts, a leading "*." for a domain's
# hosts. Over https only; a loopback host listed may be plain http (tests, benchmarks). A
# subscription elsewhere is refused, so a phone page cannot make the server call anything else.
TDM_PUSH_ENDPOINTS = envlist("TDM_PUSH_ENDPOINTS") or [
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "*.push.apple.com",
    "web.push.apple.com",
    "*.notify.windows.com",
]
# Seconds a push service has to take the connection, and then to answer one message (apart: a
# host that takes no connection is given up on sooner). A call that hangs holds its push
# service's lane of the worker, not the other push services' (docs/operating.md).
TDM_PUSH_CONNECT_TIMEOUT = max(1, envint("TDM_PUSH_CONNECT_TIMEOUT", 3))
TDM_PUSH_TIMEOUT = max(1, envint("TDM_PUSH_TIMEOUT", 5))
# The circuit per push service: after this many failures running (no answer, no connection, a
# 5xx) it is not called for TDM_PUSH_BREAKER_SECONDS; kept in the cache (Redis), so every worker
# process sees it. Its notices wait on the queue meanwhile.
TDM_PUSH_BREAKER_FAILURES = max(1, envint("TDM_PUSH_BREAKER_FAILURES", 3))
TDM_PUSH_BREAKER_SECONDS = max(1, envint("TDM_PUSH_BREAKER_SECONDS", 60))
# Push services a worker process sends to at once, each in a lane (a thread) of its own.
TDM_PUSH_THREADS = max(1, envint("TDM_PUSH_THREADS", 4))
# The VAPID "sub" claim: how a push service reaches the installation's operator (RFC 8292).
TDM_PUSH_CONTACT = os.getenv("TDM_PUSH_CONTACT", "mailto:admin@localhost")
# The notices are worked out by the worker after each change (tournaments.tasks.tell_players);
# off, nothing is sent (the subscriptions stay).
TDM_PUSH_TASKS = envbool("TDM_PUSH_TASKS", "True")
# Times a notice is tried again after no answer, a 429 or a 5xx (waits of 5, 10, 20 … seconds;
# a notice the circuit kept back waits for it and is not counted).
TDM_PUSH_RETRIES = max(0, envint("TDM_PUSH_RETRIES", 5))
# Notices a worker's task sends one after the other to one push service (a task per message
# cost more than the message; docs/benchmarks.md, push).
TDM_PUSH_BATCH = max(1, envint("TDM_PUSH_BATCH", 50))
# Notices a worker process sends a second at most (0: as fast as it can). Sending flat out takes
# a whole core; at this pace 5,000 phones hear "starts in 15 minutes" within about 15 s and the
# cores keep room for the desk's requests (docs/benchmarks.md, push).
TDM_PUSH_RATE = max(0, envint("TDM_PUSH_RATE", 400))

# --- Auth, i18n ------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = os.getenv("LANGUAGE_CODE", "en")
# The languages the product offers, in the order the pickers list them: the one list every page,
# screen, phone and notice reads. A language more is a catalogue under locale/<code> and a line
# here (docs/translating.md).
LANGUAGES = [("en", _("English")), ("it", _("Italian")), ("de", _("German")), ("es", _("Spanish")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Numbers, money and dates: Django's formats of each language, but where the rooms write otherwise
# (Spanish thousands "1.234,56"): tdmanager/localeformats/<code>/formats.py.
FORMAT_MODULE_PATH = ["tdmanager.localeformats"]
TIME_ZONE = os.getenv("TIME_ZONE", "Europe/Rome")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.getenv("TDM_STATIC_ROOT", VAR_DIR / "static"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Collected (tdmanager.staticbuild: by the launcher, the web app and the tests, whenever a source
# changed) under content-hashed names, each with its gzip twin: a page names ``tdm.3f9c….css``,
# which WhiteNoise sends compressed and cacheable for ever (a new version is a new name), so a
# TV on the venue's Wi-Fi loads it once. Brotli twins too when the ``brotli`` package is there.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG  # development: a changed source is served without collecting again

# --- API -------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # DRF's token authentication, the roles and the login's language read in the same query
        "tournaments.staff.languages.TokenInLoginLanguage",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # The API takes JSON, its depth bounded (a body of 1,000 "[" was a RecursionError). A form's
    # values are all text (no boolean, list or number as the schema types them): only the token
    # endpoint and a structure file's import take one.
    "DEFAULT_PARSER_CLASSES": ["tdmanager.jsonbody.BoundedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_PERMISSION_CLASSES": ["tdmanager.roles.HasRole"],  # who may call what: tdmanager.policy
    "DEFAULT_SCHEMA_CLASS": "tdmanager.schema.DocumentedSchema",
    "EXCEPTION_HANDLER": "tdmanager.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "tdmanager.api.BoundedLimitOffsetPagination",
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "tdmanager.negotiation.JsonFirstNegotiation",  # DRF's, a JSON call's answer found first
    "PAGE_SIZE": 100,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "TDManager API",
    "DESCRIPTION": "Poker tournament director management: cashier desk, seating, clock, payouts.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Docs assets are served from the installed sidecar package: no CDN needed.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two choice sets are called "method": how a player pays, and how a deal is computed.
    "ENUM_NAME_OVERRIDES": {
        "PaymentMethodEnum": "tournaments.models.LedgerRow.METHODS",
        "LedgerKindEnum": "tournaments.models.LedgerRow.KINDS",
        "DealMethodEnum": "payouts.models.Deal.METHODS",
    },
}

# --- House defaults (each tournament can override; see docs/house-rules.md) -----------
TDM_CASH_LIMIT = os.getenv("TDM_CASH_LIMIT", "2000.00")  # REG-06: cash per single operation
TDM_CASH_LIMIT_INCLUSIVE = envbool("TDM_CASH_LIMIT_INCLUSIVE", "False")  # False: refuse only > limit
TDM_CURRENCY = os.getenv("TDM_CURRENCY", "EUR")
# The ISO 4217 codes a tournament may be priced in (and a rate counted into): TDM_CURRENCY and these.
TDM_CURRENCIES = [c.upper() for c in envlist("TDM_CURRENCIES")]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals_without_traceback": {"()": "tdmanager.logfilters.RefusalsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals_without_traceback"]}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "WARNING")},
    # Locked-out logins and other security notices (tdmanager.security), kept at WARNING or above.
    "loggers": {"tdmanager.security": {"level": "WARNING"}},
}
