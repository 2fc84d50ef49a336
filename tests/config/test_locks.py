"""The locks (requirements*.txt) still match the files they are compiled from (requirements*.in).

pip-compile writes each lock; nothing checks by itself that it was run again after an .in file
changed. These tests read the files only: no pip, no network.
"""

import re
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
RUNTIME_LOCK = "requirements.txt"
# Compiled in this order, each one constrained (-c) by the lock before it.
PAIRS = [
    ("requirements.in", RUNTIME_LOCK),
    ("requirements-local.in", "requirements-local.txt"),
    ("requirements-dev.in", "requirements-dev.txt"),
]
INCLUDE = re.compile(r"^(-r|--requirement|-c|--constraint)\s*=?\s*(\S+)$")
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$")
VIA_PREFIX = re.compile(r"^via\b\s*")
VIA_FILE = re.compile(r"^-r\s+(\S+\.in)$")


def _lines(path: Path) -> list[str]:
    """Non-empty lines without comments."""
    lines = (re.sub(r"(^|\s)#.*", "", line).strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def named_requirements(in_file: str) -> list[Requirement]:
    """The requirements written in this .in file itself (not those of the files it includes)."""
    return [Requirement(line) for line in _lines(ROOT / in_file) if not line.startswith("-")]


def all_requirements(in_file: str) -> list[Requirement]:
    """This .in file's requirements and, following -r, those of the files it includes."""
    found = list(named_requirements(in_file))
    for line in _lines(ROOT / in_file):
        match = INCLUDE.match(line)
        if match and match.group(1) in ("-r", "--requirement"):
            found += all_requirements(match.group(2))
    return found


class LockEntry:
    def __init__(self, name: str, version: str, hashes: list[str], via: list[str]):
        self.name, self.version, self.hashes, self.via = name, version, hashes, via


def read_lock(lock: str) -> dict[str, LockEntry]:
    """The lock's entries by canonical name: version, hashes and what pip-compile says
    each came from (its "# via" annotation)."""
    entries: dict[str, LockEntry] = {}
    current: LockEntry | None = None
    text = (ROOT / lock).read_text().replace("\\\n", " ")
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            # An entry's annotation is indented under it; a comment at the margin is the file's.
            if not line[0].isspace():
                current = None
            elif current is not None and (via := VIA_PREFIX.sub("", stripped.lstrip("# "))):
                current.via.append(via)
            continue
        if line[0].isspace() or stripped.startswith("-"):
            raise AssertionError(f"{lock}: a line pip-compile does not write: {line!r}")
        requirement, *options = stripped.split()
        match = PIN.match(requirement)
        assert match, f"{lock}: {requirement!r} is not pinned with =="
        hashes = [option for option in options if option.startswith("--hash=sha256:")]
        current = LockEntry(match.group(1), match.group(2), hashes, [])
        entries[canonicalize_name(current.name)] = current
    return entries


@pytest.fixture(scope="module")
def locks() -> dict[str, dict[str, LockEntry]]:
    return {lock: read_lock(lock) for _, lock in PAIRS}


@pytest.mark.parametrize(("in_file", "lock"), PAIRS)
def test_every_requirement_is_pinned_by_the_lock(in_file, lock, locks):
    entries = locks[lock]
    for requirement in all_requirements(in_file):
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        entry = entries.get(canonicalize_name(requirement.name))
        assert entry is not None, f"{lock} lacks {requirement} of {in_file}: compile it again"
        assert requirement.specifier.contains(entry.version, prereleases=True), (
            f"{lock} pins {entry.name}=={entry.version}, outside {requirement} of {in_file}: compile it again"
        )


@pytest.mark.parametrize("lock", [lock for _, lock in PAIRS])
def test_every_entry_has_a_hash(lock, locks):
    assert locks[lock], f"{lock} has no entries"
    for entry in locks[lock].values():
        assert entry.hashes, f"{lock}: {entry.name} has no --hash (pip install --require-hashes fails)"


@pytest.mark.parametrize("lock", [lock for _, lock in PAIRS])
def test_no_entry_claims_an_in_file_that_no_longer_names_it(lock, locks):
    for key, entry in locks[lock].items():
        for via in entry.via:
            match = VIA_FILE.match(via)
            if not match:
                continue
            names = {canonicalize_name(r.name) for r in named_requirements(match.group(1))}
            assert key in names, f"{lock}: {entry.name} is 'via {via}', which no longer names it: compile it again"


def test_the_runtime_versions_agree_across_the_locks(locks):
    """What the tests and make run use is what production installs, version for version."""
    for earlier, later in zip(PAIRS, PAIRS[1:]):
        before, after = locks[earlier[1]], locks[later[1]]
        for key, entry in before.items():
            assert key in after, f"{later[1]} lacks {entry.name} of {earlier[1]}"
            assert after[key].version == entry.version, (
                f"{entry.name}: {earlier[1]} pins {entry.version}, {later[1]} {after[key].version}"
            )


def test_the_runtime_lock_has_what_the_worker_imports(locks):
    """kombu's Redis transport imports packaging without declaring it (the worker and beat of
    a production install died at start without it)."""
    assert "packaging" in locks[RUNTIME_LOCK]
