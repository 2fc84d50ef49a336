"""A bounded solver for Easy Harp (EH1): finds a winning move log for a deal or a game in progress.

Public API::

    solve(number, *, node_limit=..., time_limit=None, take_backs=True) -> Solution
    solve_game(game, *, node_limit=..., time_limit=None, take_backs=True) -> Solution
    hint(game) -> str | None        # the next action of a winning line (or a sensible legal one)

``Solution.actions`` is a complete log without undo that the engine has replayed and found
won; when no win was found within the budget, ``won`` is False and ``actions`` is empty. The
node budget is the real limit: it makes every answer deterministic, the same deal giving the
same answer on every machine. ``time_limit`` is only a safety net (an answer cut short by it
depends on the machine).

How it searches. With draw-one and unlimited passes every stock card can be reached by
tapping, so the stock is a pool from which any card may be played. Safe foundation moves are
made at once; the other moves are pruned to those that can lead somewhere (turn a card up,
uncover one, build a place for a card that must move, take back a card that gives one, ...).
A best-first search over positions, keyed without column order or stock position, ranks them
by cards left, face-down cards and cards piled on face-down ones. Small changes of these
weights lose different deals, so a few weightings share the node budget in turn. The taps
are written into the log afterwards, independent moves reordered so that the stock is taken
in its own order as far as possible.
"""

import heapq
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .actions import ACTIONS
from .cards import IS_RED, KING, RANK, STACKS_ON
from .deal import COLUMNS, format_code
from .game import Game
from .replay import ReplayResult, replay, replay_onto

DEFAULT_NODE_LIMIT = 30_000
HINT_NODE_LIMIT = 6_000

#: Heuristic weights: see STRATEGIES.
Weights = tuple[int, int, int, int]
#: How a log found is checked before it is trusted: replayed by the engine.
Verify = Callable[[list[str]], ReplayResult]
#: A move of the search, (kind, a, b, k): the pool is the stock and waste together (kinds
#: COL_F .. FOUND_COL below). Exact tuples, not a NamedTuple: CPython unpacks those on its
#: fast path, and the search unpacks one at every apply and undo.
Move = tuple[int, int, int, int]
#: What ``_Search.apply`` returns for ``undo``: the move, whether it turned a card up, and
#: the foundation it played to (-1: none).
Record = tuple[Move, bool, int]
#: What a move touches, for the log's order: a column ("c", n) or a suit's foundations ("f", s).
Resource = tuple[str, int]

#: Heuristic weights tried in turn, each with an equal share of the node budget:
#: (card not on a foundation, face-down card, face-up card on face-down ones,
#:  per pool card needed to make a place for such a pile's top card).
STRATEGIES: tuple[Weights, ...] = (
    (2, 50, 40, 5),
    (2, 60, 40, 5),
    (2, 50, 20, 2),
    (2, 50, 60, 5),
    (2, 50, 30, 8),
)


@dataclass
class Solution:
    """What a search found (see the module's docstring)."""

    won: bool
    actions: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    #: "won", "node limit", "time limit", "exhausted" (every pruned line was tried),
    #: "already won" or "unverified" (a bug: the engine refused the line found).
    reason: str = ""


def solve(
    number: int, *, node_limit: int = DEFAULT_NODE_LIMIT, time_limit: float | None = None, take_backs: bool = True
) -> Solution:
    """Search a winning log for deal ``number``, verified by replaying it on its N code."""
    game = Game.new(number, history_limit=None)
    return _solve(game, node_limit, time_limit, take_backs, lambda actions: replay(format_code(number), actions))


def solve_game(
    game: Game, *, node_limit: int = DEFAULT_NODE_LIMIT, time_limit: float | None = None, take_backs: bool = True
) -> Solution:
    """Search a winning continuation of ``game`` (left unchanged), verified on a copy of it."""
    return _solve(_copy(game), node_limit, time_limit, take_backs, lambda actions: replay_onto(_copy(game), actions))


def hint(game: Game, *, node_limit: int = HINT_NODE_LIMIT) -> str | None:
    """The next action of a winning line from here, else a sensible legal action; None once won."""
    if game.won:
        return None
    solution = solve_game(game, node_limit=node_limit)
    if solution.won:
        return solution.actions[0]
    return _fallback(game)


# -- driving the search ------------------------------------------------------------------------


def _solve(game: Game, node_limit: int, time_limit: float | None, take_backs: bool, verify: Verify) -> Solution:
    """Search ``game`` (a scratch copy) with each strategy in turn on its share of the node
    budget; the first line found that ``verify`` accepts wins."""
    start = time.perf_counter()
    if game.won:
        return Solution(True, [], 0, 0.0, "already won")
    deadline = None if time_limit is None else start + time_limit
    nodes, reason = 0, "node limit"
    share = max(1, node_limit // len(STRATEGIES))
    for i, weights in enumerate(STRATEGIES):
        budget = min(share, node_limit - nodes) if i < len(STRATEGIES) - 1 else node_limit - nodes
        if budget <= 0:
            break
        search = _Search(game, weights, take_backs)
        path, reason = search.best_first(budget, deadline)
        nodes += search.nodes
        if path is not None:
            actions = _verified_log(game, path, verify)
            if actions is not None:
                return Solution(True, actions, nodes, time.perf_counter() - start, "won")
            reason = "unverified"
            break
        if reason in ("time limit", "exhausted"):
            break
    return Solution(False, [], nodes, time.perf_counter() - start, reason)


def _verified_log(game: Game, path: list[Move], verify: Verify) -> list[str] | None:
    """The log of ``path`` from ``game``, taps scheduled, else in path order: the first that
    ``verify`` replays as won (the search is never trusted blindly); None when neither is."""
    for scheduled in (True, False):
        actions = _write_log(_copy(game), path, scheduled)
        result = verify(actions) if actions else None
        if result is not None and result.ok and result.won:
            return actions
    return None


def _copy(game: Game) -> Game:
    """An independent copy of ``game`` with an unbounded, empty undo history."""
    clone = Game.__new__(Game)
    for name in Game.__slots__:
        value = getattr(game, name)
        if isinstance(value, list):  # the columns are lists of lists
            value = [list(item) if isinstance(item, list) else item for item in value]
        setattr(clone, name, value)
    clone.history = type(game.history)(maxlen=None)
    return clone


def _fallback(game: Game) -> str | None:
    """A legal action that is rarely wrong: to a foundation, one that turns a card up, a tap."""
    legal = [text for text in game.legal_actions() if text != "u"]
    for text in legal:
        if text.endswith(">f"):
            return text
    for text in legal:
        if text[0].isdigit() and ">f" not in text:
            n = int(text[0]) - 1
            moved = int(text.partition(":")[2] or 1)
            if game.down[n] and len(game.columns[n]) - game.down[n] == moved:
                return text
    if "s" in legal:
        return "s"
    return legal[0] if legal else None


# -- abstract moves and the log ----------------------------------------------------------------

#: The kinds of the search's moves (see Move).
COL_F, POOL_F, COL_COL, POOL_COL, FOUND_COL = range(5)
#: HOSTS[c]: the cards that c may be built on in a column.
HOSTS = tuple(tuple(h for h in range(52) if c in STACKS_ON[h]) for c in range(52))
#: BUILT_ON[h]: the two cards that may be built on h in a column (none on an Ace).
BUILT_ON = tuple(tuple(sorted(STACKS_ON[h])) for h in range(52))
#: OPPOSITE[c]: the two suits of the other colour.
OPPOSITE = tuple((0, 3) if IS_RED[c] else (1, 2) for c in range(52))
INF = 99
KINGS = (12, 25, 38, 51)
QUEENS_DOWN_TO_TWOS = tuple(s * 13 + r for r in range(11, 0, -1) for s in range(4))
TWOS_UP_TO_KINGS = tuple(s * 13 + r for r in range(1, 13) for s in range(4))


def _write_log(game: Game, path: list[Move], scheduled: bool) -> list[str]:
    """Play the abstract moves on ``game`` (a scratch copy); return the actions, taps included.

    In path order when not ``scheduled``. Scheduled, the moves may change order where that
    changes nothing: moves that touch the same column or the foundations of the same suit keep
    their order, and the others are free. Each step plays a free move that needs no tap, else
    the free pool move whose card the stock brings round soonest. That saves most of the taps."""
    after, waits = _order(_resources(game, path))
    free = [i for i in range(len(path)) if not waits[i]]
    actions: list[str] = []
    try:
        while free:
            if scheduled:
                i = min(free, key=lambda i: (_taps_to(game, path[i]), i))
            else:
                i = min(free)
            free.remove(i)
            _play_move(game, path[i], actions)
            for j in after[i]:
                waits[j] -= 1
                if not waits[j]:
                    free.append(j)
    except Exception:  # an engine refusal means a search bug: report no solution
        return []
    return actions if game.won else []


def _order(touches: list[tuple[Resource, ...]]) -> tuple[list[list[int]], list[int]]:
    """The order that moves touching these resources must keep: each waits for the last move
    before it that touched one of its resources. Returns after[i], the moves that wait for
    move i, and waits[i], how many moves move i waits for."""
    after: list[list[int]] = [[] for _ in touches]
    waits = [0] * len(touches)
    last: dict[Resource, int] = {}
    for i, resources in enumerate(touches):
        before = {last[r] for r in resources if r in last}
        for j in before:
            after[j].append(i)
        waits[i] = len(before)
        for r in resources:
            last[r] = i
    return after, waits


def _resources(game: Game, path: list[Move]) -> list[tuple[Resource, ...]]:
    """What each move touches: columns ("c", n) and the foundations of a suit ("f", s)."""
    search = _Search(game, STRATEGIES[0])
    touches: list[tuple[Resource, ...]] = []
    for move in path:
        kind, a, b, k = move
        _, _, f = search.apply(move)
        if kind == COL_F:
            touches.append((("c", a), ("f", f // 2)))
        elif kind == POOL_F:
            touches.append((("f", f // 2),))
        elif kind == COL_COL:
            touches.append((("c", a), ("c", b)))
        elif kind == POOL_COL:
            touches.append((("c", b),))
        else:
            touches.append((("f", a // 2), ("c", b)))
    return touches


def _taps_to(game: Game, move: Move) -> int:
    """Taps needed before ``move`` can be played: 0 unless it plays a card from the pool."""
    kind, card = move[0], move[1]
    if kind != POOL_F and kind != POOL_COL:
        return 0
    waste, stock = game.waste, game.stock
    if waste and waste[-1] == card:
        return 0
    best = INF * 1000
    for i in range(len(stock) - 1, -1, -1):  # stock[-1] is drawn next
        if stock[i] == card:
            best = len(stock) - i
            break
    for j, c in enumerate(waste):  # after the stock runs out: one tap to turn over, then again
        if c == card:
            return min(best, len(stock) + 1 + j + 1)
    return best


def _play_move(game: Game, move: Move, actions: list[str]) -> None:
    """Play ``move`` on ``game`` as actions of the notation, tapping the stock first for a pool
    card until the waste shows it; append them to ``actions``."""
    kind, a, b, k = move

    def play(text: str) -> None:
        game.play(ACTIONS[text])
        actions.append(text)

    if kind == COL_F:
        play(f"{a + 1}>f")
    elif kind == COL_COL:
        play(f"{a + 1}>{b + 1}:{k}" if k > 1 else f"{a + 1}>{b + 1}")
    elif kind == FOUND_COL:
        play(f"f{a + 1}>{b + 1}")
    else:
        for _ in range(len(game.stock) + len(game.waste) + 1):
            if game.waste and game.waste[-1] == a:
                break
            play("s")
        play("w>f" if kind == POOL_F else f"w>{b + 1}")


# -- the search --------------------------------------------------------------------------------


class _Search:
    """Best-first search with a transposition table over a light copy of the table."""

    def __init__(self, game: Game, weights: Weights, take_backs: bool = True) -> None:
        self.cols = [list(col) for col in game.columns]
        self.down = list(game.down)
        self.found = list(game.foundations)
        self.pool = [0] * 52
        for c in game.stock + game.waste:
            self.pool[c] += 1
        self.left = 104 - game.on_foundations
        self.weights, self.take_backs = weights, take_backs
        self.nodes = 0

    # -- applying and undoing moves; apply returns what undo needs ------------------------------

    def _to_foundation(self, c: int) -> int:
        """Play ``c`` to the first foundation of its suit that takes it, as the rules do (the
        caller knows one does); return that foundation."""
        f = 2 * (c // 13)
        if self.found[f] != RANK[c] - 1:
            f += 1
        self.found[f] += 1
        self.left -= 1
        return f

    def apply(self, move: Move) -> Record:
        """Play ``move`` on the light table (the caller knows it legal); return what undo needs."""
        kind, a, b, k = move
        flipped, f = False, -1
        if kind == COL_F:
            f = self._to_foundation(self.cols[a].pop())
            flipped = self._flip(a)
        elif kind == POOL_F:
            self.pool[a] -= 1
            f = self._to_foundation(a)
        elif kind == COL_COL:
            src = self.cols[a]
            self.cols[b].extend(src[-k:])
            del src[-k:]
            flipped = self._flip(a)
        elif kind == POOL_COL:
            self.pool[a] -= 1
            self.cols[b].append(a)
        else:
            self.found[a] -= 1
            self.left += 1
            self.cols[b].append(a // 2 * 13 + self.found[a])
        return move, flipped, f

    def undo(self, record: Record) -> None:
        """Take back the move that ``apply`` returned ``record`` for."""
        (kind, a, b, k), flipped, f = record
        if flipped:
            self.down[a] += 1
        if kind == COL_F:
            self.found[f] -= 1
            self.left += 1
            self.cols[a].append(f // 2 * 13 + self.found[f])
        elif kind == POOL_F:
            self.found[f] -= 1
            self.left += 1
            self.pool[a] += 1
        elif kind == COL_COL:
            dst = self.cols[b]
            self.cols[a].extend(dst[-k:])
            del dst[-k:]
        elif kind == POOL_COL:
            self.cols[b].pop()
            self.pool[a] += 1
        else:
            self.cols[b].pop()
            self.found[a] += 1
            self.left -= 1

    def _flip(self, a: int) -> bool:
        """A face-down card left on top of column ``a`` turns face up (as ``Game._flip``)."""
        if self.down[a] and self.down[a] == len(self.cols[a]):
            self.down[a] -= 1
            return True
        return False

    # -- reading a position --------------------------------------------------------------------

    def playable(self, c: int) -> bool:
        """A foundation of ``c``'s suit takes it: one holds the rank below."""
        f = 2 * (c // 13)
        return self.found[f] == RANK[c] - 1 or self.found[f + 1] == RANK[c] - 1

    def safe(self, c: int) -> bool:
        """No card of the other colour one rank lower is left to be built on ``c``."""
        r = RANK[c]
        if r <= 2:
            return True
        s1, s2 = OPPOSITE[c]
        found = self.found
        return min(found[2 * s1], found[2 * s1 + 1], found[2 * s2], found[2 * s2 + 1]) >= r - 1

    def auto_moves(self, path: list[Record]) -> None:
        """Play every safe foundation move, from the columns and the pool."""
        cols, found, pool = self.cols, self.found, self.pool
        progress = True
        while progress:
            progress = False
            for a in range(COLUMNS):
                col = cols[a]
                while col and self.playable(col[-1]) and self.safe(col[-1]):
                    path.append(self.apply((COL_F, a, 0, 1)))
                    progress = True
            for f in range(8):
                c = f // 2 * 13 + found[f]  # the next card of this foundation
                while found[f] < KING and pool[c] and self.safe(c) and self.playable(c):
                    path.append(self.apply((POOL_F, c, 0, 1)))
                    progress = True
                    c = f // 2 * 13 + found[f]

    def key(self) -> bytes:
        """The position, whatever the column order and the stock position."""
        f = self.found
        parts = sorted([bytes((d, len(col))) + bytes(col) for d, col in zip(self.down, self.cols, strict=True)])
        parts.append(
            bytes(
                (
                    min(f[0], f[1]),
                    max(f[0], f[1]),
                    min(f[2], f[3]),
                    max(f[2], f[3]),
                    min(f[4], f[5]),
                    max(f[4], f[5]),
                    min(f[6], f[7]),
                    max(f[6], f[7]),
                )
            )
        )
        return b"".join(parts)

    def encode(self) -> bytes:
        """The whole position as bytes (columns with their face-down counts, foundations,
        pool), which ``decode`` restores."""
        parts = [bytes((d, len(col))) + bytes(col) for d, col in zip(self.down, self.cols, strict=True)]
        return b"".join(parts) + bytes(self.found) + bytes(self.pool)

    def decode(self, data: bytes) -> None:
        """Restore the position that ``encode`` wrote."""
        i = 0
        for a in range(COLUMNS):
            self.down[a], n = data[i], data[i + 1]
            self.cols[a] = list(data[i + 2 : i + 2 + n])
            i += 2 + n
        self.found = list(data[i : i + 8])
        self.pool = list(data[i + 8 : i + 60])
        self.left = 104 - sum(self.found)

    def place_costs(self, tops: set[int], has_empty: bool) -> list[int]:
        """cost[h]: how many pool cards must be played so that pool card h lands on a column
        (h itself included); INF when no chain of pool cards leads to a place."""
        pool = self.pool
        cost = [INF] * 52
        if has_empty:
            for h in KINGS:
                if pool[h]:
                    cost[h] = 1
        for h in QUEENS_DOWN_TO_TWOS:  # hosts before the cards built on them
            if pool[h]:
                g1, g2 = HOSTS[h]
                if g1 in tops or g2 in tops:
                    cost[h] = 1
                else:
                    best = cost[g1] if cost[g1] < cost[g2] else cost[g2]
                    if best < INF:
                        cost[h] = best + 1
        return cost

    def heuristic(self) -> int:
        """How far this position looks from a win, lower first: the weights (see STRATEGIES)
        times cards left, face-down cards, face-up cards on them, and the pool cards to play
        before each such pile's top card has a place."""
        w_left, w_down, w_up, w_host = self.weights
        cols, pool, found = self.cols, self.pool, self.found
        tops = {col[-1] for col in cols if col}
        has_empty = not all(cols)
        cost = None
        h = w_left * self.left
        for d, col in zip(self.down, cols, strict=True):
            if not d:
                continue
            h += w_down * d + w_up * (len(col) - d)
            t = col[-1]
            f = 2 * (t // 13)
            if found[f] == RANK[t] - 1 or found[f + 1] == RANK[t] - 1:
                continue
            if RANK[t] == KING:
                h += 0 if has_empty else w_host * 6
                continue
            if cost is None:
                cost = self.place_costs(tops, has_empty)
            best = 6
            for g in HOSTS[t]:
                if g in tops:
                    best = 0
                    break
                if pool[g] and cost[g] < best:
                    best = cost[g]
            h += w_host * best
        return h

    # -- the moves worth trying, kind by kind ----------------------------------------------------

    def moves(self) -> list[Move]:
        """The moves worth trying here, the most promising first: one kind after the other in
        the order below, each kind in the order that its generator states."""
        needed = self._needed()
        places = self._places()
        useful = self._useful(self._wanted(needed))
        return [
            *self._flips(needed, places),
            *self._columns_to_foundations(needed),
            *self._pool_to_foundations(needed),
            *self._digs(places),
            *self._feeds(places, useful),
            *self._emptying_for_a_king(places),
            *self._take_backs(places, useful),
        ]

    def _flips(self, needed: set[int], places: dict[int, list[int]]) -> Iterator[Move]:
        """Moves that turn a face-down card up, the columns with the most face-down cards first
        (left to right among equals). Per column: the one face-up card to its foundation, then
        onto each column that takes it (a King: to an empty column); or a run led by a King,
        from the face-down cards up, to an empty column."""
        cols, down = self.cols, self.down
        # reverse=True keeps a sort stable: left to right among equals
        for a in sorted([a for a in range(COLUMNS) if down[a]], key=down.__getitem__, reverse=True):
            col, d = cols[a], down[a]
            t, up = col[-1], len(col) - d
            if up == 1:
                if t in needed:
                    yield COL_F, a, 0, 1
                for b in places.get(t, ()):
                    yield COL_COL, a, b, 1
            elif RANK[col[d]] == KING and col[d] in places and self._is_run(col, d):
                yield COL_COL, a, places[col[d]][0], up

    def _columns_to_foundations(self, needed: set[int]) -> Iterator[Move]:
        """Top cards that a foundation takes without turning a card up (those are flips), the
        columns with the most face-down cards first (left to right among equals)."""
        cols, down = self.cols, self.down
        ready = [
            a for a, col in enumerate(cols) if col and col[-1] in needed and not (down[a] and len(col) - down[a] == 1)
        ]
        for a in sorted(ready, key=down.__getitem__, reverse=True):
            yield COL_F, a, 0, 1

    def _pool_to_foundations(self, needed: set[int]) -> Iterator[Move]:
        """Pool cards that a foundation takes, in card order (the safe ones are already up)."""
        pool = self.pool
        for c in sorted(needed):
            if pool[c]:
                yield POOL_F, c, 0, 1

    def _digs(self, places: dict[int, list[int]]) -> Iterator[Move]:
        """A top card (never a King) onto each column that takes it, when that uncovers a
        face-up card with a use (see _has_use): the fewest face-up cards first, then left to
        right."""
        cols, down = self.cols, self.down
        piles = sorted(
            (len(col) - down[a], a)
            for a, col in enumerate(cols)
            if len(col) - down[a] > 1 and RANK[col[-1]] != KING and col[-1] in places
        )
        if not piles:
            return
        tops = {col[-1] for col in cols if col}
        cost = self.place_costs(tops, not all(cols))
        for _, a in piles:
            col = cols[a]
            if self._has_use(col[-2], tops, cost):
                for b in places[col[-1]]:
                    yield COL_COL, a, b, 1

    def _feeds(self, places: dict[int, list[int]], useful: list[int]) -> Iterator[Move]:
        """Pool cards onto each column that takes them, when they start a chain of pool cards
        that makes a place for a wanted card (see _useful): the shortest chains first, among
        equals onto a column without face-down cards first, then by card and column."""
        pool, down = self.pool, self.down
        ranked = [
            (useful[c], down[b] > 0, c, b) for c in range(52) if pool[c] and useful[c] < INF for b in places.get(c, ())
        ]
        ranked.sort()
        for _, _, c, b in ranked:
            yield POOL_COL, c, b, 1

    def _emptying_for_a_king(self, places: dict[int, list[int]]) -> Iterator[Move]:
        """A lone card (not a King, nothing under it) onto each column that takes it, which
        empties its column: only when a King waits for one (see _king_waiting); left to right."""
        cols, down = self.cols, self.down
        lone = [
            a
            for a, col in enumerate(cols)
            if len(col) == 1 and not down[a] and RANK[col[0]] != KING and col[0] in places
        ]
        if lone and self._king_waiting():
            for a in lone:
                for b in places[cols[a][0]]:
                    yield COL_COL, a, b, 1

    def _take_backs(self, places: dict[int, list[int]], useful: list[int]) -> Iterator[Move]:
        """The top card of a foundation onto each column that takes it, when a chain of pool cards
        built on it makes a place for a wanted card (see _useful); foundation by foundation,
        only the first of two equal ones of a suit; none when take-backs are off."""
        if not self.take_backs:
            return
        found = self.found
        for f in range(8):
            rank = found[f]
            if not rank or (f & 1 and found[f - 1] == rank):
                continue
            c = f // 2 * 13 + rank - 1
            if useful[c] < INF:
                for b in places.get(c, ()):
                    yield FOUND_COL, f, b, 1

    # -- what the move generators read -----------------------------------------------------------

    def _needed(self) -> set[int]:
        """The cards that the foundations take next."""
        found = self.found
        return {f // 2 * 13 + found[f] for f in range(8) if found[f] < KING}

    def _places(self) -> dict[int, list[int]]:
        """places[c]: the columns that card c may be played to, left to right: those whose top
        takes it; for a King, the first empty column (any other is the same)."""
        places: dict[int, list[int]] = {}
        empty = -1
        for b, col in enumerate(self.cols):
            if col:
                for c in STACKS_ON[col[-1]]:
                    places.setdefault(c, []).append(b)
            elif empty < 0:
                empty = b
        if empty >= 0:
            for c in KINGS:
                places[c] = [empty]
        return places

    def _wanted(self, needed: set[int]) -> set[int]:
        """The top cards whose move is progress: those over face-down cards or over a card
        that the foundations take next."""
        return {
            col[-1]
            for d, col in zip(self.down, self.cols, strict=True)
            if col and (d or not needed.isdisjoint(col[:-1]))
        }

    def _useful(self, wanted: set[int]) -> list[int]:
        """useful[h]: the fewest cards, h first then pool cards each built on the one before,
        to play so that a wanted card can be built on the last; INF when none. It is 1 for the
        cards a wanted card builds on; else, lower ranks first, one more than the best of the
        pool cards that build on h."""
        pool = self.pool
        useful = [INF] * 52
        for w in wanted:
            for h in HOSTS[w]:
                useful[h] = 1
        for h in TWOS_UP_TO_KINGS:
            if useful[h] == 1:
                continue
            e1, e2 = BUILT_ON[h]
            best = useful[e1] if pool[e1] else INF
            if pool[e2] and useful[e2] < best:
                best = useful[e2]
            if best < INF:
                useful[h] = best + 1
        return useful

    def _is_run(self, col: list[int], d: int) -> bool:
        """The face-up cards of ``col`` (``d`` face-down) are built one on the other."""
        return all(col[i + 1] in STACKS_ON[col[i]] for i in range(d, len(col) - 1))

    def _king_waiting(self) -> bool:
        """A King wants an empty column: one in the pool, or one leading a pile on face-down cards."""
        if any(self.pool[s * 13 + 12] for s in range(4)):
            return True
        return any(d and RANK[col[d]] == KING for d, col in zip(self.down, self.cols, strict=True) if col)

    def _has_use(self, c: int, tops: set[int], cost: list[int]) -> bool:
        """Once uncovered, ``c`` can go somewhere: onto a column top, onto a place that a chain
        of pool cards can build, or to a foundation once the lower cards of its suit (in the
        pool or on top of columns) have gone up."""
        for g in HOSTS[c]:
            if g in tops or (self.pool[g] and cost[g] < INF):
                return True
        f = 2 * (c // 13)
        ace = c - RANK[c] + 1
        for r in range(max(self.found[f], self.found[f + 1]), RANK[c] - 1):
            if not self.pool[ace + r] and ace + r not in tops:
                return False
        return True

    def best_first(self, node_limit: int, deadline: float | None) -> tuple[list[Move] | None, str]:
        """Returns (abstract moves from the start, reason); None when no win was found.

        A node is one move tried; positions are stored encoded, with their parent's key and
        the moves from it, so that the line is rebuilt when the game is won."""
        path: list[Record] = []
        self.auto_moves(path)
        if self.left == 0:
            return [record[0] for record in path], "won"
        root = self.key()
        parents: dict[bytes, tuple[bytes | None, tuple[Move, ...]]] = {
            root: (None, tuple(record[0] for record in path))
        }
        heap = [(self.heuristic(), 0, root, self.encode())]
        counter = 0
        while heap:
            _, _, key, data = heapq.heappop(heap)
            self.decode(data)
            for move in self.moves():
                if self.nodes >= node_limit:
                    return None, "node limit"
                self.nodes += 1
                if deadline is not None and not self.nodes & 255 and time.perf_counter() > deadline:
                    return None, "time limit"
                path = [self.apply(move)]
                self.auto_moves(path)
                if self.left == 0:
                    return self._line(parents, key, path), "won"
                child = self.key()
                if child not in parents:
                    parents[child] = (key, tuple(record[0] for record in path))
                    counter += 1  # newest first among equals: dive rather than widen
                    heapq.heappush(heap, (self.heuristic(), -counter, child, self.encode()))
                for record in reversed(path):
                    self.undo(record)
        return None, "exhausted"

    @staticmethod
    def _line(
        parents: dict[bytes, tuple[bytes | None, tuple[Move, ...]]], key: bytes | None, path: list[Record]
    ) -> list[Move]:
        """The moves from the start: those that led to position ``key``, then ``path``'s."""
        line = [record[0] for record in path]
        while key is not None:
            key, before = parents[key]
            line[:0] = before
        return line
