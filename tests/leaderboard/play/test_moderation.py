"""Staff review of flagged results (issue 12, item 8): the moderation queue in the admin.

A flagged result is made as a machine makes one: the day's game submitted through the API with
times paced evenly (one action a second), verified by the task function in-process, and flagged
by the real tempo rules. Real PostgreSQL and Redis, the Django test client with CSRF checks on,
the boards read through the API; one test looks at the page in Chromium."""

import re
from dataclasses import fields
from datetime import timedelta
from html import escape

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from e2e.conftest import artifacts, browser, page  # noqa: F401  (fixtures)
from leaderboard_fixtures.service import (  # noqa: F401  (fixtures)
    PASSWORD,
    _fresh_redis,
    client_for,
    make_player,
    today_deal,
    verify_queued,
    won_game,
    won_games,
)
from leaderboard_fixtures.timing import even_times
from rest_framework.test import APIClient

from leaderboard.admin import PROFILE_FIELDS
from leaderboard.models import Attempt, Submission
from leaderboard.play.tempo import RULES, TempoProfile

from .test_day_and_attempts import start

pytestmark = pytest.mark.django_db

QUEUE = "/admin/leaderboard/flaggedsubmission/"
CHART = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="240" viewBox="0 0 800 240" role="img" '
    'aria-label="Think time per action"'
)  # leaderboard.tempo.chart_svg


def page_of(submission: Submission) -> str:
    return f"{QUEUE}{submission.pk}/change/"


def listed(client, submission: Submission) -> bool:
    """The queue has a row for ``submission`` (its link to the result's page)."""
    return f'href="{page_of(submission)}"' in client.get(QUEUE).content.decode()


def moderate_url(submission: Submission) -> str:
    return f"{QUEUE}{submission.pk}/moderate/"


@pytest.fixture
def machine_result(make_player, client_for, today_deal, won_game, verify_queued):
    """The day's won game of "robot", played at one action a second exactly: flagged."""
    robot = client_for(make_player("robot"))
    attempt = start(robot)
    times = even_times(len(won_game["actions"]), per_second=1)
    Attempt.objects.filter(pk=attempt["id"]).update(
        started_at=Attempt.objects.get(pk=attempt["id"]).started_at - timedelta(milliseconds=times[-1] + 5000)
    )
    with verify_queued():
        sent = robot.post(
            f"/api/attempts/{attempt['id']}/submission", {"actions": won_game["actions"], "times": times}, format="json"
        )
    assert sent.status_code == 202, sent.content
    submission = Submission.objects.get(pk=sent.json()["id"])
    assert submission.status == "verified" and submission.won and submission.flagged
    # Evenly timed: the tempo rules fire, and the think times ignore the game.
    assert submission.flag_reasons == ["even_tempo", "few_pauses", "pace_ignores_moves"]
    return submission


def staff_client(user) -> Client:
    """A browser of ``user``: CSRF checked as in production."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


@pytest.fixture
def superuser(make_player):
    user = make_player("moderator")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


@pytest.fixture(params=["view_flaggedsubmission", "view_submission"])
def viewer(request, make_player):
    """Staff who may only look: the queue's view permission, or the submissions'."""
    user = make_player("viewer")
    user.is_staff = True
    user.save()
    user.user_permissions.add(Permission.objects.get(codename=request.param))
    return user


def csrf_token(page) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)


def reason(code: str) -> str:
    """A reason's sentence as the page shows it (HTML-escaped)."""
    return escape(RULES[code])


def board() -> list[str]:
    return [row["player"] for row in APIClient().get("/api/leaderboards/daily/").json()["results"]]


def decide(client, submission, decision: str, on_commit):
    """Press a decision's button on the result's page (a POST with the page's CSRF token)."""
    token = csrf_token(client.get(page_of(submission)))
    with on_commit(execute=True):
        return client.post(moderate_url(submission), {"decision": decision, "csrfmiddlewaretoken": token})


def test_the_queue_shows_a_flagged_result_with_its_reasons_and_chart(superuser, machine_result):
    client = staff_client(superuser)
    queue = client.get(QUEUE)
    assert queue.status_code == 200
    html = queue.content.decode()
    assert listed(client, machine_result) and reason("even_tempo") in html and reason("few_pauses") in html
    assert 'name="action"' in html and 'value="clear_flag"' in html and 'value="hide"' in html
    shown = client.get(page_of(machine_result))
    assert shown.status_code == 200
    html = shown.content.decode()
    assert reason("even_tempo") in html and reason("few_pauses") in html
    assert html.count(CHART) == 1 and html.count("<rect") > 100  # the chart and its bars
    for _label, meaning in PROFILE_FIELDS.values():
        assert escape(str(meaning)) in html
    assert 'name="decision" value="clear"' in html and 'name="decision" value="hide"' in html
    assert "default-src 'self'" in shown.headers["Content-Security-Policy"]
    assert "<script>" not in html  # no inline script: the CSP would block it


def test_clearing_the_flag_puts_the_result_on_the_board(superuser, machine_result, django_capture_on_commit_callbacks):
    assert board() == []
    client = staff_client(superuser)
    cleared = decide(client, machine_result, "clear", django_capture_on_commit_callbacks)
    assert cleared.status_code == 302 and cleared.url == QUEUE
    assert board() == ["robot"]
    assert not listed(client, machine_result)  # reviewed: out of the queue
    assert client.get(page_of(machine_result)).status_code == 302  # no longer in the queue


def test_hiding_keeps_the_result_off_the_board(superuser, machine_result, django_capture_on_commit_callbacks):
    client = staff_client(superuser)
    hidden = decide(client, machine_result, "hide", django_capture_on_commit_callbacks)
    assert hidden.status_code == 302
    machine_result.refresh_from_db()
    assert machine_result.hidden and machine_result.flagged
    assert board() == []
    assert not listed(client, machine_result)


def test_the_queue_action_clears_the_flag(superuser, machine_result, django_capture_on_commit_callbacks):
    client = staff_client(superuser)
    token = csrf_token(client.get(QUEUE))
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            QUEUE, {"action": "clear_flag", "_selected_action": [machine_result.pk], "csrfmiddlewaretoken": token}
        )
    assert done.status_code == 302
    assert board() == ["robot"]


def test_a_decision_needs_the_csrf_token(superuser, machine_result):
    refused = staff_client(superuser).post(moderate_url(machine_result), {"decision": "clear"})
    assert refused.status_code == 403
    machine_result.refresh_from_db()
    assert machine_result.flagged and board() == []


def test_view_only_staff_look_but_do_not_act(viewer, machine_result, django_capture_on_commit_callbacks):
    client = staff_client(viewer)
    queue = client.get(QUEUE)
    assert queue.status_code == 200
    assert listed(client, machine_result) and reason("even_tempo") in queue.content.decode()
    assert 'name="action"' not in queue.content.decode()  # no action offered
    shown = client.get(page_of(machine_result))
    assert shown.status_code == 200
    html = shown.content.decode()
    assert CHART in html and 'name="decision"' not in html
    for decision in ("clear", "hide"):
        refused = decide(client, machine_result, decision, django_capture_on_commit_callbacks)
        assert refused.status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            QUEUE,
            {"action": "clear_flag", "_selected_action": [machine_result.pk], "csrfmiddlewaretoken": csrf_token(queue)},
        )
    machine_result.refresh_from_db()
    assert machine_result.flagged and not machine_result.hidden and board() == []


def test_players_are_sent_to_the_admin_login(make_player, machine_result):
    client = Client()
    client.force_login(make_player("alice"))
    for answer in (
        client.get(QUEUE),
        client.get(page_of(machine_result)),
        client.post(moderate_url(machine_result), {"decision": "clear"}),
    ):
        assert answer.status_code == 302 and answer.url.startswith("/admin/login/")
    machine_result.refresh_from_db()
    assert machine_result.flagged and board() == []


def test_the_submissions_page_shows_the_same_review(superuser, machine_result):
    html = staff_client(superuser).get(f"/admin/leaderboard/submission/{machine_result.pk}/change/").content.decode()
    assert CHART in html and reason("even_tempo") in html


def test_every_field_of_the_profile_has_a_meaning():
    assert list(PROFILE_FIELDS) == [f.name for f in fields(TempoProfile)]


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_the_moderation_page_in_chromium(superuser, machine_result, live_server, page, artifacts):  # noqa: F811
    """The page as staff see it: the chart drawn, nothing blocked by the CSP (screenshot in
    test-artifacts/moderation.png)."""
    blocked = []
    page.on(
        "console", lambda message: blocked.append(message.text) if "Content Security Policy" in message.text else None
    )
    page.goto(f"{live_server.url}/admin/login/?next={page_of(machine_result)}")
    page.fill("#id_username", "moderator")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    chart = page.locator("svg[role=img]")
    chart.wait_for()
    box = chart.bounding_box()
    assert box["width"] >= 700 and box["height"] >= 200
    assert chart.locator("rect").count() > 100  # the bars
    assert page.get_by_role("button", name="Clear the flag: put it on the boards").is_visible()
    page.screenshot(path=str(artifacts / "moderation.png"), full_page=True)
    assert blocked == []
