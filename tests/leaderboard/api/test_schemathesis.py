"""schemathesis against the OpenAPI schema the app serves at /api/schema/ (drf-spectacular),
through the Django WSGI application in this process, anonymous and with a player's token:
no 5xx, and every response conforms to the schema (status code, content type, body, headers).
"""

import uuid

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from leaderboard_fixtures.reliability import TALLY
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/reliability/)
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from leaderboard.accounts import services as accounts
from leaderboard.play.services import attempts, intake, verification

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.reliability]

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
EXAMPLES = 15


#: Loaded when the module is collected, by a GET of /api/schema/ through the app. Valid and
#: invalid data; credentials only where the test puts them (a player's token).
schema = schemathesis.openapi.from_wsgi(
    "/api/schema/?format=json",
    application,
    config=schemathesis.Config.from_dict({"generation": {"mode": "all", "with-security-parameters": False}}),
)


@pytest.fixture
def player_data(make_player, won_game):
    """A player with a token, an attempt of their own and a verified submission."""
    player = make_player("fuzzer")
    attempt = attempts.attempt_start(player=player, deal_code=won_game["deal"])
    done = intake.submission_create(attempt=attempt, player=player, actions=won_game["actions"][:20])
    verification.submission_verify(done.pk)
    return {
        "token": accounts.user_token(player),
        "attempt": attempts.attempt_start(player=player, deal_code=won_game["deal"]).pk,
        "submission": done.pk,
    }


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms_to_the_schema_anonymous_and_with_a_token(case, player_data):
    answered(case.call_and_validate(checks=CHECKS), "anonymous")
    # The same case as a player (token); well-formed ids point at the player's own records
    # so that the success paths run too.
    params = case.path_parameters or {}
    if "attempt_id" in params and _is_uuid(params["attempt_id"]):
        params["attempt_id"] = str(player_data["attempt"])
    if "submission_id" in params and isinstance(params["submission_id"], int):
        params["submission_id"] = player_data["submission"]
    answered(
        case.call_and_validate(headers={"Authorization": f"Token {player_data['token']}"}, checks=CHECKS),
        "with a token",
    )


def answered(response, who: str) -> None:
    TALLY[f"schemathesis: requests checked ({len(CHECKS)} checks each), {who}"] += 1
    TALLY[f"schemathesis: {response.status_code // 100}xx answers, {who}"] += 1


def _is_uuid(value) -> bool:
    try:
        uuid.UUID(str(value))
        return True
    except ValueError:
        return False
