"""The engine zip the browser loads: games/engine's Python files and an empty
`games` package, nothing else, the same bytes for the same source, other
bytes as soon as a source file changes, and found like any static file."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from django.contrib.staticfiles import finders

from practice.engine_zip import ROOT, engine_zip_bytes
from practice.finders import ENGINE_ZIP, PYODIDE_FILES, pyodide_prefix


def names_in(data: bytes) -> list[str]:
    return zipfile.ZipFile(io.BytesIO(data)).namelist()


def engine_files(root: Path) -> set[str]:
    return {path.relative_to(root).as_posix() for path in (root / "games" / "engine").rglob("*.py")}


def test_the_zip_holds_exactly_the_engine_s_python_files_and_an_empty_package_stub():
    data = engine_zip_bytes()
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert set(archive.namelist()) == engine_files(ROOT) | {"games/__init__.py"}
    assert len(archive.namelist()) == len(set(archive.namelist()))
    assert archive.read("games/__init__.py") == b""
    for name in engine_files(ROOT):
        assert archive.read(name) == (ROOT / name).read_bytes(), name
    assert not [name for name in archive.namelist() if "__pycache__" in name or not name.endswith(".py")]


def test_the_same_source_gives_the_same_bytes_and_a_changed_file_other_bytes(tmp_path):
    shutil.copytree(ROOT / "games" / "engine", tmp_path / "games" / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    first = engine_zip_bytes(tmp_path)
    (tmp_path / "games" / "engine" / "cards.py").touch()  # a new time alone changes nothing
    assert engine_zip_bytes(tmp_path) == first == engine_zip_bytes()

    septica = tmp_path / "games" / "engine" / "septica.py"
    septica.write_text(septica.read_text() + "\n# changed\n")
    changed = engine_zip_bytes(tmp_path)
    assert changed != first
    assert names_in(changed) == names_in(first)

    (tmp_path / "games" / "engine" / "new_rules.py").write_text("RULES = 1\n")
    assert "games/engine/new_rules.py" in names_in(engine_zip_bytes(tmp_path))


def test_the_engine_imports_from_the_zip_alone(tmp_path):
    """As in Pyodide: the zip on the path and nothing of the site importable."""
    archive = tmp_path / "engine.zip"
    archive.write_bytes(engine_zip_bytes())
    script = (
        "import sys; sys.path[:] = [p for p in sys.path if 'site-packages' not in p and p not in ('', '.')];"
        f"sys.path.insert(0, {str(archive)!r});"
        "import games, games.engine, games.engine.septica, games.engine.familie, games.engine.americana;"
        "from games.engine import rules_for;"
        "game = rules_for('septica').new_game(players=2, options={}, seed=7);"
        "print(games.__file__); print(len(game.view(0)['hand']))"
    )
    done = subprocess.run([sys.executable, "-I", "-c", script], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    where, hand = done.stdout.split()
    assert where.startswith(str(archive))
    assert int(hand) == 4


def test_the_zip_and_the_runtime_are_found_as_static_files():
    found = finders.find(ENGINE_ZIP)
    assert found and Path(found).read_bytes() == engine_zip_bytes()
    listed = {f"{getattr(storage, 'prefix', '')}/{path}".lstrip("/")
              for finder in finders.get_finders() for path, storage in finder.list([])}
    runtime = {name for name in listed if name.startswith("pyodide/")}
    assert runtime == {f"{pyodide_prefix()}/{name}" for name in PYODIDE_FILES}
    assert ENGINE_ZIP in listed
    # Only what Pyodide loads is served, not the rest of its npm package.
    assert finders.find(f"{pyodide_prefix()}/console.html") is None
    assert finders.find(f"{pyodide_prefix()}/pyodide.asm.wasm").endswith("node_modules/pyodide/pyodide.asm.wasm")
