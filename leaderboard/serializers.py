"""Input validation and the documented shapes of the API's answers."""

from rest_framework import serializers

from .models import Attempt, DailyDeal, Submission


class CredentialsIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class AccountOut(serializers.Serializer):
    username = serializers.CharField(allow_null=True)
    authenticated = serializers.BooleanField()
    is_staff = serializers.BooleanField()
    token = serializers.CharField(required=False)


class DailyDealOut(serializers.ModelSerializer):
    code = serializers.SerializerMethodField()
    proven_winnable = serializers.SerializerMethodField()
    closed = serializers.SerializerMethodField()
    solution = serializers.SerializerMethodField()

    class Meta:
        model = DailyDeal
        fields = ["date", "code", "number", "proven_winnable", "closed", "solution"]

    def get_code(self, deal) -> str:
        from games import format_code
        return format_code(deal.number, "D")

    def get_proven_winnable(self, deal) -> bool:
        return bool(deal.solution)

    def get_closed(self, deal) -> bool:
        return self.context["closed"]

    def get_solution(self, deal) -> list[str] | None:
        """The solver's winning line: shown only once the day has ended."""
        return deal.solution if self.context["closed"] else None


class AttemptIn(serializers.Serializer):
    deal = serializers.CharField(max_length=64, help_text="A deal code, e.g. EH1-D-ABCDEFG or EH1-N-AAAAAAF.")


class AttemptOut(serializers.ModelSerializer):
    deal = serializers.CharField(source="deal_code")
    number = serializers.IntegerField(source="deal_number")
    submission = serializers.SerializerMethodField()

    class Meta:
        model = Attempt
        fields = ["id", "deal", "number", "daily_date", "started_at", "submission"]

    def get_submission(self, attempt) -> int | None:
        sub = getattr(attempt, "submission", None)
        return sub.pk if sub else None


class SubmissionIn(serializers.Serializer):
    actions = serializers.JSONField(help_text='The move log, e.g. ["s", "w>3", "3>f", "u"].')
    hints = serializers.IntegerField(min_value=0, max_value=1_000_000, default=0,
                                     help_text="How many hints the player took (a hint makes a game not clean).")


class HintIn(serializers.Serializer):
    deal = serializers.CharField(max_length=64)
    actions = serializers.JSONField(help_text="The game so far.")


class HintOut(serializers.Serializer):
    action = serializers.CharField(allow_null=True, help_text="The next action to play; null when won.")


class SubmissionAccepted(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    url = serializers.CharField()


class SubmissionOut(serializers.ModelSerializer):
    player = serializers.CharField(source="player.username")
    deal = serializers.CharField(source="attempt.deal_code")
    attempt = serializers.UUIDField(source="attempt_id")
    started_at = serializers.DateTimeField(source="attempt.started_at")
    actions = serializers.SerializerMethodField()

    class Meta:
        model = Submission
        fields = [
            "id", "attempt", "player", "deal", "deal_number", "daily_date", "status", "started_at",
            "submitted_at", "verified_at", "won", "score", "moves", "foundation", "undos",
            "take_backs", "stock_passes", "waste_to_column", "duration_ms", "hints", "clean", "error_index",
            "error", "hidden", "flagged", "actions",
        ]

    def get_actions(self, submission) -> list[str] | None:
        """The log: for the owner at once, for others once the day has closed."""
        return submission.actions if self.context["log_visible"] else None


class ResultFields(serializers.Serializer):
    won = serializers.BooleanField()
    moves = serializers.IntegerField()
    score = serializers.IntegerField()
    duration_ms = serializers.IntegerField()
    clean = serializers.BooleanField()
    submission = serializers.IntegerField()


class BoardRow(ResultFields):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    submitted_at = serializers.DateTimeField()


class BoardOut(serializers.Serializer):
    board = serializers.CharField()
    count = serializers.IntegerField()
    page = serializers.IntegerField(required=False)
    page_size = serializers.IntegerField(required=False)
    me = serializers.IntegerField(required=False, allow_null=True, help_text="The caller's rank (around=me).")
    results = BoardRow(many=True)


class StreakFields(serializers.Serializer):
    player = serializers.CharField()
    daily_wins = serializers.IntegerField()
    current_streak = serializers.IntegerField()
    best_streak = serializers.IntegerField()


class PlayerRow(StreakFields):
    rank = serializers.IntegerField()


class PlayersOut(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    page_size = serializers.IntegerField()
    results = PlayerRow(many=True)


class HistoryRow(ResultFields):
    date = serializers.DateField()
    rank = serializers.IntegerField()


class ProfileOut(StreakFields):
    joined = serializers.DateField()
    history = HistoryRow(many=True)


class ErrorBody(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    detail = serializers.JSONField(allow_null=True)


class ErrorOut(serializers.Serializer):
    error = ErrorBody()
