"""Who may do what, over every endpoint of leaderboard/urls.py and every admin page and action,
for four people: anonymous, a player (the owner), another player and staff.

A player reads and writes only their own attempts, and sees only their own logs until the
day closes (and only logs that stand on a board after that); staff tools refuse players,
and a staff member who may only view cannot use the actions that change the record.
"""

from datetime import timedelta

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from leaderboard_fixtures.reliability import STAFF_PERMISSIONS, submitted
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, times_within  # noqa: F401  (autouse, as in tests/reliability/)
from rest_framework.test import APIClient

from leaderboard.accounts import services as accounts
from leaderboard.models import Attempt, BoardEntry, Submission
from leaderboard.play.services import attempts, intake, moderation, verification

pytestmark = [pytest.mark.django_db, pytest.mark.reliability]
User = get_user_model()
ROLES = ("anonymous", "alice", "bob", "staff")


@pytest.fixture
def people(make_player, make_staff) -> dict:
    return {"alice": make_player("alice"), "bob": make_player("bob"), "staff": make_staff("staff")}


def api(people, role: str) -> APIClient:
    client = APIClient()
    if role != "anonymous":
        client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.user_token(people[role])}")
    return client


def site(people, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(people[role])
    return client


def test_attempts_are_read_and_written_only_by_their_player(people):
    mine = attempts.attempt_start(player=people["alice"], deal_code="EH1-N-AAAAAAF")
    expected_read = {"anonymous": 401, "alice": 200, "bob": 403, "staff": 403}
    for role in ROLES:
        assert api(people, role).get(f"/api/attempts/{mine.pk}/").status_code == expected_read[role], role

    expected_write = {"anonymous": 401, "bob": 403, "staff": 403, "alice": 202}
    for role in ("anonymous", "bob", "staff", "alice"):  # the owner last: one log per attempt
        response = api(people, role).post(f"/api/attempts/{mine.pk}/submission", {"actions": ["s"]}, format="json")
        assert response.status_code == expected_write[role], (role, response.content)
        assert set(response.json()) == ({"error"} if role != "alice" else {"id", "status", "url"})
    assert Submission.objects.get(attempt=mine).player == people["alice"]

    for role, status in {"anonymous": 401, "alice": 201, "bob": 201, "staff": 201}.items():
        started = api(people, role).post("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, format="json")
        assert started.status_code == status, role
        if status == 201:
            assert Attempt.objects.get(pk=started.json()["id"]).player == people[role]


def test_logs_are_private_until_the_day_closes_and_then_only_when_ranked(people, won_game):
    alice = people["alice"]
    pending = submitted(alice, won_game["deal"], won_game["actions"], verify=False)
    today = submitted(alice, won_game["deal"], won_game["actions"])
    closed_rejected = submitted(alice, won_game["deal"], ["s", "9>1:4"], days_ago=2)
    closed_ranked = submitted(alice, won_game["deal"], won_game["actions"], days_ago=2)
    closed_hidden = submitted(alice, won_game["deal"], won_game["actions"], days_ago=3)
    moderation.submission_set_hidden(closed_hidden, True)
    assert (pending.status, today.status, closed_rejected.status, closed_ranked.status) == (
        "pending",
        "verified",
        "rejected",
        "verified",
    )

    visible = {  # who sees the log (the others see the result only when it is on a board, else 404)
        pending: {"alice", "staff"},
        today: {"alice", "staff"},
        closed_rejected: {"alice", "staff"},
        closed_hidden: {"alice", "staff"},
        closed_ranked: set(ROLES),
    }
    for submission, readers in visible.items():
        on_board = BoardEntry.objects.filter(submission=submission).exists()
        for role in ROLES:
            shown = api(people, role).get(f"/api/submissions/{submission.pk}/")
            if role in ("anonymous", "bob") and not on_board:
                assert shown.status_code == 404, (submission.status, role)
                continue
            assert shown.status_code == 200, role
            assert (shown.json()["actions"] is not None) == (role in readers), (submission.status, role)
            assert shown.json()["player"] == "alice"


def test_a_forged_or_disabled_token_is_refused_not_taken_as_anonymous(people):
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert forged.get("/api/auth/me/").status_code == 401
    assert forged.get("/api/leaderboards/daily/").status_code == 401
    bob = api(people, "bob")
    User.objects.filter(pk=people["bob"].pk).update(is_active=False)
    assert bob.get("/api/auth/me/").status_code == 401
    assert bob.post("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, format="json").status_code == 401


def test_public_reads_are_the_same_for_everyone(people, won_game, today_deal):
    from games import format_code

    submitted(people["alice"], format_code(today_deal.number, "D"), won_game["actions"])
    paths = [
        "/api/daily/",
        "/api/leaderboards/daily/",
        f"/api/leaderboards/deals/{today_deal.number}/",
        "/api/leaderboards/players/",
        "/api/players/alice/",
    ]
    for path in paths:
        answers = {role: api(people, role).get(path) for role in ROLES}
        assert {role: r.status_code for role, r in answers.items()} == dict.fromkeys(ROLES, 200), path
        bodies = {role: r.json() for role, r in answers.items()}
        if path == "/api/daily/":  # the caller's own attempt at the deal aside: only alice has one
            assert [role for role in ROLES if bodies[role].pop("attempt")] == ["alice"]
            for body in bodies.values():
                assert body.pop("server_time")  # the server's clock as it answered each
        assert len({str(body) for body in bodies.values()}) == 1, path


# -- the admin ------------------------------------------------------------------------------


def admin_pages(people) -> dict[str, bool]:
    """Every admin page -> whether the staff member (view and change on the staff tools,
    nothing on groups, no add or delete) may open it."""
    submission = Submission.objects.first()
    pages = {reverse("admin:index"): True}
    for model in admin.site._registry:
        app, name = model._meta.app_label, model._meta.model_name
        pages[reverse(f"admin:{app}_{name}_changelist")] = f"{app}.view_{name}" in STAFF_PERMISSIONS
        pages[reverse(f"admin:{app}_{name}_add")] = False
    pages[reverse("admin:leaderboard_submission_change", args=[submission.pk])] = True
    pages[reverse("admin:auth_user_change", args=[people["bob"].pk])] = True
    pages[reverse("admin:leaderboard_submission_delete", args=[submission.pk])] = False
    return pages


def test_admin_pages_refuse_anonymous_and_players(people, won_game):
    submitted(people["alice"], won_game["deal"], won_game["actions"])
    for path, staff_may in admin_pages(people).items():
        for role in ROLES:
            response = site(people, role).get(path)
            if role == "staff":
                assert response.status_code == (200 if staff_may else 403), (path, response.status_code)
            else:  # to the admin's login page, whatever the page
                assert response.status_code == 302 and response["Location"].startswith("/admin/login/"), (path, role)


ACTIONS = [
    ("submission", "hide"),
    ("submission", "unhide"),
    ("submission", "clear_flag"),
    ("submission", "reverify"),
    ("user", "disable"),
]


def state() -> list:
    return list(Submission.objects.order_by("pk").values_list("status", "hidden", "flagged", "deliveries")) + list(
        User.objects.order_by("pk").values_list("is_active")
    )


def run_action(client, model: str, action: str, ids) -> int:
    path = "/admin/auth/user/" if model == "user" else f"/admin/leaderboard/{model}/"
    return client.post(path, {"action": action, "_selected_action": [str(i) for i in ids]}).status_code


@pytest.mark.parametrize("model, action", ACTIONS)
def test_staff_actions_refuse_players_and_view_only_staff(
    people, make_staff, won_game, model, action, django_capture_on_commit_callbacks
):
    flagged = submitted(people["alice"], won_game["deal"], won_game["actions"])
    Submission.objects.filter(pk=flagged.pk).update(flagged=True, hidden=action == "unhide")
    viewer = make_staff("viewer", permissions=[p for p in STAFF_PERMISSIONS if ".view_" in p])
    people = {**people, "viewer": viewer}
    target = [people["bob"].pk] if model == "user" else [flagged.pk]

    before = state()
    for role in ("anonymous", "alice", "bob", "viewer"):
        with django_capture_on_commit_callbacks(execute=True):
            status = run_action(site(people, role), model, action, target)
        # Players go to the admin's login; the viewer sees the list again, with no action run.
        assert status == (200 if role == "viewer" else 302), role
        assert state() == before, f"{role} ran {action}"
    with django_capture_on_commit_callbacks(execute=True):
        assert run_action(site(people, "staff"), model, action, target) == 302
    assert state() != before, f"staff could not run {action}"


def test_admin_actions_need_the_csrf_token(people, won_game):
    submission = submitted(people["alice"], won_game["deal"], won_game["actions"])
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["staff"])
    assert run_action(client, "submission", "hide", [submission.pk]) == 403
    assert not Submission.objects.get(pk=submission.pk).hidden
