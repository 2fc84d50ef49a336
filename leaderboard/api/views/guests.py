"""Thin API views of guest players (``/api/auth/guest/``, ``/api/auth/keep/``): a visitor
becomes a guest bound to this browser, and a guest keeps its results under a name."""

from django.conf import settings
from django.contrib.auth import login
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ...accounts import email as emails
from ...accounts import guests
from ...accounts import services as accounts
from ...accounts.authentication import CsrfWhenSessionCookie
from ...core.errors import Conflict
from ..account_serializers import SignupIn
from ..params import valid_body
from ..serializers import AccountOut
from ..throttling import PerAddressThrottle, SignupThrottle
from .accounts import account_data
from .common import ERRORS

_BACKEND = "django.contrib.auth.backends.ModelBackend"


class GuestView(APIView):
    """A new guest player, signed in on this browser by a session cookie that lasts
    GUEST_KEEP_DAYS (and an API token): counted as a sign-up by the sign-up throttle."""

    permission_classes = [CsrfWhenSessionCookie]
    throttle_classes = [SignupThrottle]

    @extend_schema(request=None, responses={201: AccountOut, **ERRORS})
    def post(self, request):
        if request.user.is_authenticated:
            raise Conflict(_("You are signed in already."), code="signed_in")
        guest = guests.guest_create()
        login(request, guest, backend=_BACKEND)
        request.session.set_expiry(settings.GUEST_KEEP_DAYS * 86400)
        return Response(account_data(guest, accounts.user_token(guest)), status=status.HTTP_201_CREATED)


class KeepView(APIView):
    """The guest keeps its results: a name and a password (the sign-up's rules), and, as at
    sign-up, an optional email address, sent a link to confirm it."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [PerAddressThrottle]
    throttle_scope = "login"

    @extend_schema(request=SignupIn, responses={200: AccountOut, **ERRORS})
    def post(self, request):
        data = valid_body(SignupIn, request)
        address = data.pop("email", "")
        player = guests.guest_keep(request.user, **data)
        if address:
            emails.email_set(player, address, base_url=request.build_absolute_uri("/"))
        login(request, player, backend=_BACKEND)  # a new password: the session is issued again
        request.session.set_expiry(None)
        return Response(account_data(player, accounts.user_token(player)))
