"""What git and docker build contexts ignore: the project's own local state, and no leftovers
of a database it does not use (PostgreSQL only: config/settings.py refuses anything else)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", [".gitignore", ".dockerignore"])
def test_the_ignore_files_name_the_local_state_and_no_sqlite(name):
    patterns = [
        line.strip() for line in (ROOT / name).read_text().splitlines() if line.strip() and not line.startswith("#")
    ]
    assert [p for p in patterns if "sqlite" in p] == []
    assert {".local", ".venv"} <= {p.rstrip("/") for p in patterns}
