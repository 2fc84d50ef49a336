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

from django.core.cache import cache as default_cache
from rest_framework.throttling import ScopedRateThrottle


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
        count, self.left = _count(key, self.duration)
        return count <= self.num_requests

    def wait(self):
        return self.left if self.left is not None else self.duration


def _count(key: str, seconds: int) -> tuple[int, int | None]:
    """(hits in the window, seconds left in it) after counting this one."""
    incr_window = getattr(default_cache, "incr_window", None)
    if incr_window is not None:  # config.cache's Redis backend: one round trip
        return incr_window(key, seconds)
    # Any other cache (the in-memory one of local development): the same counter, in two steps.
    default_cache.add(key, 0, seconds)
    try:
        return default_cache.incr(key), None
    except ValueError:  # expired between the two steps: a new window
        default_cache.add(key, 1, seconds)
        return 1, None


class PerAddressThrottle(ScopedCountThrottle):
    """The scope's rate per client address, logged in or not: signing up logs the client in,
    and a fresh account must not bring a fresh allowance (``ScopedRateThrottle`` counts a
    logged-in client per account)."""

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
