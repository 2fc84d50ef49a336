"""The ranking order, packed into one integer, and the boards' names (``Board``): pure Python,
no Django, no Redis.

Order on every board: every result without hints before every result with hints; within
each, wins before losses. Wins: fewer moves, then higher score, then shorter duration.
Losses: more cards on the foundations, then fewer moves, then higher score, then shorter
duration. Then, always, earlier submission. Moves come before score because take-backs are
free and a card earns +10 every time it lands on a foundation, so a score can be farmed
without limit; the move counter cannot.

All but the submission time are packed into one integer below 2**53 (exact in a Redis
sorted set's double score); equal keys fall back to the member, which starts with the
submission time in microseconds, so Redis sorts exactly like PostgreSQL's
``ORDER BY rank_key, submitted_at, submission_id``.
"""

from datetime import date, datetime
from typing import NamedTuple

#: The layout of ``rank_key``. A new layout takes a new number: the Redis index lives under a
#: prefix made of it (``index.KEY_PREFIX``), so indexes of the old keys are ignored and each
#: board is rebuilt from PostgreSQL when read.
LAYOUT = 2

#: The tier in the top 2 bits: 0 won, 1 lost, 2 won with hints, 3 lost with hints.
TIER_BITS, BODY_BITS = 2, 51
DECK = 104
MOVES_BITS, SCORE_BITS = 16, 16
WON_SECONDS_BITS = 19  # about 6 days
LOST_FOUNDATION_BITS, LOST_SECONDS_BITS = 7, 12  # 104 cards; about 68 minutes
MOVES_CAP, SCORE_CAP = (1 << MOVES_BITS) - 1, (1 << SCORE_BITS) - 1
WON_SECONDS_CAP, LOST_SECONDS_CAP = (1 << WON_SECONDS_BITS) - 1, (1 << LOST_SECONDS_BITS) - 1


def rank_key(won: bool, moves: int, score: int, duration_ms: int, foundation: int = 0, hints: int = 0) -> int:
    """Lower is better. Moves and score are capped at 65,535, whole seconds at about 6 days
    for a win and 4,095 (68 minutes) for a loss: beyond a cap, results tie on that key and the
    next decides. ``foundation`` (cards on the foundations) orders losses only."""
    tier = (0 if won else 1) | (2 if hints else 0)
    moves, points = min(moves, MOVES_CAP), SCORE_CAP - min(score, SCORE_CAP)
    seconds = duration_ms // 1000
    if won:
        body = (((moves << SCORE_BITS) | points) << WON_SECONDS_BITS) | min(seconds, WON_SECONDS_CAP)
    else:
        missing = DECK - min(max(foundation, 0), DECK)
        body = (((((missing << MOVES_BITS) | moves) << SCORE_BITS) | points) << LOST_SECONDS_BITS) | min(
            seconds, LOST_SECONDS_CAP
        )
    return (tier << BODY_BITS) | body


class RankParts(NamedTuple):
    """What a rank key holds, each value as capped: a win has every card home."""

    won: bool
    hinted: bool
    moves: int
    score: int
    seconds: int
    foundation: int


def rank_parts(key: int) -> RankParts:
    """The inverse of ``rank_key``: the capped values it packed (``hinted``: some hint, not how many)."""
    tier, body = key >> BODY_BITS, key & ((1 << BODY_BITS) - 1)
    won, hinted = not tier & 1, bool(tier & 2)
    seconds_bits = WON_SECONDS_BITS if won else LOST_SECONDS_BITS
    seconds, body = body & ((1 << seconds_bits) - 1), body >> seconds_bits
    points, body = body & SCORE_CAP, body >> SCORE_BITS
    moves, missing = body & MOVES_CAP, body >> MOVES_BITS
    return RankParts(won, hinted, moves, SCORE_CAP - points, seconds, DECK - missing)


class Board(NamedTuple):
    """A board's name as a value: a day's board ``Board("daily", day=...)`` or a numbered deal's
    ``Board("deal", number=...)``. ``str()`` is the name the record and the index store
    ("daily:2026-11-29", "deal:12345"); ``parse`` reads one back, the only place that does."""

    kind: str
    day: date | None = None
    number: int | None = None

    def __str__(self) -> str:
        if self.kind == DAILY:
            assert self.day is not None, "a day's board names its day"
            return f"{DAILY}:{self.day.isoformat()}"
        return f"{DEAL}:{self.number}"

    @classmethod
    def parse(cls, name: str | bytes) -> "Board":
        """The board named ``name``; ValueError for a name that is no board's."""
        if isinstance(name, bytes):
            name = name.decode()
        kind, _, rest = name.partition(":")
        if kind == DAILY:
            return cls(DAILY, day=date.fromisoformat(rest))
        if kind == DEAL and rest.isascii() and rest.isdigit():
            return cls(DEAL, number=int(rest))
        raise ValueError(f"not a board's name: {name!r}")


#: The kinds of board, and the start of every name of a kind (``DAILY_PREFIX``: a prefix
#: query of the day boards in PostgreSQL).
DAILY, DEAL = "daily", "deal"
DAILY_PREFIX, DEAL_PREFIX = f"{DAILY}:", f"{DEAL}:"


def daily_board(day: date) -> str:
    """The board of ``day``'s deal of the day: the ranked attempts started that UTC day."""
    return str(Board(DAILY, day=day))


def deal_board(number: int) -> str:
    """The board of a numbered deal: the attempts played as that deal number."""
    return str(Board(DEAL, number=number))


def is_daily(board: str) -> bool:
    return board.startswith(DAILY_PREFIX)


def is_deal(board: str) -> bool:
    return board.startswith(DEAL_PREFIX)


def board_day(board: str) -> date | None:
    """The day of a daily board; None for any other board."""
    return Board.parse(board).day if is_daily(board) else None


def member(submitted_at: datetime, submission_id: int) -> str:
    """A result's member in a board's sorted set: the submission time in microseconds, then its
    id, zero-padded, so that Redis's byte order of equal scores is PostgreSQL's order."""
    return f"{int(submitted_at.timestamp() * 1_000_000):017d}:{submission_id:012d}"


def submission_of(member_text: str | bytes) -> int:
    """The submission id of a ``member``."""
    if isinstance(member_text, bytes):
        member_text = member_text.decode()
    return int(member_text.rsplit(":", 1)[1])
