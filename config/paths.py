"""make run's data folder, where the settings' defaults (ARCHIVE_DIR) and the launcher
(tools/stack) keep their files: the standard library only, since the settings import it."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    """make run's PostgreSQL and Redis data, beat's schedule (git-ignored): EASYHARP_DATA_DIR,
    else .local in the checkout."""
    return Path(os.environ.get("EASYHARP_DATA_DIR") or ROOT / ".local").resolve()
