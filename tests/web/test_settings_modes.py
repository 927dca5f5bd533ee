"""The two ways to run: embedded with nothing set, PostgreSQL and Redis when
configured; and the production checks. Each case loads the real settings in a
fresh interpreter with exactly the environment given."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "pool": bool(db.get("OPTIONS", {}).get("pool")),
    "init": db.get("OPTIONS", {}).get("init_command", ""),
    "name": str(db.get("NAME")),
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "broker": settings.CELERY_BROKER_URL, "embedded_worker": settings.CELERY_EMBEDDED_WORKER,
    "email": settings.EMAIL_BACKEND, "debug": settings.DEBUG,
}))
"""
KEY = "a-test-secret-key-that-is-long-and-random-enough-4f8b2c91d7e6a35f0b"


def run_python(code: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in _SETTINGS_VARIABLES}
    clean.update(env, DJANGO_SETTINGS_MODULE="septica_site.settings", SEPTICA_VAR_DIR=str(tmp_path / "var"))
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)


def run_manage(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    return run_python(f"import sys; sys.argv = ['manage.py', *{args!r}]; import runpy; runpy.run_path('manage.py', run_name='__main__')", tmp_path, **env)


_SETTINGS_VARIABLES = {
    "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS",
    "EMAIL_URL", "HTTPS", "CELERY_EMBEDDED_WORKER", "BEHIND_PROXY",
    # The browser tests relax Django's async check for their own process only.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}


def test_with_nothing_set_it_runs_embedded(tmp_path):
    result = run_python(SHOW, tmp_path)

    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["engine"] == "septica_site.db_backends.sqlite3"  # Django's, with writers queued
    assert "journal_mode=WAL" in shown["init"]
    assert shown["name"].startswith(str(tmp_path / "var"))
    assert shown["layer"] == "septica_site.channel_layers.LocalChannelLayer"
    assert shown["broker"] == "memory://"
    assert shown["embedded_worker"] is True
    assert shown["email"] == "django.core.mail.backends.console.EmailBackend"


def test_with_database_and_redis_urls_it_runs_on_postgresql_and_redis(tmp_path):
    result = run_python(
        SHOW, tmp_path,
        DATABASE_URL="postgres://septica@db.example:5432/septica", REDIS_URL="redis://cache.example:6379/0", SECRET_KEY=KEY,
    )

    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["engine"] == "django.db.backends.postgresql"
    assert shown["pool"] is True
    assert shown["layer"] == "septica_site.channel_layers.RedisPubSubLayer"
    assert shown["broker"] == "redis://cache.example:6379/0"
    assert shown["embedded_worker"] is False
    assert shown["debug"] is False


def test_the_embedded_database_is_in_wal_mode(tmp_path):
    code = "import django; django.setup(); from django.db import connection; c = connection.cursor(); c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])"

    result = run_python(code, tmp_path)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wal"


def test_a_missing_secret_key_with_debug_off_is_a_clear_start_up_error(tmp_path):
    result = run_manage(["check"], tmp_path, DEBUG="0")

    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_a_mistyped_boolean_is_refused_at_start_up(tmp_path):
    result = run_manage(["check"], tmp_path, DEBUG="maybe")

    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_check_deploy_passes_with_debug_off(tmp_path):
    result = run_manage(
        ["check", "--deploy", "--fail-level", "WARNING"], tmp_path,
        DEBUG="0", SECRET_KEY=KEY, ALLOWED_HOSTS="septica.example", CSRF_TRUSTED_ORIGINS="https://septica.example",
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_an_smtp_email_url_configures_smtp(tmp_path):
    code = "import django; from django.conf import settings; django.setup(); print(settings.EMAIL_BACKEND, settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_HOST_USER, settings.EMAIL_USE_TLS)"

    result = run_python(code, tmp_path, EMAIL_URL="smtp://mailer:s%40cret@mail.example:2525?tls=1")

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.core.mail.backends.smtp.EmailBackend", "mail.example", "2525", "mailer", "True"]
