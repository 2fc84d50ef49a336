"""The accounts folder's own record: the sessions, each under the account it is logged in as
(Django's "extending database-backed session engines"), so an account's sessions are found by
an index, not by decoding every one; and the mail waiting to be sent (``accounts.mail``).
Imported by ``leaderboard.models`` (the app's models)."""

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models


class UserSession(AbstractBaseSession):
    """A browser's session (``accounts.sessions``, the session engine); ``user`` is the account
    its data is logged in as, null for a visitor's. Deleting the account deletes its sessions."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, db_index=True, related_name="sessions"
    )

    class Meta(AbstractBaseSession.Meta):
        app_label = "leaderboard"

    @classmethod
    def get_session_store_class(cls):
        from .sessions import SessionStore  # the engine imports this module

        return SessionStore


class OutgoingMail(models.Model):
    """A mail the request asked for and the worker sends (``accounts.mail``): written in the
    request's transaction, so none is lost when the broker or the mail server is away, and
    deleted once sent. ``template`` names what to render, with ``context``, in ``language``;
    ``user``: the account it concerns (deleting the account deletes its mail), null for a
    password reset, whose accounts the worker looks up by ``to``."""

    to = models.EmailField(max_length=254)
    template = models.CharField(max_length=40)
    language = models.CharField(max_length=10)
    context = models.JSONField(default=dict)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, related_name="+")
    created_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    # When beat queues it again if it is still here (a lost task, a refused or failed send).
    next_try_at = models.DateTimeField(db_index=True)

    class Meta:
        app_label = "leaderboard"
