"""Staff tools: find a player, hide a result, disable an account, verify again.

Every action changes the record, so each needs the change permission: a staff member who
may only view never runs one (Django offers an action without ``permissions`` to anyone
who can see the list)."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from . import services
from .authentication import forget_users
from .models import Attempt, BoardEntry, DailyDeal, PlayerStats, Submission

User = get_user_model()


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "deal_number", "daily_date", "status", "won", "moves", "score",
                    "duration_ms", "hidden", "flagged", "submitted_at")
    list_filter = ("status", "hidden", "flagged", "won", "daily_date")
    search_fields = ("player__username", "=deal_number", "=id")
    readonly_fields = [f.name for f in Submission._meta.fields]
    actions = ("hide", "unhide", "clear_flag", "reverify")

    @admin.action(description="Hide from the boards", permissions=["change"])
    def hide(self, request, queryset):
        for submission in queryset:
            services.submission_set_hidden(submission, True)

    @admin.action(description="Show on the boards again", permissions=["change"])
    def unhide(self, request, queryset):
        for submission in queryset:
            services.submission_set_hidden(submission, False)

    @admin.action(description="Reviewed: clear the plausibility flag", permissions=["change"])
    def clear_flag(self, request, queryset):
        for submission in queryset:
            services.submission_set_flagged(submission, False)

    @admin.action(description="Verify again", permissions=["change"])
    def reverify(self, request, queryset):
        for submission in queryset:
            services.submission_reverify(submission)
        messages.info(request, f"{queryset.count()} submission(s) queued for verification.")


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "deal_code", "daily_date", "started_at")
    search_fields = ("player__username", "deal_code")
    list_filter = ("daily_date",)


@admin.register(DailyDeal)
class DailyDealAdmin(admin.ModelAdmin):
    list_display = ("date", "number", "candidates_tried", "created_at")
    readonly_fields = ("date", "number", "solution", "candidates_tried", "created_at")


@admin.register(BoardEntry)
class BoardEntryAdmin(admin.ModelAdmin):
    list_display = ("board", "player", "submission", "rank_key", "submitted_at")
    search_fields = ("board", "player__username")


@admin.register(PlayerStats)
class PlayerStatsAdmin(admin.ModelAdmin):
    list_display = ("player", "daily_wins", "best_streak", "last_streak", "last_win_date")
    search_fields = ("player__username",)


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """Disabling an account: untick "active" (the player can no longer log in)."""

    list_display = ("username", "is_active", "is_staff", "date_joined", "last_login")
    actions = ("disable",)

    @admin.action(description="Disable the selected accounts", permissions=["change"])
    def disable(self, request, queryset):
        disabled = list(queryset.values_list("pk", flat=True))
        queryset.update(is_active=False)
        forget_users(disabled)  # an update sends no signal: their tokens stop working now
