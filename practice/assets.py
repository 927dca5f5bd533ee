"""Everything practice needs on the device, with sizes and hashes.

`offline_assets()` is what "Make practice available offline" downloads and
checks (static/js/practice/offline.js) and what the service worker's cache is
named after; `engine_config()` is what the engine worker loads. Both are read
once per process: the files they describe do not change while it serves.
With DEBUG on they do (files are edited and served unhashed, as they are):
there each call reads them again, hashing only files that changed, so an
edit makes a new version and the service worker drops the stale cache.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.templatetags.static import static
from django.urls import reverse

from .finders import ENGINE_ZIP, PYODIDE_FILES, pyodide_prefix

# The practice page and the base template load files from these folders; all
# of them go, rather than a hand-kept list that would miss the next new one.
STATIC_FOLDERS = ("js/", "css/", "icons/")
STATIC_FILES = ("favicon.svg", "favicon.ico")
SHELL_URL_NAME = "practice"
# Answers made per request (a language's catalogue, the manifest, the icon
# route): fetched and kept, but their bytes are not known ahead.
DYNAMIC_URL_NAMES = ("javascript-catalog", "web_manifest", "favicon")
# The shell's templates and the translations shape the cached /practice/ page
# without any static file changing: a release that changes them is a new version.
SHELL_SOURCES = (
    "templates/base.html", "templates/practice", "templates/games/_table_app.html", "templates/games/_table_card.html",
    "templates/games/_suit_dialog.html", "templates/games/_rules_options.html", "locale", "locale_third_party",
)


def offline_assets() -> dict:
    return _read_offline_assets() if settings.DEBUG else _offline_assets_once()


def engine_config() -> dict:
    return _read_engine_config() if settings.DEBUG else _engine_config_once()


def _read_offline_assets() -> dict:
    files = [_described(url, path) for url, path in _static_files()]
    files += [{"url": reverse(name), "bytes": None, "sha256": None} for name in DYNAMIC_URL_NAMES]
    digest = hashlib.sha256()
    for file in files:
        digest.update(f"{file['url']} {file['sha256']}\n".encode())
    for source in _shell_sources():
        digest.update(f"{source.relative_to(settings.BASE_DIR).as_posix()} {_sha256(source)}\n".encode())
    return {
        "version": digest.hexdigest()[:16],
        "shell": reverse(SHELL_URL_NAME),
        "files": files,
        "total_bytes": sum(file["bytes"] or 0 for file in files),
        "total_wire_bytes": sum(file.get("wire_bytes") or 0 for file in files),
    }


def _read_engine_config() -> dict:
    folder = f"{settings.STATIC_URL}{pyodide_prefix()}/"
    return {
        "pyodide": folder + "pyodide.mjs",
        "index": folder,
        "engine_zip": static(ENGINE_ZIP),
        "engine_version": _sha256(_served_file(ENGINE_ZIP))[:16],
    }


_offline_assets_once = cache(_read_offline_assets)
_engine_config_once = cache(_read_engine_config)


def _static_files() -> list[tuple[str, str]]:
    """(URL, static path) of every file to keep, each URL once."""
    pairs = [(f"{settings.STATIC_URL}{pyodide_prefix()}/{name}", f"{pyodide_prefix()}/{name}") for name in PYODIDE_FILES]
    pairs.append((static(ENGINE_ZIP), ENGINE_ZIP))
    for path in sorted(_site_static_paths()):
        url = static(path)
        pairs.append((url, path))
        plain = f"{settings.STATIC_URL}{path}"
        if path.endswith((".js", ".mjs")) and plain != url:
            # A module imports its siblings by their plain names ("./render.js"),
            # which collectstatic does not rewrite: both names are asked for.
            pairs.append((plain, path))
    return list(dict.fromkeys(pairs))


def _site_static_paths() -> set[str]:
    if isinstance(staticfiles_storage, ManifestFilesMixin):
        known = staticfiles_storage.hashed_files.keys()
    else:
        known = {path for finder in finders.get_finders() for path, _ in _listed(finder)}
    return {path for path in known if path.startswith(STATIC_FOLDERS) or path in STATIC_FILES}


def _listed(finder):
    for path, storage in finder.list([]):
        prefix = getattr(storage, "prefix", None)
        yield (f"{prefix}/{path}" if prefix else path), storage


def _served_file(path: str) -> Path:
    """The file the site answers for a static path: the collected, hashed copy
    (whose bytes may differ from the source: CSS has its url()s rewritten), or
    the source itself where files are served unhashed."""
    if isinstance(staticfiles_storage, ManifestFilesMixin):
        return Path(staticfiles_storage.path(staticfiles_storage.stored_name(path)))
    found = finders.find(path)
    if not found:
        raise FileNotFoundError(f"no static file {path}")
    return Path(found)


def _described(url: str, path: str) -> dict:
    # The runtime's plain names are served from the plain collected copies,
    # which hold the source's bytes.
    file = _served_file(path) if url == static(path) else Path(finders.find(path) or _served_file(path))
    size = file.stat().st_size
    return {"url": url, "bytes": size, "sha256": _sha256(file), "wire_bytes": wire_bytes(_collected(url, file), size)}


def _collected(url: str, source: Path) -> Path:
    """The copy WhiteNoise serves `url` from, beside which it keeps the compressed ones."""
    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        return source
    collected = Path(settings.STATIC_ROOT) / url.removeprefix(settings.STATIC_URL)
    return collected if collected.is_file() else source


def wire_bytes(file: Path, size: int) -> int:
    """What the file costs over the wire: its smallest compressed copy where
    WhiteNoise made one (collectstatic does, with DEBUG off), else its size."""
    copies = [file.with_name(file.name + suffix) for suffix in (".br", ".gz")]
    return min([size, *(copy.stat().st_size for copy in copies if copy.exists())])


def _shell_sources() -> list[Path]:
    found = []
    for name in SHELL_SOURCES:
        source = Path(settings.BASE_DIR) / name
        if source.is_dir():
            found += [path for path in source.rglob("*") if path.is_file() and path.suffix in {".html", ".mo"}]
        elif source.is_file():
            found.append(source)
    return sorted(found)


def _sha256(path: Path) -> str:
    stat = path.stat()
    return _sha256_of(str(path), stat.st_mtime_ns, stat.st_size)


@cache
def _sha256_of(path: str, mtime_ns: int, size: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
