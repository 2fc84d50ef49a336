"""Thin API views of the boards: a day's or a deal's board, a day's histogram, the players'
board, a player's profile and the calendar of deals of the day."""

from django.conf import settings
from django.db import DatabaseError
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from ...accounts.authentication import held_player, held_player_key, held_token_keys
from ...boards.order import daily_board, deal_board
from ...boards.selectors import histogram, stats
from ...boards.selectors import pages as reads
from ...core import days
from ...core.errors import Invalid, NotFound, ServiceError
from ...history import selectors as calendar
from .. import live
from ..board_serializers import BoardOut, CalendarOut, HistogramOut, PlayersOut, ProfileOut
from ..params import board_day, date_param, deal_number, int_param, month_param, whole_number
from .common import ERRORS, NOT_MODIFIED, PAGE_PARAMS, Fast, LiveView


class BoardView(LiveView):
    permission_classes = [AllowAny]

    def live_keys(self, scope):
        if scope.page:
            return reads.top_page_keys(scope.board, *scope.page)
        return held_token_keys(self.request) if scope.personal else []

    def live_fetch(self, request, scope):
        """``around=me`` by a cached token: the versions, the token's account and its rows in
        one round trip (``reads.board_around_held``; the rows are not read when the request's
        tag says the versions now: a 304). ``held`` then has ``(player id, answer)`` under
        ``_AROUND_HELD``; None where it was not read."""
        size = _size(request.GET.get("page_size")) if _asks_around_me(request.GET) else None
        player_key = held_player_key(request) if size is not None else None
        if player_key is not None:
            holding = live.asked_versions(request.META.get("HTTP_IF_NONE_MATCH", ""), scope)
            keys = live.version_keys(scope)
            found = reads.board_around_held(scope.board, player_key, size // 2, keys, holding)
            if found is not None:
                values, player, body = found
                return live.versions_of(scope, values), {_AROUND_HELD: (player, body)}
        return super().live_fetch(request, scope)

    def live_fast(self, request, scope, held):
        """Without DRF (``LiveView``): a top page whose cached copy is current, to a caller
        with no Authorization header (nobody to authenticate: the page is everyone's), and
        ``around=me`` to a token whose lookup is cached. Kept on the floor ratio
        (``bench_floor.py --quick``, stack CPU a request): top page 1.17, 1.24 -> 1.13 ms,
        ``around=me`` 1.63, 1.63 -> 1.35 ms (with the index's lazy prepare and the routes)."""
        params = request.GET
        size = _size(params.get("page_size"))
        if size is None:
            return None
        if scope.page is not None and params.keys() <= _PAGE_PARAMS and "HTTP_AUTHORIZATION" not in request.META:
            found = reads.top_page_held(scope.board, scope.page[0], size, held) if scope.page[0] >= 1 else None
            return None if found is None else Fast(*found)
        if not _asks_around_me(params):
            return None
        player_id, body = held.get(_AROUND_HELD) or (held_player(request, held), None)
        if body is None and player_id is not None:
            try:
                body = reads.board_around_of(scope.board, player_id, radius=size // 2)
            except (ServiceError, DatabaseError):  # answered DRF's way, in the API's error shape
                return None
        return None if body is None else Fast(body, None, by_token=True)

    def board_answer(self, request, board: str):
        size = int_param(request, "page_size", settings.BOARD_PAGE_SIZE, 1, settings.BOARD_MAX_PAGE_SIZE)
        around = request.query_params.get("around")
        if around is not None:
            if around != "me":
                raise Invalid(_("around takes only the value 'me'."), code="invalid_parameter")
            if not request.user.is_authenticated:
                raise NotAuthenticated(_("Log in to see your own rank."))
            return self.live_answer(reads.board_around(board, request.user, radius=size // 2))
        page = int_param(request, "page", 1, 1, 1_000_000)
        return self.live_answer(*reads.board_page_at(board, page, size, held=self.live_held))


_PAGE_PARAMS = frozenset({"page", "page_size"})
_AROUND_PARAMS = frozenset({"around", "page_size"})
_AROUND_HELD = "around-held"  # ``held``'s entry of ``BoardView.live_fetch``


def _asks_around_me(params) -> bool:
    """A GET of ``around=me`` that asks nothing else (its page size aside)."""
    return params.keys() <= _AROUND_PARAMS and params.get("around") == "me"


def _size(text: str | None) -> int | None:
    """The page size as ``int_param`` reads it, None where it would refuse it."""
    return settings.BOARD_PAGE_SIZE if text is None else whole_number(text, 1, settings.BOARD_MAX_PAGE_SIZE)


class DailyBoardView(BoardView):
    def live_board(self, request, day: str | None = None):
        when = board_day(day)
        return None if when is None else (daily_board(when), None)

    @extend_schema(parameters=PAGE_PARAMS, responses={200: BoardOut, **ERRORS, **NOT_MODIFIED})
    def get(self, request, day: str | None = None):
        today = days.today()
        when = date_param(day) if day else today
        if when > today:
            raise NotFound(_("The board of %(day)s does not exist yet.") % {"day": when.isoformat()})
        return self.board_answer(request, daily_board(when))


class DailyBoardTodayView(DailyBoardView):
    @extend_schema(
        parameters=PAGE_PARAMS, responses={200: BoardOut, **ERRORS, **NOT_MODIFIED}, operation_id="daily_board_today"
    )
    def get(self, request):
        return super().get(request)


class DailyHistogramView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: HistogramOut, **ERRORS})
    def get(self, request, day: str):
        """The winners' moves on a day's board, bucketed, and where the caller's own result is.
        Public as the board is (every row shows its moves); cached, at most seconds behind it."""
        when = date_param(day)
        if when > days.today():
            raise NotFound(_("The board of %(day)s does not exist yet.") % {"day": when.isoformat()})
        return Response(HistogramOut(histogram.day_histogram(when, request.user)).data)


class DealBoardView(BoardView):
    def live_board(self, request, deal: str):
        try:
            return deal_board(deal_number(deal)), None
        except NotFound:
            return None

    @extend_schema(parameters=PAGE_PARAMS, responses={200: BoardOut, **ERRORS, **NOT_MODIFIED})
    def get(self, request, deal: str):
        """The board of one numbered deal: a deal code or a deal number."""
        return self.board_answer(request, deal_board(deal_number(deal)))


class PlayersBoardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=PAGE_PARAMS[:2], responses={200: PlayersOut, **ERRORS})
    def get(self, request):
        size = int_param(request, "page_size", settings.BOARD_PAGE_SIZE, 1, settings.BOARD_MAX_PAGE_SIZE)
        page = int_param(request, "page", 1, 1, 1_000_000)
        return Response(stats.players_board(page, size))


class PlayerView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: ProfileOut, **ERRORS})
    def get(self, request, username: str):
        return Response(stats.player_profile(username))


class CalendarView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: CalendarOut, **ERRORS})
    def get(self, request, month: str | None = None):
        """A month of deals of the day (YYYY-MM; this month by default) and, to a signed-in
        caller, their own result on each day."""
        when = month_param(month) if month else calendar.month_of(days.today())
        return Response(CalendarOut(calendar.month_calendar(when, request.user)).data)


class CalendarThisMonthView(CalendarView):
    @extend_schema(responses={200: CalendarOut, **ERRORS}, operation_id="calendar_this_month")
    def get(self, request):
        return super().get(request)
