"""make run's data folder, which the settings' defaults (ARCHIVE_DIR) are in: the standard
library only, since the settings import it. The launcher itself is a developer tool,
tools/stack (``python -m tools.stack``), which the image does not ship."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    """make run's PostgreSQL and Redis data, beat's schedule (git-ignored)."""
    return Path(os.environ.get("EASYHARP_DATA_DIR") or ROOT / ".local").resolve()


def __getattr__(name: str):
    """Until tests/reliability/conftest.py and tests/production/test_smoke.py import these from
    tools.stack (then this goes): the launcher's helpers that used to live here."""
    if name in ("free_port", "redis_server_binary"):
        from tools.stack import process, servers

        return getattr(process if name == "free_port" else servers, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
