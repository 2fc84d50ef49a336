"""Mail to a player, in the language active when it is sent (the request's: the reader's).
Django's mail (settings: EMAIL_*; the console backend, which writes each mail to the log
stream, when EMAIL_HOST is unset) and templates: ``accounts/mail/<name>_subject.txt`` and
``<name>.txt``."""

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string


def mail_send(name: str, to: str, context: dict) -> None:
    subject = "".join(render_to_string(f"accounts/mail/{name}_subject.txt", context).splitlines())
    body = render_to_string(f"accounts/mail/{name}.txt", context)
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [to])
