"""The installable web app: its manifest and its service worker."""

from __future__ import annotations

import json
from functools import cache

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from .assets import offline_assets

CACHE_PREFIX = "septica-practice-"
# Where offline.js writes that a download is complete, beside the shell.
MARKER = "offline-complete"
THEME_COLOUR = "#0f5132"  # the felt (static/css/site.css)
BACKGROUND_COLOUR = "#fbfaf7"  # the paper
ICONS = [
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
]


def service_worker(request):
    source = _service_worker_source(offline_assets()["version"])
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    # Browsers check for a new worker on each visit; no-cache makes that check
    # reach the site, so a release's new cache name arrives with its first page.
    response["Cache-Control"] = "no-cache"
    return response


@cache
def _service_worker_source(version: str) -> str:
    assets = offline_assets()
    config = {
        "version": assets["version"],
        "cache_prefix": CACHE_PREFIX,
        "shell": assets["shell"],
        "marker": assets["shell"] + MARKER,
        "static_url": settings.STATIC_URL,
        "network_first": [file["url"] for file in assets["files"] if file["sha256"] is None],
    }
    # A JavaScript file, not HTML: the JSON goes in as it is.
    return render_to_string("practice/sw.js", {"config": mark_safe(json.dumps(config, sort_keys=True))})  # noqa: S308


def web_manifest(request):
    manifest = {
        "id": "/",
        "name": "Șeptică",
        "short_name": "Șeptică",
        "description": gettext("Romanian card games: play people online, or practice against bots on your device, even offline."),
        "lang": get_language(),
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games"],
        "icons": [
            {"src": static(path), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for path, size, purpose in ICONS
        ],
    }
    response = JsonResponse(manifest, content_type="application/manifest+json",
                            json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
