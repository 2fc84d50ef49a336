import gzip
import json
import os
import stat
import sys
import zlib
from argparse import ArgumentParser
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError

from games.lines import check_archive, verify_line

#: Files at least this large get a progress bar, when one can be seen.
PROGRESS_MIN_BYTES = 256 * 1024


class Command(BaseCommand):
    help = (
        "Verify games from JSON Lines (one {deal, actions} object per line; FILE or - for "
        "standard input) and write one JSON verdict per line, in order (a blank line is not a game). "
        "With --archive: check a month's archive (manage.py archive_month, gzip) offline: every log "
        "replayed against its recorded result; counts, each mismatch, and exit status 1 on any."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", nargs="?", help="a JSON Lines file, or - for standard input")
        parser.add_argument("--archive", metavar="FILE", help="an archive file (.jsonl.gz) to verify")

    def handle(self, *args: Any, file: str | None = None, archive: str | None = None, **options: Any) -> None:
        if archive is not None:
            return self._archive(archive)
        if file is None:
            raise CommandError("name a JSON Lines file (or -), or --archive FILE")
        try:
            source = sys.stdin.buffer if file == "-" else open(file, "rb")
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        total = _size_if_regular(source)
        bar = _Progress(total) if total >= PROGRESS_MIN_BYTES and _progress_visible() else None
        out = sys.stdout
        with source:
            for line in source:
                if bar:
                    bar.advance(len(line))
                out.write(json.dumps(verify_line(line).to_wire()) + "\n")
        out.flush()
        if bar:
            bar.finish()

    def _archive(self, path: str) -> None:
        try:
            with gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb") as source:
                report = check_archive(source)
        except (OSError, EOFError, zlib.error) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from None
        for number, submission, fields in report.mismatches:
            self.stdout.write(f"mismatch at line {number} (submission {submission}): {', '.join(fields)}")
        self.stdout.write(f"{report.lines} lines, {report.games} games replayed, {len(report.mismatches)} mismatches")
        if not report.ok:
            raise CommandError(f"{path}: {len(report.mismatches)} games differ from their recorded result")


def _size_if_regular(source: IO[bytes]) -> int:
    try:
        info = os.fstat(source.fileno())
    except (OSError, ValueError):
        return 0
    return info.st_size if stat.S_ISREG(info.st_mode) else 0


def _progress_visible() -> bool:
    """A bar on the terminal, and none when the output goes into a pipe."""
    try:
        piped = stat.S_ISFIFO(os.fstat(sys.stdout.fileno()).st_mode)
    except (OSError, ValueError):
        piped = True
    return sys.stderr.isatty() and not piped


class _Progress:
    """A one-line progress bar on standard error, redrawn at each whole percent."""

    WIDTH = 40

    def __init__(self, total: int) -> None:
        self.total, self.done, self.shown = total, 0, -1

    def advance(self, n: int) -> None:
        self.done += n
        percent = self.done * 100 // self.total
        if percent != self.shown:
            self.shown = percent
            filled = self.WIDTH * percent // 100
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {percent:3d}%")
            sys.stderr.flush()

    def finish(self) -> None:
        sys.stderr.write("\n")
