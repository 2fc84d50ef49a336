"""Thin API views of play: the deal of the day, attempts, hints, submissions and their results."""

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from ...core import days
from ...core.errors import TooLarge
from ...play.selectors import submissions as submission_reads
from ...play.selectors.deal import daily_deal
from ...play.services import attempts, intake, origin
from ...play.services.deal import daily_deal_ensure
from ..errors import too_large_message
from ..params import date_param, valid_body
from ..serializers import (
    AttemptIn,
    AttemptOut,
    DailyDealOut,
    HintIn,
    HintOut,
    SubmissionAccepted,
    SubmissionIn,
    SubmissionOut,
)
from ..throttling import address_block
from .common import ERRORS


class DailyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: DailyDealOut, **ERRORS})
    def get(self, request, day: str | None = None):
        today = days.today()
        when = date_param(day) if day else today
        if when == today:
            daily_deal_ensure(today)  # beat stores it ahead; else this first reader does
        return Response(DailyDealOut(daily_deal(when, request.user)).data)


class DailyTodayView(DailyView):
    @extend_schema(responses={200: DailyDealOut, **ERRORS}, operation_id="daily_today")
    def get(self, request):
        return super().get(request)


class AttemptsView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "attempt"

    @extend_schema(request=AttemptIn, responses={201: AttemptOut, **ERRORS})
    def post(self, request):
        data = valid_body(AttemptIn, request)
        device = origin.device_token(request.COOKIES.get(origin.DEVICE_COOKIE))
        who = origin.origin_of(address_block(BaseThrottle().get_ident(request)), device)
        attempt = attempts.attempt_start(player=request.user, deal_code=data["deal"], origin=who)
        response = Response(AttemptOut(attempt).data, status=status.HTTP_201_CREATED)
        if request.COOKIES.get(origin.DEVICE_COOKIE) != device:
            response.set_cookie(
                origin.DEVICE_COOKIE,
                device,
                max_age=settings.DEVICE_COOKIE_DAYS * 86400,
                httponly=True,
                secure=settings.SESSION_COOKIE_SECURE,
                samesite="Lax",
            )
        return response


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
        data = valid_body(SubmissionIn, request)
        submission = intake.submission_create(attempt=attempt, player=request.user, **data)
        url = reverse("submission", args=[submission.pk])
        return Response(
            {"id": submission.pk, "status": submission.status, "url": url},
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": url},
        )


class HintView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "hint"

    @extend_schema(request=HintIn, responses={200: HintOut, **ERRORS})
    def post(self, request):
        data = valid_body(HintIn, request)
        attempt = submission_reads.attempt_for(request.user, data["attempt"], others_not_found=True)
        action, hints = attempts.hint_for(attempt=attempt, actions=data["actions"])
        return Response({"action": action, "hints": hints})


class SubmissionView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: SubmissionOut, **ERRORS})
    def get(self, request, submission_id: int):
        submission, log_visible = submission_reads.submission_for(request.user, submission_id)
        return Response(SubmissionOut(submission, context={"log_visible": log_visible, "request": request}).data)
