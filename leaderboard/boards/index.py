"""The Redis index of the boards: per board a sorted set of the entries by ``order.rank_key``,
with each entry's row as a page shows it, so a page or a player's own rank is one Redis call.

PostgreSQL is the record (``entries``); this is a copy of it, rebuilt from it when lost. The
index runs on the project's one Redis connection (django-redis's, config/settings.py CACHES):
one pool, one set of timeouts. The Lua scripts are loaded once per Redis server, by their sha.
"""

import time
from typing import cast

import redis
from django_redis import get_redis_connection
from redis.commands.core import Script
from redis.typing import EncodableT

from .order import LAYOUT, member, submission_of

#: The Redis keys of the index start with this: a new layout of ``order.rank_key`` takes a new
#: prefix, so indexes of the old keys are ignored and each board is rebuilt from PostgreSQL.
KEY_PREFIX = f"lb{LAYOUT}"
#: One sorted set of every indexed board -> the unix time of its last write (``BoardIndex.idle``).
TOUCHED = f"{KEY_PREFIX}:touched"

# A rebuild's upsert, a thousand entries a round trip (KEYS: zset, players, rows; ARGV: player,
# member, score, row, player, ...): a player's member is replaced only when the new one ranks
# better (or there is none), so replaying a rebuild is harmless. An empty row stores none.
_UPSERT_MANY_LUA = """
local done = 0
for i = 1, #ARGV, 4 do
  local player, member, new_score, row = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), ARGV[i + 3]
  local old = redis.call('HGET', KEYS[2], player)
  local keep = false
  if old then
    local old_score = tonumber(redis.call('ZSCORE', KEYS[1], old))
    if old_score and (old_score < new_score or (old_score == new_score and old <= member)) then
      keep = true
    else
      redis.call('ZREM', KEYS[1], old)
      redis.call('HDEL', KEYS[3], old)
    end
  end
  if not keep then
    redis.call('ZADD', KEYS[1], new_score, member)
    redis.call('HSET', KEYS[2], player, member)
    if row ~= '' then redis.call('HSET', KEYS[3], member, row) end
    done = done + 1
  end
end
redis.call('EXPIRE', KEYS[3], ROWS_SECONDS)
return done
"""

# Sets a player's member on each board (KEYS: the touched set, then zset, players, rows, ready
# of each; ARGV: player, unix time, then board, member, score and row per board), better or
# worse than before, or removes it (member empty), records the board's last write in the
# touched set (``BoardIndex.idle``), and answers per board the lowest 0-based rank the change touched: the old member's
# rank before, the new one's after; -1 when the ranks did not change; -2 when the index is not
# ready (ranks unknown). The row is stored even when the ranks did not change (a renamed player).
_SET_LUA = """
local player, now, answers = ARGV[1], ARGV[2], {}
for b = 1, (#KEYS - 1) / 4 do
  local zset, hash, rows, ready = KEYS[4 * b - 2], KEYS[4 * b - 1], KEYS[4 * b], KEYS[4 * b + 1]
  local board, member, score, row = ARGV[4 * b - 1], ARGV[4 * b], tonumber(ARGV[4 * b + 1]), ARGV[4 * b + 2]
  redis.call('ZADD', KEYS[1], now, board)
  local old = redis.call('HGET', hash, player)
  local lowest = -1
  if not (old and old == member and tonumber(redis.call('ZSCORE', zset, old)) == score) then
    if old then
      local rank = redis.call('ZRANK', zset, old)
      if rank then lowest = rank end
      redis.call('ZREM', zset, old)
      redis.call('HDEL', hash, player)
      redis.call('HDEL', rows, old)
    end
    if member ~= '' then
      redis.call('ZADD', zset, score, member)
      redis.call('HSET', hash, player, member)
      local rank = redis.call('ZRANK', zset, member)
      if lowest < 0 or rank < lowest then lowest = rank end
    end
    if redis.call('EXISTS', ready) == 0 then lowest = -2 end
  end
  if member ~= '' and row ~= '' then
    redis.call('HSET', rows, member, row)
    redis.call('EXPIRE', rows, ROWS_SECONDS)
  end
  answers[b] = lowest
end
return answers
"""

# A page: the board's size, the members ranked ARGV[1] .. ARGV[2] and their stored rows (false
# where none is stored), in one round trip; false when the index is not ready.
_PAGE_LUA = """
if redis.call('EXISTS', KEYS[3]) == 0 then return false end
local members = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2])
local rows = {}
if #members > 0 then rows = redis.call('HMGET', KEYS[2], unpack(members)) end
return {redis.call('ZCARD', KEYS[1]), members, rows}
"""

# A player's rank, the members around it with their rows and the board's size in one round
# trip (atomic, so the rank and the rows come from the same moment of the board); false when
# the index is not ready.
_AROUND_LUA = """
if redis.call('EXISTS', KEYS[4]) == 0 then return false end
local total = redis.call('ZCARD', KEYS[1])
local found = redis.call('HGET', KEYS[2], ARGV[1])
if not found then return {total} end
local rank = redis.call('ZRANK', KEYS[1], found)
if not rank then return {total} end
local offset = rank - tonumber(ARGV[2])
if offset < 0 then offset = 0 end
local members = redis.call('ZRANGE', KEYS[1], offset, offset + tonumber(ARGV[3]) - 1)
return {total, rank, offset, members, redis.call('HMGET', KEYS[3], unpack(members))}
"""

# A player's 0-based rank; -1 when not on the board, -2 when the index is not ready.
_RANK_LUA = """
if redis.call('EXISTS', KEYS[3]) == 0 then return -2 end
local found = redis.call('HGET', KEYS[2], ARGV[1])
if not found then return -1 end
return redis.call('ZRANK', KEYS[1], found) or -1
"""

# Some players' entries (ARGV[1]: their ids, comma-separated: one argument to send, not a
# hundred to pack): {player, 0-based rank, member, row or false} of each one on the board, in one
# round trip whatever the board's size (a group's board: 100 players, 300 lookups inside Redis);
# false when the index is not ready.
_PLAYERS_LUA = """
if redis.call('EXISTS', KEYS[4]) == 0 then return false end
local found = {}
for player in string.gmatch(ARGV[1], '%d+') do
  local member = redis.call('HGET', KEYS[2], player)
  local rank = member and redis.call('ZRANK', KEYS[1], member)
  if rank then found[#found + 1] = {player, rank, member, redis.call('HGET', KEYS[3], member)} end
end
return found
"""

# Store rows read from PostgreSQL (ARGV: member, row, ...) for members still on the board.
_FILL_LUA = """
for i = 1, #ARGV, 2 do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
end
redis.call('EXPIRE', KEYS[2], ROWS_SECONDS)
return 0
"""


# Rows are a cache of PostgreSQL's (readers fill what is missing): a board's rows live this long
# after their last write, so a closed day's rows leave memory while its ranks stay.
ROWS_SECONDS = 2 * 24 * 3600
_UPSERT_MANY_LUA, _SET_LUA, _FILL_LUA = (
    script.replace("ROWS_SECONDS", str(ROWS_SECONDS)) for script in (_UPSERT_MANY_LUA, _SET_LUA, _FILL_LUA)
)


def _script(text: str) -> Script:
    """A script bound to no client: each call names the connection (``client=``)."""
    # redis-py annotates the client as required; None binds none, and every call names one.
    return Script(None, text.encode())  # type: ignore[arg-type]


_SET, _PAGE, _AROUND, _RANK, _FILL, _UPSERT_MANY, _PLAYERS = map(
    _script, (_SET_LUA, _PAGE_LUA, _AROUND_LUA, _RANK_LUA, _FILL_LUA, _UPSERT_MANY_LUA, _PLAYERS_LUA)
)


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
        ranks = _SET(keys=keys, args=args, client=self.client) if entries else []
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
                _UPSERT_MANY(keys=[zset, players, rows], args=batch, client=pipe)
                batch = []
                if count % 20_000 == 0:
                    pipe.execute()
        if batch:
            _UPSERT_MANY(keys=[zset, players, rows], args=batch, client=pipe)
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
        answer = _PAGE(keys=[zset, rows, ready], args=[offset, offset + limit - 1], client=self.client)
        if not answer:
            raise NotReady(board)
        total, members, found = answer
        return total, list(zip(members, found))

    def around(self, board: str, player_id: int, radius: int) -> tuple[int | None, int, list, int]:
        """``(rank, offset, [(member, row or None), ...], size)``: the player's 0-based rank
        (None when not on the board), the members ranked ``rank - radius`` .. ``rank + radius``
        (from ``offset``, never below 0) and the board's size, in one round trip. Raises
        ``NotReady``."""
        answer = _AROUND(keys=self._keys(board), args=[player_id, radius, 2 * radius + 1], client=self.client)
        if not answer:
            raise NotReady(board)
        if len(answer) == 1:
            return None, 0, [], answer[0]
        total, rank, offset, members, found = answer
        return rank, offset, list(zip(members, found)), total

    def rank_of(self, board: str, player_id: int) -> int | None:
        """A player's 0-based rank, or None when they are not on the board. Raises ``NotReady``."""
        zset, players, _, ready = self._keys(board)
        rank = _RANK(keys=[zset, players, ready], args=[player_id], client=self.client)
        if rank == -2:
            raise NotReady(board)
        return None if rank < 0 else rank

    def players(self, board: str, player_ids: list[int]) -> list[tuple[int, int, bytes, bytes | None]]:
        """``(player id, 0-based rank, member, row or None)`` of each of the players who is on
        the board, in no particular order, in one round trip. Raises ``NotReady``."""
        if not player_ids:
            return []
        answer = _PLAYERS(keys=self._keys(board), args=[",".join(map(str, player_ids))], client=self.client)
        if answer is None:
            raise NotReady(board)
        return [(int(player), rank, member, row) for player, rank, member, row in answer]

    def fill_rows(self, board: str, rows: dict) -> None:
        """Store ``{member: row}`` for the members still on the board."""
        if rows:
            zset, _, row_key, _ = self._keys(board)
            _FILL(keys=[zset, row_key], args=[part for pair in rows.items() for part in pair], client=self.client)

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
