"""Mail is stored by the request and sent by the worker (``accounts.mail``): the answer costs
the same for any address, nothing is lost while the broker or the mail server is away, and a
mail is sent once."""

import re
import socket
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from leaderboard_fixtures.mailbox import delivered
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse)
from rest_framework.test import APIClient
from worker import queued_tasks

from leaderboard import tasks
from leaderboard.accounts import deletion, email, mail
from leaderboard.models import OutgoingMail

pytestmark = pytest.mark.django_db
SEND_MAIL = "leaderboard.tasks.send_mail"


class Receiver:
    """aiosmtpd's handler: keeps what it accepts, refuses recipients at ``refused`` domains."""

    def __init__(self, refused: str = "", answer: str = "550 no such mailbox"):
        self.received: list[bytes] = []
        self.refused, self.answer = refused, answer

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802 (aiosmtpd's hook)
        if self.refused and address.endswith(self.refused):
            return self.answer
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        self.received.append(envelope.content)
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_at(settings):
    """Point Django's mail at an SMTP server on ``port`` (started or not)."""

    def point(port: int) -> None:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", port, False

    return point


@pytest.fixture
def smtp_server(smtp_at):
    servers = []

    def start(receiver: Receiver) -> Receiver:
        controller = Controller(receiver, hostname="127.0.0.1", port=free_port())
        controller.start()
        servers.append(controller)
        smtp_at(controller.port)
        return receiver

    yield start
    for controller in servers:
        controller.stop()


def signed_up(username: str):
    body = {"username": username, "password": PASSWORD}
    assert APIClient().post("/api/auth/signup/", body, format="json").status_code == 201
    return get_user_model().objects.get(username=username)


def statements(sql: list[dict]) -> list[str]:
    """The statements run, their literal values blanked (what differs between two addresses)."""
    return [re.sub(r"'(?:[^']|'')*'|\b\d+\b", "?", query["sql"]) for query in sql]


def test_a_reset_asked_for_an_address_of_no_account_runs_the_same_statements_as_for_one():
    alice = signed_up("alice")
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    runs = []
    for address in ("alice@example.org", "nobody@example.org"):
        with CaptureQueriesContext(connection) as sql:
            answer = APIClient().post("/api/auth/password/forgot/", {"email": address}, format="json")
        assert answer.status_code == 202
        runs.append(statements(sql.captured_queries))
    assert runs[0] == runs[1] and any("outgoingmail" in statement for statement in runs[0])
    assert not any('"auth_user"' in statement for statement in runs[0])  # the worker looks accounts up


def test_the_worker_mails_a_reset_link_to_an_account_and_nothing_to_an_address_of_none():
    alice = signed_up("alice")
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    for address in ("alice@example.org", "nobody@example.org"):
        APIClient().post("/api/auth/password/forgot/", {"email": address}, format="json")
    assert OutgoingMail.objects.count() == 2
    (message,) = delivered()
    assert message.to == ["alice@example.org"] and "/password/reset/" in message.body
    assert not OutgoingMail.objects.exists()


def test_a_mail_is_queued_for_the_worker_after_the_commit(clean_redis, django_capture_on_commit_callbacks):
    alice = signed_up("alice")
    with django_capture_on_commit_callbacks(execute=True):
        email.email_set(alice, "alice@example.org", base_url="http://testserver/")
    (stored,) = OutgoingMail.objects.all()
    assert queued_tasks(clean_redis) == [(SEND_MAIL, repr((stored.pk,)))]
    assert tasks.send_mail(stored.pk) is True  # as the worker runs it
    assert tasks.send_mail(stored.pk) is False  # a second delivery of the task sends nothing
    assert len(delivered()) == 1


def test_no_mail_is_lost_while_the_mail_server_is_away(smtp_at, smtp_server, clean_redis):
    alice = signed_up("alice")
    email.email_set(alice, "alice@example.org", base_url="http://testserver/")
    (stored,) = OutgoingMail.objects.all()
    smtp_at(free_port())  # nothing listens there
    assert mail.mail_send(stored.pk) is False
    stored.refresh_from_db()
    assert stored.attempts == 1 and stored.next_try_at > timezone.now()
    assert mail.mail_requeue() == 0  # not due yet
    OutgoingMail.objects.update(next_try_at=timezone.now() - timedelta(seconds=1))  # time passes
    assert mail.mail_requeue() == 1
    assert queued_tasks(clean_redis) == [(SEND_MAIL, repr((stored.pk,)))]
    receiver = smtp_server(Receiver())
    assert mail.mail_send(stored.pk) is True
    assert len(receiver.received) == 1 and b"/account/email/" in receiver.received[0]
    assert not OutgoingMail.objects.exists()


def test_a_mail_the_server_refuses_every_recipient_of_is_dropped(smtp_server):
    alice = signed_up("alice")
    email.email_set(alice, "alice@nowhere.example", base_url="http://testserver/")
    receiver = smtp_server(Receiver(refused="@nowhere.example"))
    (stored,) = OutgoingMail.objects.all()
    assert mail.mail_send(stored.pk) is False
    assert receiver.received == [] and not OutgoingMail.objects.exists()


def test_a_mail_refused_for_now_is_kept_for_a_later_try(smtp_server):
    alice = signed_up("alice")
    email.email_set(alice, "alice@busy.example", base_url="http://testserver/")
    receiver = smtp_server(Receiver(refused="@busy.example", answer="451 4.7.1 greylisted, try later"))
    (stored,) = OutgoingMail.objects.all()
    assert mail.mail_send(stored.pk) is False
    stored.refresh_from_db()
    assert receiver.received == [] and stored.attempts == 1 and stored.next_try_at > timezone.now()


def test_an_address_longer_than_an_account_holds_is_refused_alike_everywhere():
    alice = signed_up("alice")
    client = APIClient()
    client.force_authenticate(alice)
    long_address = "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".org"  # 312: Django takes up to 320
    assert len(long_address) > 254
    for path in ("/api/auth/email/", "/api/auth/password/forgot/"):
        answer = client.post(path, {"email": long_address}, format="json")
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_email", path
    assert not OutgoingMail.objects.exists()


def test_a_mail_unsent_for_too_long_is_given_up(settings):
    alice = signed_up("alice")
    email.email_set(alice, "alice@example.org", base_url="http://testserver/")
    long_ago = timezone.now() - timedelta(seconds=settings.MAIL_GIVE_UP_SECONDS + 1)
    OutgoingMail.objects.update(created_at=long_ago, next_try_at=long_ago)
    assert mail.mail_requeue() == 0
    assert not OutgoingMail.objects.exists()


def test_deleting_an_account_deletes_its_unsent_mail():
    alice, bob = signed_up("alice"), signed_up("bob")
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    email.email_set(alice, "new@example.org", base_url="http://testserver/")
    email.email_set(bob, "bob@example.org", base_url="http://testserver/")
    APIClient().post("/api/auth/password/forgot/", {"email": "alice@example.org"}, format="json")
    deletion.account_erase(alice)
    assert list(OutgoingMail.objects.values_list("to", flat=True)) == ["bob@example.org"]


def test_a_reset_mail_is_in_the_language_of_the_request_that_asked_for_it():
    alice = signed_up("alice")
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    APIClient(HTTP_ACCEPT_LANGUAGE="de").post("/api/auth/password/forgot/", {"email": alice.email}, format="json")
    (message,) = delivered()  # rendered by the worker's part, in no request's language
    assert message.subject == "Ein neues Passwort für Easy Harp Daily" and "Jemand hat" in message.body
