"""Download my data: the export holds every row that names the player, and nothing of anyone else."""

import json
from datetime import date

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from leaderboard_fixtures.groups import make_group  # noqa: F401  (a fixture)
from leaderboard_fixtures.history import result
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse)
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from leaderboard.accounts import email, export, services
from leaderboard.models import Attempt, DayHints, OutgoingMail, UserSession

pytestmark = pytest.mark.django_db
#: The foreign keys to the account that the export leaves out, and why: the row is another
#: player's (an attempt linked for review to this account's try).
NOT_THE_PLAYERS = {(Attempt, "linked_player")}


def key_of(model) -> str:
    pk = model._meta.pk
    return pk.attname if isinstance(pk, models.ForeignKey) else pk.name


def foreign_keys_to_the_account() -> set:
    """``(model, field name)`` of every foreign key or one-to-one field to the account, read
    from every model's own fields (auto-created tables too), not from the export's list."""
    user = get_user_model()
    return {
        (model, field.name)
        for model in apps.get_models(include_auto_created=True)
        if not model._meta.proxy
        for field in model._meta.local_fields
        if (field.many_to_one or field.one_to_one) and field.related_model is user
    }


def test_the_export_holds_every_row_of_the_players_and_none_of_anyone_elses(make_player, make_group):
    alice, bob = make_player("alice"), make_player("bob")
    for player in (alice, bob):
        result(player, date(2026, 11, 3), hints=2)
        result(player, date(2026, 11, 4), flagged=True)
        result(player, date(2026, 11, 4), practice=True, minutes_later=30)
        DayHints.objects.create(player=player, date=date(2026, 11, 3), hints=2)
        services.user_token(player)
        email.email_set(player, f"{player.username}@example.org", base_url="http://testserver/")  # queued
    Attempt.objects.filter(player=bob).update(linked_player=alice)  # bob's rows, naming alice
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

    found = foreign_keys_to_the_account()
    assert (DayHints, "player") in found and NOT_THE_PLAYERS <= found
    assert set(export.relations()) == found - NOT_THE_PLAYERS, "a table naming the player is not exported"
    checked = 0
    for model, name, rows in export.rows_of(alice):
        label = model._meta.label_lower if name in ("player", "user") else f"{model._meta.label_lower}.{name}"
        exported = data["tables"][label]
        fk = model._meta.get_field(name).attname
        if model is Token:  # its key is its primary key, and a secret: left out
            assert len(exported) == rows.count() == 1 and "key" not in exported[0]
        elif model is UserSession:  # so is a session's, and its signed data: left out
            assert exported == [{"expire_date": session.expire_date.isoformat(), "user_id": alice.pk}]
        elif model is OutgoingMail:  # a mail's context holds its link, a secret: left out
            assert [row["to"] for row in exported] == ["alice@example.org"] and "context" not in exported[0]
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
    assert data["tables"]["leaderboard.dayhints"] == [
        {"id": DayHints.objects.get(player=alice).pk, "player_id": alice.pk, "date": "2026-11-03", "hints": 2}
    ]
    assert "leaderboard.attempt.linked_player" not in data["tables"]
    # attempts, submissions, entry, stats, name, day hints, memberships, group
    assert checked >= 3 + 3 + 1 + 1 + 1 + 1 + 2 + 1

    text = json.dumps(data)
    assert "bob" not in text.lower().replace("bob's harps", "")
    assert bob.password not in text and alice.password not in text
    assert services.user_token(alice) not in text  # the token's key is a secret, not data
    assert session.session_key not in text and session.session_data not in text
    assert OutgoingMail.objects.get(user=alice).context["link"] not in text


def test_the_export_is_for_the_signed_in_only():
    assert APIClient().get("/api/auth/export/").status_code == 401
