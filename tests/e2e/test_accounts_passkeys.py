"""End to end: a player adds a passkey in the settings with Chromium's virtual authenticator
(Chrome DevTools Protocol, WebAuthn.addVirtualAuthenticator), logs out, and logs in with the
passkey alone, no password."""

import pytest
from playwright.sync_api import expect
from worker import wait_for

from .conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def virtual_authenticator(page) -> None:
    """Chromium's virtual authenticator on ``page`` (CDP): a platform passkey that verifies the
    user and answers every ceremony at once."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )


def test_a_player_adds_a_passkey_and_logs_in_with_it(page, live_server, worker, settings):
    from django_otp_webauthn.models import WebAuthnCredential

    base = live_server.url
    settings.OTP_WEBAUTHN_ALLOWED_ORIGINS = [base]
    virtual_authenticator(page)
    page.goto(f"{base}/signup/?next=/account/")
    page.get_by_test_id("username").fill("petra")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/account/")
    page.get_by_test_id("passkey-add").click()
    wait_for(lambda: WebAuthnCredential.objects.filter(user__username="petra").exists())

    page.get_by_test_id("logout").click()
    expect(page.get_by_test_id("nav-login")).to_be_visible()
    page.goto(f"{base}/login/?next=/account/")
    page.get_by_test_id("passkey-login").click()
    page.wait_for_url(f"{base}/account/")
    expect(page.get_by_test_id("nav-me")).to_have_text("petra")


def test_the_admin_asks_staff_for_a_passkey_as_well_as_the_password(page, live_server, worker, settings):
    from django.contrib.auth import get_user_model
    from django_otp_webauthn.models import WebAuthnCredential

    base = live_server.url
    settings.OTP_WEBAUTHN_ALLOWED_ORIGINS = [base]
    settings.ADMIN_SECOND_FACTOR = True
    virtual_authenticator(page)
    page.goto(f"{base}/signup/?next=/account/")
    page.get_by_test_id("username").fill("sara")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/account/")
    get_user_model().objects.filter(username="sara").update(is_staff=True, is_superuser=True)
    page.get_by_test_id("passkey-add").click()
    wait_for(lambda: WebAuthnCredential.objects.filter(user__username="sara").exists())
    page.get_by_test_id("logout").click()  # (adding the passkey used it: this session is verified)
    expect(page.get_by_test_id("nav-login")).to_be_visible()

    page.goto(f"{base}/admin/")
    page.locator("#id_username").fill("sara")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    expect(page.get_by_test_id("admin-second-factor")).to_be_visible()  # the password alone: not in
    assert page.url.startswith(f"{base}/admin/login/")
    page.get_by_test_id("admin-passkey").click()
    page.wait_for_url(f"{base}/admin/")
    expect(page.locator("#site-name")).to_be_visible()
    assert page.goto(f"{base}/admin/leaderboard/submission/").status == 200
