"""Django settings for Easy Harp Daily.

This is the only settings module. Everything that differs between a laptop, CI and
production comes from environment variables, read through the small typed helpers
below. A helper that meets a value it cannot parse raises ImproperlyConfigured at
import time, so a typo in the environment stops the process instead of silently
falling back to a default.

There is one stack everywhere: PostgreSQL (DATABASE_URL), Redis (REDIS_URL) as the cache
and the Celery broker, and a Celery worker. The defaults point at a local PostgreSQL and Redis.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from whitenoise import compress as whitenoise_compress

BASE_DIR = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------------------
# Typed environment helpers
# --------------------------------------------------------------------------------------

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
_MISSING = object()


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    env = os.environ if environ is None else environ
    return env.get(name)


def env_str(name: str, default=_MISSING, *, environ: Mapping[str, str] | None = None) -> str:
    """The variable as a string (an empty string is a value). Required when no default."""
    value = _raw(name, environ)
    if value is None:
        if default is _MISSING:
            raise ImproperlyConfigured(f"Environment variable {name} is required but not set.")
        return default
    return value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """1/true/yes/on or 0/false/no/off (any case). Unset or empty means the default."""
    value = _raw(name, environ)
    if value is None or value.strip() == "":
        return default
    normalised = value.strip().lower()
    if normalised in _TRUE:
        return True
    if normalised in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"Environment variable {name}={value!r} is not a boolean (use one of {sorted(_TRUE)} or {sorted(_FALSE)})."
    )


def env_int(
    name: str,
    default: int,
    *,
    min_value: int | None = None,
    max_value: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """A base-10 integer, optionally bounded. Unset or empty means the default."""
    value = _raw(name, environ)
    if value is None or value.strip() == "":
        result = default
    else:
        try:
            result = int(value.strip(), 10)
        except ValueError:
            raise ImproperlyConfigured(f"Environment variable {name}={value!r} is not an integer.") from None
    if min_value is not None and result < min_value:
        raise ImproperlyConfigured(f"Environment variable {name}={result} is below {min_value}.")
    if max_value is not None and result > max_value:
        raise ImproperlyConfigured(f"Environment variable {name}={result} is above {max_value}.")
    return result


def env_float(
    name: str,
    default: float,
    *,
    min_value: float | None = None,
    environ: Mapping[str, str] | None = None,
) -> float:
    """A decimal number, optionally bounded below. Unset or empty means the default."""
    value = _raw(name, environ)
    if value is None or value.strip() == "":
        result = float(default)
    else:
        try:
            result = float(value.strip())
        except ValueError:
            raise ImproperlyConfigured(f"Environment variable {name}={value!r} is not a number.") from None
        if result != result or result in (float("inf"), float("-inf")):
            raise ImproperlyConfigured(f"Environment variable {name}={value!r} is not a finite number.")
    if min_value is not None and result < min_value:
        raise ImproperlyConfigured(f"Environment variable {name}={result} is below {min_value}.")
    return result


def env_list(
    name: str, default: list[str] | tuple[str, ...] = (), *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list; items are stripped. Unset means the default, empty means [].

    An empty item between commas ("a,,b") is refused: it is almost always a typo.
    """
    value = _raw(name, environ)
    if value is None:
        return list(default)
    if value.strip() == "":
        return []
    items = [item.strip() for item in value.split(",")]
    if any(item == "" for item in items):
        raise ImproperlyConfigured(
            f"Environment variable {name}={value!r} has an empty item in its comma-separated list."
        )
    return items


# --------------------------------------------------------------------------------------
# Core
# --------------------------------------------------------------------------------------

DEBUG = env_bool("DJANGO_DEBUG", True)

_DEV_SECRET_KEY = "django-insecure-dev-only-easy-harp-daily-never-use-this-in-production"
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "") or _DEV_SECRET_KEY
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")

# Secret that derives the deal number of each day's daily deal (leaderboard app).
_DEV_DAILY_DEAL_SECRET = "dev-only-daily-deal-secret"
DAILY_DEAL_SECRET = env_str("DAILY_DEAL_SECRET", "") or _DEV_DAILY_DEAL_SECRET
if not DEBUG and DAILY_DEAL_SECRET == _DEV_DAILY_DEAL_SECRET:
    raise ImproperlyConfigured("DAILY_DEAL_SECRET must be set when DJANGO_DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DJANGO_DEBUG is off.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    # Kept beside SESSION_ENGINE's own table: its clearsessions clears that table's expired rows,
    # and its old table is what migration 0018 copies from (and what a rollback reads again).
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    # Swagger UI's files served from the project (no CDN), under the CSP below.
    "drf_spectacular_sidecar",
    # The admin's log-in lock-out (the "Security" block below).
    "axes",
    # Passkeys (WebAuthn): django-otp's devices, django-otp-webauthn's passkey device and views.
    "django_otp",
    "django_otp_webauthn",
    # The engine: a plain package with no apps.py on purpose (it must not import Django).
    "games",
    "leaderboard",
    "frontend",
]

# The middleware that shapes every answer, a board read's answered early included
# (config/middleware.py).
ANSWER_MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The page's language: the language switch's cookie, else Accept-Language (before anything
    # that writes words; Django's LocaleMiddleware, less its URL prefixes: config/middleware.py).
    "config.middleware.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
MIDDLEWARE = [
    # First: counts and times every request as a whole (config/metrics.py).
    "config.metrics.RequestMetricsMiddleware",
    # Then: every response, a redirect or an error too, names its request (X-Request-ID), and
    # every log line written while it runs carries the id (config/requestid.py).
    "config.requestid.RequestIdMiddleware",
    # A board read answered from one Redis round trip stops here, ANSWER_MIDDLEWARE's hooks
    # run on it (config/middleware.py).
    "config.middleware.LiveReadMiddleware",
    *ANSWER_MIDDLEWARE,
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): a passkey used in this session (django-otp).
    "django_otp.middleware.OTPMiddleware",
    # Django's messages and django-csp's policy, neither on the API's JSON answers (config/middleware.py).
    "config.middleware.PageMessageMiddleware",
    "config.middleware.PagePolicyMiddleware",
    # Last: it turns the lock-out that axes' backend signals into the 429 page.
    "axes.middleware.AxesMiddleware",
]

# Django's database sessions, each stored under its account (leaderboard/accounts/sessions.py):
# a new password ends an account's other sessions by one indexed DELETE, not by decoding all.
SESSION_ENGINE = "leaderboard.accounts.sessions"

AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out admin log-in before the password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # A log-in with a passkey and no password (django-otp-webauthn's passwordless log-in).
    "django_otp_webauthn.backends.WebAuthnBackend",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --------------------------------------------------------------------------------------
# Database: PostgreSQL only (the hot paths are plain PostgreSQL SQL, leaderboard/core/sql.py).
# --------------------------------------------------------------------------------------

DATABASE_URL = env_str("DATABASE_URL", "") or "postgres://postgres@127.0.0.1:5432/easyharp"
if not DATABASE_URL.startswith(("postgres://", "postgresql://")):
    raise ImproperlyConfigured(f"DATABASE_URL={DATABASE_URL!r} is not a postgres:// URL.")
try:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0, min_value=0),
            conn_health_checks=True,
        )
    }
except ValueError as exc:  # unparseable URL
    raise ImproperlyConfigured(f"DATABASE_URL is not a usable database URL: {exc}") from None
# The password apart from the URL (compose passes POSTGRES_PASSWORD so): any character, no
# URL-encoding. Set, it replaces the URL's own.
if env_str("DATABASE_PASSWORD", ""):
    DATABASES["default"]["PASSWORD"] = env_str("DATABASE_PASSWORD")
# Server-side binding: parameters travel apart from the SQL, so psycopg can prepare a statement
# run DATABASE_PREPARE_THRESHOLD times on a connection and PostgreSQL stops planning it afresh
# (Django's default inlines every parameter, the 2 kB log included, and prepares nothing). It
# pays only on kept connections (DATABASE_CONN_MAX_AGE > 0, docker-compose: 60; the worker's
# CELERY_DB_REUSE_MAX). It rules out a transaction-mode pooler in front of PostgreSQL (PgBouncer's
# pool_mode=transaction before 1.21 without max_prepared_statements): a statement prepared on one
# server connection is not there on the next. Such a deployment sets DATABASE_SERVER_SIDE_BINDING=0.
if env_bool("DATABASE_SERVER_SIDE_BINDING", True):
    DATABASES["default"]["OPTIONS"] = {
        **DATABASES["default"].get("OPTIONS", {}),
        "server_side_binding": True,
        "prepare_threshold": env_int("DATABASE_PREPARE_THRESHOLD", 2, min_value=0),
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --------------------------------------------------------------------------------------
# Redis: broker, cache and ranking index, one connection pool (django-redis) for the last two.
# --------------------------------------------------------------------------------------

REDIS_URL = env_str("REDIS_URL", "") or "redis://127.0.0.1:6379/0"
if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"REDIS_URL={REDIS_URL!r} is not a redis://, rediss:// or unix:// URL.")

CACHES = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "OPTIONS": {
            # The cache is an optimisation: a player must still be able to submit while Redis
            # is down, so a failed cache call answers as a miss (logged, below).
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": 0.5,
            # The ranking index shares this pool (leaderboard/boards/index.py). Its slowest reply in
            # a million-entry rebuild is one 1,000-entry script, 17-20 ms in Redis (pipelines of
            # 20 are read reply by reply), and dropping that board (UNLINK) 3 ms: the cache's 1 s
            # suits both. (DEL of that board blocked Redis 2.0 s, hence UNLINK.)
            "SOCKET_TIMEOUT": 1,
            "PARSER_CLASS": "redis.connection._HiredisParser",
            # Ping a connection idle for 30 s before using it (one Redis restarted meanwhile).
            "CONNECTION_POOL_KWARGS": {"health_check_interval": 30},
        },
        "KEY_PREFIX": "easyharp",
    }
}
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

# --------------------------------------------------------------------------------------
# Celery (read by config/celery.py through the CELERY_ namespace)
# --------------------------------------------------------------------------------------

# Tasks always go through the broker to a worker: nothing runs them in-process.
CELERY_BROKER_URL = REDIS_URL
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Keep the worker's database connection between tasks: without this, Celery's Django fixup
# closes it around every task and each verification opens a new PostgreSQL connection. The
# connection then lives as a web request's does: DATABASE_CONN_MAX_AGE and the health check
# before each task (config/celery.py). 0 closes it after every task.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000, min_value=0)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 60, min_value=1)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 90, min_value=1)
if CELERY_TASK_TIME_LIMIT <= CELERY_TASK_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured(
        "CELERY_TASK_TIME_LIMIT must be greater than CELERY_TASK_SOFT_TIME_LIMIT "
        f"({CELERY_TASK_TIME_LIMIT} <= {CELERY_TASK_SOFT_TIME_LIMIT})."
    )
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
# Don't hold a request when the broker is down: the row is stored, beat re-queues it.
CELERY_TASK_PUBLISH_RETRY = False
# max_retries 0: a publish whose broker is down fails at once (kombu's default retries for
# about 6 s, holding the request). The worker's own reconnection has its own retry settings.
# ack_emulation off: a fetched message leaves the queue, instead of a copy also being kept in
# Redis until the task ends (two more round trips per task and a periodic sweep), a copy that
# came back only after visibility_timeout (an hour). What a killed worker held is found by beat
# instead, as it already was well within that hour: requeue_stale queues again a submission left
# pending (STALE_PENDING_SECONDS) or verifying (STALE_VERIFYING_SECONDS).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 1,
    "socket_timeout": 5,
    "max_retries": 0,
    "ack_emulation": False,
}
CELERY_BEAT_SCHEDULE = {
    "requeue-stale-submissions": {"task": "leaderboard.tasks.requeue_stale_submissions", "schedule": 15.0},
    "prepare-daily-deals": {"task": "leaderboard.tasks.prepare_daily_deals", "schedule": 3600.0},
    "reconcile-boards": {"task": "leaderboard.tasks.reconcile_boards", "schedule": 60.0},
    "freeze-days": {"task": "leaderboard.tasks.freeze_days", "schedule": 600.0},
    "evict-idle-boards": {"task": "leaderboard.tasks.evict_idle_boards", "schedule": 3600.0},
    "create-partitions": {"task": "leaderboard.tasks.create_partitions", "schedule": 86400.0},
    "submit-unfinished-dailies": {"task": "leaderboard.tasks.submit_unfinished_dailies", "schedule": 60.0},
    "forget-guests": {"task": "leaderboard.tasks.forget_guests", "schedule": 3600.0},
    "forget-origins": {"task": "leaderboard.tasks.forget_origins", "schedule": 86400.0},
    "forget-expired-sessions": {"task": "leaderboard.tasks.forget_expired_sessions", "schedule": 86400.0},
    "requeue-unsent-mail": {"task": "leaderboard.tasks.requeue_unsent_mail", "schedule": 60.0},
    # A deleted account's erasure from the archived months, while pending (history/services/erasure.py).
    "requeue-archive-erasures": {"task": "leaderboard.tasks.requeue_archive_erasures", "schedule": 3600.0},
}

# --------------------------------------------------------------------------------------
# The game service (leaderboard app)
# --------------------------------------------------------------------------------------

# The solver's node budget that proves a daily deal winnable (deterministic on any machine).
DAILY_SOLVER_NODES = env_int("DAILY_SOLVER_NODES", 30_000, min_value=1)
HINT_SOLVER_NODES = env_int("HINT_SOLVER_NODES", 5_000, min_value=1)
SUBMISSION_MAX_BYTES = env_int("SUBMISSION_MAX_BYTES", 1_048_576, min_value=1024)
SUBMISSION_MAX_ACTIONS = env_int("SUBMISSION_MAX_ACTIONS", 50_000, min_value=1)
DATA_UPLOAD_MAX_MEMORY_SIZE = SUBMISSION_MAX_BYTES
# Plausibility: faster than this, by the server's clock, is flagged for staff review.
MAX_ACTIONS_PER_SECOND = env_int("MAX_ACTIONS_PER_SECOND", 10, min_value=1)
# A daily submission is accepted until the day's close (midnight UTC) plus this grace; the
# day's solution and every player's log of it are public from then on.
DAILY_GRACE_SECONDS = env_int("DAILY_GRACE_SECONDS", 900, min_value=0)
# An unclaimed guest player with no attempt started for this many days is deleted, with its
# games (beat, hourly: leaderboard/accounts/guests.py); its browser's session lasts as long.
GUEST_KEEP_DAYS = env_int("GUEST_KEEP_DAYS", 30, min_value=1)
# A numbered deal's Redis index with no write for this many days is dropped (beat); the next
# reader rebuilds it from PostgreSQL (leaderboard/boards/services/idle.py).
BOARD_IDLE_DAYS = env_int("BOARD_IDLE_DAYS", 7, min_value=1)
# The monthly partitions of attempts and submissions that beat keeps ahead of the current month
# (leaderboard/history/services/partitions.py, docs/partitions.md).
PARTITION_MONTHS_AHEAD = env_int("PARTITION_MONTHS_AHEAD", 3, min_value=1)
# Where manage.py archive_month writes a closed month's games (docs/partitions.md).
# By default in make run's git-ignored data folder (config.paths.data_dir: EASYHARP_DATA_DIR or .local).
from config.paths import data_dir as _data_dir  # noqa: E402 (the standard library only)

ARCHIVE_DIR = Path(env_str("ARCHIVE_DIR", "") or _data_dir() / "archive").resolve()
# A player's first this many attempts at a day's deal are ranked; later ones are practice.
DAILY_RANKED_ATTEMPTS = env_int("DAILY_RANKED_ATTEMPTS", 1, min_value=1)
# Who is behind an attempt (leaderboard.play.services.origin; docs/fair-play.md): the key of the
# hashes of addresses and device cookies (else SECRET_KEY), how long they are kept, the windows
# in which another account's ranked try links a new one, the device cookie's life.
ORIGIN_HASH_SECRET = env_str("ORIGIN_HASH_SECRET", "") or SECRET_KEY
ORIGIN_KEEP_DAYS = env_int("ORIGIN_KEEP_DAYS", 30, min_value=1)
ORIGIN_DEVICE_WINDOW_SECONDS = env_int("ORIGIN_DEVICE_WINDOW_SECONDS", 3600, min_value=0)
ORIGIN_ADDRESS_WINDOW_SECONDS = env_int("ORIGIN_ADDRESS_WINDOW_SECONDS", 600, min_value=0)
DEVICE_COOKIE_DAYS = env_int("DEVICE_COOKIE_DAYS", 400, min_value=1)
# How far a submission's last action time may pass the server's duration (network, clock drift).
TIMES_SLACK_MS = env_int("TIMES_SLACK_MS", 2000, min_value=0)
# The tempo rules' thresholds (leaderboard.play.tempo.TempoRules,
# submissions.verification.tempo_rules; docs/fair-play.md).
TEMPO_MIN_ACTIONS = env_int("TEMPO_MIN_ACTIONS", 50, min_value=1)
TEMPO_MIN_MEDIAN_MS = env_float("TEMPO_MIN_MEDIAN_MS", 150, min_value=0)
TEMPO_MAX_FAST_SHARE = env_float("TEMPO_MAX_FAST_SHARE", 0.25, min_value=0)
TEMPO_MIN_SPREAD = env_float("TEMPO_MIN_SPREAD", 1.5, min_value=0)
TEMPO_PAUSE_MIN_ACTIONS = env_int("TEMPO_PAUSE_MIN_ACTIONS", 200, min_value=1)
TEMPO_MIN_PAUSES_PER_100 = env_float("TEMPO_MIN_PAUSES_PER_100", 0.5, min_value=0)
# pace_ignores_moves below this correlation of think time with card moves (tempo.difficulty_follow).
TEMPO_MIN_DIFFICULTY_FOLLOW = env_float("TEMPO_MIN_DIFFICULTY_FOLLOW", 0.4)
# Near-copies (leaderboard.play.copies; docs/fair-play.md): the Jaccard index of two canonical
# lines' shingles from which the later is a near-copy, the shortest line compared, and how long
# the Redis index keeps a deal's lines.
NEAR_COPY_JACCARD = env_float("NEAR_COPY_JACCARD", 0.8, min_value=0)
NEAR_COPY_MIN_ACTIONS = env_int("NEAR_COPY_MIN_ACTIONS", 50, min_value=1)
NEAR_COPY_INDEX_SECONDS = env_int("NEAR_COPY_INDEX_SECONDS", 3 * 86400, min_value=60)
# The engine match (leaderboard.play.engine_match; docs/fair-play.md).
ENGINE_MATCH_SHARE = env_float("ENGINE_MATCH_SHARE", 0.8, min_value=0)
ENGINE_MOVES_FACTOR = env_float("ENGINE_MOVES_FACTOR", 1.1, min_value=0)
ENGINE_DAY_MIN_WINS = env_int("ENGINE_DAY_MIN_WINS", 100, min_value=1)
ENGINE_DAY_MEDIAN_SHARE = env_float("ENGINE_DAY_MEDIAN_SHARE", 0.5, min_value=0)
ENGINE_STREAK_DAYS = env_int("ENGINE_STREAK_DAYS", 7, min_value=1)
ENGINE_STREAK_WINS = env_int("ENGINE_STREAK_WINS", 4, min_value=1)
ENGINE_STREAK_FACTOR = env_float("ENGINE_STREAK_FACTOR", 1.2, min_value=0)
# Beat re-queues pending rows older than this, and claims older than the hard time limit.
STALE_PENDING_SECONDS = env_int("STALE_PENDING_SECONDS", 30, min_value=1)
STALE_VERIFYING_SECONDS = env_int("STALE_VERIFYING_SECONDS", CELERY_TASK_TIME_LIMIT + 30, min_value=1)
BOARD_PAGE_SIZE = env_int("BOARD_PAGE_SIZE", 50, min_value=1)
BOARD_MAX_PAGE_SIZE = env_int("BOARD_MAX_PAGE_SIZE", 100, min_value=1)

# --------------------------------------------------------------------------------------
# Metrics (config/metrics.py; README, "Metrics")
# --------------------------------------------------------------------------------------

# The bearer token /metrics asks for; unset or empty, /metrics answers 404.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
# prometheus-client's multiprocess mode: the folder where every process of the host (gunicorn's
# workers, Celery's pool) keeps its values for /metrics to sum, emptied before they start. Unset:
# each process serves its own (runserver, tests). prometheus-client reads the variable itself.
PROMETHEUS_MULTIPROC_DIR = env_str("PROMETHEUS_MULTIPROC_DIR", "")
if PROMETHEUS_MULTIPROC_DIR and not Path(PROMETHEUS_MULTIPROC_DIR).is_dir():
    raise ImproperlyConfigured(f"PROMETHEUS_MULTIPROC_DIR={PROMETHEUS_MULTIPROC_DIR!r} is not a directory.")

# --------------------------------------------------------------------------------------
# Django REST Framework and the OpenAPI schema
# --------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: its WWW-Authenticate header makes "not logged in" a 401, not a 403.
        # DRF's TokenAuthentication with the lookup cached (leaderboard/accounts/authentication.py).
        "leaderboard.accounts.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PARSER_CLASSES": ["leaderboard.api.errors.SafeJSONParser"],
    "EXCEPTION_HANDLER": "leaderboard.api.errors.api_exception_handler",
    # DRF's scoped rates counted in a fixed window with one Redis INCR (leaderboard/api/throttling.py).
    "DEFAULT_THROTTLE_CLASSES": ["leaderboard.api.throttling.ScopedCountThrottle"],
    # Proxies in front that append the client's address to X-Forwarded-For: the throttles
    # count the address the nearest one saw. Unset, DRF would take the whole header as the
    # client wrote it, and a forged header would get past every per-address throttle.
    "NUM_PROXIES": env_int("DJANGO_NUM_PROXIES", 0 if DEBUG else 1, min_value=0),
    "DEFAULT_THROTTLE_RATES": {
        "login": env_str("THROTTLE_LOGIN", "30/minute"),
        "submission": env_str("THROTTLE_SUBMISSION", "60/minute"),
        "hint": env_str("THROTTLE_HINT", "60/minute"),
        "attempt": env_str("THROTTLE_ATTEMPT", "30/minute"),
        "draft": env_str("THROTTLE_DRAFT", "20/minute"),
        # Mails a person can make the site send: confirmations, password resets (per address).
        "account_mail": env_str("THROTTLE_ACCOUNT_MAIL", "5/hour"),
    },
}

# Sign-ups per address block (an IPv4 address, an IPv6 /64) in any hour and any day, in a
# sliding window (leaderboard.api.throttling.SignupThrottle), guest players included. 20 an hour
# lets a class or a club sign up together behind one school or café address; 60 a day lets
# three such groups, or a carrier-grade NAT's steady trickle, through, and stops a farm at 60
# accounts a day instead of 480.
SIGNUPS_PER_HOUR = env_int("SIGNUPS_PER_HOUR", 20, min_value=1)
SIGNUPS_PER_DAY = env_int("SIGNUPS_PER_DAY", 60, min_value=1)

# How long a token's lookup may be served from the cache (10 minutes: the submission of a
# game that short finds the token its start cached). Deleting the token or saving
# the user forgets it at once; this bounds only changes made without model signals. 0: off.
AUTH_TOKEN_CACHE_SECONDS = env_int("AUTH_TOKEN_CACHE_SECONDS", 600, min_value=0)

# --------------------------------------------------------------------------------------
# Mail: accounts' confirmations and password resets (leaderboard/accounts/mail.py), sent by the
# worker. With EMAIL_HOST unset every mail is written to the log stream (the console backend),
# link included.
# --------------------------------------------------------------------------------------

EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587, min_value=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Easy Harp Daily <noreply@localhost>")
# A mail not sent yet is queued again by beat after this many seconds, the delay doubling after
# each failed send (at most an hour); one still unsent after MAIL_GIVE_UP_SECONDS is dropped.
MAIL_RETRY_SECONDS = env_int("MAIL_RETRY_SECONDS", 60, min_value=1)
MAIL_GIVE_UP_SECONDS = env_int("MAIL_GIVE_UP_SECONDS", 86_400, min_value=60)
# How long a link to confirm an address, or to set a new password, works (Django's
# PasswordResetTokenGenerator: once, and not after this).
EMAIL_CONFIRM_SECONDS = env_int("EMAIL_CONFIRM_SECONDS", 3 * 86_400, min_value=60)
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_SECONDS", 3600, min_value=60)
# A player may take a new name once in this many days.
RENAME_DAYS = env_int("RENAME_DAYS", 30, min_value=0)

# Passkeys (WebAuthn, django-otp-webauthn): the relying party is the site's domain, and a
# passkey answers only to these origins (scheme, host and port of the pages).
OTP_WEBAUTHN_RP_ID = env_str("WEBAUTHN_RP_ID", "localhost")
OTP_WEBAUTHN_RP_NAME = "Easy Harp Daily"
# (Browsers make passkeys on https:// pages, and on http://localhost alone.)
OTP_WEBAUTHN_ALLOWED_ORIGINS = env_list(
    "WEBAUTHN_ORIGINS",
    ["http://localhost:8000"] if DEBUG else [f"https://{host}" for host in ALLOWED_HOSTS if "*" not in host],
)
OTP_WEBAUTHN_ALLOW_PASSWORDLESS_LOGIN = True
# Staff's second factor: the admin opens only to a session that used a passkey too
# (leaderboard/accounts/admin.py). Off by default: a staff account first adds a passkey in its settings.
ADMIN_SECOND_FACTOR = env_bool("ADMIN_SECOND_FACTOR", False)

SPECTACULAR_SETTINGS = {
    "TITLE": "Easy Harp Daily API",
    "DESCRIPTION": "Daily-challenge leaderboards for the double-deck solitaire Easy Harp (rules EH1).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's files from drf_spectacular_sidecar's static files, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --------------------------------------------------------------------------------------
# Internationalisation and time
# --------------------------------------------------------------------------------------

# English, Polish and German: the language comes from the switch in the header (Django's
# set_language, remembered in a cookie for a year), else from Accept-Language, else English.
# The catalogues are locale/<lang>/LC_MESSAGES/django.po (pages, API, refusals) and
# djangojs.po (the ES modules, through /jsi18n/), with their compiled .mo files committed:
# README, "Languages". The day itself stays UTC; the browser shows times in the reader's zone.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("pl", "Polski"), ("de", "Deutsch")]
# The project's catalogues (tools/catalogues.py keeps them), then ours for installed packages that
# ship no Polish (locale/packages: django-otp-webauthn's passkey messages).
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale" / "packages"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SECURE = not DEBUG and env_bool("DJANGO_SECURE_COOKIES", True)
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --------------------------------------------------------------------------------------
# Static files, served by WhiteNoise (config/staticfiles.py) unless DJANGO_SERVE_STATIC=0 (a
# proxy or CDN serves STATIC_ROOT instead). With DJANGO_STATIC_MANIFEST on (the default with
# DEBUG off; make run sets it) they are collectstatic's copies in STATIC_ROOT: hashed names,
# gzip and Brotli, cached a year. Off (tests, runserver), the apps' own files, found per request.
# --------------------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", "") or BASE_DIR / "staticfiles")
SERVE_STATIC = env_bool("DJANGO_SERVE_STATIC", True)
STATIC_MANIFEST = env_bool("DJANGO_STATIC_MANIFEST", not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "config.staticfiles.HashedStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
if SERVE_STATIC:
    # Right after SecurityMiddleware: its redirect to HTTPS comes first, nothing else does.
    MIDDLEWARE.insert(
        MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
        "config.staticfiles.StaticFilesMiddleware",
    )
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
WHITENOISE_AUTOREFRESH = not STATIC_MANIFEST
# Every page names the hashed copies, so the originals are not kept (nor compressed), and
# source maps, fetched only by a developer's tools, are not compressed: collectstatic took 66 s
# of CPU, now 19 (19 MB instead of 43).
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*whitenoise_compress.Compressor.SKIP_COMPRESS_EXTENSIONS, "map"]

# --------------------------------------------------------------------------------------
# Security: production settings switch on when DEBUG is off.
# --------------------------------------------------------------------------------------

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    # The container health check calls /healthz, and Prometheus /metrics, over plain HTTP from inside.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 31_536_000, min_value=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # Preloading is a near-irreversible choice for the domain's owner, not a default.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]

# --------------------------------------------------------------------------------------
# Security: CSP and admin lock-out
# --------------------------------------------------------------------------------------

# Every page: scripts, styles and everything else only from this site; no inline script or
# style (the pages' data is in json_script blocks, which are not run); images also as data:
# URLs (the favicon, Swagger UI's icons); no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# django-axes locks every log-in (the admin's form, the API's that the pages post to) after
# AXES_FAILURE_LIMIT failures of one username from one address (the address the API's
# throttles count), for AXES_COOLOFF_SECONDS: failures on either count on both
# (leaderboard.accounts.authentication.LoginAxesHandler). The API's log-in keeps its
# per-address throttle (THROTTLE_LOGIN) too, against guessing across many usernames.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, min_value=1)
AXES_COOLOFF_TIME = timedelta(seconds=env_int("AXES_COOLOFF_SECONDS", 900, min_value=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_ONLY_ADMIN_SITE = False
AXES_HANDLER = "leaderboard.accounts.authentication.LoginAxesHandler"
AXES_CLIENT_IP_CALLABLE = "leaderboard.accounts.authentication.client_address"
AXES_RESET_ON_SUCCESS = True
# No start-up banner: every manage.py command (manage.py deal's JSON on stdout/stderr) stays clean.
AXES_VERBOSE = False

# --------------------------------------------------------------------------------------
# Logging: everything to stderr (the container's log), level from DJANGO_LOG_LEVEL; plain text,
# or one JSON object a line with DJANGO_LOG_FORMAT=json. Each line written for a request, or
# for a task that a request queued, carries its request id (config/requestid.py).
# --------------------------------------------------------------------------------------

_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_LEVEL = env_str("DJANGO_LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in _LOG_LEVELS:
    raise ImproperlyConfigured(f"DJANGO_LOG_LEVEL={LOG_LEVEL!r} is not one of {_LOG_LEVELS}.")
_LOG_FORMATS = ("plain", "json")
LOG_FORMAT = env_str("DJANGO_LOG_FORMAT", "plain").strip().lower() or "plain"
if LOG_FORMAT not in _LOG_FORMATS:
    raise ImproperlyConfigured(f"DJANGO_LOG_FORMAT={LOG_FORMAT!r} is not one of {_LOG_FORMATS}.")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.requestid.RequestIdFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(task_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["request_id"]},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Replaces Django's default handlers for "django" (console only under DEBUG,
        # mail_admins): its records go to the root console handler, DEBUG or not.
        # runserver's request log ("django.server") keeps its own handler.
        "django": {"level": LOG_LEVEL, "propagate": True},
    },
}
