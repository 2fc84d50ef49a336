"""Thin API views of accounts (``/api/auth/...``): sign up, log in and out, who am I."""

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from ...accounts import email as emails
from ...accounts import names
from ...accounts import services as accounts
from ...accounts.authentication import CsrfWhenSessionCookie, locked_out
from ...core.errors import Invalid
from ...record.models import is_guest
from ..account_serializers import SignupIn
from ..params import valid_body
from ..serializers import AccountOut, CredentialsIn
from ..throttling import PerAddressThrottle, SignupThrottle
from .common import ERRORS


def account_data(user, token: str | None = None) -> dict:
    """The account as the API shows it: a guest has no name yet (``accounts.guests``)."""
    guest = user.is_authenticated and is_guest(user)
    data = {
        "username": user.username if user.is_authenticated and not guest else None,
        "authenticated": user.is_authenticated,
        "guest": guest,
        "is_staff": user.is_staff,
    }
    if user.is_authenticated:
        data["email"] = user.email
    if token:
        data["token"] = token
    return data


class SignupView(APIView):
    permission_classes = [CsrfWhenSessionCookie]
    throttle_classes = [SignupThrottle]

    @extend_schema(request=SignupIn, responses={201: AccountOut, **ERRORS})
    def post(self, request):
        data = valid_body(SignupIn, request)
        address = data.pop("email", "")
        user = accounts.user_signup(**data)
        if address:  # optional; a link to confirm it, as the settings send
            emails.email_set(user, address, base_url=request.build_absolute_uri("/"))
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return Response(account_data(user, accounts.user_token(user)), status=status.HTTP_201_CREATED)


class LoginView(APIView):
    permission_classes = [CsrfWhenSessionCookie]
    throttle_classes = [PerAddressThrottle]
    throttle_scope = "login"

    @extend_schema(request=CredentialsIn, responses={200: AccountOut, **ERRORS})
    def post(self, request):
        data = valid_body(CredentialsIn, request)
        # The name as sign-up stored it (NFKC), and with the request: axes counts and locks this door too.
        user = authenticate(request, username=names.normalized(data["username"]), password=data["password"])
        if locked_out(request):
            raise Throttled(
                wait=settings.AXES_COOLOFF_TIME.total_seconds(),
                detail=_("Too many failed log-ins for this account: try again later."),
            )
        if user is None:
            raise Invalid(_("Wrong username or password."), code="invalid_credentials")
        login(request, user)
        return Response(account_data(user, accounts.user_token(user)))


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
        return Response(account_data(request.user))
