"""The one settings module. Every knob is an environment variable with a safe
default, so a fresh checkout runs embedded with nothing set, and the same code
runs on PostgreSQL and Redis when DATABASE_URL and REDIS_URL are given.

The README lists every variable.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .env import env_bool, env_int, env_list, parse_email_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("SEPTICA_VAR_DIR", BASE_DIR / "var"))

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
REDIS_URL = os.environ.get("REDIS_URL", "").strip()

# Embedded means one process with nothing installed: it is what a checkout
# does by default, and debug pages are only ever the default there.
EMBEDDED = not DATABASE_URL
DEBUG = env_bool("DEBUG", default=EMBEDDED)

_DEV_SECRET_KEY = "embedded-development-only-key-never-use-it-in-production-5f1c9a7e2b"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG off the site needs a long random SECRET_KEY in the "
            "environment, e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if DEBUG:
    ALLOWED_HOSTS += ["testserver"]
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
CSRF_FAILURE_VIEW = "septica_site.api_errors.csrf_failure"  # JSON under /api/, Django's page elsewhere
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",  # allauth's passkey list loads it
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "csp",
    "septica_site",
    "accounts",
    "games",
    "tutorial",
    "practice",
    "players",
    "notify",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Outermost after static files, so they also mark answers made by the middleware below.
    "septica_site.headers.ContentSecurityPolicyMiddleware",
    "septica_site.headers.NoStoreMiddleware",
    # Inside those two, so they mark its answers; outside the rest, so it sees theirs.
    "septica_site.api_errors.ApiErrorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "septica_site.row_ids.RowIdMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.ForwardedForWarningMiddleware",
    "accounts.middleware.BearerTokenMiddleware",
    "accounts.middleware.PreferredLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # After allauth's: staff open the admin only with a second factor in this session.
    "accounts.second_factor.AdminSecondFactorMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into its answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "septica_site.urls"
WSGI_APPLICATION = "septica_site.wsgi.application"
ASGI_APPLICATION = "septica_site.asgi.application"

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
                "septica_site.context_processors.navigation",
                "notify.context_processors.notifications",
            ],
        },
    },
]

# HTTP requests a server process runs at once (septica_site/http_app.py): each holds a database
# connection while it runs, so keep it under DATABASE_POOL_MAX, which the sockets draw on too.
HTTP_THREADS = env_int("HTTP_THREADS", 6)

# --- database ---------------------------------------------------------------
if DATABASE_URL:
    _database = dj_database_url.parse(DATABASE_URL, conn_max_age=0, conn_health_checks=False)
    if _database["ENGINE"] == "django.db.backends.postgresql" and env_bool("DATABASE_POOL", default=True):
        # psycopg 3's pool: Django hands each request a pooled connection.
        _database.setdefault("OPTIONS", {})["pool"] = {
            "min_size": env_int("DATABASE_POOL_MIN", 1),
            "max_size": env_int("DATABASE_POOL_MAX", 10),
            # A request waits this long for a connection, then answers 503 (septica_site/outage.py):
            # with HTTP_THREADS under DATABASE_POOL_MAX it only ever waits for one being opened.
            "timeout": env_int("DATABASE_POOL_TIMEOUT_MS", 500) / 1000,
            # psycopg_pool tries again after 1, 2, 4, 8... s and lets no request start another
            # attempt meanwhile: after an outage of 20 s the pool stayed empty for up to 16 s more.
            # An attempt given up after this long lets the next request that waits start a new one.
            "reconnect_timeout": 2.0,
        }
        # Pooled connections live as long as the process, so the move path's
        # statements (games/sql/move_rows.py) are prepared once per connection.
        # Django turns psycopg's preparing off unless told; only cursors that
        # bind on the server prepare, and the ORM's cursors bind on the client.
        _database["OPTIONS"].setdefault("prepare_threshold", 5)
    if _database["ENGINE"] == "django.db.backends.postgresql":
        # A database that stops answering (its host gone, the network cut: packets dropped,
        # nothing refused) must not hold a request or a socket's move for the minutes TCP takes
        # to give up. The kernel drops a connection whose sent data goes unacknowledged for
        # DATABASE_TCP_TIMEOUT_MS (a SYN included) and probes an idle one every second; a slow
        # query is not cut short, since the kernel acknowledges what it receives however busy
        # PostgreSQL is. psycopg refuses a connect_timeout under 2 s.
        _options = _database.setdefault("OPTIONS", {})
        _options.setdefault("connect_timeout", 2)
        _options.setdefault("tcp_user_timeout", env_int("DATABASE_TCP_TIMEOUT_MS", 500))
        for _name, _value in (("keepalives", 1), ("keepalives_idle", 1), ("keepalives_interval", 1),
                              ("keepalives_count", 3)):
            _options.setdefault(_name, _value)
    _database.setdefault("TEST", {})["NAME"] = os.environ.get("DATABASE_TEST_NAME") or None
    DATABASES = {"default": _database}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "septica_site.db_backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH") or VAR_DIR / "septica.sqlite3",
            # Keep each thread's connection: opening one (and its PRAGMAs) for
            # every request or websocket database call cost more than the move.
            "CONN_MAX_AGE": None,
            "OPTIONS": {
                # WAL lets readers go on while a move is written; IMMEDIATE
                # takes the write lock at BEGIN so two writers queue instead of
                # failing half-way with "database is locked".
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
            # A file, not memory, so tests with threads and a live server share
            # one database with the same locking as the real thing; one per
            # test process, so two test runs never share it.
            "TEST": {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channel layer, broker, cache ---------------------------------------------
def _redis_database(url: str) -> str:
    parts = urlsplit(url)
    return (parse_qs(parts.query).get("db") or [parts.path.strip("/") or "0"])[0]


# Pub/sub channels belong to the whole Redis server, whatever database number
# REDIS_URL names: deployments sharing one server need prefixes of their own.
CHANNEL_LAYER_PREFIX = os.environ.get("CHANNEL_LAYER_PREFIX", "").strip() or f"septica-{_redis_database(REDIS_URL)}"
if REDIS_URL:
    # Redis pub/sub: a group send is one PUBLISH, and each server process holds
    # one subscription per table its sockets watch. Nothing is queued in Redis,
    # which suits what the groups carry ("match changed, seq n"): a socket that
    # misses one still holds its seq and resyncs on the next (see games/after_commit/publish.py).
    # Every Redis call is bounded (Redis answers in well under a millisecond
    # when well): with Redis gone, pages and the API answer without it.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "septica_site.channel_layers.RedisPubSubLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_connect_timeout": 0.5, "socket_timeout": 2.0}],
                "prefix": CHANNEL_LAYER_PREFIX,
                # After Redis comes back, each server's sockets read their tables and lists again.
                "resync_message": "games.after_commit.publish.resync_message",
            },
        }
    }
    # Django's RedisCache; allauth's limit counts fall back to memory while Redis is away (septica_site/cache.py).
    CACHES = {
        "default": {
            "BACKEND": "septica_site.cache.FallbackRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "septica_site.channel_layers.LocalChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that lost Redis keeps trying (every 2 s at first, then at most every
# 30 s) however long it is gone; Celery's default gives up after 100 tries (~45 min) and exits.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Queuing a task happens after a move's commit, in the request: with the broker
# gone it must fail fast (games/after_commit/turns.py queues bot and deadline tasks
# again itself once the broker is back; the sweeper catches anything else).
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
# An unacknowledged task (its worker died) is delivered again after this long.
# Keep it above DEADLINE_COUNTDOWN_MAX_SECONDS, or countdowns are delivered twice (harmless, wasted).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600),
    # Opening the channel to queue a task tries twice, 0.2 s apart, then fails
    # (kombu's default waits 2 s first); the worker's own reconnecting is apart.
    "max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2,
    "socket_connect_timeout": 1.0,  # the servers add a read timeout (asgi.py); workers must not
    # A worker's BRPOP connection that went silent (a cut link) fails no read: kombu drops it
    # once its reply is overdue by this much (checking as often), so the worker connects again
    # soon after the link heals instead of long after. A live BRPOP answers within its own timeout.
    "health_check_interval": env_int("CELERY_BROKER_HEALTH_CHECK_SECONDS", 2),
    # A command that waits for Redis's answer on a silent connection (a worker keeps no read
    # timeout) would wait for TCP's backed-off retransmissions; the kernel fails it instead
    # once what it sent has gone unacknowledged this long, and probes an idle one.
    "socket_keepalive": True,
    "socket_keepalive_options": {socket.TCP_KEEPIDLE: 1, socket.TCP_KEEPINTVL: 1, socket.TCP_KEEPCNT: 3,
                                 socket.TCP_USER_TIMEOUT: 3000},
}
if not REDIS_URL:
    # The in-memory broker is polled: every second by default, which would make
    # each bot move wait up to a second for the embedded worker to notice it.
    CELERY_BROKER_TRANSPORT_OPTIONS["polling_interval"] = 0.01
# Pushes and e-mails wait on other hosts: they go to a queue of their own, taken by
# workers of their own (`celery -A septica_site worker -Q notify`; embedded, threads of
# their own), so a host that never answers holds up no bot's turn.
NOTIFY_QUEUE = "notify"
CELERY_TASK_ROUTES = {name: {"queue": NOTIFY_QUEUE} for name in (
    "notify.deliver_push", "games.your_move_email", "games.tasks.remind", "games.tasks.send_reminders")}
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Without Redis there is no worker process to start: the server runs one in a
# thread on the in-memory broker (septica_site/embedded_worker.py).
CELERY_EMBEDDED_WORKER = env_bool("CELERY_EMBEDDED_WORKER", default=not REDIS_URL)
CELERY_BEAT_SCHEDULE = {
    "worker-heartbeat": {"task": "septica_site.tasks.heartbeat", "schedule": 30.0},
    "notify-worker-heartbeat": {"task": "septica_site.tasks.heartbeat", "schedule": 30.0,
                                "kwargs": {"key": "septica:notify-worker-heartbeat"}, "options": {"queue": NOTIFY_QUEUE}},
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": float(env_int("DEADLINE_SWEEP_SECONDS", 30))},
    "send-reminders": {"task": "games.tasks.send_reminders", "schedule": float(env_int("REMINDER_SWEEP_SECONDS", 60))},
    "sweep-analyses": {"task": "games.tasks.sweep_analyses", "schedule": float(env_int("ANALYSIS_SWEEP_SECONDS", 120))},
    "expire-challenges": {"task": "games.tasks.expire_challenges", "schedule": float(env_int("CHALLENGE_SWEEP_SECONDS", 600))},
}


def _env_seconds(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    try:
        seconds = float(raw) if raw else default
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number of seconds.") from None
    if seconds < 0:
        raise ImproperlyConfigured(f"{name} cannot be negative.")
    return seconds


# Bots (games/tasks.py): a short pause before a bot's move feels human at a live
# table; a turn whose time per move is at most DEADLINE_COUNTDOWN_MAX_SECONDS
# gets a countdown task, longer ones are left to the sweeper.
BOT_MOVE_DELAY_SECONDS = _env_seconds("BOT_MOVE_DELAY_SECONDS", 1.0)
DEADLINE_COUNTDOWN_MAX_SECONDS = env_int("DEADLINE_COUNTDOWN_MAX_SECONDS", 3600)
BOT_THINK_SECONDS = _env_seconds("BOT_THINK_SECONDS", 0.0)  # tests only: a bot that thinks slowly
# Following (games/views/following.py) reads itself again this often while it is in view:
# who is at a table and their open tables change without a push to the follower.
FOLLOWING_REFRESH_SECONDS = _env_seconds("FOLLOWING_REFRESH_SECONDS", 15.0)
# Fairness (games/tasks.py): bots at tables where no person plays think this
# many at a time per person who made those tables, so one person's tables of
# bots never fill the worker ahead of someone waiting for a bot's answer.
UNATTENDED_BOTS_PER_PERSON = env_int("UNATTENDED_BOTS_PER_PERSON", 1)
# The analysis of a finished match (games/analysis.py, games/tasks.py `analyse_match`): each
# person's decision is judged for about this long (0: by ANALYSIS_ROUNDS alone), a few per task
# run so a bot's turn queued meanwhile waits behind one judgement at most, and at most
# ANALYSIS_SLOTS analyses think at once across the workers, leaving the rest of them to bots.
ANALYSIS_BUDGET_MS = _env_seconds("ANALYSIS_BUDGET_MS", 450.0)
ANALYSIS_ROUNDS = env_int("ANALYSIS_ROUNDS", 0)  # tests: a fixed number of guessed deals, the same on every run
ANALYSIS_DECISIONS_PER_RUN = max(1, env_int("ANALYSIS_DECISIONS_PER_RUN", 1))
ANALYSIS_SLOTS = env_int("ANALYSIS_SLOTS", 1)
# Analyses queued or running per person (the table's maker, or whoever asked on the replay page); their
# other finished matches wait, and are queued as these end, so one person cannot fill the analysis queue.
ANALYSIS_QUEUED_PER_PERSON = max(1, env_int("ANALYSIS_QUEUED_PER_PERSON", 2))
# The Celery queue the analysis's runs go to: empty, the workers' default queue, behind the bots' turns;
# a name (run `celery worker -Q <name>` for it) keeps the judging off the workers that answer for bots.
ANALYSIS_QUEUE = os.environ.get("ANALYSIS_QUEUE", "")
# A replay page waiting for its analysis hears "ready" on the table's socket; it also asks the API this
# often, for a message it missed (a socket that reconnected, a server that could not reach Redis).
ANALYSIS_PAGE_CHECK_SECONDS = _env_seconds("ANALYSIS_PAGE_CHECK_SECONDS", 30.0)

# What one account may hold at once (games/actions/tables.py): a person plays a few
# live tables and a handful of days-long ones, and waits for players at one
# table per game at most; the lobby lists 200 tables, so a few accounts must
# not be able to fill it. Tables that are finished or aborted do not count.
OPEN_TABLES_PER_PERSON = env_int("OPEN_TABLES_PER_PERSON", 10)
WAITING_TABLES_PER_PERSON = env_int("WAITING_TABLES_PER_PERSON", 3)  # public, still waiting for players
BOT_TABLES_PER_STAFF = env_int("BOT_TABLES_PER_STAFF", 5)  # tables of bots only, still playing
# New tables per account, the page and the API together (django-ratelimit: "count/s|m|h|d").
TABLE_CREATION_RATE = os.environ.get("TABLE_CREATION_RATE", "").strip() or "10/m"
if not re.fullmatch(r"\d+/\d*[smhd]", TABLE_CREATION_RATE):
    raise ImproperlyConfigured(f"TABLE_CREATION_RATE={TABLE_CREATION_RATE!r} is not like 10/m.")
# Anonymous /ws/lobby/ sockets one address may hold open on one server process
# (games/consumers/shared_lists.py): a few tabs for each visitor behind one NAT.
LOBBY_ANONYMOUS_SOCKETS_PER_ADDRESS = env_int("LOBBY_ANONYMOUS_SOCKETS_PER_ADDRESS", 30)

# --- accounts -----------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, also taking the account's e-mail address.
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "accounts.validators.MinimumLengthValidator"},  # Django's, with a Romanian error
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Log-in attempts: a locked account or address waits out the cool-off.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# allauth hands authenticate() a username or an e-mail address; both count
# against the one account (and an old-password guess on password change too).
AXES_USERNAME_CALLABLE = "accounts.lockout.lockout_username"
# Behind a proxy every visitor arrives from the proxy's address: count the
# address the proxy saw instead, or one bad typist would lock everyone out.
# Every limit per address counts the one septica_site/client_address.py finds.
BEHIND_PROXY = env_bool("BEHIND_PROXY", default=False)
ALLAUTH_TRUSTED_PROXY_COUNT = env_int("PROXY_COUNT", 1) if BEHIND_PROXY else 0
AXES_CLIENT_IP_CALLABLE = "septica_site.client_address.request_address"

# Sign-up, log-in, e-mail verification and passwords: django-allauth.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "login": "accounts.forms.LogInForm",
    "signup": "accounts.forms.SignUpForm",
    "change_password": "accounts.forms.ChangePasswordForm",
    "reset_password": "accounts.forms.ResetPasswordForm",
    "add_email": "accounts.forms.AddEmailForm",
}
# Room to change an address: add the new one, confirm it, make it primary, remove the old.
ACCOUNT_MAX_EMAIL_ADDRESSES = 2
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_USERNAME_VALIDATORS = "accounts.names.username_validators"
# Playing needs no verified address: sign-up logs straight in and mails a
# link; the site sends nothing else to an address until it is followed.
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = ""
# No mail to an address no account has: it would be a way to mail strangers.
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False
ACCOUNT_EMAIL_NOTIFICATIONS = False
# allauth's limits (its syntax: "count/period/per", per ip, key or user).
# Log-in failures are django-axes' alone (above), so the two never disagree.
ACCOUNT_RATE_LIMITS = {
    "login_failed": None,
    "reset_password": os.environ.get("PASSWORD_RESET_LIMITS", "20/m/ip,5/m/key,20/d/key"),
    "reset_password_from_key": os.environ.get("PASSWORD_RESET_LINK_LIMITS", "20/m/ip"),
    "change_password": os.environ.get("PASSWORD_CHANGE_LIMITS", "5/m/user"),
    "confirm_email": os.environ.get("EMAIL_CONFIRMATION_LIMITS", "1/3m/key"),
    "signup": os.environ.get("SIGNUP_LIMITS", "20/m/ip"),
}
# Staff and moderators open the admin only with a second factor
# (accounts/second_factor.py); any player may add one.
MFA_SUPPORTED_TYPES = ["totp", "webauthn", "recovery_codes"]
MFA_FORMS = {
    # Wrong codes and passkeys count with failed passwords (django-axes).
    "authenticate": "accounts.mfa_forms.SecondFactorForm",
    "reauthenticate": "accounts.mfa_forms.SecondFactorAgainForm",
    "authenticate_webauthn": "accounts.mfa_forms.PasskeySecondFactorForm",
    "reauthenticate_webauthn": "accounts.mfa_forms.PasskeySecondFactorAgainForm",
    "add_webauthn": "accounts.mfa_forms.AddSecurityKeyForm",
    "signup_webauthn": "accounts.mfa_forms.SignupSecurityKeyForm",
    "edit_webauthn": "accounts.mfa_forms.EditSecurityKeyForm",
}
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_TOTP_ISSUER = "Septica"
# One 30-second step either side, as RFC 6238 advises for clocks and typing;
# a code is still taken only once.
MFA_TOTP_TOLERANCE = 1
# Browsers allow passkeys on http only for localhost, the embedded default.
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = DEBUG

# --- e-mail -------------------------------------------------------------------
_email = parse_email_url(os.environ.get("EMAIL_URL", "console:"))
EMAIL_BACKEND = _email.pop("BACKEND")
for _name, _value in _email.items():
    globals()[f"EMAIL_{_name}"] = _value
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Septica <noreply@septica.local>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# "Your move" e-mails to people away from their table (games/after_commit/your_move.py).
YOUR_MOVE_EMAILS_PER_DAY = env_int("YOUR_MOVE_EMAILS_PER_DAY", 20)
YOUR_MOVE_EMAIL_DELAY_SECONDS = env_int("YOUR_MOVE_EMAIL_DELAY_SECONDS", 60)

# --- web push (notify/push.py) ----------------------------------------------------
# VAPID_PRIVATE_KEY: the raw P-256 private key, base64url (32 bytes, as `vapid --gen`
# and web-push tools print it), or a PEM. Unset, a key is made once into
# VAR_DIR/vapid.json and kept. VAPID_PUBLIC_KEY, when set, must be that key's public half.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:noreply@septica.local").strip()
if not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("VAPID_SUBJECT must be a mailto: address or an https:// URL.")
# A push service answers within a second; one that does not is not waited for long.
PUSH_CONNECT_TIMEOUT_SECONDS = _env_seconds("PUSH_CONNECT_TIMEOUT_SECONDS", 3.0)
PUSH_READ_TIMEOUT_SECONDS = _env_seconds("PUSH_READ_TIMEOUT_SECONDS", 5.0)
# Devices one person may have take push (the newest kept), and pushes one person gets a minute.
PUSH_DEVICES_MAX = max(1, env_int("PUSH_DEVICES_MAX", 5))
PUSH_DELIVERIES_PER_MINUTE = env_int("PUSH_DELIVERIES_PER_MINUTE", 10)
# Push reaches only public addresses; these networks too (CIDRs; the tests' own push
# services on 127.0.0.0/8), over plain http and on any port as well.
PUSH_ALLOWED_NETWORKS = env_list("PUSH_ALLOWED_NETWORKS", [])
for _network in PUSH_ALLOWED_NETWORKS:
    try:
        ipaddress.ip_network(_network)
    except ValueError:
        raise ImproperlyConfigured(f"PUSH_ALLOWED_NETWORKS: {_network!r} is not a network (e.g. 10.0.0.0/8).") from None
# Reminders (games/after_commit/reminders.py): tables with at least this much time per move.
REMINDER_MIN_SECONDS_PER_MOVE = env_int("REMINDER_MIN_SECONDS_PER_MOVE", 3600)

# --- languages, time, static --------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ro", "Română")]
# locale/ holds the site's own words (makemessages writes it); locale_third_party/
# corrects a few of allauth's Romanian ones that lack their diacritics, where
# makemessages, which keeps only the site's own msgids, would drop them.
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale_third_party"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # Practice's runtime (node_modules/pyodide) and its engine zip (built from games/engine).
    "practice.finders.PyodideFinder",
    "practice.finders.EngineZipFinder",
]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "static"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# A worker's policy is the one its own script arrives with, not its page's:
# practice's engine worker (static/js/practice/) runs Pyodide, whose
# WebAssembly needs 'wasm-unsafe-eval' and nothing wider (no 'unsafe-eval':
# Pyodide 314 compiles no JavaScript from strings). Pages ignore a script's
# policy, so every static script carries it and the pages' policy stays as it is.
WORKER_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'"
)


def _static_file_headers(headers, path, url):
    if url.endswith((".js", ".mjs")):
        headers["Content-Security-Policy"] = WORKER_CONTENT_SECURITY_POLICY


WHITENOISE_ADD_HEADERS_FUNCTION = _static_file_headers

# --- security (check --deploy passes with DEBUG off) ---------------------------
if env_bool("BEHIND_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
_https = env_bool("HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = _https
SESSION_COOKIE_SECURE = _https
CSRF_COOKIE_SECURE = _https
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 31536000 if _https else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _https
SECURE_HSTS_PRELOAD = _https
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# django-csp 4 (septica_site/headers.py adds this host's ws:/wss: origin to
# connect-src). No 'unsafe-inline' anywhere: pages load their scripts and styles
# from static/, data reaches scripts as json_script blocks, and scripts set
# styles only through the CSSOM (element.style), which style-src does not govern.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        # The service worker (/sw.js) and practice's engine worker; the web app manifest.
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}, "axes": {"level": "WARNING"}},
}
