"""What keeps copies of the record true to it when an account changes outside the services:
the token cache (``authentication``), the rows kept in the ranking index (``boards.rows``) and
the key of the account's name (``names``)."""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models.signals import post_save

from ..boards.services import entries
from ..record.players import PlayerName
from . import authentication, names


def _user_saved(sender, instance, created=False, update_fields=None, **kwargs):
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return  # a new account has no token or row yet; a log-in changes neither
    authentication.forget_users([instance.pk])
    entries.player_rows_refresh(instance.pk)  # maybe renamed


post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="leaderboard-user-saved")


def _name_saved(sender, instance, created=False, update_fields=None, raw=False, **kwargs):
    """Every account made, by sign-up or otherwise (``createsuperuser``, the admin), takes its
    name's key, so no one can sign up as a look-alike of staff either; a look-alike of an
    existing name fails here (IntegrityError), as the sign-up expects. A renamed account
    moves its key; a new name that looks like another's leaves it without one (staff chose it)."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    key = names.name_key(instance.username)
    if created:
        PlayerName.objects.create(player=instance, key=key)
        return
    try:
        with transaction.atomic():
            PlayerName.objects.update_or_create(player=instance, defaults={"key": key})
    except IntegrityError:
        PlayerName.objects.filter(player=instance).delete()


post_save.connect(_name_saved, sender=get_user_model(), dispatch_uid="leaderboard-user-name-key")
