"""The shapes of the account's own endpoints (``views/account_settings``): email, passwords,
a new name, the export of a player's data, the deletion of an account."""

from rest_framework import serializers


class SignupIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)
    email = serializers.EmailField(
        required=False, allow_blank=True, help_text="Optional: sent a link, used once confirmed."
    )


class EmailIn(serializers.Serializer):
    email = serializers.EmailField(allow_blank=True, help_text="A new address (sent a link), or empty: none.")


class TokenIn(serializers.Serializer):
    token = serializers.CharField(max_length=1000)


class ForgotIn(serializers.Serializer):
    email = serializers.EmailField()


class ResetIn(serializers.Serializer):
    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=128)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class PasswordChangeIn(serializers.Serializer):
    old_password = serializers.CharField(max_length=128, trim_whitespace=False)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class PasswordIn(serializers.Serializer):
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class NameIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class SentOut(serializers.Serializer):
    sent = serializers.BooleanField(help_text="Always true: the answer never says whether an address has an account.")


class ExportAccountOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField(help_text="The confirmed address, or empty.")
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)
    is_staff = serializers.BooleanField()
    is_active = serializers.BooleanField()


class ExportGroupOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.BooleanField()
    joined_at = serializers.DateTimeField()


class ExportOut(serializers.Serializer):
    exported_at = serializers.DateTimeField()
    account = ExportAccountOut()
    groups = ExportGroupOut(many=True)
    tables = serializers.DictField(
        child=serializers.ListField(child=serializers.DictField()),
        help_text="Every row that names the player, by table (app.model, or app.model.field when the "
        "player is named by another field than player/user): attempts, submissions with their move "
        "logs (actions), the browser's times of each action (times), results, hints, flags "
        "(flagged, flag_reasons, tempo), board entries, statistics, groups owned, memberships, "
        "tokens (their keys left out) and staff's admin log. No password hash.",
    )
