"""Deal codes and the EH1 dealing algorithm (rules sections 3 and 4).

A deal number gives the same layout forever: nothing here may change under EH1.
"""

from dataclasses import dataclass

from .refusals import Refused, refuse

RULES_VERSION = "EH1"
MIN_DEAL, MAX_DEAL = 1, 999_999
MODES = {"N": "numbered deal", "D": "deal of the day"}
COLUMNS = 9
_LETTERS = 7


class InvalidCode(Refused):
    """A deal code that is not ``EH1-<N|D>-<7 upper-case letters>`` naming 1..999,999;
    ``.refusal`` says which part is wrong."""


@dataclass(frozen=True, slots=True)
class DealCode:
    """A parsed deal code: its ``mode`` (a key of MODES) and deal ``number`` (1..999,999);
    ``str`` writes the code again."""

    mode: str
    number: int

    def __str__(self) -> str:
        return format_code(self.number, self.mode)


def format_code(number: int, mode: str = "N") -> str:
    """``EH1-<mode>-<number in base 26, A=0, most significant first, 7 letters>``."""
    if mode not in MODES:
        raise InvalidCode(refuse("deal_mode_unknown", mode=mode))
    if not (isinstance(number, int) and MIN_DEAL <= number <= MAX_DEAL):
        raise InvalidCode(refuse("deal_number_range", number=number))
    letters = []
    for _ in range(_LETTERS):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("A") + digit))
    return f"{RULES_VERSION}-{mode}-{''.join(reversed(letters))}"


def parse_code(code: object) -> DealCode:
    """Parse a deal code; every kind of bad code raises InvalidCode saying why."""
    if not isinstance(code, str):
        raise InvalidCode(refuse("deal_code_not_string"))
    parts = code.split("-")
    if len(parts) != 3:
        raise InvalidCode(refuse("deal_code_shape", deal=code))
    version, mode, letters = parts
    if version != RULES_VERSION:
        raise InvalidCode(refuse("deal_code_version", deal=code, version=version))
    if mode not in MODES:
        raise InvalidCode(refuse("deal_code_mode", deal=code, mode=mode))
    if len(letters) != _LETTERS or not all("A" <= ch <= "Z" for ch in letters):
        raise InvalidCode(refuse("deal_code_letters", deal=code))
    number = 0
    for ch in letters:
        number = number * 26 + ord(ch) - ord("A")
    if not MIN_DEAL <= number <= MAX_DEAL:
        raise InvalidCode(refuse("deal_code_range", deal=code, number=number))
    return DealCode(mode, number)


def shuffled_deck(number: int) -> list[int]:
    """The 104-card deck of a deal, shuffled by the EH1 LCG (section 3 steps 1-3)."""
    deck = [c for _copy in (1, 2) for c in range(52)]
    state = number
    for i in range(len(deck) - 1, 0, -1):
        state = (state * 214013 + 2531011) & 0x7FFFFFFF
        j = (state >> 16) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True, slots=True)
class Layout:
    """A dealt table. ``columns`` are bottom to top, each with only its top card face up;
    ``stock`` lists cards in the order they will be drawn."""

    number: int
    columns: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]


def deal(number: int) -> Layout:
    """Deal a numbered deal: rows r = 0..8 over columns r..8, then the rest is the stock."""
    if not (isinstance(number, int) and MIN_DEAL <= number <= MAX_DEAL):
        raise InvalidCode(refuse("deal_number_range", number=number))
    deck = shuffled_deck(number)
    columns: list[list[int]] = [[] for _ in range(COLUMNS)]
    it = iter(deck)
    for row in range(COLUMNS):
        for col in range(row, COLUMNS):
            columns[col].append(next(it))
    stock = tuple(it)
    return Layout(number, tuple(tuple(col) for col in columns), stock)
