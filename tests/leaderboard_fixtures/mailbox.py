"""The mail the worker would send, sent in this process: each stored mail through
``accounts.mail.mail_send`` (the worker's task calls it), then Django's test outbox."""

from django.core import mail

from leaderboard.accounts import mail as outgoing
from leaderboard.models import OutgoingMail


def delivered() -> list:
    """Django's test outbox, once every stored mail is sent (oldest first)."""
    for mail_id in OutgoingMail.objects.order_by("pk").values_list("pk", flat=True):
        outgoing.mail_send(mail_id)
    return mail.outbox
