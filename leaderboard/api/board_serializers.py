"""The documented shapes of the boards' answers: a board's rows, the players' board, a
player's profile and history, the calendar and a day's histogram."""

from rest_framework import serializers


class ResultFields(serializers.Serializer):
    won = serializers.BooleanField()
    moves = serializers.IntegerField()
    score = serializers.IntegerField()
    duration_ms = serializers.IntegerField()
    clean = serializers.BooleanField()
    hints = serializers.IntegerField(
        help_text="Hints counted by the server: a hinted result ranks after every result without hints."
    )
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
    current_streak = serializers.IntegerField(
        help_text="Days won in a row (a ranked daily win each), up to today, or yesterday while today is open; else 0."
    )
    best_streak = serializers.IntegerField(help_text="The most days won in a row.")


class PlayerRow(StreakFields):
    rank = serializers.IntegerField()


class PlayersOut(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    page_size = serializers.IntegerField()
    results = PlayerRow(many=True)


class HistoryRow(ResultFields):
    date = serializers.DateField()
    rank = serializers.IntegerField(allow_null=True, help_text="null for a practice game.")
    practice = serializers.BooleanField(help_text="A later try at the day's deal: verified, never ranked.")


class BucketOut(serializers.Serializer):
    low = serializers.IntegerField(help_text="The fewest moves in the bucket.")
    high = serializers.IntegerField(help_text="The most moves in the bucket (included).")
    count = serializers.IntegerField()


class ProfileOut(StreakFields):
    played_streak = serializers.IntegerField(
        help_text="Days played in a row (a ranked daily result each, won or "
        "given up), up to today, or yesterday while today is open."
    )
    best_played_streak = serializers.IntegerField(help_text="The most days played in a row.")
    joined = serializers.DateField()
    played = serializers.IntegerField(help_text="Days with a ranked result on the day's board.")
    won = serializers.IntegerField(help_text="Days of those won (the daily wins).")
    win_rate = serializers.FloatField(allow_null=True, help_text="won / played; null before a first day played.")
    moves_distribution = BucketOut(
        many=True,
        help_text="The moves of the won days (each by its fewest), in buckets of equal width, empty ones included.",
    )
    history = HistoryRow(many=True)


class CalendarDayOut(serializers.Serializer):
    date = serializers.DateField()
    available = serializers.BooleanField(
        help_text="From the service's first deal of the day until today, when the day had a deal."
    )
    final = serializers.BooleanField(
        help_text="The day's close plus the grace has passed: its deal's code, "
        "its games' replays and playing it again are open."
    )
    code = serializers.CharField(allow_null=True, help_text="The day's deal code; null until final.")
    result = serializers.ChoiceField(
        ["won", "lost", "practice", "none"],
        allow_null=True,
        help_text="The caller's: won or lost (their ranked result on the day's board), practice (only a later "
        "try, or the deal played as a numbered deal), none; null when not signed in.",
    )
    submission = serializers.IntegerField(
        allow_null=True, help_text="The caller's result: the ranked one, else the latest practice one."
    )
    moves = serializers.IntegerField(allow_null=True, help_text="The moves of the caller's ranked result.")


class CalendarOut(serializers.Serializer):
    month = serializers.CharField(help_text="YYYY-MM")
    today = serializers.DateField()
    first_day = serializers.DateField(help_text="The service's first deal of the day.")
    previous = serializers.CharField(allow_null=True, help_text="The month before (YYYY-MM) if it has days to show.")
    next = serializers.CharField(allow_null=True, help_text="The month after (YYYY-MM) if it has begun.")
    days = CalendarDayOut(many=True)


class HistogramMeOut(serializers.Serializer):
    won = serializers.BooleanField()
    moves = serializers.IntegerField()
    bucket = serializers.IntegerField(
        allow_null=True, help_text='The index of the bucket of a win ("you are here"); null for a loss.'
    )


class HistogramOut(serializers.Serializer):
    date = serializers.DateField()
    board = serializers.CharField()
    final = serializers.BooleanField()
    winners = serializers.IntegerField(help_text="Won results on the day's board.")
    buckets = BucketOut(many=True, help_text="The winners' moves in buckets of equal width, empty ones included.")
    me = HistogramMeOut(allow_null=True, help_text="The caller's own entry on the board, if any.")
