"""The Lua scripts of the boards' Redis index (``index.BoardIndex``): each read or write of a
board is one script, one round trip, atomic. KEYS of a board, in this order: its sorted set, its
hash player -> member, its hash member -> row, its ready mark (``BoardIndex._keys``).
"""

from redis.commands.core import Script

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
# the index is not ready. KEYS[1..4]: the board's index.
_AROUND_OF = """
local function around(player, radius, count)
  if redis.call('EXISTS', KEYS[4]) == 0 then return false end
  local total = redis.call('ZCARD', KEYS[1])
  local found = redis.call('HGET', KEYS[2], player)
  if not found then return {total} end
  local rank = redis.call('ZRANK', KEYS[1], found)
  if not rank then return {total} end
  local offset = rank - tonumber(radius)
  if offset < 0 then offset = 0 end
  local members = redis.call('ZRANGE', KEYS[1], offset, offset + tonumber(count) - 1)
  return {total, rank, offset, members, redis.call('HMGET', KEYS[3], unpack(members))}
end
"""
_AROUND_LUA = _AROUND_OF + "return around(ARGV[1], ARGV[2], ARGV[3])"

# ``_AROUND_LUA`` of the player whose id KEYS[5] holds, with the values of other keys (KEYS[6..],
# a board's versions) read in the same round trip: {values, player or false, around}. ARGV[3..]:
# the values the caller holds an answer for (an ETag's versions): when they are the values now,
# the rows are not read (the answer is a 304), and the third part is left out.
_AROUND_HELD_LUA = (
    _AROUND_OF
    + """
local values = redis.call('MGET', unpack(KEYS, 6))
local player = redis.call('GET', KEYS[5])
if not player then return {values, false} end
local held = #ARGV - 2 == #values
for i = 1, #values do
  if not held then break end
  held = values[i] == ARGV[i + 2]
end
if held then return {values, player} end
return {values, player, around(player, ARGV[1], ARGV[2])}
"""
)

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


SET, PAGE, AROUND, AROUND_HELD, RANK, FILL, UPSERT_MANY, PLAYERS = map(
    _script,
    (_SET_LUA, _PAGE_LUA, _AROUND_LUA, _AROUND_HELD_LUA, _RANK_LUA, _FILL_LUA, _UPSERT_MANY_LUA, _PLAYERS_LUA),
)
