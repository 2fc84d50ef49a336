"""A group of players and its members. Imported by ``leaderboard.models`` (the app's models)."""

from django.conf import settings
from django.db import models


class Group(models.Model):
    """Players who see each other on their own boards. The owner is a member too; the invite
    code lets anyone signed in join (null: revoked)."""

    name = models.CharField(max_length=60)
    #: The owner's account deleted, the group goes with it (accounts are deleted by staff only).
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_groups")
    invite_code = models.CharField(max_length=43, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership", related_name="player_groups")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A player in a group, since ``joined_at``."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "player"], name="one_membership_per_player")]
        # A player's groups (the unique constraint's index serves a group's members).
        indexes = [models.Index(fields=["player", "joined_at"], name="membership_player")]

    def __str__(self) -> str:
        return f"{self.player} in {self.group}"
