"""The session engine (``SESSION_ENGINE``): Django's database sessions, each row stored under
the account its data is logged in as (``models.UserSession.user``), so ending an account's
sessions is one indexed DELETE (``passwords.sessions_end``).

Every save writes the row whole, its account read from the data, so the column follows a
log-in (a new key, ``cycle_key``, then the account stored in it), a guest kept under a name
and a log-out (the row deleted). The class keeps Django's name on purpose: the name salts the
signed data (``django.contrib.sessions.SessionStore``), so the rows copied from Django's table
(migration 0018) still read."""

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import CreateError, UpdateError
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.contrib.sessions.models import Session
from django.db import IntegrityError
from django.utils import timezone
from psycopg.errors import ForeignKeyViolation

from .models import UserSession


class SessionStore(DatabaseStore):
    @classmethod
    def get_model_class(cls):
        return UserSession

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        session.user_id = _user_id(data)
        return session

    async def acreate_model_instance(self, data):
        session = await super().acreate_model_instance(data)
        session.user_id = _user_id(data)
        return session

    def save(self, must_create=False):
        try:
            super().save(must_create=must_create)
        except (CreateError, IntegrityError) as exc:
            if _account_gone(exc):
                raise UpdateError from exc
            raise

    async def asave(self, must_create=False):
        try:
            await super().asave(must_create=must_create)
        except (CreateError, IntegrityError) as exc:
            if _account_gone(exc):
                raise UpdateError from exc
            raise


def _user_id(data) -> int | None:
    """The account a session's data is logged in as, or None (a visitor's)."""
    try:
        return int(data.get(SESSION_KEY))
    except (TypeError, ValueError):
        return None


def _account_gone(error: CreateError | IntegrityError) -> bool:
    """Whether the session's row was refused for its account, deleted meanwhile (the foreign
    key). Django's ``create`` takes a refused insert for a key already taken and tries another
    key, for ever: this one would never pass. The session is lost instead (``UpdateError``, as
    when its row is gone: the session middleware answers "interrupted")."""
    refused = error if isinstance(error, IntegrityError) else error.__context__
    return isinstance(refused, IntegrityError) and isinstance(refused.__cause__, ForeignKeyViolation)


def sessions_forget_expired() -> int:
    """Delete the sessions whose expiry has passed (beat, daily): Django deletes an expired
    session only when its browser comes back, and its clearsessions is a command nobody runs.
    Django's own table goes the same way: the rows migration 0018 copied stay there for a
    rollback while they live, and then they go, so a deleted account's copy outlives it by
    SESSION_COOKIE_AGE at most. How many went (this engine's rows)."""
    now = timezone.now()
    Session.objects.filter(expire_date__lt=now).delete()
    deleted, _ = UserSession.objects.filter(expire_date__lt=now).delete()
    return deleted
