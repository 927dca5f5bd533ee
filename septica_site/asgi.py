"""The ASGI entry point: HTTP through Django (septica_site/http_app.py), websockets through Channels.

Every server process imports this module, so the embedded Celery worker is
started here when the settings ask for it (no REDIS_URL).
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "septica_site.settings")
django_wsgi_app = get_wsgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from accounts.ws_auth import BearerTokenAuthMiddleware, TokenOrOriginValidator, session_auth_stack  # noqa: E402  (needs Django set up)

from . import autobahn_private  # noqa: E402
from .celery import app as celery_app  # noqa: E402
from .http_app import ThreadPoolWsgiToAsgi  # noqa: E402
from .routing import websocket_urlpatterns  # noqa: E402

BROKER_READ_TIMEOUT_SECONDS = 2.0

autobahn_private.install()  # no pretty-printing of every new socket's settings for a debug line nobody keeps

application = ProtocolTypeRouter(
    {
        "http": ThreadPoolWsgiToAsgi(django_wsgi_app, settings.HTTP_THREADS),
        # Origin checked (AllowedHostsOriginValidator; a script with a token may omit Origin),
        # then the session (none read without its cookie), then an API token, which wins over the session.
        "websocket": TokenOrOriginValidator(
            session_auth_stack(BearerTokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)

if settings.REDIS_URL:
    # A server queues tasks from its requests, after a move's commit: a Redis
    # that accepts connections and never answers must not hold the request.
    # Only here: a worker's idle broker connections wait longer than any such
    # bound, and a read timeout on them makes it reconnect over and over.
    celery_app.conf.broker_transport_options = {
        **settings.CELERY_BROKER_TRANSPORT_OPTIONS,
        "socket_timeout": BROKER_READ_TIMEOUT_SECONDS,
    }

if settings.CELERY_EMBEDDED_WORKER and os.environ.get("SEPTICA_NO_EMBEDDED_WORKER") != "1":
    from . import embedded_worker

    embedded_worker.start()

# Fewer and shorter collector pauses, the slowest pushes of a busy server: a
# server holds many long-lived objects (modules, models, URL patterns) and
# every move makes thousands of short-lived ones. Freezing what start-up made
# keeps full collections from walking it again, and collecting the youngest
# generation every 50,000 allocations instead of every 700 makes the pauses
# rarer (the README's figures say by how much).
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 50, 100)
