"""Static files practice needs that do not live in static/: the Pyodide
runtime from node_modules and the engine zip built from games/engine.

Both are found like any static file, so `collectstatic` copies them (and
WhiteNoise hashes and compresses them) and, with DEBUG on, WhiteNoise serves
them straight from here.
"""

from __future__ import annotations

import json
import os
import tempfile
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.finders import BaseFinder
from django.contrib.staticfiles.utils import matches_patterns
from django.core.files.storage import FileSystemStorage

from .engine_zip import engine_zip_bytes

PYODIDE_DIR = Path(settings.BASE_DIR) / "node_modules" / "pyodide"
# What loadPyodide() fetches for the standard library alone: its module, the
# Emscripten module, the WebAssembly, the standard library and the package
# lock it reads at start-up. Nothing else of the npm package (consoles, maps,
# type definitions) is served.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
ENGINE_ZIP = "practice/engine.zip"


@cache
def pyodide_version() -> str:
    return json.loads((PYODIDE_DIR / "package.json").read_text())["version"]


def pyodide_prefix() -> str:
    """The runtime's folder under STATIC_URL, versioned: pyodide.mjs finds its
    siblings by name from this folder, so its names cannot carry hashes."""
    return f"pyodide/{pyodide_version()}"


class _Found(BaseFinder):
    """One folder's chosen files, under a static path prefix."""

    def storage(self) -> FileSystemStorage:
        raise NotImplementedError

    def names(self) -> tuple[str, ...]:
        raise NotImplementedError

    def prefix(self) -> str:
        raise NotImplementedError

    def find(self, path, find_all=False, **kwargs):
        prefix = self.prefix() + "/"
        if not path.startswith(prefix) or path[len(prefix):] not in self.names():
            return []  # as Django's finders answer: nothing found, whichever was asked
        found = self.storage().path(path[len(prefix):])
        return [found] if find_all else found

    def list(self, ignore_patterns):
        storage = self.storage()
        for name in self.names():
            if not matches_patterns(name, ignore_patterns or []):
                yield name, storage

    def check(self, **kwargs):
        return []


class PyodideFinder(_Found):
    def prefix(self) -> str:
        # Without node_modules the other static files are still found; only
        # listing (collectstatic) insists on the runtime.
        return pyodide_prefix() if (PYODIDE_DIR / "package.json").is_file() else "pyodide/missing"

    def storage(self) -> FileSystemStorage:
        storage = FileSystemStorage(location=PYODIDE_DIR)
        storage.prefix = pyodide_prefix()
        return storage

    def names(self) -> tuple[str, ...]:
        missing = [name for name in PYODIDE_FILES if not (PYODIDE_DIR / name).is_file()]
        if missing:
            # The site's pages work without it; practice cannot, and a silent
            # 404 in the browser would hide why.
            raise FileNotFoundError(f"{PYODIDE_DIR} lacks {', '.join(missing)}: run `make node` (npm ci)")
        return PYODIDE_FILES


class EngineZipFinder(_Found):
    """The zip is written under VAR_DIR/build/ on every find and list, and only
    when its bytes changed, so a changed engine file is served at once with
    DEBUG on and collected by the next `collectstatic`."""

    def prefix(self) -> str:
        return ENGINE_ZIP.rsplit("/", 1)[0]

    def storage(self) -> FileSystemStorage:
        folder, name = ENGINE_ZIP.rsplit("/", 1)
        location = Path(settings.VAR_DIR) / "build" / folder
        write_if_changed(location / name, engine_zip_bytes())
        storage = FileSystemStorage(location=location)
        storage.prefix = folder
        return storage

    def names(self) -> tuple[str, ...]:
        return (ENGINE_ZIP.rsplit("/", 1)[1],)


def write_if_changed(path: Path, data: bytes) -> None:
    try:
        if path.read_bytes() == data:
            return
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written aside and renamed: a server reading it meanwhile sees the old
    # zip or the new one, never half of one.
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".engine-", suffix=".zip")
    with os.fdopen(handle, "wb") as file:
        file.write(data)
    os.chmod(temporary, 0o644)
    os.replace(temporary, path)
