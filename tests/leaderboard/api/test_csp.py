"""A Content-Security-Policy on every page, and pages, the admin and Swagger UI (served from the
project, not a CDN) that work under it in a real browser with no violation."""

from urllib.parse import urlparse

import pytest
from django.test import Client
from leaderboard_fixtures.security import PASSWORD
from leaderboard_fixtures.service import _fresh_redis  # noqa: F401  (autouse, as in tests/security/)
from playwright.sync_api import expect

pytestmark = pytest.mark.security

PAGES = ["/", "/boards/", "/players/x/", "/login/", "/signup/", "/play/EH1-N-AAAAAAF/", "/api/docs/", "/admin/login/"]


def policy(response) -> dict[str, list[str]]:
    directives = [part.split() for part in response["Content-Security-Policy"].split(";") if part.strip()]
    return {name: values for name, *values in directives}


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_every_page_carries_the_policy(path):
    response = Client().get(path)
    assert response.status_code == 200, path
    csp = policy(response)
    assert csp["default-src"] == ["'self'"] and csp["frame-ancestors"] == ["'none'"]
    assert "script-src" not in csp and "style-src" not in csp  # default-src: no inline, no other host
    assert not any("unsafe" in value for values in csp.values() for value in values)


def watch(page) -> tuple[list[str], list[str]]:
    """(CSP violations the browser reported, hosts other than the server's it asked)."""
    violations, hosts = [], []
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.on(
        "request",
        lambda request: hosts.append(urlparse(request.url).hostname) if request.url.startswith("http") else None,
    )
    return violations, hosts


@pytest.mark.e2e
def test_swagger_ui_renders_the_operations_from_the_project_under_the_policy(page, live_server):
    violations, hosts = watch(page)
    page.goto(f"{live_server.url}/api/docs/")
    expect(page.locator(".opblock").first).to_be_visible()
    assert page.locator(".opblock").count() >= 10  # the API's operations, from /api/schema/
    expect(page.locator(".opblock-summary-path", has_text="/api/auth/login/")).to_be_visible()
    assert violations == []
    assert set(hosts) == {urlparse(live_server.url).hostname}  # nothing from a CDN


@pytest.mark.e2e
def test_the_pages_and_the_admin_work_under_the_policy(page, live_server, make_staff):
    make_staff("staff")
    violations, _ = watch(page)
    base = live_server.url
    for path in ("/", "/boards/", "/players/staff/", "/play/EH1-N-AAAAAAF/"):
        page.goto(f"{base}{path}")
        page.wait_for_load_state("networkidle")
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "staff")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")
    page.goto(f"{base}/admin/leaderboard/submission/")
    page.wait_for_load_state("networkidle")
    assert violations == []


@pytest.mark.e2e
def test_sign_up_in_the_browser_with_a_stale_session_cookie(page, live_server):
    """The sign-up page sets the CSRF cookie and the page's script sends it, so the check that
    a session cookie brings (here an expired session's) lets the site's own form through."""
    base = live_server.url
    page.context.add_cookies([{"name": "sessionid", "value": "expired", "url": base}])
    page.goto(f"{base}/signup/?next=/boards/")
    page.get_by_test_id("username").fill("newcomer")
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    page.wait_for_url(f"{base}/boards/")
    expect(page.get_by_test_id("nav-me")).to_have_text("newcomer")
