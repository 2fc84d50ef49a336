import pytest
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "detail"}, body
    return body["error"]


def test_signup_logs_the_session_in_and_returns_a_token():
    client = APIClient()
    made = client.post("/api/auth/signup/", {"username": "alice", "password": PASSWORD}, format="json")
    assert made.status_code == 201
    assert made.json()["username"] == "alice" and len(made.json()["token"]) == 40
    assert client.get("/api/auth/me/").json() == {
        "username": "alice",
        "authenticated": True,
        "guest": False,
        "is_staff": False,
        "email": "",
    }
    token_client = APIClient()
    token_client.credentials(HTTP_AUTHORIZATION=f"Token {made.json()['token']}")
    assert token_client.get("/api/auth/me/").json()["username"] == "alice"


@pytest.mark.parametrize(
    "password, fragment",
    [
        ("short", "too short"),
        ("password123", "too common"),
        ("12345678901", "entirely numeric"),
    ],
)
def test_signup_applies_the_password_validators(password, fragment):
    response = APIClient().post("/api/auth/signup/", {"username": "bob", "password": password}, format="json")
    assert response.status_code == 400
    assert fragment in error_of(response)["message"]


@pytest.mark.parametrize("username", ["robert'); DROP TABLE auth_user;--", "名前 with space", ""])
def test_signup_refuses_bad_usernames_cleanly(username):
    response = APIClient().post("/api/auth/signup/", {"username": username, "password": PASSWORD}, format="json")
    assert response.status_code == 400
    assert error_of(response)["code"] in {"invalid", "invalid_signup", "username_required"}


def test_unicode_username_within_the_rules_is_accepted():
    response = APIClient().post("/api/auth/signup/", {"username": "zoë_ñ", "password": PASSWORD}, format="json")
    assert response.status_code == 201


def test_a_taken_username_is_a_conflict_whatever_its_case(make_player):
    make_player("alice")
    response = APIClient().post("/api/auth/signup/", {"username": "ALICE", "password": PASSWORD}, format="json")
    assert response.status_code == 409 and error_of(response)["code"] == "username_taken"


def test_login_and_logout(make_player):
    make_player("alice")
    client = APIClient()
    wrong = client.post("/api/auth/login/", {"username": "alice", "password": "nope"}, format="json")
    assert wrong.status_code == 400 and error_of(wrong)["code"] == "invalid_credentials"
    right = client.post("/api/auth/login/", {"username": "alice", "password": PASSWORD}, format="json")
    assert right.status_code == 200 and client.get("/api/auth/me/").json()["authenticated"]
    assert client.post("/api/auth/logout/").status_code == 204
    assert client.get("/api/auth/me/").json()["authenticated"] is False


def test_a_disabled_account_cannot_log_in(make_player):
    player = make_player("alice")
    player.is_active = False
    player.save()
    response = APIClient().post("/api/auth/login/", {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 400


def test_session_writes_need_the_csrf_token(make_player, today_deal):
    make_player("alice")
    client = APIClient(enforce_csrf_checks=True)
    assert (
        client.post("/api/auth/login/", {"username": "alice", "password": PASSWORD}, format="json").status_code == 200
    )
    refused = client.post("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, format="json")
    assert refused.status_code == 403 and "CSRF" in error_of(refused)["message"]
    token = client.cookies["csrftoken"].value
    allowed = client.post("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, format="json", HTTP_X_CSRFTOKEN=token)
    assert allowed.status_code == 201
