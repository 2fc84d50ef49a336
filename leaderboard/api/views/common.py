"""Thin API views: parse input, call a service or selector, shape the answer."""

from datetime import date

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

import games
from games.deal import MAX_DEAL

from ...accounts import services as accounts
from ...accounts.authentication import CsrfWhenSessionCookie
from ...boards.order import daily_board, deal_board
from ...boards.selectors import histogram, stats
from ...boards.selectors import pages as reads
from ...boards.services import entries
from ...core import days
from ...core.errors import Invalid, NotFound, TooLarge
from ...core.rendering import JSONBytesResponse
from ...history import selectors as calendar
from ...play import deal as daily
from ...play.selectors import submissions as submission_reads
from ...play.services import attempts, intake
from .. import live
from ..errors import too_large_message
from ..serializers import (
    AccountOut,
    AttemptIn,
    AttemptOut,
    BoardOut,
    CalendarOut,
    CredentialsIn,
    DailyDealOut,
    ErrorOut,
    HintIn,
    HintOut,
    HistogramOut,
    PlayersOut,
    ProfileOut,
    SubmissionAccepted,
    SubmissionIn,
    SubmissionOut,
)
from ..throttling import PerAddressThrottle

ERRORS = {code: OpenApiResponse(ErrorOut) for code in (400, 401, 403, 404, 409, 413, 429, 503)}
PAGE_PARAMS = [
    OpenApiParameter("page", int, description="1-based page number"),
    OpenApiParameter("page_size", int, description=f"rows per page, at most {settings.BOARD_MAX_PAGE_SIZE}"),
    OpenApiParameter("around", str, enum=["me"], description="the caller's own rank and the rows near it"),
    OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER,
                     description="the ETag of an earlier answer: 304 without a body while it still holds"),
]
#: A board read polled with its ETag (``LiveView``).
NOT_MODIFIED = {304: OpenApiResponse(description="Not modified: the If-None-Match tag still holds")}


def _int_param(request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:  # "²".isdigit() is True
        raise Invalid(_("%(name)s must be a whole number from %(low)s to %(high)s.") % {"name": name, "low": low, "high": high},
                      code="invalid_parameter")
    return int(raw)


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise NotFound(_("%(text)s is not a date (use YYYY-MM-DD).") % {"text": repr(text)}) from None


def _month(text: str) -> date:
    """A month of the calendar, YYYY-MM, as its first day."""
    month = None
    if len(text) == 7 and text.isascii() and text[4] == "-" and (text[:4] + text[5:]).isdigit():
        try:
            month = date.fromisoformat(f"{text}-01")
        except ValueError:
            pass
    if month is None or not calendar.MONTHS[0] <= month <= calendar.MONTHS[1]:
        raise NotFound(_("%(text)s is not a month of the calendar (use YYYY-MM).") % {"text": repr(text)})
    return month


def _valid(serializer_class, request) -> dict:
    """The request body checked by ``serializer_class`` (a 400 in the error shape if not)."""
    checked = serializer_class(data=request.data)
    checked.is_valid(raise_exception=True)
    return checked.validated_data


def _account(user, token: str | None = None) -> dict:
    data = {"username": user.username if user.is_authenticated else None,
            "authenticated": user.is_authenticated, "is_staff": user.is_staff}
    if token:
        data["token"] = token
    return data


class SignupView(APIView):
    permission_classes = [CsrfWhenSessionCookie]
    throttle_classes = [PerAddressThrottle]
    throttle_scope = "signup"

    @extend_schema(request=CredentialsIn, responses={201: AccountOut, **ERRORS})
    def post(self, request):
        data = _valid(CredentialsIn, request)
        user = accounts.user_signup(**data)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return Response(_account(user, accounts.user_token(user)), status=status.HTTP_201_CREATED)


class LoginView(APIView):
    permission_classes = [CsrfWhenSessionCookie]
    throttle_classes = [PerAddressThrottle]
    throttle_scope = "login"

    @extend_schema(request=CredentialsIn, responses={200: AccountOut, **ERRORS})
    def post(self, request):
        data = _valid(CredentialsIn, request)
        user = authenticate(request, **data)
        if user is None:
            raise Invalid(_("Wrong username or password."), code="invalid_credentials")
        login(request, user)
        return Response(_account(user, accounts.user_token(user)))


class LogoutView(APIView):
    @extend_schema(request=None, responses={204: None, 401: ERRORS[401]})  # 401: a token already ended
    def post(self, request):
        user = request.user
        logout(request)
        if user.is_authenticated:
            accounts.user_token_delete(user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: AccountOut})
    def get(self, request):
        return Response(_account(request.user))


class DailyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: DailyDealOut, **ERRORS})
    def get(self, request, day: str | None = None):
        today = days.today()
        when = _date(day) if day else today
        if when == today:
            daily.daily_deal_ensure(today)  # beat stores it ahead; else this first reader does
            entries.index_ensure(daily_board(today))  # its size is read from the index
        return Response(DailyDealOut(daily.daily_deal(when, request.user)).data)


class DailyTodayView(DailyView):
    @extend_schema(responses={200: DailyDealOut, **ERRORS}, operation_id="daily_today")
    def get(self, request):
        return super().get(request)


class AttemptsView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "attempt"

    @extend_schema(request=AttemptIn, responses={201: AttemptOut, **ERRORS})
    def post(self, request):
        data = _valid(AttemptIn, request)
        attempt = attempts.attempt_start(player=request.user, deal_code=data["deal"])
        return Response(AttemptOut(attempt).data, status=status.HTTP_201_CREATED)


class AttemptView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: AttemptOut, **ERRORS})
    def get(self, request, attempt_id):
        return Response(AttemptOut(submission_reads.attempt_for(request.user, attempt_id)).data)


class SubmissionCreateView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "submission"

    @extend_schema(request=SubmissionIn, responses={202: SubmissionAccepted, **ERRORS})
    def post(self, request, attempt_id):
        limit = settings.SUBMISSION_MAX_BYTES
        length = request.META.get("CONTENT_LENGTH") or "0"
        if not (length.isascii() and length.isdigit()) or int(length) > limit:
            raise TooLarge(too_large_message(limit), detail={"limit_bytes": limit})
        attempt = submission_reads.attempt_for(request.user, attempt_id)
        data = _valid(SubmissionIn, request)
        submission = intake.submission_create(
            attempt=attempt, player=request.user, **data)
        url = reverse("submission", args=[submission.pk])
        return Response({"id": submission.pk, "status": submission.status, "url": url},
                        status=status.HTTP_202_ACCEPTED, headers={"Location": url})


class HintView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "hint"

    @extend_schema(request=HintIn, responses={200: HintOut, **ERRORS})
    def post(self, request):
        data = _valid(HintIn, request)
        attempt = submission_reads.attempt_for(request.user, data["attempt"], others_not_found=True)
        action, hints = attempts.hint_for(attempt=attempt, actions=data["actions"])
        return Response({"action": action, "hints": hints})


class SubmissionView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: SubmissionOut, **ERRORS})
    def get(self, request, submission_id: int):
        submission, log_visible = submission_reads.submission_for(request.user, submission_id)
        return Response(SubmissionOut(submission, context={"log_visible": log_visible, "request": request}).data)


class LiveView(APIView):
    """A board read that pages poll (``boards.live``): its answer carries an ETag, and a GET
    whose If-None-Match still holds is answered 304 here, before DRF authenticates anyone or
    the view reads anything: one Redis round trip, no SQL. The versions are read before the
    rows, so the tag of a 200 is never newer than its rows."""

    def live_board(self, request, **kwargs) -> tuple[str, int | None] | None:
        """``(board, group id or None)`` that the GET reads, from its URL alone (no lookup);
        None when the URL names none (the view then answers its error)."""
        raise NotImplementedError

    def dispatch(self, request, *args, **kwargs):
        self.live_read = None  # (scope, versions) for the answer's tag
        found = self.live_board(request, **kwargs) if request.method == "GET" else None
        if found is not None:
            scope = live.request_scope(request, *found)
            current = live.versions(scope)
            if current is not None:
                held = live.fresh(request.headers.get("If-None-Match", ""), scope, current)
                if held:
                    return live.not_modified(held, scope)
                self.live_read = scope, current
        return super().dispatch(request, *args, **kwargs)

    def live_answer(self, body: bytes, shown: tuple[int, int] | None = None) -> JSONBytesResponse:
        """The JSON answer, tagged with the versions read before it, or with the board's
        (version, top version) that a cached page ``shown`` (``reads.board_page_at``)."""
        response = JSONBytesResponse(body)
        return live.tagged(response, *self.live_read, shown=shown) if self.live_read else response


def _board_day(day: str | None) -> date | None:
    """The day of a day's board URL, without raising (``live_board``): None when it is none."""
    today = days.today()
    try:
        when = date.fromisoformat(day) if day else today
    except ValueError:
        return None
    return when if when <= today else None


class _BoardView(LiveView):
    permission_classes = [AllowAny]

    def board_answer(self, request, board: str):
        size = _int_param(request, "page_size", settings.BOARD_PAGE_SIZE, 1, settings.BOARD_MAX_PAGE_SIZE)
        around = request.query_params.get("around")
        if around is not None:
            if around != "me":
                raise Invalid(_("around takes only the value 'me'."), code="invalid_parameter")
            if not request.user.is_authenticated:
                raise NotAuthenticated(_("Log in to see your own rank."))
            entries.index_ensure(board)
            return self.live_answer(reads.board_around(board, request.user, radius=size // 2))
        page = _int_param(request, "page", 1, 1, 1_000_000)
        entries.index_ensure(board)
        return self.live_answer(*reads.board_page_at(board, page, size))


class DailyBoardView(_BoardView):
    def live_board(self, request, day: str | None = None):
        when = _board_day(day)
        return None if when is None else (daily_board(when), None)

    @extend_schema(parameters=PAGE_PARAMS, responses={200: BoardOut, **ERRORS, **NOT_MODIFIED})
    def get(self, request, day: str | None = None):
        today = days.today()
        when = _date(day) if day else today
        if when > today:
            raise NotFound(_("The board of %(day)s does not exist yet.") % {"day": when.isoformat()})
        return self.board_answer(request, daily_board(when))


class DailyBoardTodayView(DailyBoardView):
    @extend_schema(parameters=PAGE_PARAMS, responses={200: BoardOut, **ERRORS, **NOT_MODIFIED},
                   operation_id="daily_board_today")
    def get(self, request):
        return super().get(request)


class DailyHistogramView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: HistogramOut, **ERRORS})
    def get(self, request, day: str):
        """The winners' moves on a day's board, bucketed, and where the caller's own result is.
        Public as the board is (every row shows its moves); cached, at most seconds behind it."""
        when = _date(day)
        if when > days.today():
            raise NotFound(_("The board of %(day)s does not exist yet.") % {"day": when.isoformat()})
        return Response(HistogramOut(histogram.day_histogram(when, request.user)).data)


def _deal_number(deal: str) -> int:
    """The number of a numbered deal's board URL: a deal code or a deal number."""
    if deal.isascii() and deal.isdigit() and len(deal) <= 9 and 1 <= int(deal) <= MAX_DEAL:
        return int(deal)
    try:
        return games.parse_code(deal.upper()).number
    except games.InvalidCode as exc:
        raise NotFound(games.render(exc.refusal, _), code="invalid_deal") from None


class DealBoardView(_BoardView):
    def live_board(self, request, deal: str):
        try:
            return deal_board(_deal_number(deal)), None
        except NotFound:
            return None

    @extend_schema(parameters=PAGE_PARAMS, responses={200: BoardOut, **ERRORS, **NOT_MODIFIED})
    def get(self, request, deal: str):
        """The board of one numbered deal: a deal code or a deal number."""
        return self.board_answer(request, deal_board(_deal_number(deal)))


class PlayersBoardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=PAGE_PARAMS[:2], responses={200: PlayersOut, **ERRORS})
    def get(self, request):
        size = _int_param(request, "page_size", settings.BOARD_PAGE_SIZE, 1, settings.BOARD_MAX_PAGE_SIZE)
        page = _int_param(request, "page", 1, 1, 1_000_000)
        return Response(stats.players_board(page, size))


class PlayerView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: ProfileOut, **ERRORS})
    def get(self, request, username: str):
        entries.indexes_ensure(stats.history_boards(username))  # the history's ranks
        return Response(stats.player_profile(username))


class CalendarView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: CalendarOut, **ERRORS})
    def get(self, request, month: str | None = None):
        """A month of deals of the day (YYYY-MM; this month by default) and, to a signed-in
        caller, their own result on each day."""
        when = _month(month) if month else calendar.month_of(days.today())
        return Response(CalendarOut(calendar.month_calendar(when, request.user)).data)


class CalendarThisMonthView(CalendarView):
    @extend_schema(responses={200: CalendarOut, **ERRORS}, operation_id="calendar_this_month")
    def get(self, request):
        return super().get(request)
