import json
import os
import stat
import sys

from django.core.management.base import BaseCommand, CommandError

from games.lines import verify_line

#: Files at least this large get a progress bar, when one can be seen.
PROGRESS_MIN_BYTES = 256 * 1024


class Command(BaseCommand):
    help = (
        "Verify games from JSON Lines (one {deal, actions} object per line; FILE or - for "
        "standard input) and write one JSON verdict per line, in order (a blank line is not a game)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON Lines file, or - for standard input")

    def handle(self, *args, file, **options):
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


def _size_if_regular(source) -> int:
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

    def __init__(self, total: int):
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
