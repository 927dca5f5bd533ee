"""The layering of ../shared/design/architecture.md holds: pyproject.toml's
import-linter contracts pass (the engine imports no Django, after_commit no
action, only URL and routing modules import views, API and consumers, games/
in layers, and no import circle anywhere, imports inside functions counted)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    command = [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(root)})


def test_every_import_contract_is_kept():
    finished = lint_imports(ROOT)

    assert finished.returncode == 0, finished.stdout[-4000:] + finished.stderr[-2000:]
    assert "0 broken" in finished.stdout


def test_an_import_inside_a_function_that_closes_a_circle_breaks_the_contracts(tmp_path):
    """As the old scheduling did: it imported the tasks inside a function, and the tasks import the actions."""
    root_packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
    for package in root_packages:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    turns = tmp_path / "games" / "after_commit" / "turns.py"
    turns.write_text(turns.read_text() + "\n\ndef _send_directly():\n    from games import tasks  # noqa\n")

    finished = lint_imports(tmp_path)

    assert finished.returncode != 0
    assert "No module imports another in a circle, at any depth BROKEN" in finished.stdout
    assert "What happens after a commit imports no action BROKEN" in finished.stdout
