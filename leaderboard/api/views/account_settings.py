"""Thin API views of an account's own settings (``/api/auth/...``): its email address, a
forgotten or changed password, a new name, the download of its data, its deletion."""

from django.contrib.auth import logout, update_session_auth_hash
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ...accounts import deletion, export, passwords, rename
from ...accounts import email as emails
from ...accounts import services as accounts
from ...accounts.authentication import CsrfWhenSessionCookie
from .. import account_serializers as shapes
from ..params import valid_body
from ..serializers import AccountOut
from ..throttling import PerAddressThrottle
from .accounts import account_data
from .common import ERRORS


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


class MailThrottled(APIView):
    """Views that make the site send mail: a few an hour from one address (THROTTLE_ACCOUNT_MAIL)."""

    throttle_classes = [PerAddressThrottle]
    throttle_scope = "account_mail"


class EmailView(MailThrottled):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=shapes.EmailIn,
        responses={202: shapes.SentOut, 200: AccountOut, **ERRORS},
        description="A new address: a link to confirm it is mailed to it (202); empty: no address (200).",
    )
    def post(self, request):
        address = valid_body(shapes.EmailIn, request)["email"]
        if not address:
            emails.email_remove(request.user)
            return Response(account_data(request.user))
        emails.email_set(request.user, address, base_url=_base_url(request))
        return Response({"sent": True}, status=status.HTTP_202_ACCEPTED)


class EmailConfirmView(APIView):
    permission_classes = [CsrfWhenSessionCookie]

    @extend_schema(request=shapes.TokenIn, responses={200: AccountOut, **ERRORS})
    def post(self, request):
        user = emails.email_confirm(valid_body(shapes.TokenIn, request)["token"])
        mine = request.user.is_authenticated and request.user.pk == user.pk
        return Response({"username": user.username, "authenticated": mine, "is_staff": False, "email": user.email})


class PasswordForgotView(MailThrottled):
    permission_classes = [CsrfWhenSessionCookie]

    @extend_schema(
        request=shapes.ForgotIn,
        responses={202: shapes.SentOut, **ERRORS},
        description="A reset link to the accounts with this confirmed address, if any: the same answer either way.",
    )
    def post(self, request):
        passwords.password_forgot(valid_body(shapes.ForgotIn, request)["email"], base_url=_base_url(request))
        return Response({"sent": True}, status=status.HTTP_202_ACCEPTED)


class PasswordResetView(APIView):
    permission_classes = [CsrfWhenSessionCookie]
    throttle_classes = [PerAddressThrottle]
    throttle_scope = "login"

    @extend_schema(
        request=shapes.ResetIn,
        responses={204: OpenApiResponse(description="The new password is set; log in with it."), **ERRORS},
    )
    def post(self, request):
        data = valid_body(shapes.ResetIn, request)
        passwords.password_reset(data["uid"], data["token"], data["password"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [PerAddressThrottle]
    throttle_scope = "login"

    @extend_schema(
        request=shapes.PasswordChangeIn,
        responses={200: AccountOut, **ERRORS},
        description="Every other session ends and every API token is deleted; this one gets a new token.",
    )
    def post(self, request):
        data = valid_body(shapes.PasswordChangeIn, request)
        user = request.user
        passwords.password_change(
            user, data["old_password"], data["password"], keep_session=request.session.session_key
        )
        update_session_auth_hash(request, user)  # this session stays logged in
        return Response(account_data(user, accounts.user_token(user)))


class ExportView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: shapes.ExportOut, 401: ERRORS[401]},
        description="Everything the service holds about the caller, as a JSON file to download.",
    )
    def get(self, request):
        data = export.player_export(request.user)
        response = Response(data)
        response["Content-Disposition"] = f'attachment; filename="easyharp-data-{request.user.pk}.json"'
        response["Cache-Control"] = "no-store"
        return response


class DeleteView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [PerAddressThrottle]
    throttle_scope = "login"

    @extend_schema(
        request=shapes.PasswordIn,
        responses={204: OpenApiResponse(description="The account and everything naming it are deleted."), **ERRORS},
        description="Confirmed with the password. Results leave the boards, which are ranked again; "
        "owned groups pass to their longest-standing member (or are deleted when alone).",
    )
    def post(self, request):
        password = valid_body(shapes.PasswordIn, request)["password"]
        deletion.account_delete(request.user, password)
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class NameView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=shapes.NameIn,
        responses={200: AccountOut, **ERRORS},
        description="A new name, once in RENAME_DAYS days (409 rename_too_soon); the sign-up's name rules apply.",
    )
    def post(self, request):
        user = rename.name_change(request.user, valid_body(shapes.NameIn, request)["username"])
        return Response(account_data(user))
