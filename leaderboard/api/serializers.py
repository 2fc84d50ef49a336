"""Input validation and the documented shapes of the API's answers."""

from datetime import datetime

from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import games

from ..boards.selectors.pages import rank_if_kept
from ..core import days
from ..core.errors import refusal_words
from ..record.models import Attempt, Submission


class CredentialsIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class AccountOut(serializers.Serializer):
    username = serializers.CharField(allow_null=True, help_text="null for a guest (no name yet) or signed out.")
    authenticated = serializers.BooleanField()
    guest = serializers.BooleanField(help_text="A guest player: its results rank once it keeps them (auth/keep/).")
    is_staff = serializers.BooleanField()
    email = serializers.CharField(
        required=False, allow_blank=True, help_text="The confirmed address (empty: none); signed-in only."
    )
    token = serializers.CharField(required=False)


class DraftOut(serializers.Serializer):
    actions = serializers.IntegerField(help_text="Actions in the log kept.")
    saved_at = serializers.DateTimeField(help_text="The server's clock when the log arrived.")


class DailyAttemptOut(serializers.Serializer):
    id = serializers.UUIDField()
    code = serializers.CharField(help_text="The deal's code: this player has seen its cards.")
    ranked = serializers.BooleanField()
    started_at = serializers.DateTimeField()
    submission = serializers.IntegerField(allow_null=True)


class ServerTimeField(serializers.SerializerMethodField):
    """The server's clock as it answers: the page sets its clock by it (its offset from the device's)."""

    def __init__(self, **kwargs):
        super().__init__(
            method_name="get_server_time",
            help_text="The server's clock as it answered: the page "
            "shows an attempt's time from started_at by it, whatever the device's clock says.",
            **kwargs,
        )


class ServerTimeMixin:
    @extend_schema_field(serializers.DateTimeField())
    def get_server_time(self, _instance) -> datetime:
        return timezone.now()


class DailyDealOut(ServerTimeMixin, serializers.Serializer):
    server_time = ServerTimeField()
    date = serializers.DateField()
    proven_winnable = serializers.BooleanField()
    players = serializers.IntegerField(
        allow_null=True, help_text="Ranked results on the day's board so far (null: not known now)."
    )
    closes_at = serializers.DateTimeField(help_text="The day's close: the next midnight UTC.")
    accepts_until = serializers.DateTimeField(help_text="Submissions are taken until the close plus a grace.")
    final = serializers.BooleanField(help_text="accepts_until has passed: the deal and every log are public.")
    code = serializers.CharField(allow_null=True, help_text="null until final.")
    number = serializers.IntegerField(allow_null=True, help_text="null until final.")
    solution = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="The solver's winning line; null until final."
    )
    attempt = DailyAttemptOut(allow_null=True, help_text="The caller's latest attempt at this deal, if any.")


class AttemptIn(serializers.Serializer):
    deal = serializers.CharField(
        max_length=64, help_text='"daily" for today\'s deal, or a deal code, e.g. EH1-N-AAAAAAF.'
    )


class AttemptOut(ServerTimeMixin, serializers.ModelSerializer):
    server_time = ServerTimeField()
    deal = serializers.CharField(source="deal_code")
    number = serializers.IntegerField(source="deal_number")
    practice = serializers.BooleanField(read_only=True)
    submission = serializers.SerializerMethodField()
    closes_at = serializers.SerializerMethodField()
    accepts_until = serializers.SerializerMethodField()

    class Meta:
        model = Attempt
        fields = [
            "id",
            "deal",
            "number",
            "daily_date",
            "started_at",
            "ranked",
            "practice",
            "hints",
            "submission",
            "closes_at",
            "accepts_until",
            "server_time",
        ]

    def get_submission(self, attempt) -> int | None:
        sub = getattr(attempt, "submission", None)
        return sub.pk if sub else None

    def get_closes_at(self, attempt) -> datetime | None:
        """A daily attempt's day closes at midnight UTC."""
        return days.day_close(attempt.daily_date) if attempt.daily_date else None

    def get_accepts_until(self, attempt) -> datetime | None:
        """Its submission is taken until the close plus the grace."""
        return days.day_accepts_until(attempt.daily_date) if attempt.daily_date else None


class ParsedJSONField(serializers.JSONField):
    """A JSON value of the body, taken as parsed: the API parses bodies as JSON only
    (``DEFAULT_PARSER_CLASSES``), so DRF's check that it is JSON, dumping it whole again (a
    log of a thousand actions at every submission), is left out."""

    def to_internal_value(self, data):
        return data


@extend_schema_field(
    {"type": "array", "items": {"type": "integer", "minimum": 0}, "maxItems": settings.SUBMISSION_MAX_ACTIONS}
)
class TimesField(ParsedJSONField):
    """Taken as sent: the service checks the shape and answers with the index of the first bad time."""


class SubmissionIn(serializers.Serializer):
    actions = ParsedJSONField(help_text='The move log, e.g. ["s", "w>3", "3>f", "u"].')
    times = TimesField(
        required=False,
        allow_null=True,
        help_text="When each action was played: whole ms since the attempt started (the browser's "
        "monotonic clock), one per action, never decreasing. Required for the deal of the "
        "day; a numbered deal's result sent without them stays off the boards.",
    )


class HintIn(serializers.Serializer):
    attempt = serializers.UUIDField(help_text="Your attempt in progress: the hint is counted on it.")
    actions = ParsedJSONField(help_text="The game so far.")


class HintOut(serializers.Serializer):
    action = serializers.CharField(allow_null=True, help_text="The next action to play; null when won.")
    hints = serializers.IntegerField(help_text="Hints counted on the attempt so far.")


class SubmissionAccepted(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    url = serializers.CharField()


class SubmissionOut(serializers.ModelSerializer):
    player = serializers.CharField(source="player.username")
    deal = serializers.SerializerMethodField()
    deal_number = serializers.SerializerMethodField()
    attempt = serializers.UUIDField(source="attempt_id")
    started_at = serializers.DateTimeField(source="attempt.started_at")
    actions = serializers.SerializerMethodField()
    times = serializers.SerializerMethodField()
    tempo = serializers.SerializerMethodField()
    archived = serializers.BooleanField(
        read_only=True, help_text="Its month was archived: the log is in the archive file, no longer here."
    )
    on_boards = serializers.BooleanField(
        read_only=True,
        help_text="The result ranks: verified, not hidden by staff, not flagged, not a practice "
        "game and no copy of another player's log (what the boards and streaks count).",
    )
    error = serializers.SerializerMethodField(
        help_text="Why the log was rejected, in the reader's language (empty unless rejected)."
    )
    error_code = serializers.SerializerMethodField(
        help_text="The engine's reason code for the rejection (games.refusals), or null."
    )
    guest = serializers.BooleanField(
        read_only=True, help_text="A guest's result, off the boards until the guest keeps it (auth/keep/)."
    )
    guest_rank = serializers.SerializerMethodField(
        help_text="To its guest: the rank of N the result would have on its board if kept now, or null."
    )

    class Meta:
        model = Submission
        fields = [
            "id",
            "attempt",
            "player",
            "deal",
            "deal_number",
            "daily_date",
            "status",
            "started_at",
            "submitted_at",
            "verified_at",
            "won",
            "score",
            "moves",
            "foundation",
            "undos",
            "take_backs",
            "stock_passes",
            "waste_to_column",
            "duration_ms",
            "hints",
            "clean",
            "error_index",
            "error",
            "error_code",
            "hidden",
            "flagged",
            "flag_reasons",
            "practice",
            "copy_of",
            "on_boards",
            "guest",
            "guest_rank",
            "actions",
            "times",
            "tempo",
            "archived",
        ]

    def _deal_visible(self, submission) -> bool:
        """A day's deal is secret until the day is final, when every log of it is public: so
        another player's daily result shows its deal with its log (a numbered deal: always)."""
        return submission.daily_date is None or self.context["log_visible"]

    def get_deal(self, submission) -> str | None:
        return submission.attempt.deal_code if self._deal_visible(submission) else None

    def get_deal_number(self, submission) -> int | None:
        return submission.deal_number if self._deal_visible(submission) else None

    def get_error(self, submission) -> str:
        refusal = submission.refusal and games.Refusal(submission.refusal["code"], submission.refusal["args"])
        return refusal_words(submission.error, refusal)

    def get_error_code(self, submission) -> str | None:
        return submission.refusal["code"] if submission.refusal else None

    def get_actions(self, submission) -> list[str] | None:
        """The log: for the owner at once, for others once the day has closed; none once archived."""
        return submission.actions if self.context["log_visible"] and not submission.archived else None

    def get_times(self, submission) -> list[int] | None:
        """The browser's time of each action, shown with the log."""
        return submission.times if self.context["log_visible"] and not submission.archived else None

    @extend_schema_field(
        {"type": "object", "nullable": True, "properties": {"rank": {"type": "integer"}, "count": {"type": "integer"}}}
    )
    def get_guest_rank(self, submission) -> dict | None:
        if not submission.guest or self.context["request"].user.pk != submission.player_id:
            return None
        return rank_if_kept(submission)

    @extend_schema_field({"type": "object", "nullable": True, "additionalProperties": True})
    def get_tempo(self, submission) -> dict | None:
        """The tempo profile (leaderboard.tempo.TempoProfile): for the owner and staff only."""
        viewer = self.context["request"].user
        return submission.tempo if viewer.is_staff or viewer.pk == submission.player_id else None


class ErrorBody(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    detail = serializers.JSONField(allow_null=True)


class ErrorOut(serializers.Serializer):
    error = ErrorBody()
