"""An account's email address (confirmed by a link before use) and its password (forgotten:
reset by a link; changed: the old one first); either change ends the other sessions and tokens."""

import re

import pytest
from leaderboard_fixtures.mailbox import delivered
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse)
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "golden-lyre-chords-77"


def link_in(message) -> str:
    return re.search(r"https?://\S+", message.body).group(0)


def signed_in(username: str, email: str = "") -> APIClient:
    client = APIClient()
    body = {"username": username, "password": PASSWORD, **({"email": email} if email else {})}
    assert client.post("/api/auth/signup/", body, format="json").status_code == 201
    return client


def confirm(client: APIClient, message) -> dict:
    token = re.search(r"/account/email/([^/]+)/", link_in(message)).group(1)
    response = client.post("/api/auth/email/confirm/", {"token": token}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def test_an_address_given_at_sign_up_is_used_only_once_confirmed():
    client = signed_in("alice", "Alice@Example.org")
    assert client.get("/api/auth/me/").json()["email"] == ""
    (message,) = delivered()
    assert message.to == ["Alice@example.org"] and "alice" in message.body
    assert confirm(APIClient(), message)["email"] == "Alice@example.org"
    assert client.get("/api/auth/me/").json()["email"] == "Alice@example.org"


def test_the_confirmation_mail_is_in_the_readers_language():
    client = APIClient(HTTP_ACCEPT_LANGUAGE="de")
    client.post(
        "/api/auth/signup/", {"username": "anna", "password": PASSWORD, "email": "a@example.org"}, format="json"
    )
    assert "Bestätige" in delivered()[0].subject


def test_an_altered_or_stale_link_confirms_nothing():
    client = signed_in("alice")
    client.post("/api/auth/email/", {"email": "one@example.org"}, format="json")
    client.post("/api/auth/email/", {"email": "two@example.org"}, format="json")
    first, second = delivered()
    assert confirm(client, second)["email"] == "two@example.org"
    token = re.search(r"/account/email/([^/]+)/", link_in(first)).group(1)
    stale = client.post("/api/auth/email/confirm/", {"token": token}, format="json")
    assert stale.status_code == 400 and stale.json()["error"]["code"] == "invalid_link"
    altered = client.post("/api/auth/email/confirm/", {"token": token[:-2] + "xx"}, format="json")
    assert altered.status_code == 400
    assert client.get("/api/auth/me/").json()["email"] == "two@example.org"


def test_an_address_is_one_accounts():
    alice, bob = signed_in("alice", "same@example.org"), signed_in("bob", "same@example.org")
    confirm(alice, delivered()[0])
    token = re.search(r"/account/email/([^/]+)/", link_in(delivered()[1])).group(1)
    response = bob.post("/api/auth/email/confirm/", {"token": token}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "email_taken"


def test_a_forgotten_password_is_reset_once_by_the_mails_link_and_every_session_ends():
    client = signed_in("alice", "alice@example.org")
    confirm(client, delivered().pop())
    other_device = APIClient()
    token = other_device.post("/api/auth/login/", {"username": "alice", "password": PASSWORD}, format="json")
    token = token.json()["token"]
    answer = APIClient().post("/api/auth/password/forgot/", {"email": "ALICE@example.org"}, format="json")
    assert answer.status_code == 202 and answer.json() == {"sent": True}
    (message,) = delivered()
    uid, reset_token = re.search(r"/password/reset/([^/]+)/([^/]+)/", link_in(message)).groups()
    body = {"uid": uid, "token": reset_token, "password": NEW_PASSWORD}
    assert APIClient().post("/api/auth/password/reset/", body, format="json").status_code == 204
    again = APIClient().post("/api/auth/password/reset/", body | {"password": "another-" + NEW_PASSWORD}, format="json")
    assert again.status_code == 400 and again.json()["error"]["code"] == "invalid_link"
    assert client.get("/api/auth/me/").json()["authenticated"] is False  # the session ended
    with_token = APIClient()
    with_token.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert with_token.get("/api/auth/me/").status_code == 401  # the token is gone, cache and all
    login = {"username": "alice", "password": NEW_PASSWORD}
    assert APIClient().post("/api/auth/login/", login, format="json").status_code == 200


def test_the_forgotten_password_answer_is_the_same_for_an_unknown_or_unconfirmed_address():
    signed_in("alice", "alice@example.org")  # never confirmed
    delivered().clear()
    for address in ("alice@example.org", "nobody@example.org"):
        answer = APIClient().post("/api/auth/password/forgot/", {"email": address}, format="json")
        assert answer.status_code == 202 and answer.json() == {"sent": True}
    assert delivered() == []


def test_forgotten_password_mails_are_throttled(settings):
    answers = [
        APIClient().post("/api/auth/password/forgot/", {"email": "x@example.org"}, format="json").status_code
        for _ in range(6)
    ]
    assert answers == [202] * 5 + [429]


def test_a_password_change_asks_for_the_old_one_and_ends_the_other_sessions():
    client = signed_in("alice")
    other = APIClient()
    other.post("/api/auth/login/", {"username": "alice", "password": PASSWORD}, format="json")
    wrong = client.post("/api/auth/password/", {"old_password": "nope", "password": NEW_PASSWORD}, format="json")
    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "wrong_password"
    changed = client.post("/api/auth/password/", {"old_password": PASSWORD, "password": NEW_PASSWORD}, format="json")
    assert changed.status_code == 200 and len(changed.json()["token"]) == 40
    assert client.get("/api/auth/me/").json()["authenticated"] is True  # this session stays
    assert other.get("/api/auth/me/").json()["authenticated"] is False
    fresh = APIClient()
    fresh.credentials(HTTP_AUTHORIZATION=f"Token {changed.json()['token']}")
    assert fresh.get("/api/auth/me/").json()["username"] == "alice"
