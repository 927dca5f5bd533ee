"""The rules engine as the browser loads it: a zip of games/engine's Python source.

Built from the source every time it is asked for, never kept by hand, so the
browser and the server play by the same rules. The bytes depend only on the
files' paths and contents (fixed timestamps and modes, sorted names), so the
zip's hash, and with it the offline download's version, changes exactly when
the engine does.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The oldest time a zip can hold: the same for every build.
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
# games/__init__.py imports nothing today, but the browser must never run the
# site's package code: an empty stub makes `games` a package and no more.
PACKAGE_STUB = "games/__init__.py"


def engine_sources(root: Path = ROOT) -> list[Path]:
    engine = root / "games" / "engine"
    return sorted(
        (path for path in engine.rglob("*.py") if "__pycache__" not in path.parts),
        key=lambda path: path.relative_to(root).as_posix(),
    )


def engine_zip_bytes(root: Path = ROOT) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        _add(archive, PACKAGE_STUB, b"")
        for path in engine_sources(root):
            _add(archive, path.relative_to(root).as_posix(), path.read_bytes())
    return buffer.getvalue()


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    info.create_system = 3  # Unix, whatever system builds it
    archive.writestr(info, data, compresslevel=9)
