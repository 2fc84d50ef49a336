"""Django's and django-csp's middleware, less the work the API's JSON answers never use.

Sessions, CSRF and the language stay on the API's requests: a browser's API calls are session-
authenticated (with CSRF), and the API's error words are in the reader's language (the language
cookie, else Accept-Language). What goes is the flash messages (no API view leaves one) and the
Content-Security-Policy on JSON (a policy governs a document a browser renders; an answer served
as application/json with nosniff is never one). Profiled on a top page (cProfile, 1,000 requests
through Django's test client): the policy was 0.69 ms of 7.4, the messages' storage 0.16.

A board read that pages poll skips more (``LiveReadMiddleware``): answered from one Redis round
trip, it uses no session, CSRF token, user or passkey either.
"""

import functools

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware
from django.middleware.locale import LocaleMiddleware
from django.urls import Resolver404, get_urlconf, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.module_loading import import_string

from leaderboard.api.views.common import EARLY_READ, LiveView

API_PREFIX = "/api/"


def is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


class LanguageMiddleware(LocaleMiddleware):
    """Django's ``LocaleMiddleware`` for URLs that name no language (no ``i18n_patterns``:
    tests/config/test_middleware.py): the reader's language from the language cookie, else
    Accept-Language, else LANGUAGE_CODE, and the answer's Content-Language and
    ``Vary: Accept-Language``. Django's also looks for a language prefix in the path, twice a
    request: 4% of a cached top page's instructions (callgrind)."""

    def process_request(self, request):
        translation.activate(translation.get_language_from_request(request))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request, response):
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


class PageMessageMiddleware(MessageMiddleware):
    """Django's messages on pages and the admin; none under /api/, where no view reads or leaves one
    (a message left for a page stays in its cookie or session until a page shows it)."""

    def process_request(self, request):
        if not is_api(request):  # Django's process_response skips a request with no storage
            super().process_request(request)


class PagePolicyMiddleware(CSPMiddleware):
    """django-csp's policy on every answer but the API's JSON ones (Swagger UI's page, under /api/
    too, is HTML and keeps it)."""

    def process_response(self, request, response):
        if is_api(request) and response.get("Content-Type", "").startswith("application/json"):
            return response
        return super().process_response(request, response)


class LiveReadMiddleware:
    """A GET of a board (``LiveView``) that can be answered from one Redis round trip (the 304
    of a tag that still holds, a cached top page: ``LiveView.live_prelude``), answered here,
    right after the metrics and the request id: such an answer uses no session, CSRF token,
    user, passkey, message, policy or lock-out, and passing it down the whole chain and back
    cost more than answering it (``bench_floor.py``: benchmarks/README.md). It still gets
    everything the chain gives every answer:
    the hooks of ``ANSWER_MIDDLEWARE`` (security headers, the host check, the language,
    Content-Length, X-Frame-Options) run on it, in the chain's order. Anything else goes on
    down the chain, what was read handed to the view (``EARLY_READ``): nothing is read twice."""

    def __init__(self, get_response):
        self.get_response = get_response
        shaping = [import_string(path)(get_response) for path in settings.ANSWER_MIDDLEWARE]
        self.requests = [m.process_request for m in shaping if hasattr(m, "process_request")]
        self.responses = [m.process_response for m in reversed(shaping) if hasattr(m, "process_response")]

    def __call__(self, request):
        if request.method == "GET" and is_api(request):
            answer = self._shaped(request)
            if answer is not None:
                return answer
        return self.get_response(request)

    def _shaped(self, request):
        match = _live_match(request.path_info)
        if match is None:
            return None
        for hook in self.requests:
            if hook(request) is not None:  # a redirect, say: the chain gives it
                return None
        answer = self._early(request, match)
        if answer is not None:
            for hook in self.responses:
                answer = hook(request, answer)
        return answer

    def _early(self, request, match):
        view = match.func.view_class(**match.func.view_initkwargs)
        view.setup(request, *match.args, **match.kwargs)
        answer = view.live_prelude(request, **match.kwargs)
        if answer is None:
            setattr(request, EARLY_READ, (view.live_read, view.live_held))
        else:
            request.resolver_match = match  # the view's name in the metrics
        return answer


def _live_match(path: str):
    """The URL's match when it names a board read (a ``LiveView``), else None."""
    try:
        match = _resolved(path, get_urlconf())
    except Resolver404:
        return None
    view_class = getattr(match.func, "view_class", None)
    return match if view_class is not None and issubclass(view_class, LiveView) else None


@functools.lru_cache(maxsize=1024)
def _resolved(path: str, urlconf: str | None):
    """``resolve(path)``, kept: pages poll the same few board URLs, and resolving one was a
    twentieth of a cached top page's time (25 µs). The match is only read, never changed."""
    return resolve(path, urlconf)
