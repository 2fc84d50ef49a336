"""Boards that update themselves: the board endpoints' conditional reads.

A page that shows a board (the day's, a past day's, a numbered deal's, a group's; the player's
own rank on one, the result card's) asks for it again every few seconds with the ETag of its
last answer (If-None-Match). While the board has not changed, the answer is a 304 without a
body: the rows are not sent again, and deciding that costs one Redis round trip and no SQL.

A tag is made from versions, never from the rows: the board's version and top version
(``cache``: bumped after each change of its index, so a reader that reads them before its rows
never tags old rows with a new version), a group's members' version for a group's board, and
the epoch of this Redis (a random number, set when missing: a Redis that lost its data counts
the versions from 0 again, and no tag of before may match then). A frozen day's versions no
longer change (but for staff's corrections): its pages stay 304s.

Each tag is signed (``salted_hmac``) over those versions and over everything else the answer
depends on: the board, the group, the query string, the Accept header, the language and, for
an answer of the caller's own (``around=me``, any group's board), the credential the request
carries (its session cookie and Authorization header, as sent). So a view decides a 304 before
anyone is authenticated (no session or token lookup: SQL): a tag matches only for the
credential it was given to, and a group's tags stop matching when its members change (a removed
member's next poll is a whole request, answered 404). A 304 tells nothing but "what you hold
is still current".

A top page (no rank below ``cache.TOP_RANKS``) changes its rows only when a change lands among
those ranks (the top version); any other change moves only the board's size it shows. Its tag
keeps matching across such changes for ``COUNT_LAG_SECONDS`` after it was issued: on a busy
day the first page is sent again when its rows change or its count is a minute old, not at
every poll.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, replace

from django.conf import settings
from django.core.cache import cache as django_cache
from django.http import HttpResponseNotModified
from django.utils.crypto import constant_time_compare, salted_hmac
from django_redis import get_redis_connection

from ..core import cache

#: How long a top page's tag still matches after changes below its ranks (its count's lag).
COUNT_LAG_SECONDS = 60
EPOCH_KEY = "board-epoch"
_SALT = "leaderboard.boards.live"
# A page's and a page parameter's digits, at most: a longer number is no page (int() of a
# 5,000-digit text raises).
_DIGITS = 9


@dataclass(frozen=True)
class Scope:
    """What one answer of a board endpoint depends on, besides the versions."""

    board: str
    #: The query string, the Accept header, the language and (``personal``) the credential.
    what: str
    group: int | None = None
    #: A page with no rank below ``cache.TOP_RANKS``: its count may lag (see above).
    top: bool = False
    #: The caller's own answer (around=me, a group's board): ``Cache-Control: private``.
    personal: bool = False
    #: A top page's (page, page size), as the URL asks for it.
    page: tuple[int, int] | None = None


@dataclass(frozen=True)
class Versions:
    epoch: int
    version: int
    top: int
    group: int


def request_scope(request, board: str, group: int | None = None) -> Scope:
    """The scope of a GET of ``board`` (of ``group``) from the request as it came: its URL and
    headers only, nothing authenticated or looked up."""
    params = request.GET
    personal = group is not None or "around" in params
    top, shown = False, None
    if not personal:
        page, size = params.get("page", "1"), params.get("page_size", str(settings.BOARD_PAGE_SIZE))
        if all(text.isascii() and text.isdigit() and len(text) <= _DIGITS for text in (page, size)):
            top = int(page) * int(size) <= cache.TOP_RANKS  # as reads.board_page caches it
            shown = (int(page), int(size)) if top else None
    meta = request.META
    credential = (
        f"{meta.get('HTTP_AUTHORIZATION', '')}\n{request.COOKIES.get(settings.SESSION_COOKIE_NAME, '')}"
        if personal
        else ""
    )
    what = "\n".join(
        (meta.get("QUERY_STRING", ""), meta.get("HTTP_ACCEPT", ""), getattr(request, "LANGUAGE_CODE", ""), credential)
    )
    return Scope(board, what, group, top, personal, shown)


def versions(scope: Scope) -> Versions | None:
    """The scope's versions now, in one round trip (MGET); None when Redis is away (no tag,
    no 304: every request is answered whole)."""
    return read(scope)[0]


def read(scope: Scope, also: list[str] | tuple[str, ...] = ()) -> tuple[Versions | None, dict]:
    """``versions``, and the values of the cache keys ``also`` (None: missing), in the same
    round trip: the cached answer that a view sends when the tag no longer holds."""
    keys = version_keys(scope)
    # A top page's keys name the versions too; a Redis error answers {}: as if the epoch were lost.
    found = cache.read_many([*keys, *(key for key in also if key not in keys)])
    current = versions_of(scope, found)
    return (None, {}) if current is None else (current, {key: found.get(key) for key in also})


def version_keys(scope: Scope) -> list[str]:
    """The cache keys of the scope's versions, for a reader that reads them with its answer in
    one round trip (``versions_of`` makes them the versions)."""
    version_key, top_key = cache.version_keys(scope.board)
    keys = [EPOCH_KEY, version_key, top_key]
    if scope.group is not None:
        keys.append(cache.group_key(scope.group))
    return keys


def versions_of(scope: Scope, found: dict) -> Versions | None:
    """The versions from ``found``, the values of ``version_keys`` (a key left out: missing);
    None when Redis is away."""
    keys = version_keys(scope)
    epoch = found.get(EPOCH_KEY) or _epoch_start()
    if not epoch:
        return None
    group = found.get(keys[3], 0) if scope.group is not None else 0
    return Versions(epoch, found.get(keys[1], 0), found.get(keys[2], 0), group)


def asked_versions(asked: str, scope: Scope) -> list[int]:
    """The values of ``version_keys`` that the first tag of ``asked`` (an If-None-Match header)
    says, unchecked: for a reader that skips reading the rows when these are the values now
    (``fresh`` still decides the 304). [] when it says none."""
    stamp = asked.split(",", 1)[0].strip().removeprefix("W/").strip('"').rpartition(".")[0]
    parts = stamp.split(".")
    try:
        epoch, version, top, group = (int(part, 16) for part in parts[:4])
    except ValueError:
        return []
    return [epoch, version, top, group][: 4 if scope.group is not None else 3] if len(parts) == 5 else []


@cache.unless_unreachable(None)
def _epoch_start() -> int | None:
    """This Redis's epoch, set now if it has none (the first reader after a start or a flush;
    concurrent ones agree on the first one set)."""
    client, key = get_redis_connection("default"), django_cache.make_key(EPOCH_KEY)
    client.set(key, secrets.randbits(48) | 1, nx=True)  # an int, as the cache reads it back
    found = client.get(key)
    return int(found) if found is not None else None


def etag(scope: Scope, current: Versions, issued: float | None = None) -> str:
    """The tag of an answer read at ``current`` (versions read before the answer's rows)."""
    issued = int(time.time() if issued is None else issued)
    stamp = f"{current.epoch:x}.{current.version:x}.{current.top:x}.{current.group:x}.{issued:x}"
    return f'W/"{stamp}.{_sign(scope, stamp)}"'


def _sign(scope: Scope, stamp: str) -> str:
    text = f"{scope.board}\n{scope.group}\n{scope.top:d}\n{scope.what}\n{stamp}"
    return salted_hmac(_SALT, text, algorithm="sha256").hexdigest()[:24]


def fresh(asked: str, scope: Scope, current: Versions, now: float | None = None) -> str | None:
    """The tag among ``asked`` (an If-None-Match header: one tag or several) that still holds
    for ``scope`` at the ``current`` versions, or None."""
    now = time.time() if now is None else now
    for candidate in asked.split(",")[:8]:
        tag = candidate.strip()
        stamp, _, signature = tag.removeprefix("W/").strip('"').rpartition(".")
        parts = stamp.split(".")
        if len(parts) != 5 or not constant_time_compare(signature, _sign(scope, stamp)):
            continue
        epoch, version, top, group, issued = (int(part, 16) for part in parts)  # signed: ours
        if (epoch, top, group) != (current.epoch, current.top, current.group):
            continue
        if version == current.version or (scope.top and 0 <= now - issued < COUNT_LAG_SECONDS):
            return tag
    return None


def _cache_control(scope: Scope) -> str:
    # Kept, but asked again every time: the browser sends the tag, and this answers.
    return "private, no-cache" if scope.personal else "no-cache"


def not_modified(tag: str, scope: Scope) -> HttpResponseNotModified:
    response = HttpResponseNotModified()
    response["ETag"] = tag
    response["Cache-Control"] = _cache_control(scope)
    return response


def tagged(response, scope: Scope, current: Versions, shown: tuple[int, int] | None = None):
    """``response`` (a 200 of ``scope`` read at ``current``) with its tag. ``shown``: the
    board's (version, top version) of a cached page, older than ``current`` when it was served
    after a change below it (``cache.cached_at``): the tag says those, so that its count is sent
    again within ``COUNT_LAG_SECONDS`` however quiet the board stays."""
    if shown is not None:
        current = replace(current, version=shown[0], top=shown[1])
    response["ETag"] = etag(scope, current)
    response["Cache-Control"] = _cache_control(scope)
    return response
