"""Cardhall settings: one module, driven by environment variables with embedded defaults.

Unset, everything runs in one process on a bare machine: SQLite, the in-memory channel
layer, the local-memory cache and eager Celery. See README.md for every variable.
"""

import ipaddress
import re
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from config.logs import REQUEST_ID_HEADER, logging_config
from config.redis_clients import reconnect_once
from config.sentry import sentry_init

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

SECRET_KEY = env("SECRET_KEY", default="dev-only-insecure-key-change-me-in-production-0123456789")
DEBUG = env.bool("DEBUG", default=True)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_guid",
    "django_htmx",
    "template_partials",
    "channels",
    "django_celery_beat",
    "csp",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "progression",
    "ratings",
    "banira",
    "arcana",
    "inbox",
    "social",
    "community",
    "ninja",  # the Bot API's framework: its docs page's templates and static files
    "botapi",
    "demo",  # manage.py demo_data only: seeds every app above, imported by none
]

MIDDLEWARE = [
    "django_guid.middleware.guid_middleware",  # the request id, first: every line carries it
    "config.after_response.AfterResponseMiddleware",  # what follows a change, after the answer
    "config.metrics.HttpMetricsMiddleware",  # counts every answer (docs/operations.md)
    "django.middleware.security.SecurityMiddleware",
    "config.overload.DatabaseOverloadMiddleware",  # database overloaded: 503, never 500
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",  # after WhiteNoise: pages get the policy, static files not
    "config.inputs.InputGuard",  # control characters: 400 with the policy (docs/security.md)
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "config.auth.CompiledAuthenticationMiddleware",  # Django's, the user's row read compiled
    "config.ratelimit.RateLimitMiddleware",  # every write, per user and per IP: 429
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "web.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # The usual loaders, and each board's own templates/ (games.boards.loaders).
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                                "games.boards.loaders.BoardTemplateLoader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.turns",
                "inbox.context_processors.unread",
            ],
        },
    },
]

WSGI_APPLICATION = "web.wsgi.application"
ASGI_APPLICATION = "web.asgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"].setdefault("OPTIONS", {})
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads (ASGI, eager tasks) share the file: wait for the lock, don't fail.
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Under ASGI every concurrent request holds a connection: a pool per process, sized
    # here, bounds them (docs/operations.md, "Sizing connections"). DB_POOL_MAX_SIZE=0
    # turns it off (one connection per request, e.g. behind PgBouncer).
    DB_POOL_MAX_SIZE = env.int("DB_POOL_MAX_SIZE", default=10)
    if DB_POOL_MAX_SIZE > 0:
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": min(env.int("DB_POOL_MIN_SIZE", default=1), DB_POOL_MAX_SIZE),
            "max_size": DB_POOL_MAX_SIZE,
            "timeout": env.float("DB_POOL_TIMEOUT", default=5.0),  # seconds to wait, then 503
        }
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them; Django must not
    # Prepared statements: a query run DB_PREPARE_THRESHOLD times on a connection is planned
    # once and then only executed. The lock of a move joins seven tables, and planning it
    # cost PostgreSQL 2.9 ms of its 3.6 (docs/benchmarks.md, issue 14, sixth pass). It
    # needs the parameters bound by the server, and connections that stay this process's:
    # on by default with the pool, off without it (PgBouncer in transaction mode gives the
    # next query another server connection). DB_PREPARE_THRESHOLD=0 turns it off.
    DB_PREPARE_THRESHOLD = env.int("DB_PREPARE_THRESHOLD", default=5 if DB_POOL_MAX_SIZE else 0)
    if DB_PREPARE_THRESHOLD > 0:
        DATABASES["default"]["OPTIONS"]["server_side_binding"] = True
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = DB_PREPARE_THRESHOLD
DATABASES["default"].setdefault("TEST", {})
# Concurrent HTTP requests per ASGI worker process, and how long one more may wait for a
# slot before it is answered 503 (config/overload.py). Websockets are not counted. The wait
# holds nothing, and a player would rather see a move land a few seconds late than a
# "busy" page: 2 s turned a full hall into 503s (the saturation run of the load benchmark,
# 200 players in a closed loop: 196), 10 s keeps a burst of that size queued.
WEB_CONCURRENCY_LIMIT = env.int("WEB_CONCURRENCY_LIMIT", default=10)
WEB_QUEUE_SECONDS = env.float("WEB_QUEUE_SECONDS", default=10.0)
# Python's cyclic garbage collector in an ASGI worker (web/asgi.py: gc.set_threshold). With
# its defaults (700, 10, 10) a worker holding 2,000 open sockets ran a full collection
# every few seconds, each stopping the event loop and the request thread for 100-540 ms:
# the long tails of the load benchmark with idle sockets (docs/benchmarks.md, ninth pass).
# Collecting the youngest objects after 20,000 allocations rather than 700 lets the
# short-lived ones (a request's, a render's) die first, so fewer reach the old generation
# and full collections all but stop. Empty: Python's defaults.
GC_THRESHOLDS = [int(value) for value in env.list("GC_THRESHOLDS", default=["20000", "20", "20"])]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL", default="")


def _redis_db(url: str) -> str:
    """The database number of a redis:// URL ("0" when it names none)."""
    db = urlsplit(url).path.strip("/")
    return db if db.isdigit() else "0"


def _next_redis_db(url: str) -> str:
    """The same Redis server, the next database number (redis://host:6379/0 -> /1)."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{int(_redis_db(url)) + 1}"))


# Redis connections per process are bounded by configuration, never by traffic
# (docs/operations.md, "Redis connections and health checks"): the cache shares one
# bounded pool per process; the channel layer has one bounded pool per event loop (the
# server's, and the one loop games.notifications sends from). A burst waits for a free
# connection (up to REDIS_POOL_TIMEOUT seconds) rather than opening more.
REDIS_CACHE_MAX_CONNECTIONS = env.int("REDIS_CACHE_MAX_CONNECTIONS", default=20)
REDIS_CHANNEL_MAX_CONNECTIONS = env.int("REDIS_CHANNEL_MAX_CONNECTIONS", default=20)
REDIS_POOL_TIMEOUT = env.float("REDIS_POOL_TIMEOUT", default=5.0)
# Seconds to connect to Redis and to get an answer (the channel layer's blocking receive
# excepted). Past it, the cache and the pushes go without Redis, logged once, and try it
# again every few seconds (docs/operations.md, "Outages").
REDIS_TIMEOUT = env.float("REDIS_TIMEOUT", default=1.0)

if REDIS_URL:
    # The cache gets its own Redis database: cache.clear() flushes its whole database,
    # which must never wipe the channel layer's group memberships.
    REDIS_CACHE_URL = env("REDIS_CACHE_URL", default=_next_redis_db(REDIS_URL))
    CACHES = {
        "default": {
            "BACKEND": "config.cache.SharedRedisCache",  # one client per process (ASGI)
            "LOCATION": REDIS_CACHE_URL,
            "OPTIONS": {
                "pool_class": "redis.BlockingConnectionPool",
                "max_connections": REDIS_CACHE_MAX_CONNECTIONS,
                "timeout": REDIS_POOL_TIMEOUT,  # waiting for a free connection
                "socket_connect_timeout": REDIS_TIMEOUT,
                "socket_timeout": REDIS_TIMEOUT,
                # No CLIENT SETINFO on connect: saves a round trip per new connection and
                # redis-py's package-metadata lookup (a measurable share of a busy worker).
                "driver_info": None,
                # One reconnect after a connection error: a pooled connection goes stale
                # when Redis restarts (config.redis_clients).
                "retry": reconnect_once(),
            },
        }
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.PubSubChannelLayer",
            "CONFIG": {
                # redis-py 8 defaults socket_timeout to 5 s, which would drop the idle
                # listening connection (channels_redis #422): its reads wait their own time.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": None,
                        "socket_connect_timeout": REDIS_TIMEOUT,
                        "max_connections": REDIS_CHANNEL_MAX_CONNECTIONS,
                        "pool_timeout": REDIS_POOL_TIMEOUT,
                        "driver_info": None,  # as the cache's: no CLIENT SETINFO
                    }
                ],
                # Pub/sub channels are server-wide, not per database: sites and test runs
                # sharing a Redis are kept apart by this prefix (by default, the database's
                # number of REDIS_URL, as the core layer was kept apart by the database).
                "prefix": env("CHANNEL_LAYER_PREFIX", default=f"cardhall{_redis_db(REDIS_URL)}."),
                "capacity": 500,  # messages waiting per socket
                "timeout": REDIS_TIMEOUT,  # each send
                "group_timeout": REDIS_TIMEOUT + REDIS_POOL_TIMEOUT,  # each join and leave
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Celery: eager in-process without a broker, so the embedded default is one process.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Outages (docs/operations.md, "Outages"). A task is acknowledged only once it has run
# (acks_late). Kombu's Redis transport keeps a delivered, unacknowledged task in its
# "unacked" set; if the worker dies without acknowledging (kill -9, a lost machine), the
# task stays there until it is older than the visibility timeout, when a live worker's
# restore sweep (every CELERY_UNACKED_RESTORE_SECONDS) puts it back at the head of its
# queue. So a killed worker's task runs again CELERY_VISIBILITY_TIMEOUT (plus at most one
# sweep interval) after it was first delivered. A worker process that dies while its
# parent lives is quicker: reject_on_worker_lost requeues its task at once. The timeout
# must exceed the longest task (a slower one would be delivered twice; ours are idempotent,
# so that costs time, not correctness) and any countdown (none is used).
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=300)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": env.int("CELERY_UNACKED_RESTORE_SECONDS", default=10),
    "unacked_restore_throttle": 1,  # sweep at every interval (kombu's default: every 10th)
    "socket_connect_timeout": REDIS_TIMEOUT,
    "socket_timeout": env.float("CELERY_BROKER_TIMEOUT", default=3.0),  # a publish, an ack
}
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT
CELERY_BROKER_CONNECTION_MAX_RETRIES = None  # a worker waits for its broker, however long
# Sending a task while the broker is down: one quick retry (a connection gone stale since a
# broker restart), then config.celery_app goes without it and the sweepers catch up.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# An AI seat that has been to act this long has lost its task (a broker outage, a killed
# worker): games.tasks.sweep_automation sends it again.
AUTOMATION_STALL_SECONDS = env.int("AUTOMATION_STALL_SECONDS", default=30)
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = "UTC"
from config.schedules import CELERY_BEAT_SCHEDULE  # noqa: E402,F401

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if env.bool("FAST_PASSWORD_HASHER", default=False):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# allauth: username or email to log in; email needed for password resets.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_RATE_LIMITS: dict[str, str] | bool = {
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "change_password": "5/m/user",
}
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "/accounts/login/"

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Cardhall <noreply@cardhall.example>")
# The site's address, for links in emails (which have no request to build them from).
SITE_URL = env("SITE_URL", default="http://localhost:8000").rstrip("/")

# Web Push (docs/notifications.md, "Web Push and the app"): the VAPID key pair that signs
# every push, from `manage.py vapid_keys`. Without both keys push is off and the
# notification settings page says so. The subject is a mailto: or https: URL the push
# services may contact. WEBPUSH_ALLOW_LOCALHOST lets a subscription's endpoint be plain
# http on localhost (the tests' own push service); never in production.
WEBPUSH_VAPID_PUBLIC_KEY = env("WEBPUSH_VAPID_PUBLIC_KEY", default="")
WEBPUSH_VAPID_PRIVATE_KEY = env("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_VAPID_SUBJECT = env("WEBPUSH_VAPID_SUBJECT", default="mailto:admin@cardhall.example")
WEBPUSH_ALLOW_LOCALHOST = env.bool("WEBPUSH_ALLOW_LOCALHOST", default=False)
WEBPUSH_TIMEOUT = env.float("WEBPUSH_TIMEOUT", default=5.0)  # seconds per push service call

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "games.boards.finders.BoardStaticFinder",  # each board's own static/
]
# Uploaded files (cosmetic art, docs/operations-admin.md): the local media folder, or any
# django-storages backend (e.g. MEDIA_STORAGE=storages.backends.s3.S3Storage, its AWS_* vars).
MEDIA_URL = env("MEDIA_URL", default="/media/")
MEDIA_ROOT = env("MEDIA_ROOT", default=str(BASE_DIR / "media"))
STORAGES = {
    "default": {
        "BACKEND": env("MEDIA_STORAGE", default="django.core.files.storage.FileSystemStorage")
    },
    "staticfiles": {
        "BACKEND": "config.storage.StaticStorage"  # whitenoise's, URLs remembered
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Sessions are read from the cache (every request reads one) and written through to the
# database, so a cache flush logs nobody out.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# HTTPS (docs/security.md). With DEBUG=0 the site is HTTPS only: HSTS, a redirect from
# plain HTTP, cookies sent over HTTPS only. SECURE_HTTPS=0 turns all of it off for
# plain-HTTP setups (the live test servers, the load benchmark, `make run`).
SECURE_HTTPS = env.bool("SECURE_HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = SECURE_HTTPS
SECURE_REDIRECT_EXEMPT = [r"^healthz(/live)?$"]  # load balancers probe over plain HTTP
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if SECURE_HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE_HTTPS
# Behind a proxy that ends TLS: the header it sets, "X-Forwarded-Proto" (meaning "https")
# or "Name=value". Only where the proxy always sets or strips it: anyone can send it.
if env("SECURE_PROXY_SSL_HEADER", default=""):
    _header, _, _value = env("SECURE_PROXY_SSL_HEADER").partition("=")
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + _header.strip().upper().replace("-", "_"),
        _value.strip() or "https",
    )
# The client's address behind proxies, for the rate limits (allauth's and ours).
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = env("TRUSTED_CLIENT_IP_HEADER", default="") or None

# Content-Security-Policy (django-csp): scripts and style sheets from this site only, no
# inline script (none in the templates; htmx's eval and injected styles are off in
# base.html's htmx-config). Inline style *attributes* are allowed (card art and bars set
# CSS variables and widths in them); <style> elements are not. CSP_REPORT_ONLY=1 sends
# the policy as report-only (the browser logs what it would block; Django's debug pages
# use inline script and style).
_CSP = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],  # older browsers: attributes need it
        "style-src-elem": ["'self'"],  # CSP 3: <style> and style sheets from here only
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],  # the match and inbox sockets are same-origin
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "report-uri": ["/csp-report"],  # what browsers blocked, logged (config/csp_reports.py)
    }
}
if env.bool("CSP_REPORT_ONLY", default=False):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _CSP
else:
    CONTENT_SECURITY_POLICY = _CSP

# Rate limits on every write (config/ratelimit.py, docs/security.md): "<count>/<period>"
# per user and per client IP for each group, from RATE_LIMIT_<GROUP>_USER / _IP; an empty
# value turns that one off, RATELIMIT_ENABLE=0 all of them. Sized so that a fast player
# never meets them (a move a second for minutes is half the move limit), while many
# players behind one address (a school, a café, a carrier's NAT) share the IP's.
RATELIMIT_ENABLE = env.bool("RATELIMIT_ENABLE", default=True)
if not RATELIMIT_ENABLE:  # all of them: allauth's login, signup and reset limits too
    ACCOUNT_RATE_LIMITS = False
RATELIMIT_FAIL_OPEN = True  # a cache that does not answer lets requests through
_RATE_DEFAULTS = {
    "move": ("120/m", "600/m"),  # moves
    "preview": ("300/m", "1500/m"),  # the action bar for a card selection (GET)
    "start": ("30/m", "120/m"),  # new matches, joins, rematches, tutorials, runs
    "verify": ("12/m", "30/m"),  # /verify/ replays a pasted log
    "report": ("60/m", "300/m"),  # CSP reports: a browser's, apart from its player's writes
    "write": ("120/m", "600/m"),  # every other unsafe request
}


def _rate(name: str, default: str) -> str:
    rate = env(name, default=default).strip()
    if rate and not re.fullmatch(r"\d+/\d*[smhd]", rate):
        raise ImproperlyConfigured(f'{name}="{rate}": a rate is "<count>/<period>", e.g. 120/m')
    return rate


RATE_LIMITS = {
    group: {
        "user": _rate(f"RATE_LIMIT_{group.upper()}_USER", user),
        "ip": _rate(f"RATE_LIMIT_{group.upper()}_IP", ip),
    }
    for group, (user, ip) in _RATE_DEFAULTS.items()
}

# Logs, metrics and Sentry (docs/operations.md, "Logs, metrics and alerts"). Every line
# carries the request id: a well-formed X-Request-ID (a UUID, as the proxy sets it) or a
# new one, echoed in the response and handed to the tasks the request enqueues.
LOG_FORMAT = env("LOG_FORMAT", default="text" if DEBUG else "json")  # JSON lines in production
LOGGING = logging_config(fmt=LOG_FORMAT, level=env("LOG_LEVEL", default="INFO"))
DJANGO_GUID = {
    "GUID_HEADER_NAME": REQUEST_ID_HEADER,
    "VALIDATE_GUID": True,  # only a UUID is taken from the request
    "EXPOSE_HEADER": False,  # no CORS here
}
# GET /metrics is closed until one of these is set; both set, both are needed.
METRICS_TOKEN = env("METRICS_TOKEN", default="")  # scrapes send "Authorization: Bearer <it>"
try:
    METRICS_ALLOWED_NETWORKS = [  # e.g. 10.0.0.0/8,127.0.0.1
        str(ipaddress.ip_network(network, strict=False))
        for network in env.list("METRICS_ALLOWED_NETWORKS", default=[])
    ]
except ValueError as error:
    raise ImproperlyConfigured(f"METRICS_ALLOWED_NETWORKS: {error}") from None
SECURE_REDIRECT_EXEMPT = [*SECURE_REDIRECT_EXEMPT, r"^metrics$"]  # scraped over plain HTTP
# Off unless set: nothing is sent anywhere.
SENTRY_DSN = env("SENTRY_DSN", default="")
if SENTRY_DSN:
    sentry_init(
        dsn=SENTRY_DSN,
        environment=env("SENTRY_ENVIRONMENT", default="production"),
        release=env("SENTRY_RELEASE", default=""),
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
    )

# The Bot API's streams send an empty line after this many seconds without a change, so that
# proxies and clients do not take an idle stream for a dead one (docs/bot-api.md, "Streams").
BOTAPI_STREAM_KEEPALIVE = env.float("BOTAPI_STREAM_KEEPALIVE", default=5.0)
# How long a player's own match page may wait before the socket push is backed by polling.
MATCH_POLL_SECONDS = env.int("MATCH_POLL_SECONDS", default=30)
# A table nobody joined is taken out of the lobby (and cancelled) after this many hours.
OPEN_TABLE_HOURS = env.int("OPEN_TABLE_HOURS", default=72)
