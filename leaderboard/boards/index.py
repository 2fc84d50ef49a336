"""The Redis index of the boards: per board a sorted set of the entries by ``order.rank_key``,
with each entry's row as a page shows it, so a page or a player's own rank is one Redis call.

PostgreSQL is the record (``entries``); this is a copy of it, rebuilt from it when lost. The
index runs on the project's one Redis connection (django-redis's, config/settings.py CACHES):
one pool, one set of timeouts. Its Lua scripts (``scripts``) are loaded once per Redis server,
by their sha.
"""

import time
from typing import cast

import redis
from django_redis import get_redis_connection
from redis.typing import EncodableT

from ..core import cache
from . import scripts
from .order import LAYOUT, member, submission_of

#: The Redis keys of the index start with this: a new layout of ``order.rank_key`` takes a new
#: prefix, so indexes of the old keys are ignored and each board is rebuilt from PostgreSQL.
KEY_PREFIX = f"lb{LAYOUT}"
#: One sorted set of every indexed board -> the unix time of its last write (``BoardIndex.idle``).
TOUCHED = f"{KEY_PREFIX}:touched"
#: How long a board's rows live after its last write (readers fill what is missing).
ROWS_SECONDS = scripts.ROWS_SECONDS


class NotReady(Exception):
    """The board's index does not hold the whole record (lost, or never built)."""


class BoardIndex:
    """Per board: a sorted set (member: time:submission), a hash player -> member, a hash
    member -> row (the row as a page shows it, rank aside: ``rows``), and a ``ready``
    flag meaning the set holds every entry of the board's record. A row may be missing (an
    index built before rows were kept, a renamed player): readers fill it from PostgreSQL."""

    def __init__(self, client: redis.Redis):
        self.client = client

    @staticmethod
    def _keys(board: str) -> tuple[str, str, str, str]:
        head = f"{KEY_PREFIX}:{board}"
        return f"{head}:z", f"{head}:h", f"{head}:r", f"{head}:ready"

    def set_entries(self, player_id: int, entries: dict) -> dict[str, int | None]:
        """Set a player's entry on several boards in one round trip (one script: a pipeline
        of scripts would first ask whether they are loaded), better or worse than before:
        ``{board: (rank_key, member, row) or None to remove}``. Answers, per board, the lowest
        0-based rank the change touched (-1: nothing changed; None: unknown, the index is
        not ready)."""
        keys: list[str] = [TOUCHED]
        args: list[EncodableT] = [player_id, int(time.time())]
        for board, entry in entries.items():
            key, member_text, row = entry if entry is not None else (0, "", b"")
            keys += self._keys(board)
            args += (board, member_text, key, row)
        ranks = scripts.SET(keys=keys, args=args, client=self.client) if entries else []
        return {board: None if rank == -2 else rank for board, rank in zip(entries, ranks)}

    def is_ready(self, board: str) -> bool:
        return bool(self.client.exists(self._keys(board)[3]))

    def are_ready(self, boards: list[str]) -> list[bool]:
        """``is_ready`` of each board, in one round trip."""
        pipe = self.client.pipeline(transaction=False)
        for board in boards:
            pipe.exists(self._keys(board)[3])
        return [bool(found) for found in pipe.execute()]

    def rebuild(self, board: str, entries) -> int:
        """Load ``(player_id, rank_key, submitted_at, submission_id, row)`` rows (row: bytes,
        or empty to leave it to readers), then mark ready."""
        zset, players, rows, ready = self._keys(board)
        count = 0
        batch: list = []
        pipe = self.client.pipeline(transaction=False)
        for player_id, key, submitted_at, submission_id, row in entries:
            batch += (player_id, member(submitted_at, submission_id), key, row)
            count += 1
            if len(batch) == 4 * 1000:
                scripts.UPSERT_MANY(keys=[zset, players, rows], args=batch, client=pipe)
                batch = []
                if count % 20_000 == 0:
                    pipe.execute()
        if batch:
            scripts.UPSERT_MANY(keys=[zset, players, rows], args=batch, client=pipe)
        pipe.set(ready, 1)
        pipe.zadd(TOUCHED, {board: int(time.time())})
        pipe.execute()
        return count

    def size(self, board: str) -> int:
        return self.client.zcard(self._keys(board)[0])

    def page(self, board: str, offset: int, limit: int) -> list[int]:
        """Submission ids ranked ``offset`` .. ``offset + limit - 1`` (0-based)."""
        if limit <= 0:  # ZRANGE 0 -1 would be the whole board
            return []
        # bytes: the connection does not decode its answers
        members = cast(list[bytes], self.client.zrange(self._keys(board)[0], offset, offset + limit - 1))
        return [submission_of(m) for m in members]

    def page_rows(self, board: str, offset: int, limit: int) -> tuple[int, list[tuple[bytes, bytes | None]]]:
        """``(size, [(member, row or None), ...])`` of the members ranked ``offset`` ..
        ``offset + limit - 1``, in one round trip. Raises ``NotReady``."""
        zset, _, rows, ready = self._keys(board)
        if limit <= 0:  # ZRANGE 0 -1 would be the whole board: ask for ranks 1 .. 0, none
            offset, limit = 1, 0
        answer = scripts.PAGE(keys=[zset, rows, ready], args=[offset, offset + limit - 1], client=self.client)
        if not answer:
            raise NotReady(board)
        total, members, found = answer
        return total, list(zip(members, found))

    def around(self, board: str, player_id: int, radius: int) -> tuple[int | None, int, list, int]:
        """``(rank, offset, [(member, row or None), ...], size)``: the player's 0-based rank
        (None when not on the board), the members ranked ``rank - radius`` .. ``rank + radius``
        (from ``offset``, never below 0) and the board's size, in one round trip. Raises
        ``NotReady``."""
        answer = scripts.AROUND(keys=self._keys(board), args=[player_id, radius, 2 * radius + 1], client=self.client)
        if not answer:
            raise NotReady(board)
        if len(answer) == 1:
            return None, 0, [], answer[0]
        total, rank, offset, members, found = answer
        return rank, offset, list(zip(members, found)), total

    def around_held(
        self, board: str, player_key: str, radius: int, keys: list[str], holding: list[int]
    ) -> tuple[list, int | None, tuple | None]:
        """``around`` of the player whose id the key ``player_key`` holds, and the values of
        ``keys`` (raw, None where missing), in one round trip: ``(values, player id or None,
        around or None)``. The rows are not read (around None) when there is no such player,
        when the index is not ready, or when ``holding`` (the values of ``keys`` that the caller
        holds an answer for) are the values now."""
        names = [*self._keys(board), player_key, *keys]
        args = [radius, 2 * radius + 1, *holding]
        try:  # every around=me poll: without the client's wrapper (``cache.command``)
            answer = cache.command("EVALSHA", scripts.AROUND_HELD.sha, len(names), *names, *args, client=self.client)
        except redis.exceptions.NoScriptError:  # not loaded on this server yet
            answer = scripts.AROUND_HELD(keys=names, args=args, client=self.client)
        values, player = answer[0], answer[1]
        found = answer[2] if len(answer) > 2 else None
        if not found:
            return values, None if player is None else int(player), None
        if len(found) == 1:
            return values, int(player), (None, 0, [], found[0])
        total, rank, offset, members, rows = found
        return values, int(player), (rank, offset, list(zip(members, rows)), total)

    def rank_of(self, board: str, player_id: int) -> int | None:
        """A player's 0-based rank, or None when they are not on the board. Raises ``NotReady``."""
        zset, players, _, ready = self._keys(board)
        rank = scripts.RANK(keys=[zset, players, ready], args=[player_id], client=self.client)
        if rank == -2:
            raise NotReady(board)
        return None if rank < 0 else rank

    def players(self, board: str, player_ids: list[int]) -> list[tuple[int, int, bytes, bytes | None]]:
        """``(player id, 0-based rank, member, row or None)`` of each of the players who is on
        the board, in no particular order, in one round trip. Raises ``NotReady``."""
        if not player_ids:
            return []
        answer = scripts.PLAYERS(keys=self._keys(board), args=[",".join(map(str, player_ids))], client=self.client)
        if answer is None:
            raise NotReady(board)
        return [(int(player), rank, member, row) for player, rank, member, row in answer]

    def fill_rows(self, board: str, rows: dict) -> None:
        """Store ``{member: row}`` for the members still on the board."""
        if rows:
            zset, _, row_key, _ = self._keys(board)
            args = [part for pair in rows.items() for part in pair]
            scripts.FILL(keys=[zset, row_key], args=args, client=self.client)

    def claim_rebuild(self, board: str, seconds: int = 300) -> bool:
        """Whether the caller may rebuild the board's index now (nobody else is, or the one who
        was has been gone ``seconds``); ``release_rebuild`` when done."""
        return bool(self.client.set(f"{KEY_PREFIX}:{board}:rebuilding", 1, nx=True, ex=seconds))

    def release_rebuild(self, board: str) -> None:
        self.client.delete(f"{KEY_PREFIX}:{board}:rebuilding")

    def drop(self, board: str) -> None:
        # UNLINK frees the members in the background: DEL of a million-entry board blocks
        # Redis for about 2 s, longer than any client's socket timeout.
        pipe = self.client.pipeline(transaction=False)
        pipe.unlink(*self._keys(board))
        pipe.zrem(TOUCHED, board)
        pipe.execute()

    def idle(self, before: float) -> list[str]:
        """The boards with no write since the unix time ``before`` (a rebuild counts as one)."""
        boards = cast(list[bytes], self.client.zrangebyscore(TOUCHED, "-inf", before))  # not decoded
        return [board.decode() for board in boards]

    def evict(self, board: str) -> bool:
        """Drop an idle board's index unless it is being rebuilt (its claim is held meanwhile, so
        no rebuild marks a half-dropped index ready). Whether it was dropped."""
        if not self.claim_rebuild(board):
            return False
        try:
            self.drop(board)
        finally:
            self.release_rebuild(board)
        return True


def board_index() -> BoardIndex:
    """The index on the project's Redis connection (django-redis's client of the default cache,
    the one the cache and the throttles use), as it is now: no client of its own is kept, so a
    change of the cache's settings (in tests) is followed at once."""
    return BoardIndex(get_redis_connection("default"))
