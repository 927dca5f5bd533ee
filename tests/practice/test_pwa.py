"""The installable web app as a browser reads it: the manifest's fields and
icons, the service worker's answer, the files practice keeps offline (each
served as listed, the runtime compressed and as WebAssembly), and the
policies the engine worker and the pages arrive with."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponseNotFound
from django.test import RequestFactory
from django.urls import reverse

from practice.assets import engine_config, offline_assets
from practice.pwa import CACHE_PREFIX


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ro"])
def test_the_manifest_makes_the_site_installable(client, language):
    answer = client.get(reverse("web_manifest"), HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["name"] == "Șeptică" and manifest["short_name"]
    assert manifest["description"]
    assert manifest["lang"] == language
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    for colour in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest[colour])
    purposes = set()
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        width, height = map(int, icon["sizes"].split("x"))
        path = icon["src"].removeprefix(settings.STATIC_URL)
        found = finders.find(path)
        assert found, icon["src"]
        with open(found, "rb") as file:
            assert png_size(file.read(24)) == (width, height), icon["src"]
        purposes.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= purposes


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_its_theme_colour(client):
    manifest = json.loads(client.get(reverse("web_manifest")).content)
    page = client.get("/").content.decode()
    assert f'<link rel="manifest" href="{reverse("web_manifest")}">' in page
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page
    assert 'data-service-worker="/sw.js"' in page
    # The menu's Install button waits, hidden, until the browser offers to install.
    assert re.search(r'<li hidden><button type="button" class="[^"]*" id="install-app">Install the app</button>', page)


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True])
def test_the_service_worker_is_checked_on_every_visit_and_names_this_release_s_cache(client, alice, signed_in):
    if signed_in:
        client.force_login(alice)
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Cache-Control"] == "no-cache"  # neither private nor no-store: the same for everyone
    # At the site's root, its default scope is the whole site.
    assert reverse("service_worker") == "/sw.js"
    source = answer.content.decode()
    config = json.loads(re.search(r"const CONFIG = (\{.*\});", source).group(1))
    assert config["cache_prefix"] + config["version"] == CACHE_PREFIX + offline_assets()["version"]
    assert config["shell"] == reverse("practice")
    assert "&quot;" not in source


def test_the_offline_files_are_everything_practice_loads_with_their_sizes_and_hashes():
    offline = offline_assets()
    assert re.fullmatch(r"[0-9a-f]{16}", offline["version"])
    assert offline["shell"] == "/practice/"
    urls = [file["url"] for file in offline["files"]]
    assert len(urls) == len(set(urls))
    config = engine_config()
    assert config["pyodide"] == config["index"] + "pyodide.mjs"
    assert config["index"].startswith(settings.STATIC_URL + "pyodide/") and config["index"].endswith("/")
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        assert config["index"] + name in urls
    assert config["engine_zip"] in urls
    engine_zip = next(file for file in offline["files"] if file["url"] == config["engine_zip"])
    assert config["engine_version"] == engine_zip["sha256"][:16]
    for path in ("js/site.js", "js/pwa.js", "js/practice/offline.js", "css/site.css", "icons/icon-192.png",
                 "favicon.svg"):
        assert settings.STATIC_URL + path in urls, path
    for name in ("javascript-catalog", "web_manifest", "favicon"):
        assert reverse(name) in urls
    assert offline["total_bytes"] == sum(file["bytes"] or 0 for file in offline["files"])
    # What the runtime weighs: Pyodide's WebAssembly and standard library, most of it.
    assert 10_000_000 < offline["total_bytes"] < 20_000_000


def collected_site():
    """WhiteNoise as it serves with DEBUG off: from STATIC_ROOT, as `make test` collected it."""
    from django.test import override_settings
    from whitenoise.middleware import WhiteNoiseMiddleware

    if not (Path(settings.STATIC_ROOT) / "staticfiles.json").is_file():
        pytest.fail(f"nothing collected in {settings.STATIC_ROOT}: run the tests through `make test`")
    with override_settings(DEBUG=False, WHITENOISE_USE_FINDERS=False, WHITENOISE_AUTOREFRESH=False):
        middleware = WhiteNoiseMiddleware(lambda request: HttpResponseNotFound())

    def get(url: str, **headers):
        return middleware(RequestFactory().get(url, **headers))

    return get


def production_offline_assets() -> dict:
    """offline_assets() in a process with DEBUG off: hashed names from the collected manifest."""
    environment = {**os.environ, "DEBUG": "0", "HTTPS": "0"}
    script = ("import django, json; django.setup(); from practice.assets import offline_assets, engine_config;"
              "print(json.dumps([offline_assets(), engine_config()]))")
    done = subprocess.run([sys.executable, "-c", script], env={**environment, "DJANGO_SETTINGS_MODULE":
                          "septica_site.settings"}, cwd=settings.BASE_DIR, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def body_of(answer) -> bytes:
    return b"".join(answer.streaming_content) if answer.streaming else answer.content


@pytest.mark.django_db
def test_with_debug_off_each_offline_file_is_served_as_listed(client):
    """What offline.js checks is what arrives: hashed names, the runtime under its plain names."""
    get = collected_site()
    offline, config = production_offline_assets()
    assert re.search(r"/practice/engine\.[0-9a-f]{12}\.zip$", config["engine_zip"])
    assert "/static/js/site.js" in [file["url"] for file in offline["files"]]  # modules import plain names
    # The bound on the download, as the practice page states it.
    assert offline["total_wire_bytes"] < 8_000_000 < offline["total_bytes"]
    for file in offline["files"]:
        if file["sha256"] is None:
            assert client.get(file["url"]).status_code == 200, file["url"]
            continue
        answer = get(file["url"])
        assert answer.status_code == 200, file["url"]
        body = body_of(answer)
        assert len(body) == file["bytes"], file["url"]
        assert hashlib.sha256(body).hexdigest() == file["sha256"], file["url"]


def test_with_debug_off_the_runtime_arrives_compressed_and_as_webassembly():
    get = collected_site()
    index = engine_config()["index"]
    listed = {file["url"]: file for file in offline_assets()["files"]}
    wasm = get(index + "pyodide.asm.wasm", HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert wasm["Content-Type"] == "application/wasm"  # which WebAssembly.instantiateStreaming insists on
    assert wasm["Content-Encoding"] == "gzip"
    packed = body_of(wasm)
    assert hashlib.sha256(gzip.decompress(packed)).hexdigest() == listed[index + "pyodide.asm.wasm"]["sha256"]
    assert len(packed) < listed[index + "pyodide.asm.wasm"]["bytes"] // 2
    module = get(engine_config()["pyodide"])
    assert module["Content-Type"].startswith("text/javascript")
    assert hashlib.sha256(body_of(module)).hexdigest() == listed[engine_config()["pyodide"]]["sha256"]


@pytest.mark.django_db
def test_the_engine_worker_may_compile_webassembly_and_nothing_wider(client):
    """A worker's policy is its own script's: static scripts allow WebAssembly
    ('wasm-unsafe-eval'), never eval; the pages' policy allows neither."""
    script = client.get(settings.STATIC_URL + "js/practice/offline.js")
    policy = script["Content-Security-Policy"]
    assert "'wasm-unsafe-eval'" in policy and "'unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "")
    assert "default-src 'self'" in policy
    page = client.get("/")["Content-Security-Policy"]
    assert "unsafe-eval" not in page
    assert "worker-src 'self'" in page and "manifest-src 'self'" in page
