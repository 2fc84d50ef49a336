"""Accounts: sign-up and the API token. Log-in and log-out are Django's (the views); the
token's cached lookup is ``authentication``'s."""

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from ..core import sql
from ..core.errors import Conflict, Invalid
from ..record.players import PlayerName, PlayerStats
from . import names

User = get_user_model()


def user_signup(*, username: str, password: str):
    """Create a player; Django's password validators decide what a good password is. The name
    is stored NFKC-normalised and must not look like another player's (``names``)."""
    username = signup_checked(username=username, password=password)
    return account_named(User(), username, password)


def signup_checked(*, username: str, password: str, player_id: int | None = None) -> str:
    """The sign-up's checks of a name and a password, for a new account or for the guest
    ``player_id`` keeping its result (``guests``): the name as it is stored, or the refusal."""
    username = names.normalized(username or "").strip()
    candidate = User(pk=player_id, username=username) if player_id else User(username=username)
    name_checked(username, password=password, candidate=candidate)
    return username


def account_named(player, username: str, password: str):
    """Save ``player`` (a new account, or a guest keeping its result) under a name and password
    that passed ``signup_checked``, with its stats row: the name, its look-alike key and the
    stats, or none of them."""
    key = names.name_key(username)
    player.username = username
    player.set_password(password)
    try:
        with transaction.atomic():
            name_lock(username)
            if User.objects.filter(username__iexact=username).exclude(pk=player.pk).exists():  # taken while we checked
                raise taken(username)
            player.save()  # takes the name's key (signals): unique, a look-alike that won the race fails here
            if not PlayerName.objects.filter(player=player, key=key).exists():  # a rename that lost the race
                raise looks_alike(username)
            PlayerStats.objects.get_or_create(player=player)
    except IntegrityError:
        if PlayerName.objects.filter(key=key).exists():
            raise looks_alike(username) from None
        raise taken(username) from None
    return player


def name_checked(username: str, *, password: str | None = None, candidate=None) -> str:
    """The checks of a name (normalised already) that sign-up, a guest's keeping and a new name
    share: given, free in any case, like no other player's, valid, of one script; with
    ``password``, the password validators too. ``candidate``: the account that takes the name (a
    new one, or the one renamed, whose own name does not count against it). Answers the name's
    look-alike key."""
    if not username:
        raise Invalid(_("Choose a username."), code="username_required")
    others = User.objects.exclude(pk=candidate.pk) if candidate is not None and candidate.pk else User.objects
    if others.filter(username__iexact=username).exists():
        raise taken(username)
    key = names.name_key(username)
    keys = PlayerName.objects.filter(key=key)
    if candidate is not None and candidate.pk:
        keys = keys.exclude(player_id=candidate.pk)
    if keys.exists():
        raise looks_alike(username)
    try:
        User._meta.get_field("username").run_validators(username)
        if password is not None:
            password_validation.validate_password(password, candidate or User(username=username))
    except ValidationError as exc:
        raise Invalid(" ".join(exc.messages), detail=exc.messages, code="invalid_signup") from None
    if names.mixes_scripts(username):
        raise Invalid(
            _("A username may not mix letters of different scripts (Latin and Cyrillic, say)."),
            code="username_mixed_scripts",
        )
    return key


def taken(username: str) -> Conflict:
    return Conflict(_("The username %(username)s is taken.") % {"username": repr(username)}, code="username_taken")


def looks_alike(username: str) -> Conflict:
    return Conflict(
        _("The username %(username)s looks like another player's name: choose one that does not.")
        % {"username": repr(username)},
        code="username_looks_alike",
    )


def name_lock(username: str) -> None:
    """Serialise sign-ups of one name in any case until the transaction ends: the unique
    index on usernames is case-sensitive, so "alice" and "ALICE" could both get through."""
    sql.run("SELECT pg_advisory_xact_lock(hashtext('signup'), hashtext(upper(%s)))", [username])


def user_token(user) -> str:
    return Token.objects.get_or_create(user=user)[0].key


def user_token_delete(user) -> None:
    """Log-out: the API token stops working (its cached lookup is forgotten by the Token
    signal, leaderboard.accounts.authentication); the next log-in issues a new one."""
    Token.objects.filter(user=user).delete()
