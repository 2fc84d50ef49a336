"""What every API view shares: the error answers and page parameters of the schema, and
``LiveView``, the board read that pages poll with its ETag."""

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
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


class LiveView(APIView):
    """A board read that pages poll (``boards.live``): its answer carries an ETag, and a GET
    whose If-None-Match still holds is answered 304 here, before DRF authenticates anyone or
    the view reads anything: one Redis round trip, no SQL. The versions are read before the
    rows, so the tag of a 200 is never newer than its rows; the same round trip reads the
    cached answer (``live_keys``), so a cached top page costs no other."""

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

    def dispatch(self, request, *args, **kwargs):
        self.live_read = self.live_held = None
        found = self.live_board(request, **kwargs) if request.method == "GET" else None
        if found is not None:
            scope = live.request_scope(request, *found)
            current, held = live.read(scope, self.live_keys(scope))
            if current is not None:
                tag = live.fresh(request.headers.get("If-None-Match", ""), scope, current)
                if tag:
                    return live.not_modified(tag, scope)
                self.live_read, self.live_held = (scope, current), held
        return super().dispatch(request, *args, **kwargs)

    def live_answer(self, body: bytes, shown: tuple[int, int] | None = None) -> JSONBytesResponse:
        """The JSON answer, tagged with the versions read before it, or with the board's
        (version, top version) that a cached page ``shown`` (``reads.board_page_at``)."""
        response = JSONBytesResponse(body)
        if self.live_read is None:
            return response
        scope, current = self.live_read
        return live.tagged(response, scope, current, shown=shown)
