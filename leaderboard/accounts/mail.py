"""Mail to a player, sent by the worker, in the language of the request that asked for it.

The request only writes an ``OutgoingMail`` row in its own transaction and, after the commit,
queues ``MAIL_TASK`` by name: the answer costs the same whoever the mail is for (a password
reset looks its accounts up in the worker, so its answer says nothing of an address), and no
mail is lost when the broker or the mail server is away: beat queues again every row whose
``next_try_at`` has passed (``mail_requeue``), the delay doubling after each failed send, and
gives a row up after MAIL_GIVE_UP_SECONDS (its link would have expired). A row is deleted once
sent, so a task delivered twice finds it gone and sends nothing; a worker that dies after the
server took the mail but before the commit sends it again (at least once, never lost).

Django's mail (settings: EMAIL_*; the console backend, which writes each mail to the log stream,
when EMAIL_HOST is unset) and templates: ``accounts/mail/<template>_subject.txt`` and
``<template>.txt``. A template whose accounts the worker must find (the reset) names, in
``_EXPANDED``, the function that turns the row into its messages."""

import logging
import smtplib
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.module_loading import import_string

from .models import OutgoingMail

log = logging.getLogger(__name__)

MAIL_TASK = "leaderboard.tasks.send_mail"
# Looked up by dotted path when a row is sent, so that this module imports none of them.
_EXPANDED = {"password_reset": "leaderboard.accounts.passwords.reset_messages"}


def mail_queue(template: str, to: str, context: dict, *, user=None) -> OutgoingMail:
    """Store a mail for the worker to render and send, in the active language."""
    now = timezone.now()
    mail = OutgoingMail.objects.create(
        to=to,
        template=template,
        language=translation.get_language() or settings.LANGUAGE_CODE,
        context=context,
        user=user,
        created_at=now,
        next_try_at=now + timedelta(seconds=settings.MAIL_RETRY_SECONDS),
    )
    transaction.on_commit(lambda: _enqueue(mail.pk))
    return mail


def message(template: str, to: str, context: dict) -> EmailMessage:
    """One mail rendered from its templates (the subject on one line)."""
    subject = "".join(render_to_string(f"accounts/mail/{template}_subject.txt", context).splitlines())
    body = render_to_string(f"accounts/mail/{template}.txt", context)
    return EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to])


def mail_send(mail_id: int) -> bool:
    """The worker's part: render and send one stored mail, then delete it; False when it is gone
    (sent already, or being sent by another delivery of the task) or its send failed (kept
    for a later try, or dropped when the server refused every recipient for good)."""
    with transaction.atomic():
        mail = OutgoingMail.objects.select_for_update(skip_locked=True).filter(pk=mail_id).first()
        if mail is None:
            return False
        with translation.override(mail.language):
            messages = _messages(mail)
        try:
            sent = bool(get_connection().send_messages(messages))
        except smtplib.SMTPRecipientsRefused as refused:
            if not _refused_for_good(refused):  # 4xx: greylisting, a full mailbox, a rate limit
                log.warning("mail %s refused for now by the mail server; tried again later", mail.pk)
                _retry_later(mail)
                return False
            log.warning("mail %s refused by the mail server; dropped", mail.pk)
            sent = False
        except (OSError, smtplib.SMTPException):
            log.warning("mail %s not sent; it is tried again later", mail.pk, exc_info=True)
            _retry_later(mail)
            return False
        mail.delete()
        return sent


def mail_requeue() -> int:
    """Beat: queue again every mail whose next try is due; drop those too old to be of use."""
    now = timezone.now()
    too_old = now - timedelta(seconds=settings.MAIL_GIVE_UP_SECONDS)
    gone, _ = OutgoingMail.objects.filter(created_at__lt=too_old).delete()
    if gone:
        log.error("%s mail given up after %s s unsent", gone, settings.MAIL_GIVE_UP_SECONDS)
    due = list(OutgoingMail.objects.filter(next_try_at__lte=now).values_list("pk", flat=True)[:5000])
    for mail_id in due:
        _enqueue(mail_id)
    return len(due)


def _messages(mail: OutgoingMail) -> list[EmailMessage]:
    if mail.template in _EXPANDED:
        return import_string(_EXPANDED[mail.template])(mail)
    return [message(mail.template, mail.to, mail.context)]


def _refused_for_good(refused: smtplib.SMTPRecipientsRefused) -> bool:
    """Every recipient refused with a permanent (5xx) code: no later try can deliver it."""
    return all(code >= 500 for code, _ in refused.recipients.values())


def _retry_later(mail: OutgoingMail) -> None:
    mail.attempts += 1
    delay = min(settings.MAIL_RETRY_SECONDS * 2**mail.attempts, 3600)
    mail.next_try_at = timezone.now() + timedelta(seconds=delay)
    mail.save(update_fields=["attempts", "next_try_at"])


def _enqueue(mail_id: int) -> None:
    try:
        current_app.send_task(MAIL_TASK, (mail_id,), ignore_result=True, retry=False)
    except Exception:  # the row is safe in the database; mail_requeue picks it up
        log.warning("could not queue mail %s; beat queues it later", mail_id, exc_info=True)
