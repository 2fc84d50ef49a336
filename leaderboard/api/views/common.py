"""What every API view shares: the error answers and page parameters of the schema, and
``LiveView``, the board read that pages poll with its ETag."""

from typing import Any, NamedTuple

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from ...core.rendering import JSONBytesResponse
from .. import live
from ..serializers import ErrorOut

ERRORS = {code: OpenApiResponse(ErrorOut) for code in (400, 401, 403, 404, 409, 413, 429, 503)}
PAGE_PARAMS = [
    OpenApiParameter("page", int, description="1-based page number"),
    OpenApiParameter("page_size", int, description=f"rows per page, at most {settings.BOARD_MAX_PAGE_SIZE}"),
    OpenApiParameter("around", str, enum=["me"], description="the caller's own rank and the rows near it"),
    OpenApiParameter(
        "If-None-Match",
        str,
        OpenApiParameter.HEADER,
        description="the ETag of an earlier answer: 304 without a body while it still holds",
    ),
]
#: A board read polled with its ETag (``LiveView``).
NOT_MODIFIED = {304: OpenApiResponse(description="Not modified: the If-None-Match tag still holds")}
# Accept headers for which DRF's negotiation picks the JSON renderer with no indent (an absent
# header reads as */*; the pages' fetches send application/json).
_STORED_ACCEPT = frozenset({"*/*", "application/json"})
#: The request's attribute that carries ``LiveReadMiddleware``'s read to the view it resolved.
EARLY_READ = "live_early_read"


class Fast(NamedTuple):
    """An answer that ``LiveView.live_fast`` gives without DRF."""

    body: bytes
    #: The board's (version, top version) of a cached page (``LiveView.live_answer``).
    shown: tuple[int, int] | None
    #: A token authenticated the caller (else DRF's session authentication would have run).
    by_token: bool = False


class LiveView(APIView):
    """A board read that pages poll (``boards.live``): its answer carries an ETag, and a GET
    whose If-None-Match still holds is answered 304 here, before DRF authenticates anyone or
    the view reads anything: one Redis round trip, no SQL. The versions are read before the
    rows, so the tag of a 200 is never newer than its rows; the same round trip reads the
    cached answer (``live_keys``), so a cached top page costs no other.

    An answer that the view can give from that round trip (``live_fast``: a current cached
    page, say) to a request that DRF would answer with its JSON as stored is sent here too,
    with the headers DRF's answer has; everything else (errors included) goes DRF's way."""

    live_read: tuple[live.Scope, live.Versions] | None = None  # the answer's tag: what was read
    live_held: dict | None = None  # the values of ``live_keys`` read with the versions

    def live_keys(self, scope: live.Scope) -> list[str]:
        """Cache keys that the answer of ``scope`` reads, to read with its versions in one
        round trip (none by default)."""
        return []

    def live_board(self, request, *args: Any, **kwargs: Any) -> tuple[str, int | None] | None:
        """``(board, group id or None)`` that the GET reads, from its URL alone (no lookup);
        None when the URL names none (the view then answers its error)."""
        raise NotImplementedError

    def live_fetch(self, request, scope: live.Scope) -> tuple[live.Versions | None, dict]:
        """The scope's versions and what ``live_fast`` reads (``held``), in one round trip: by
        default the values of ``live_keys`` (``live.read``)."""
        return live.read(scope, self.live_keys(scope))

    def live_fast(self, request, scope: live.Scope, held: dict) -> Fast | None:
        """The answer to give without DRF, from ``held`` (the values of ``live_keys``), when
        it is the one DRF's way would give: a 200 of JSON bytes. None (the default): DRF's way."""
        return None

    def dispatch(self, request, *args, **kwargs):
        early = request.__dict__.pop(EARLY_READ, None)  # read by ``LiveReadMiddleware``
        if early is None:
            answer = self.live_prelude(request, **kwargs)
            if answer is not None:
                return answer
        else:
            self.live_read, self.live_held = early
        return super().dispatch(request, *args, **kwargs)

    def live_prelude(self, request, **kwargs: Any) -> HttpResponse | None:
        """What a GET is answered before DRF: the 304 of a tag that still holds, or the answer
        of ``live_fast``; None for DRF's way, with what was read kept (``live_read``,
        ``live_held``) so that the view reads it once."""
        self.live_read = self.live_held = None
        found = self.live_board(request, **kwargs) if request.method == "GET" else None
        if found is None:
            return None
        scope = live.request_scope(request, *found)
        current, held = self.live_fetch(request, scope)
        if current is None:
            return None
        tag = live.fresh(request.META.get("HTTP_IF_NONE_MATCH", ""), scope, current)
        if tag:
            return live.not_modified(tag, scope)
        self.live_read, self.live_held = (scope, current), held
        fast = self.live_fast(request, scope, held) if self._renders_as_stored(request) else None
        return None if fast is None else self._fast_answer(fast)

    def _renders_as_stored(self, request) -> bool:
        """DRF's content negotiation would pick the JSON renderer without an indent (the
        answer is then the stored bytes, ``JSONBytesResponse``): no ``format`` parameter and
        an Accept header that asks for nothing else."""
        return (
            self.renderer_classes[0] is JSONRenderer
            and request.META.get("HTTP_ACCEPT", "*/*") in _STORED_ACCEPT
            and api_settings.URL_FORMAT_OVERRIDE not in request.GET
        )

    def _fast_answer(self, fast: Fast) -> HttpResponse:
        """``fast`` with the headers DRF's ``finalize_response`` and its renderer would give it,
        and ``Vary: Cookie`` unless a token authenticated the caller (DRF's session
        authentication, tried then, reads the session: Django's session middleware says so)."""
        response = self._tag(HttpResponse(fast.body, content_type=JSONRenderer.media_type), fast.shown)
        headers = self.default_response_headers
        vary = [headers.pop("Vary")] if "Vary" in headers else []
        if not fast.by_token:
            vary.append("Cookie")
        if vary:
            response["Vary"] = ", ".join(vary)
        for key, value in headers.items():
            response[key] = value
        return response

    def live_answer(self, body: bytes, shown: tuple[int, int] | None = None) -> JSONBytesResponse:
        """The JSON answer, tagged with the versions read before it, or with the board's
        (version, top version) that a cached page ``shown`` (``reads.board_page_at``)."""
        return self._tag(JSONBytesResponse(body), shown)

    def _tag(self, response, shown: tuple[int, int] | None):
        if self.live_read is None:
            return response
        scope, current = self.live_read
        return live.tagged(response, scope, current, shown=shown)
