"""games/ is a library: it imports no private name across its modules and finds no file
by its own location (nothing in tests/ or frontend/: its commands open only the paths
they are given)."""

import ast
from pathlib import Path

import pytest

import games

GAMES = Path(games.__file__).resolve().parent
MODULES = sorted(GAMES.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(GAMES)))
def test_no_private_import_and_no_path_of_its_own(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            private = [alias.name for alias in node.names if alias.name.startswith("_")]
            assert not private, f"{path.name} imports private {private} from {node.module}"
        if isinstance(node, ast.Name):
            assert node.id != "__file__", f"{path.name} locates files from its own path"
