import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.cards import NAME
from games.deal import InvalidCode, deal, parse_code


class Command(BaseCommand):
    help = "Print the layout of a deal code as JSON: columns bottom to top, stock in draw order."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("code", help="a deal code such as EH1-N-AAAAAAF")

    def handle(self, *args: Any, code: str, **options: Any) -> None:
        try:
            parsed = parse_code(code)
        except InvalidCode as exc:
            raise CommandError(str(exc)) from None
        layout = deal(parsed.number)
        self.stdout.write(
            json.dumps(
                {
                    "code": code,
                    "number": parsed.number,
                    "columns": [[NAME[c] for c in column] for column in layout.columns],
                    "stock": [NAME[c] for c in layout.stock],
                }
            )
        )
