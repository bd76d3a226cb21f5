"""Cardhall settings: one module, driven by environment variables with embedded defaults.

Unset, everything runs in one process on a bare machine: SQLite, the in-memory channel
layer, the local-memory cache and eager Celery. See README.md for every variable.
"""

from pathlib import Path

import environ

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
    "django_htmx",
    "template_partials",
    "channels",
    "django_celery_beat",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "progression",
    "ratings",
    "banira",
    "inbox",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.overload.DatabaseOverloadMiddleware",  # database overloaded: 503, never 500
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"

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
                "games.context_processors.turns",
                "inbox.context_processors.unread",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
DATABASES["default"].setdefault("TEST", {})
# Concurrent HTTP requests per ASGI worker process, and how long one more may wait for a
# slot before it is answered 503 (config/overload.py). Websockets are not counted.
WEB_CONCURRENCY_LIMIT = env.int("WEB_CONCURRENCY_LIMIT", default=10)
WEB_QUEUE_SECONDS = env.float("WEB_QUEUE_SECONDS", default=2.0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL", default="")


def _next_redis_db(url: str) -> str:
    """The same Redis server, the next database number (redis://host:6379/0 -> /1)."""
    base, _, db = url.rstrip("/").rpartition("/")
    if not db.isdigit() or base.endswith(":/"):
        return url.rstrip("/") + "/1"
    return f"{base}/{int(db) + 1}"


# Redis connections per process are bounded by configuration, never by traffic
# (docs/operations.md, "Redis connections and health checks"): the cache shares one
# bounded pool per process; the channel layer has one bounded pool per event loop (the
# server's, and the one loop games.notifications sends from). A burst waits for a free
# connection (up to REDIS_POOL_TIMEOUT seconds) rather than opening more.
REDIS_CACHE_MAX_CONNECTIONS = env.int("REDIS_CACHE_MAX_CONNECTIONS", default=20)
REDIS_CHANNEL_MAX_CONNECTIONS = env.int("REDIS_CHANNEL_MAX_CONNECTIONS", default=20)
REDIS_POOL_TIMEOUT = env.float("REDIS_POOL_TIMEOUT", default=5.0)

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
                "socket_connect_timeout": 2,
                "socket_timeout": 2,
            },
        }
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.BoundedRedisChannelLayer",
            "CONFIG": {
                # redis-py 8 defaults socket_timeout to 5 s, which kills idle consumers
                # (channels_redis #422): the layer's blocking reads need None.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": None,
                        "socket_connect_timeout": 2,
                        "max_connections": REDIS_CHANNEL_MAX_CONNECTIONS,
                        "pool_timeout": REDIS_POOL_TIMEOUT,
                    }
                ],
                "capacity": 500,
                "expiry": 30,
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
ACCOUNT_RATE_LIMITS = {
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

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Sessions are read from the cache (every request reads one) and written through to the
# database, so a cache flush logs nobody out.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
}

# How long a player's own match page may wait before the socket push is backed by polling.
MATCH_POLL_SECONDS = env.int("MATCH_POLL_SECONDS", default=30)
# A table nobody joined is taken out of the lobby (and cancelled) after this many hours.
OPEN_TABLE_HOURS = env.int("OPEN_TABLE_HOURS", default=72)
