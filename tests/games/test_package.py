"""games/ is a library: it imports no private name across its modules and finds no file
by its own location (nothing in tests/ or frontend/: its commands open only the paths
they are given); the engine, all of it but the management commands, needs nothing but
the standard library (no Django)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import games

GAMES = Path(games.__file__).resolve().parent
MODULES = sorted(GAMES.rglob("*.py"))
#: The engine: every module but the Django management commands.
ENGINE = [path for path in MODULES if "management" not in path.relative_to(GAMES).parts]


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(GAMES)))
def test_no_private_import_and_no_path_of_its_own(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            private = [alias.name for alias in node.names if alias.name.startswith("_")]
            assert not private, f"{path.name} imports private {private} from {node.module}"
        if isinstance(node, ast.Name):
            assert node.id != "__file__", f"{path.name} locates files from its own path"


@pytest.mark.parametrize("path", ENGINE, ids=lambda path: str(path.relative_to(GAMES)))
def test_the_engine_imports_only_the_standard_library(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        outside = [name for name in names if name.split(".")[0] not in sys.stdlib_module_names]
        assert not outside, f"{path.name} imports {outside}: the engine uses the standard library only"


def test_importing_the_engine_loads_no_django():
    modules = ", ".join(f"games.{path.stem}" for path in ENGINE if path.stem != "__init__")
    script = f"import sys, games, {modules}; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    run = subprocess.run([sys.executable, "-c", script], cwd=GAMES.parent, capture_output=True, text=True, check=True)
    loaded = run.stdout
    assert loaded.strip() == "[]"
