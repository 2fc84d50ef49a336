import yaml
from django.core.management import call_command
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)
from rest_framework.test import APIClient


def test_the_openapi_schema_builds_without_warnings_and_validates(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    assert schema["openapi"].startswith("3.")
    for path in ("/api/attempts/{attempt_id}/submission", "/api/leaderboards/daily/{day}/", "/api/daily/"):
        assert path in schema["paths"]
    error = schema["components"]["schemas"]["ErrorOut"]
    assert error["properties"]["error"]["$ref"].endswith("/ErrorBody")


def test_the_schema_and_swagger_ui_are_served(db):
    client = APIClient()
    assert client.get("/api/schema/").status_code == 200
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()
