from django.core.management.base import BaseCommand, CommandError

from frontend.vectors import REGENERATE, VECTORS_PATH, vectors_text


class Command(BaseCommand):
    help = (
        "Write the browser engine's test vectors (built from the Python engine by "
        "frontend/vectors.py) to frontend/static/frontend/vectors.json; with --check, only "
        "compare and exit non-zero when the file on disk is stale."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--check", action="store_true",
            help="do not write: fail when the file differs from what the engine generates",
        )

    def handle(self, *args, check, **options):
        text = vectors_text()
        if check:
            try:
                current = VECTORS_PATH.read_text(encoding="utf-8")
            except FileNotFoundError:
                raise CommandError(f"{VECTORS_PATH} is missing: run `{REGENERATE}`") from None
            if current != text:
                raise CommandError(f"{VECTORS_PATH} is stale: run `{REGENERATE}` and commit it")
            self.stdout.write(f"{VECTORS_PATH} is up to date")
            return
        VECTORS_PATH.parent.mkdir(parents=True, exist_ok=True)
        VECTORS_PATH.write_text(text, encoding="utf-8")
        self.stdout.write(f"wrote {VECTORS_PATH} ({len(text):,} bytes)")
