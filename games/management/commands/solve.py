import json
import random
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import solver
from games.deal import InvalidCode, format_code, parse_code
from games.replay import replay

#: The won-games corpus: these deals first, then numbers drawn with this seed; every
#: CORPUS_DAILY_EVERY-th game is written with a deal-of-the-day (D) code.
CORPUS_FIRST = (1, 5, 999_999)
CORPUS_SEED = 20_240_601
CORPUS_DAILY_EVERY = 6


class Command(BaseCommand):
    help = (
        "Search a winning move log for a deal code and print it as JSON "
        '{"code", "won", "actions", "nodes", "seconds"}; with --write-corpus FILE, write '
        "the won-games corpus (JSON Lines, no take-backs) instead."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("code", nargs="?", help="a deal code such as EH1-N-AAAAAAF")
        parser.add_argument(
            "--nodes",
            type=int,
            default=solver.DEFAULT_NODE_LIMIT,
            help=f"node budget, the limit that keeps answers deterministic (default {solver.DEFAULT_NODE_LIMIT:,})",
        )
        parser.add_argument(
            "--time-limit",
            type=float,
            default=None,
            help="seconds, a safety net only (an answer cut by it depends on the machine)",
        )
        parser.add_argument("--no-take-backs", action="store_true", help="never move a card back from a foundation")
        parser.add_argument(
            "--write-corpus", metavar="FILE", help="write won games (e.g. tests/data/won_games.jsonl) and exit"
        )
        parser.add_argument("--count", type=int, default=48, help="games in the corpus (default 48)")

    def handle(
        self,
        *args: Any,
        code: str | None,
        nodes: int,
        time_limit: float | None,
        no_take_backs: bool,
        write_corpus: str | None,
        count: int,
        **options: Any,
    ) -> None:
        if nodes < 0:
            raise CommandError("--nodes must be 0 or more")
        if write_corpus:
            self._write_corpus(write_corpus, count, nodes)
            return
        if code is None:
            raise CommandError("give a deal code such as EH1-N-AAAAAAF (or --write-corpus FILE)")
        try:
            parsed = parse_code(code)
        except InvalidCode as exc:
            raise CommandError(str(exc)) from None
        found = solver.solve(parsed.number, node_limit=nodes, time_limit=time_limit, take_backs=not no_take_backs)
        self.stdout.write(
            json.dumps(
                {
                    "code": code,
                    "won": found.won,
                    "actions": found.actions,
                    "nodes": found.nodes,
                    "seconds": round(found.seconds, 3),
                }
            )
        )

    def _write_corpus(self, path: str, count: int, nodes: int) -> None:
        """Won games without take-backs, each replayed and stored with its verdict."""
        rng = random.Random(CORPUS_SEED)
        numbers = list(CORPUS_FIRST)
        lines: list[str] = []
        seen: set[int] = set()
        while len(lines) < count:
            if not numbers:
                numbers.append(rng.randint(1, 999_999))
            number = numbers.pop(0)
            if number in seen:
                continue
            seen.add(number)
            found = solver.solve(number, node_limit=nodes, take_backs=False)
            if not found.won:
                self.stderr.write(f"deal {number}: not won within {nodes:,} nodes, skipped")
                continue
            mode = "D" if len(lines) % CORPUS_DAILY_EVERY == CORPUS_DAILY_EVERY - 1 else "N"
            code = format_code(number, mode)
            result = replay(code, found.actions)
            if not (result.ok and result.won and result.take_backs == 0):
                raise CommandError(f"{code}: the solver's log does not replay as a won game: {result}")
            lines.append(
                json.dumps(
                    {
                        "deal": code,
                        "actions": found.actions,
                        "won": True,
                        "score": result.score,
                        "moves": result.moves,
                        "foundation": result.foundation,
                    }
                )
            )
            self.stderr.write(
                f"{code}: {len(found.actions)} actions, score {result.score}, "
                f"{found.nodes:,} nodes, {found.seconds:.2f} s"
            )
        with open(path, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
        self.stdout.write(f"wrote {len(lines)} won games to {path}")
