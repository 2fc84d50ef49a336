"""Passwords: a forgotten one reset by a link by email, a known one changed; either ends every
other session of the account and deletes its API tokens.

The reset is Django's: ``PasswordResetForm``, run by the worker (``accounts.mail``), finds
the active accounts with that confirmed address and mails each a link;
``default_token_generator`` (PasswordResetTokenGenerator) signs the account's password hash
and last log-in into it, so the link works once (the new password changes the hash) and not
after PASSWORD_RESET_TIMEOUT. Nothing in the answer says whether an address has an account."""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from ..core.errors import Invalid
from . import mail
from .email import email_normalized
from .models import UserSession

User = get_user_model()


class _ResetForm(PasswordResetForm):
    """Django's reset form, its mails collected (``messages``) for the worker to send."""

    def save(self, *, base_url: str, **kwargs) -> list[EmailMessage]:
        self._base_url = base_url.rstrip("/")
        self.messages: list[EmailMessage] = []
        super().save(**kwargs)
        return self.messages

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email, **kwargs):
        context["link"] = f"{self._base_url}/password/reset/{context['uid']}/{context['token']}/"
        self.messages.append(mail.message("password_reset", to_email, context))


def password_forgot(address: str, *, base_url: str) -> None:
    """Queue a reset for ``address``: the worker looks up its accounts (``reset_messages``),
    so the request does the same work, and says the same, for an address of no account."""
    mail.mail_queue("password_reset", email_normalized(address), {"base_url": base_url})


def reset_messages(outgoing) -> list[EmailMessage]:
    """The worker's part of a reset: a link to each active account whose confirmed address is
    the mail's; none for an address of no account."""
    base_url = outgoing.context["base_url"]
    form = _ResetForm({"email": outgoing.to})
    if not form.is_valid():
        return []
    return form.save(
        base_url=base_url,
        use_https=base_url.startswith("https:"),
        domain_override=urlsplit(base_url).netloc,
        extra_email_context={"hours": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)},
    )


def reset_user(uidb64: str, token: str):
    """The account a reset link is for, or None when the link is altered, used or expired."""
    try:
        user = User.objects.get(pk=force_str(urlsafe_base64_decode(uidb64)), is_active=True)
    except (TypeError, ValueError, OverflowError, User.DoesNotExist, ValidationError):
        return None
    return user if default_token_generator.check_token(user, token) else None


def password_reset(uidb64: str, token: str, password: str):
    user = reset_user(uidb64, token)
    if user is None:
        raise Invalid(_("This link is not valid, or it has expired."), code="invalid_link")
    _password_set(user, password)
    return user


def password_change(user, old_password: str, password: str, *, keep_session: str | None = None):
    """The settings' change: the old password first. ``keep_session``: the session key of the
    request that asked (it stays logged in)."""
    if not user.check_password(old_password):
        raise Invalid(_("The current password is wrong."), code="wrong_password")
    _password_set(user, password, keep_session=keep_session)


def _password_set(user, password: str, *, keep_session: str | None = None) -> None:
    try:
        password_validation.validate_password(password, user)
    except ValidationError as exc:
        raise Invalid(" ".join(exc.messages), detail=exc.messages, code="invalid_password") from None
    with transaction.atomic():
        user.set_password(password)
        user.save(update_fields=["password"])
        sessions_end(user, keep=keep_session)
        Token.objects.filter(user=user).delete()  # the token cache forgets them (signals)


def sessions_end(user, *, keep: str | None = None) -> int:
    """End every session logged in as ``user`` except ``keep`` (the session key of the request
    that asked, which stays logged in); how many rows went (expired ones with them). One DELETE
    on the sessions' account index (``UserSession.user``): no other account's session is read."""
    sessions = UserSession.objects.filter(user_id=user.pk)
    if keep is not None:
        sessions = sessions.exclude(session_key=keep)
    ended, _ = sessions.delete()
    return ended
