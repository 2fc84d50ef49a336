"""What keeps copies of the record true to it when an account changes outside the services:
the token cache (``authentication``) and the rows kept in the ranking index (``boards.rows``)."""

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save

from ..boards.services import entries
from . import authentication


def _user_saved(sender, instance, created=False, update_fields=None, **kwargs):
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return  # a new account has no token or row yet; a log-in changes neither
    authentication.forget_users([instance.pk])
    entries.player_rows_refresh(instance.pk)  # maybe renamed


post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="leaderboard-user-saved")
