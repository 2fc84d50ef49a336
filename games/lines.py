"""Verifying JSON Lines of games (rules section 8), shared by ``manage.py replay``."""

import json

from .replay import ReplayResult, invalid, replay


def verify_line(line: str | bytes) -> ReplayResult:
    """One line of JSON Lines in, one verdict out; nothing escapes as an exception."""
    try:
        game = json.loads(line)
    except (ValueError, RecursionError):
        return invalid(None, "the line is not JSON")
    if not isinstance(game, dict):
        return invalid(None, "the line is not a JSON object with deal and actions")
    for key in ("deal", "actions"):
        if key not in game:
            return invalid(None, f"the game has no {key!r}")
    return replay(game["deal"], game["actions"])
