"""leaderboard/ keeps one job per folder: no module reaches into another's private names (nor
does frontend/), no module grows past MAX_LINES, at most MAX_LOOSE files lie at the app's top,
and its folders import each other without a loop (the top's modules, ``models`` re-exporting
the folders' models, count as nodes of their own)."""

import ast
from pathlib import Path

import pytest

import frontend
import leaderboard

APP = Path(leaderboard.__file__).resolve().parent
FRONTEND = Path(frontend.__file__).resolve().parent
MAX_LINES, MAX_LOOSE = 350, 6
MODULES = sorted(APP.rglob("*.py"))
CHECKED = MODULES + sorted(FRONTEND.rglob("*.py"))


def dotted(path: Path) -> str:
    root = APP.parent if path.is_relative_to(APP) else FRONTEND.parent
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path):
    """``(module, name)`` of every ``from module import name`` of ``path``, its relative
    modules resolved, and ``(module, None)`` of every ``import module``."""
    package = dotted(path).split(".") if path.name == "__init__.py" else dotted(path).split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                yield module, alias.name, alias.asname
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, alias.asname


def ours(module: str) -> bool:
    return module.split(".")[0] in ("leaderboard", "frontend")


def is_module(module: str) -> bool:
    root = APP.parent
    return (root / Path(*module.split("."))).with_suffix(".py").exists() or (root / Path(*module.split("."))).is_dir()


@pytest.mark.parametrize("path", CHECKED, ids=lambda path: dotted(path))
def test_no_private_name_is_imported_across_modules(path):
    modules = set()  # names bound to a module of ours: their private attributes are private too
    for module, name, asname in imported(path):
        if not ours(module):
            continue
        if name is not None:
            assert not name.startswith("_"), f"{dotted(path)} imports private {name} from {module}"
            if is_module(f"{module}.{name}"):
                modules.add(asname or name)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            pytest.fail(f"{dotted(path)} reads private {node.value.id}.{node.attr}")


@pytest.mark.parametrize("path", MODULES, ids=lambda path: dotted(path))
def test_no_module_is_over_the_line_limit(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{dotted(path)} has {lines} lines (at most {MAX_LINES}): split it by job"


def test_few_files_lie_loose_at_the_top():
    loose = sorted(p.name for p in APP.iterdir() if p.is_file())
    assert len(loose) <= MAX_LOOSE, f"loose at the top of leaderboard/: {loose}"


def node_of(module: str) -> str | None:
    """A folder of the app (``leaderboard.boards``) or a module at its top (``leaderboard.models``)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "leaderboard" and len(parts) > 1 else None


def test_the_folders_import_each_other_without_a_loop():
    edges: dict[str, set[str]] = {}
    for path in MODULES:
        source = node_of(dotted(path))
        if source is None:
            continue
        for module, name, _ in imported(path):
            target = node_of(module) or (node_of(f"{module}.{name}") if name and module == "leaderboard" else None)
            if target and target != source:
                edges.setdefault(source, set()).add(target)
    state: dict[str, str] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for target in sorted(edges.get(node, ())):
            if state.get(target) == "open":
                pytest.fail("import loop: " + " -> ".join(trail[trail.index(target) :] + [target]))
            if target not in state:
                visit(target, [*trail, target])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
