"""Verifying JSON Lines of games (rules section 8), shared by ``manage.py replay``."""

import json
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

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


#: The fields of a recorded result that a replay must give again (``ReplayResult.to_dict``).
RESULT_FIELDS = (
    "ok",
    "won",
    "score",
    "moves",
    "foundation",
    "undos",
    "take_backs",
    "stock_passes",
    "waste_to_column",
    "index",
)


def verify_archived(line: str | bytes) -> tuple[dict[str, Any] | None, list[str]]:
    """An archived game (``manage.py archive_month``: a line with its ``deal``, ``actions`` and the
    server's ``result``) replayed: the line's object (None when it is not JSON) and the names of
    the recorded result's fields the replay disagrees with (``["result"]`` when the line has no
    usable result). A line without ``actions`` is an attempt never submitted: nothing to check."""
    try:
        game = json.loads(line)
    except (ValueError, RecursionError):
        return None, ["line"]
    if not isinstance(game, dict):
        return None, ["line"]
    if "actions" not in game:
        return game, []
    recorded = game.get("result")
    if not isinstance(recorded, dict) or "ok" not in recorded:
        return game, ["result"]
    replayed = verify_line(line).to_dict()
    return game, [name for name in RESULT_FIELDS if name in recorded and recorded[name] != replayed[name]]


@dataclass
class ArchiveCheck:
    """What ``check_archive`` found: lines read, games replayed (lines with a log), and each
    mismatch as ``(line number, submission id or None, [fields])``."""

    lines: int = 0
    games: int = 0
    mismatches: list[tuple[int, object, list[str]]] = dc_field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every replayed game agrees with its recorded result."""
        return not self.mismatches


def check_archive(lines: Iterable[str | bytes]) -> ArchiveCheck:
    """Replay every game of an archive's lines (an iterable of JSON lines; blank lines skipped)
    and compare each with its recorded result."""
    report = ArchiveCheck()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        report.lines += 1
        game, differing = verify_archived(line)
        if game is not None and "actions" in game:
            report.games += 1
        if differing:
            submission = (game or {}).get("submission") or {}
            report.mismatches.append(
                (number, submission.get("id") if isinstance(submission, dict) else None, differing)
            )
    return report
