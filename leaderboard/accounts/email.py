"""A player's email address: optional, and used for nothing until confirmed by a link.

An address asked for is not stored: the link carries it, signed (``django.core.signing``,
timestamped: it expires after EMAIL_CONFIRM_SECONDS), with the address the account had then,
so a link goes stale once the account's address changed. ``User.email`` only ever holds a
confirmed address, and one account's at most (case aside)."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from ..core.errors import Conflict, Invalid
from .mail import mail_queue

User = get_user_model()
_SALT = "leaderboard.accounts.email"


def email_normalized(address: str) -> str:
    """The address as stored, or refused: not an address, or longer than an account's (and a
    queued mail's) column holds, 254 characters, though Django's validator takes up to 320."""
    address = User.objects.normalize_email((address or "").strip())
    try:
        validate_email(address)
    except ValidationError:
        raise Invalid(_("Enter a valid email address."), code="invalid_email") from None
    if len(address) > User._meta.get_field("email").max_length:
        raise Invalid(_("Enter a valid email address."), code="invalid_email")
    return address


def email_set(user, address: str, *, base_url: str) -> None:
    """Send ``address`` a link that makes it the account's (the sign-up's optional address,
    the settings' new one). ``base_url``: the site's scheme and host, for the link."""
    address = email_normalized(address)
    token = signing.dumps({"user": user.pk, "email": address, "was": user.email}, salt=_SALT, compress=True)
    link = f"{base_url.rstrip('/')}/account/email/{token}/"
    mail_queue("email_confirm", address, {"username": user.username, "link": link, "days": _days()}, user=user)


def email_confirm(token: str):
    """The account of a confirmation link, with its address now; refused when the link was
    altered, expired, stale (the account's address changed since), or the address is another
    account's meanwhile."""
    try:
        data = signing.loads(token, salt=_SALT, max_age=settings.EMAIL_CONFIRM_SECONDS)
    except signing.BadSignature:
        raise Invalid(_("This link is not valid, or it has expired."), code="invalid_link") from None
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=data["user"], is_active=True).first()
        if user is None or (user.email != data["was"] and user.email != data["email"]):
            raise Invalid(_("This link is not valid, or it has expired."), code="invalid_link")
        if User.objects.filter(email__iexact=data["email"]).exclude(pk=user.pk).exists():
            raise Conflict(_("This address is another account's."), code="email_taken")
        if user.email != data["email"]:
            user.email = data["email"]
            user.save(update_fields=["email"])
    return user


def email_remove(user) -> None:
    user.email = ""
    user.save(update_fields=["email"])


def _days() -> int:
    return max(1, settings.EMAIL_CONFIRM_SECONDS // 86_400)
