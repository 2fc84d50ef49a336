"""The API's error messages in the request's language (Accept-Language or the language cookie):
the project's own, the engine's refusals inside them, and DRF's. Code and detail stay the same
in every language: a program reads those, a person the message."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_redis(clean_redis):
    """The throttles count in Redis: each test starts with none counted."""
    yield clean_redis


@pytest.fixture
def player():
    return get_user_model().objects.create_user("ada", password="x-long-enough-password")


def client_in(language: str, user=None) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_authenticate(user)
    return client


def error(response) -> dict:
    assert 400 <= response.status_code < 500, response.content
    return response.json()["error"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "'EH1-X-AAAAAAF': unknown mode 'X', use N (numbered deal) or D (deal of the day)"),
        ("pl", "'EH1-X-AAAAAAF': nieznany tryb 'X', użyj N (rozdanie numerowane) lub D (rozdanie dnia)"),
        ("de", "'EH1-X-AAAAAAF': unbekannter Modus 'X', nimm N (nummeriertes Blatt) oder D (Blatt des Tages)"),
    ],
)
def test_a_refused_deal_code_in_each_language(language, words, player):
    found = error(client_in(language, player).post("/api/attempts/", {"deal": "EH1-X-AAAAAAF"}, format="json"))
    assert found["code"] == "invalid_deal"
    assert found["message"] == words


def test_the_projects_own_messages(player):
    assert error(client_in("de").post("/api/auth/login/", {"username": "ada", "password": "nope"}, format="json")) == {
        "code": "invalid_credentials",
        "message": "Falscher Benutzername oder falsches Passwort.",
        "detail": None,
    }
    assert error(client_in("pl").get("/api/nowhere/"))["message"] == "Pod /api/nowhere/ nie ma punktu API."
    assert error(client_in("pl").get("/api/players/nobody/"))["message"] == "Nie ma gracza o nazwie 'nobody'."
    assert error(client_in("de").get("/api/leaderboards/daily/?page=0"))["message"] == (
        "page muss eine ganze Zahl von 1 bis 1000000 sein."
    )


def test_drfs_own_messages_come_from_its_catalogue():
    assert (
        error(client_in("de").post("/api/attempts/", {"deal": "daily"}, format="json"))["message"]
        == "Anmeldedaten fehlen."
    )
    assert (
        error(client_in("pl").post("/api/attempts/", {"deal": "daily"}, format="json"))["message"]
        == "Nie podano danych uwierzytelniających."
    )


def test_the_language_cookie_beats_accept_language():
    client = client_in("de")
    client.cookies["django_language"] = "pl"
    assert error(client.get("/api/nowhere/"))["message"] == "Pod /api/nowhere/ nie ma punktu API."


def test_a_submission_and_a_hint_refused_by_the_engine(player):
    client = client_in("pl", player)
    attempt = client.post("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, format="json").json()
    malformed = error(
        client.post(f"/api/attempts/{attempt['id']}/submission", {"actions": ["s", "3>3"]}, format="json")
    )
    assert malformed["code"] == "malformed_action" and malformed["detail"] == {"index": 1}
    assert malformed["message"] == "błędna akcja '3>3': karta nie może przejść na własną kolumnę"

    # Deal 5: column 1 is KC, column 2 ends with AD; an illegal move keeps its action before the words.
    german = client_in("de", player)
    illegal = error(german.post("/api/hints/", {"attempt": attempt["id"], "actions": ["1>2"]}, format="json"))
    assert illegal["code"] == "invalid_log" and illegal["detail"] == {"index": 0}
    assert illegal["message"].startswith("1>2: KC kann nicht auf AD: Eine Spalte nimmt eine Karte der anderen Farbe")
