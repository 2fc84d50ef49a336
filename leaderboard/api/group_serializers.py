"""The groups API's input checks and the documented shapes of its answers."""

from rest_framework import serializers

from ..groups.models import Group
from .board_serializers import BoardRow


class GroupIn(serializers.Serializer):
    name = serializers.CharField(
        max_length=Group._meta.get_field("name").max_length, help_text="The group's name (spaces are tidied)."
    )


class JoinIn(serializers.Serializer):
    code = serializers.CharField(max_length=64, help_text="The invite link's code.")


class HandOnIn(serializers.Serializer):
    player = serializers.CharField(max_length=150, help_text="The member who becomes the owner.")


class GroupListed(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField()
    members = serializers.IntegerField()
    is_owner = serializers.BooleanField(help_text="The caller owns this group.")
    joined_at = serializers.DateTimeField(allow_null=True, help_text="When the caller joined.")


class GroupsOut(serializers.Serializer):
    max_groups = serializers.IntegerField(help_text="The most groups a player may be in.")
    results = GroupListed(many=True)


class InviteOut(serializers.Serializer):
    code = serializers.CharField()
    url = serializers.CharField(help_text="The page that joins the group by this code.")


class MemberOut(serializers.Serializer):
    player = serializers.CharField()
    joined_at = serializers.DateTimeField()
    owner = serializers.BooleanField()


class GroupOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField()
    created_at = serializers.DateTimeField()
    is_owner = serializers.BooleanField()
    max_members = serializers.IntegerField()
    members = MemberOut(many=True)
    invite = InviteOut(allow_null=True, help_text="The owner's only; null for other members, or when revoked.")


class JoinedOut(GroupOut):
    joined = serializers.BooleanField(help_text="False when the caller was a member already.")


class InvitePreviewOut(serializers.Serializer):
    name = serializers.CharField()
    owner = serializers.CharField()
    members = serializers.IntegerField()
    member = serializers.BooleanField(help_text="The caller is a member already.")
    id = serializers.IntegerField(allow_null=True, help_text="The group's id, for its members only.")


class LeftOut(serializers.Serializer):
    deleted = serializers.BooleanField(help_text="The group was deleted: its owner left it as its last member.")


class GroupBoardRow(BoardRow):
    day_rank = serializers.IntegerField(help_text="The result's rank on the day's board.")


class GroupBoardOut(serializers.Serializer):
    board = serializers.CharField()
    group = serializers.IntegerField()
    members = serializers.IntegerField(help_text="The group's members.")
    count = serializers.IntegerField(help_text="Members with a ranked result on the day.")
    page = serializers.IntegerField(required=False)
    page_size = serializers.IntegerField(required=False)
    me = serializers.IntegerField(
        required=False, allow_null=True, help_text="The caller's rank in the group (around=me)."
    )
    results = GroupBoardRow(many=True, help_text="rank: within the group; day_rank: on the day's board.")


class StandingRow(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    points = serializers.IntegerField()
    firsts = serializers.IntegerField(help_text="Days placed first in the group.")
    won = serializers.IntegerField(help_text="Days the deal was won.")
    days_played = serializers.IntegerField()
    average_place = serializers.FloatField(allow_null=True, help_text="Within the group; null: no day played.")


class StandingsOut(serializers.Serializer):
    group = serializers.IntegerField()
    month = serializers.CharField(help_text="YYYY-MM")
    days = serializers.IntegerField(help_text="Days of the month some member played.")
    place_points = serializers.ListField(
        child=serializers.IntegerField(), help_text="A day's points for 1st, 2nd, ... place in the group."
    )
    played_points = serializers.IntegerField(help_text="A day's points for any later place.")
    results = StandingRow(many=True)
