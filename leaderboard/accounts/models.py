"""The accounts folder's own record: the sessions, each under the account it is logged in as
(Django's "extending database-backed session engines"), so an account's sessions are found by
an index, not by decoding every one. Imported by ``leaderboard.models`` (the app's models)."""

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
