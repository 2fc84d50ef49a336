"""Download my data: the export holds every row that names the player, and nothing of anyone else."""

import json
from datetime import date

import pytest
from django.db import models
from leaderboard_fixtures.groups import make_group  # noqa: F401  (a fixture)
from leaderboard_fixtures.history import result
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse)
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from leaderboard.accounts import export, services
from leaderboard.models import UserSession

pytestmark = pytest.mark.django_db


def key_of(model) -> str:
    pk = model._meta.pk
    return pk.attname if isinstance(pk, models.ForeignKey) else pk.name


def test_the_export_holds_every_row_of_the_players_and_none_of_anyone_elses(make_player, make_group):
    alice, bob = make_player("alice"), make_player("bob")
    for player in (alice, bob):
        result(player, date(2026, 11, 3), hints=2)
        result(player, date(2026, 11, 4), flagged=True)
        result(player, date(2026, 11, 4), practice=True, minutes_later=30)
        services.user_token(player)
    make_group(alice, bob, name="Alice's harps")
    make_group(bob, alice, name="Bob's harps")
    login = {"username": "alice", "password": PASSWORD}  # a session of alice's, in a browser
    assert APIClient().post("/api/auth/login/", login, format="json").status_code == 200
    session = UserSession.objects.get(user=alice)
    client = APIClient()
    client.force_authenticate(alice)
    response = client.get("/api/auth/export/")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = response.json()
    assert data["account"]["username"] == "alice" and data["account"]["id"] == alice.pk
    assert {g["name"]: g["owner"] for g in data["groups"]} == {"Alice's harps": True, "Bob's harps": False}

    checked = 0
    for model, name, rows in export.rows_of(alice):
        label = model._meta.label_lower if name in ("player", "user") else f"{model._meta.label_lower}.{name}"
        exported = data["tables"][label]
        fk = model._meta.get_field(name).attname
        if model is Token:  # its key is its primary key, and a secret: left out
            assert len(exported) == rows.count() == 1 and "key" not in exported[0]
        elif model is UserSession:  # so is a session's, and its signed data: left out
            assert exported == [{"expire_date": session.expire_date.isoformat(), "user_id": alice.pk}]
        else:
            assert {str(row[key_of(model)]) for row in exported} == {
                str(pk) for pk in rows.values_list("pk", flat=True)
            }
        assert all(row[fk] == alice.pk for row in exported), label
        checked += len(exported)
    submissions = data["tables"]["leaderboard.submission"]
    assert len(submissions) == 3 and all(row["actions"] == ["s"] for row in submissions)
    assert {row["flagged"] for row in submissions} == {True, False}
    assert sum(row["hints"] for row in data["tables"]["leaderboard.attempt"]) == 2
    assert len(data["tables"]["leaderboard.boardentry"]) == 1
    assert checked >= 3 + 3 + 1 + 1 + 1 + 2 + 1  # attempts, submissions, entry, stats, name, memberships, group

    text = json.dumps(data)
    assert "bob" not in text.lower().replace("bob's harps", "")
    assert bob.password not in text and alice.password not in text
    assert services.user_token(alice) not in text  # the token's key is a secret, not data
    assert session.session_key not in text and session.session_data not in text


def test_the_export_is_for_the_signed_in_only():
    assert APIClient().get("/api/auth/export/").status_code == 401
