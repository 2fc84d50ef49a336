"""Token authentication with the token -> player lookup cached, so a request with a token
costs one cache read instead of a query joining the whole user row.

The rule: a cached lookup never outlives the token or the account it names.
- Deleting a token (a rotation is a delete and a new key), deleting a user, or saving a user
  (deactivating, renaming, making staff: ``leaderboard.signals``) forgets the user's cached
  tokens when the change commits: the next request reads PostgreSQL again.
- Changes that send no model signal (``QuerySet.update``, raw SQL, a restored backup) and a
  request that read the old row just before the change committed and cached it just after
  are bounded by the entry's lifetime, ``AUTH_TOKEN_CACHE_SECONDS`` (0 turns the cache off).
The admin's "disable" action (a queryset update) calls ``forget_users`` itself.

Only what requests use is cached (no password hash): the user comes back as a model instance
with the other fields deferred, read from PostgreSQL if something asks for them. Inactive
accounts and unknown tokens are never cached. When the cache is unreachable it answers "miss"
(django-redis's IGNORE_EXCEPTIONS) and every request reads PostgreSQL, as before.

Also here, the other checks of who is logging in: the CSRF check of log-in and sign-up when
they come with a session cookie, and django-axes' lock-out of every log-in.
"""

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import router, transaction
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import SessionAuthentication, TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import BasePermission
from rest_framework.throttling import BaseThrottle

from ..core import sql

User = get_user_model()
_USER_FIELDS = {"id", "username", "email", "is_active", "is_staff", "is_superuser"}
# Model.from_db takes a subset of the fields in the model's own order.
USER_FIELDS = [f.attname for f in User._meta.concrete_fields if f.attname in _USER_FIELDS]


def _cache_key(token_key: str) -> str:
    return f"auth-token:{token_key}"


def _player_key(token_key: str) -> str:
    # The lookup's account id alone, as a plain number (the lookup is pickled): a Redis script
    # reads it to find the caller's rank without a round trip before (``held_player_key``).
    # Set and dropped with the lookup, for its lifetime.
    return f"auth-token-player:{token_key}"


def _cacheable(token_key: str) -> bool:
    # A real key is 40 hex digits; anything else goes to PostgreSQL (and fails there) rather
    # than becoming a cache key.
    return settings.AUTH_TOKEN_CACHE_SECONDS > 0 and len(token_key) <= 64 and token_key.isalnum()


class CachedTokenAuthentication(TokenAuthentication):
    """DRF's ``TokenAuthentication`` (same header, same errors) reading a cache first."""

    def authenticate_credentials(self, key):
        if not _cacheable(key):
            return super().authenticate_credentials(key)
        found = cache.get_many([_cache_key(key), _player_key(key)])
        values = found.get(_cache_key(key))
        if values is None:
            values = _lookup(key)
            if values is None:
                raise AuthenticationFailed(_("Invalid token."))
            if not values[USER_FIELDS.index("is_active")]:
                raise AuthenticationFailed(_("User inactive or deleted."))
            player = values[USER_FIELDS.index("id")]
            cache.set_many({_cache_key(key): values, _player_key(key): player}, settings.AUTH_TOKEN_CACHE_SECONDS)
        elif _player_key(key) not in found:  # cached before it was kept, or evicted alone
            remaining = cache.ttl(_cache_key(key))  # the lookup's life; 0: gone meanwhile
            if remaining:
                cache.set(_player_key(key), values[USER_FIELDS.index("id")], remaining)
        user = User.from_db(router.db_for_read(User), USER_FIELDS, values)
        return user, Token.from_db(router.db_for_read(Token), ["key", "user_id"], [key, user.pk])


def _lookup(key: str) -> tuple | None:
    """``USER_FIELDS`` of the user of token ``key``: one plain statement (the ORM's
    select_related cost more to compile than the query to run)."""
    columns = ", ".join(f'u."{User._meta.get_field(name).column}"' for name in USER_FIELDS)
    user_id = Token._meta.get_field("user").column
    rows = sql.run(
        f'SELECT {columns} FROM "{Token._meta.db_table}" t INNER JOIN "{User._meta.db_table}" u '
        f'ON u."{User._meta.pk.column}" = t."{user_id}" WHERE t."key" = %s',
        [key],
    )
    return tuple(rows[0]) if rows else None


def _request_token(request) -> str | None:
    """The key of the request's ``Authorization: Token <key>`` header, read as DRF's
    ``TokenAuthentication`` reads it; None when there is none, or one it would refuse."""
    parts = get_authorization_header(request).split()
    if len(parts) != 2 or parts[0].lower() != CachedTokenAuthentication.keyword.lower().encode():
        return None
    try:
        return parts[1].decode()
    except UnicodeError:
        return None


def held_token_keys(request) -> list[str]:
    """The cache key of the request's token lookup (none when it carries no token that the
    cache may hold), for a view that reads it with keys of its own in one round trip."""
    key = _request_token(request)
    return [_cache_key(key)] if key is not None and _cacheable(key) else []


def held_player(request, held: dict) -> int | None:
    """The id of the account of the request's token from ``held`` (the values of
    ``held_token_keys``, read already): the account ``CachedTokenAuthentication`` would
    authenticate. None when the lookup is not held (not cached: only the authentication may
    look it up, and answer its errors). A cached lookup is an active account's (see above)."""
    key = _request_token(request)
    values = held.get(_cache_key(key)) if key is not None and _cacheable(key) else None
    return None if values is None else values[USER_FIELDS.index("id")]


def held_player_key(request) -> str | None:
    """The cache key of the account id of the request's token lookup (``held_token_keys``),
    a plain number that a Redis script can read: present while the lookup is cached."""
    key = _request_token(request)
    return _player_key(key) if key is not None and _cacheable(key) else None


def forget_tokens(token_keys) -> None:
    """Drop these tokens' cached lookups (at commit, when inside a transaction)."""
    keys = [name(k) for k in token_keys for name in (_cache_key, _player_key)]
    if keys:
        transaction.on_commit(lambda: cache.delete_many(keys))


def forget_users(user_ids) -> None:
    """Drop the cached lookups of every token of these users."""
    forget_tokens(Token.objects.filter(user_id__in=list(user_ids)).values_list("key", flat=True))


def _token_changed(sender, instance, **kwargs):
    forget_tokens([instance.key])


post_save.connect(_token_changed, sender=Token, dispatch_uid="auth-token-saved")
post_delete.connect(_token_changed, sender=Token, dispatch_uid="auth-token-deleted")


class CsrfWhenSessionCookie(BasePermission):
    """Open to anyone, but a request that carries a session cookie must carry the CSRF token.

    DRF checks CSRF only for an authenticated session, so without this a form on another site
    could post a log-in or sign-up into a visitor's browser and sign them in to the attacker's
    account (login CSRF). API clients with tokens, and a first visit, carry no session cookie
    and need no token."""

    def has_permission(self, request, view) -> bool:
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            SessionAuthentication().enforce_csrf(request)  # PermissionDenied (403) when missing
        return True


def client_address(request) -> str:
    """The client's address as the API's throttles count it (``NUM_PROXIES``): axes locks the
    same address, and a forged X-Forwarded-For escapes neither."""
    return BaseThrottle().get_ident(request)


class LoginAxesHandler(AxesDatabaseHandler):
    """axes' database handler, counting and locking every log-in path: the admin's form and the
    API's log-in (which the pages' form posts to) count the same failures of one account from
    one address, so an account locked on one is locked on all.

    Skipped, as writes that lock nothing: the log-in that a sign-up or a new guest makes (a new
    account has no failures to reset), the one of a guest keeping its result, and log-outs
    outside the admin."""

    def user_logged_in(self, sender, request, user, **kwargs):
        match = getattr(request, "resolver_match", None)
        if match is None or match.url_name not in ("signup", "guest", "keep"):
            super().user_logged_in(sender, request, user, **kwargs)

    def user_logged_out(self, sender, request, user, **kwargs):
        if self.is_admin_request(request):
            super().user_logged_out(sender, request, user, **kwargs)


def locked_out(request) -> bool:
    """axes refused this request's log-in, or this failure reached the limit. axes marks the
    request it was given: the API's ``Request``, which Django's middleware never sees."""
    return bool(getattr(request, "axes_locked_out", False))
