"""Download my data: everything the service holds about a player, as one JSON-ready dict.

Every row that names the player is found the same way the deletion finds it: each model with
a foreign key to the account (``rows_of``), hidden ones (``related_name="+"``) included, so a
table added later (by another job) is in the export, and erased with the account, without a
change here. A foreign key on another player's row that merely points at this account
(``OTHERS_ROWS``) is not: the row is the other player's. Each row is written field by
field as the model holds it (a move log as its list of actions, times as their list). Some
things are left out on purpose: the password's hash, the API tokens' keys and the sessions'
keys and signed data, a queued mail's context, which holds its link (secrets, not data about
the player: a downloaded file must not be a way into the account); a session shows its account
and when it expires, a mail its address, template and times."""

import datetime
import decimal
import uuid

from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ..groups.models import Membership
from ..record.models import Attempt
from .models import OutgoingMail, UserSession

User = get_user_model()
_ACCOUNT_FIELDS = ("id", "username", "email", "date_joined", "last_login", "is_staff", "is_active")
_SECRET = {(Token, "key"), (UserSession, "session_key"), (UserSession, "session_data"), (OutgoingMail, "context")}
#: Foreign keys to the account on rows of other players: an attempt linked for review to this
#: account's earlier try from the same device (staff's to see, and the other player's data).
OTHERS_ROWS = {(Attempt, "linked_player")}


def relations():
    """``(model, field name)`` of every foreign key or one-to-one field pointing at the account,
    hidden or not, but ``OTHERS_ROWS``."""
    found = []
    for related in User._meta.get_fields(include_hidden=True):
        # The reverse side of each; a many-to-many (groups' members) is seen by its table's rows.
        if not related.auto_created or related.concrete or related.many_to_many:
            continue
        if (related.related_model, related.field.name) not in OTHERS_ROWS:
            found.append((related.related_model, related.field.name))
    return sorted(found, key=lambda pair: (pair[0]._meta.label_lower, pair[1]))


def rows_of(user):
    """``(model, field name, queryset)`` of the rows naming ``user``."""
    return [(model, name, model._base_manager.filter(**{name: user.pk})) for model, name in relations()]


def _plain(value):
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (uuid.UUID, decimal.Decimal)):
        return str(value)
    if isinstance(value, memoryview | bytes):
        return bytes(value).hex()
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _row(model, obj) -> dict:
    row = {}
    for field in model._meta.concrete_fields:
        if (model, field.name) in _SECRET:
            continue
        value = field.value_from_object(obj)
        row[field.attname if isinstance(field, models.ForeignKey) else field.name] = _plain(value)
    return row


def player_export(user) -> dict:
    tables: dict[str, list[dict]] = {}
    for model, name, rows in rows_of(user):
        label = model._meta.label_lower if name in ("player", "user") else f"{model._meta.label_lower}.{name}"
        tables[label] = [_row(model, obj) for obj in rows.order_by("pk")]
    return {
        "exported_at": timezone.now().isoformat(),
        "account": {name: _plain(getattr(user, name)) for name in _ACCOUNT_FIELDS},
        "groups": _groups(user),
        "tables": tables,
    }


def _groups(user) -> list[dict]:
    return [
        {"id": m.group_id, "name": m.group.name, "owner": m.group.owner_id == user.pk, "joined_at": _plain(m.joined_at)}
        for m in Membership.objects.filter(player=user).select_related("group").order_by("group_id")
    ]
