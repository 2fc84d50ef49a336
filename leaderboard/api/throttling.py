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
"""

from django.core.cache import cache
from django_redis import get_redis_connection
from rest_framework.throttling import ScopedRateThrottle

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
