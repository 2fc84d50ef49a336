"""Throttles: DRF's scoped rates (``DEFAULT_THROTTLE_RATES``), counted with one Redis INCR.

DRF's ``ScopedRateThrottle`` keeps a pickled list of every request's time in the cache and
reads and writes it whole on each request (a GET and a SET, and a list of up to N floats to
unpickle). These count in a fixed window instead: the first request of a client in a scope
starts a window of the rate's duration, each request adds one to a counter that expires with
the window, and a request past the rate's count is refused until the window ends
(``Retry-After``: the seconds left). The difference from DRF's sliding log: a client can get
up to twice the rate over a span that straddles the end of one window and the start of the
next; within any one window the count never passes the rate.

Who is counted is unchanged: the account for a logged-in client, the address otherwise
(``NUM_PROXIES``, so a forged X-Forwarded-For does not escape the count), and always the
address for ``PerAddressThrottle``.

Sign-ups are counted apart, in a sliding window (``SignupThrottle``): a fixed window would let
twice the hour's limit through across its edge, and each new account is one more player on
every board. The window is kept per address block (``address_block``: an IPv4 address whole,
an IPv6 address by its /64, which one subscriber gets whole and can fill with addresses).
"""

import ipaddress
import time
import uuid

from django.conf import settings
from django.core.cache import cache
from django_redis import get_redis_connection
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle

from ..core.cache import unless_unreachable


class ScopedCountThrottle(ScopedRateThrottle):
    """``ScopedRateThrottle``'s scopes, rates and idents; a fixed-window counter."""

    cache_format = "throttle-count:%(scope)s:%(ident)s"

    def allow_request(self, request, view):
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        count, self.left = incr_window(key, self.duration)
        return count <= self.num_requests

    def wait(self):
        return self.left if self.left is not None else self.duration


@unless_unreachable((1, None))
def incr_window(key: str, seconds: int) -> tuple[int, int | None]:
    """Count one more hit on ``key`` in a window of ``seconds`` that starts at the first hit:
    (hits so far, seconds left). One round trip (SET NX with the expiry, INCR, TTL), and a key
    found without an expiry gets one, so none outlives its window. Redis unreachable: (1, None),
    every request let in."""
    name = cache.make_key(key)
    client = get_redis_connection("default")
    _, count, ttl = client.pipeline(transaction=False).set(name, 0, ex=seconds, nx=True).incr(name).ttl(name).execute()
    if ttl < 0:  # expired between the SET and the INCR (or an EXPIRE lost): a new window
        client.expire(name, seconds)
        ttl = seconds
    return count, ttl


class PerAddressThrottle(ScopedCountThrottle):
    """The scope's rate per client address, logged in or not: signing up logs the client in,
    and a fresh account must not bring a fresh allowance (``ScopedRateThrottle`` counts a
    logged-in client per account)."""

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def address_block(address: str | None) -> str:
    """The block a client address is counted by: an IPv4 address whole, an IPv6 address by its
    /64 (an IPv4-mapped IPv6 address as its IPv4 address). Anything else, as it came; none (a
    request without REMOTE_ADDR, as DRF's get_ident gives it), one shared block."""
    if not address:
        return "none"
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.version == 4:
        return str(ip)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


HOUR, DAY = 3600, 86400

# Drop what left the day, count the last hour and the last day, and add this sign-up only if
# both are under their limits: one round trip, and two sign-ups at once cannot both take the
# last place. Refused requests add nothing. Returns {1, 0} or {0, seconds until a place frees}.
_SLIDING_WINDOW = """
local key, now, hour_start, day_start = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local per_hour, per_day, member = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
redis.call('ZREMRANGEBYSCORE', key, '-inf', day_start)
local in_day = redis.call('ZCARD', key)
local in_hour = redis.call('ZCOUNT', key, '(' .. hour_start, '+inf')
if in_hour < per_hour and in_day < per_day then
  redis.call('ZADD', key, now, member)
  redis.call('EXPIRE', key, 86400)
  return {1, 0}
end
local frees = 0
if in_hour >= per_hour then
  local oldest = redis.call('ZRANGEBYSCORE', key, '(' .. hour_start, '+inf', 'WITHSCORES',
                            'LIMIT', in_hour - per_hour, 1)
  frees = math.max(frees, tonumber(oldest[2]) + 3600)
end
if in_day >= per_day then
  local oldest = redis.call('ZRANGE', key, in_day - per_day, in_day - per_day, 'WITHSCORES')
  frees = math.max(frees, tonumber(oldest[2]) + 86400)
end
return {0, tostring(frees)}
"""


class SignupThrottle(BaseThrottle):
    """At most ``SIGNUPS_PER_HOUR`` accounts in any 60 minutes and ``SIGNUPS_PER_DAY`` in any 24
    hours from one address block, guest players' accounts included: a sorted set per block of
    the times of its sign-ups (Redis; unreachable, every sign-up is let in, as the other
    throttles). ``timer`` is the clock, as in DRF's throttles."""

    timer = staticmethod(time.time)
    cache_format = "signup-window:%(block)s"

    def allow_request(self, request, view):
        key = cache.make_key(self.cache_format % {"block": address_block(self.get_ident(request))})
        self.left = None
        allowed, frees = _count_signup(key, self.timer(), settings.SIGNUPS_PER_HOUR, settings.SIGNUPS_PER_DAY)
        if not allowed:
            self.left = max(1, int(float(frees) - self.timer()) + 1)
        return bool(allowed)

    def wait(self):
        return self.left


@unless_unreachable((1, 0))
def _count_signup(key: str, now: float, per_hour: int, per_day: int) -> tuple[int, str]:
    client = get_redis_connection("default")
    allowed, frees = client.eval(
        _SLIDING_WINDOW,
        1,
        key,
        repr(now),
        repr(now - HOUR),
        repr(now - DAY),
        per_hour,
        per_day,
        f"{now!r}:{uuid.uuid4().hex}",
    )
    return int(allowed), frees.decode() if isinstance(frees, bytes) else str(frees)
