"""End to end in a real browser, on the production shape (live server, worker, Chromium), with
a real SMTP server (aiosmtpd) receiving the mail the worker sends: a player signs up with an address,
confirms it from the mail, forgets the password, sets a new one from the mail's link and logs
in with it; the link works no more. The account's pages pass axe in the three languages."""

import email
import email.policy
import re
import socket
import threading

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings as django_settings
from playwright.sync_api import Page, expect
from worker import wait_for

from .axe import assert_no_serious_violations
from .conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
NEW_PASSWORD = "golden-lyre-chords-77"


class Inbox:
    """What the SMTP server received: parsed messages, in order."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []
        self.lock = threading.Lock()
        self.port = 0  # the server's, once started

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(message)
        return "250 OK"

    def wait(self, count: int) -> email.message.EmailMessage:
        wait_for(lambda: len(self.messages) >= count)
        return self.messages[count - 1]


@pytest.fixture
def smtp():
    """A real SMTP server on a free port (the worker, which sends the site's mail, is given it)."""
    inbox = Inbox()
    with socket.socket() as probe:  # a free port (aiosmtpd's controller cannot take port 0)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    inbox.port = controller.port
    yield inbox
    controller.stop()


@pytest.fixture
def worker_env(smtp) -> dict[str, str]:
    return {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp.port), "EMAIL_USE_TLS": "0"}


def link_of(message) -> str:
    body = message.get_body(preferencelist=("plain",)).get_content()
    return re.search(r"https?://\S+", body).group(0)


def log_in(page: Page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/login/")
    page.get_by_test_id("username").fill(username)
    page.get_by_test_id("password").fill(password)
    page.get_by_test_id("auth-submit").click()


def test_a_player_confirms_an_address_then_resets_a_forgotten_password_from_the_mail(page, live_server, smtp, worker):
    base = live_server.url
    page.goto(f"{base}/signup/")
    page.get_by_test_id("username").fill("alice")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("signup-email").fill("alice@example.org")
    page.get_by_test_id("auth-submit").click()
    expect(page.get_by_test_id("nav-me")).to_have_text("alice")

    confirmation = smtp.wait(1)
    assert confirmation["To"] == "alice@example.org"
    page.goto(link_of(confirmation))
    page.get_by_test_id("email-confirm").click()
    expect(page.get_by_test_id("email-confirm-status")).to_contain_text("alice@example.org")
    page.goto(f"{base}/account/")
    expect(page.get_by_test_id("email-current")).to_contain_text("alice@example.org")

    page.get_by_test_id("logout").click()
    expect(page.get_by_test_id("nav-login")).to_be_visible()
    page.goto(f"{base}/login/")
    page.get_by_test_id("forgot-password").click()
    page.get_by_test_id("forgot-email").fill("alice@example.org")
    page.get_by_test_id("forgot-submit").click()
    expect(page.get_by_test_id("forgot-status")).to_contain_text("on its way")

    reset = smtp.wait(2)
    link = link_of(reset)
    assert "/password/reset/" in link
    page.goto(link)
    page.get_by_test_id("reset-password").fill(NEW_PASSWORD)
    page.get_by_test_id("reset-submit").click()
    page.wait_for_url(f"{base}/login/")

    log_in(page, base, "alice", PASSWORD)  # the old password is gone
    expect(page.get_by_test_id("auth-error")).not_to_be_empty()
    log_in(page, base, "alice", NEW_PASSWORD)
    expect(page.get_by_test_id("nav-me")).to_have_text("alice")

    page.goto(link)  # the link worked once
    expect(page.get_by_test_id("reset-invalid")).to_be_visible()
    expect(page.get_by_test_id("reset-form")).to_have_count(0)


@pytest.mark.parametrize("language", ["en", "pl", "de"])
def test_the_account_pages_pass_axe(page, live_server, language, django_user_model):
    base = live_server.url
    page.context.add_cookies([{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}])
    for path in (
        "/privacy/",
        "/password/forgot/",
        "/password/reset/MQ/nothing/",
        "/account/email/nothing/",
        "/login/",
        "/signup/",
    ):
        page.goto(f"{base}{path}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.get_by_test_id("privacy-link")).to_be_visible()
        assert_no_serious_violations(page, f"{path} ({language})")
    page.goto(f"{base}/signup/")
    page.get_by_test_id("username").fill("zoe")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    expect(page.get_by_test_id("nav-me")).to_have_text("zoe")
    page.goto(f"{base}/account/")
    page.wait_for_selector("body[data-ready=true]")
    assert_no_serious_violations(page, f"/account/ ({language})")
