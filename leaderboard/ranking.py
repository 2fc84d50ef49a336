"""The ranking order and the Redis index that serves it.

Order on every board: wins first, then fewer moves, then higher score, then shorter
duration, then earlier submission. Moves come before score because take-backs are free
and a card earns +10 every time it lands on a foundation, so a score can be farmed
without limit; the move counter cannot.

The first four keys are packed into one integer below 2**53 (exact in a Redis sorted
set's double score); equal keys fall back to the member, which starts with the
submission time in microseconds, so Redis sorts exactly like PostgreSQL's
``ORDER BY rank_key, submitted_at, submission_id``.
"""

import logging
from datetime import datetime

import redis
from django.conf import settings

log = logging.getLogger(__name__)

MOVES_BITS, SCORE_BITS, SECONDS_BITS = 16, 16, 20
MOVES_CAP, SCORE_CAP, SECONDS_CAP = (1 << MOVES_BITS) - 1, (1 << SCORE_BITS) - 1, (1 << SECONDS_BITS) - 1


def rank_key(won: bool, moves: int, score: int, duration_ms: int) -> int:
    """Lower is better. Moves, score and whole seconds are capped (65,535 moves,
    65,535 points, about 12 days): beyond a cap, results tie on that key."""
    key = 0 if won else 1
    key = (key << MOVES_BITS) | min(moves, MOVES_CAP)
    key = (key << SCORE_BITS) | (SCORE_CAP - min(score, SCORE_CAP))
    return (key << SECONDS_BITS) | min(duration_ms // 1000, SECONDS_CAP)


def daily_board(date) -> str:
    return f"daily:{date.isoformat()}"


def deal_board(number: int) -> str:
    return f"deal:{number}"


def member(submitted_at: datetime, submission_id: int) -> str:
    """Zero-padded, so that Redis's byte order of equal scores is PostgreSQL's order."""
    return f"{int(submitted_at.timestamp() * 1_000_000):017d}:{submission_id:012d}"


def submission_of(member_text: str | bytes) -> int:
    if isinstance(member_text, bytes):
        member_text = member_text.decode()
    return int(member_text.rsplit(":", 1)[1])


# A rebuild's upsert, a thousand entries a round trip (ARGV: player, member, score, player,
# member, ...): a player's member is replaced only when the new one ranks better (or there is
# none), so replaying a rebuild is harmless.
_UPSERT_MANY = """
local done = 0
for i = 1, #ARGV, 3 do
  local player, member, new_score = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local old = redis.call('HGET', KEYS[2], player)
  local keep = false
  if old then
    local old_score = tonumber(redis.call('ZSCORE', KEYS[1], old))
    if old_score and (old_score < new_score or (old_score == new_score and old <= member)) then
      keep = true
    else
      redis.call('ZREM', KEYS[1], old)
    end
  end
  if not keep then
    redis.call('ZADD', KEYS[1], new_score, member)
    redis.call('HSET', KEYS[2], player, member)
    done = done + 1
  end
end
return done
"""

# Sets a player's member on each board (KEYS: zset, hash, ready of each; ARGV: player, then
# member and score per board), better or worse than before, or removes it (member empty), and
# answers per board the lowest 0-based rank the change touched: the old member's rank before,
# the new one's after; -1 when nothing changed; -2 when the index is not ready (ranks unknown).
_SET = """
local player, answers = ARGV[1], {}
for b = 1, #KEYS / 3 do
  local zset, hash, ready = KEYS[3 * b - 2], KEYS[3 * b - 1], KEYS[3 * b]
  local member, score = ARGV[2 * b], tonumber(ARGV[2 * b + 1])
  local old = redis.call('HGET', hash, player)
  local lowest = -1
  if not (old and old == member and tonumber(redis.call('ZSCORE', zset, old)) == score) then
    if old then
      local rank = redis.call('ZRANK', zset, old)
      if rank then lowest = rank end
      redis.call('ZREM', zset, old)
      redis.call('HDEL', hash, player)
    end
    if member ~= '' then
      redis.call('ZADD', zset, score, member)
      redis.call('HSET', hash, player, member)
      local rank = redis.call('ZRANK', zset, member)
      if lowest < 0 or rank < lowest then lowest = rank end
    end
    if redis.call('EXISTS', ready) == 0 then lowest = -2 end
  end
  answers[b] = lowest
end
return answers
"""

# A player's rank, the members around it and the board's size in one round trip (atomic, so
# the rank and the rows come from the same moment of the board).
_AROUND = """
local total = redis.call('ZCARD', KEYS[1])
local found = redis.call('HGET', KEYS[2], ARGV[1])
if not found then return {total} end
local rank = redis.call('ZRANK', KEYS[1], found)
if not rank then return {total} end
local offset = rank - tonumber(ARGV[2])
if offset < 0 then offset = 0 end
return {total, rank, offset, redis.call('ZRANGE', KEYS[1], offset, offset + tonumber(ARGV[3]) - 1)}
"""


class RedisRanking:
    """One sorted set (member: time:submission) and one hash (player -> member) per board,
    plus a ``ready`` flag meaning the set holds every entry of the board's record."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self._set = client.register_script(_SET)
        self._around = client.register_script(_AROUND)
        self._upsert_many = client.register_script(_UPSERT_MANY)

    @staticmethod
    def _keys(board: str) -> tuple[str, str, str]:
        return f"lb:{board}:z", f"lb:{board}:h", f"lb:{board}:ready"

    def set_entries(self, player_id: int, entries: dict) -> dict[str, int | None]:
        """Set a player's entry on several boards in one round trip (one script: a pipeline
        of scripts would first ask whether they are loaded), better or worse than before:
        ``{board: (rank_key, member) or None to remove}``. Answers, per board, the lowest
        0-based rank the change touched (-1: nothing changed; None: unknown, the index is
        not ready)."""
        keys, args = [], [player_id]
        for board, entry in entries.items():
            key, member_text = entry if entry is not None else (0, "")
            keys += self._keys(board)
            args += (member_text, key)
        ranks = self._set(keys=keys, args=args) if entries else []
        return {board: None if rank == -2 else rank for board, rank in zip(entries, ranks)}

    def is_ready(self, board: str) -> bool:
        return bool(self.client.exists(self._keys(board)[2]))

    def rebuild(self, board: str, entries) -> int:
        """Load ``(player_id, rank_key, submitted_at, submission_id)`` rows, then mark ready."""
        zset, players, ready = self._keys(board)
        count = 0
        batch: list = []
        pipe = self.client.pipeline(transaction=False)
        for player_id, key, submitted_at, submission_id in entries:
            batch += (player_id, member(submitted_at, submission_id), key)
            count += 1
            if len(batch) == 3 * 1000:
                self._upsert_many(keys=[zset, players], args=batch, client=pipe)
                batch = []
                if count % 20_000 == 0:
                    pipe.execute()
        if batch:
            self._upsert_many(keys=[zset, players], args=batch, client=pipe)
        pipe.set(ready, 1)
        pipe.execute()
        return count

    def size(self, board: str) -> int:
        return self.client.zcard(self._keys(board)[0])

    def page(self, board: str, offset: int, limit: int) -> list[int]:
        """Submission ids ranked ``offset`` .. ``offset + limit - 1`` (0-based)."""
        if limit <= 0:  # ZRANGE 0 -1 would be the whole board
            return []
        members = self.client.zrange(self._keys(board)[0], offset, offset + limit - 1)
        return [submission_of(m) for m in members]

    def page_and_size(self, board: str, offset: int, limit: int) -> tuple[list[int], int]:
        """``page()`` and ``size()`` in one round trip."""
        if limit <= 0:
            return [], self.size(board)
        zset = self._keys(board)[0]
        pipe = self.client.pipeline(transaction=False)
        pipe.zrange(zset, offset, offset + limit - 1)
        pipe.zcard(zset)
        members, total = pipe.execute()
        return [submission_of(m) for m in members], total

    def around(self, board: str, player_id: int, radius: int) -> tuple[int | None, int, list[int], int]:
        """``(rank, offset, ids, size)``: the player's 0-based rank (None when not on the
        board), the submission ids ranked ``rank - radius`` .. ``rank + radius`` (from
        ``offset``, never below 0) and the board's size, in one round trip."""
        zset, players, _ = self._keys(board)
        answer = self._around(keys=[zset, players], args=[player_id, radius, 2 * radius + 1])
        if len(answer) == 1:
            return None, 0, [], answer[0]
        total, rank, offset, members = answer
        return rank, offset, [submission_of(m) for m in members], total

    def rank_of(self, board: str, player_id: int) -> int | None:
        """A player's 0-based rank, or None when they are not on the board."""
        zset, players, _ = self._keys(board)
        found = self.client.hget(players, player_id)
        return None if found is None else self.client.zrank(zset, found)

    def drop(self, board: str) -> None:
        self.client.delete(*self._keys(board))


_ranking: RedisRanking | None = None


def redis_ranking() -> RedisRanking | None:
    """The index when REDIS_URL is set; None in the embedded (Redis-free) setup."""
    global _ranking
    if _ranking is None and settings.REDIS_URL:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=2,
            health_check_interval=30,
        )
        _ranking = RedisRanking(client)
    return _ranking
