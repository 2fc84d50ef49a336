"""Staff tools: find a player, hide a result, disable an account, verify again, and review
flagged results (the moderation queue).

Every action changes the record, so each needs the change permission: a staff member who
may only view never runs one (Django offers an action without ``permissions`` to anyone
who can see the list)."""

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import (
    Http404,
    HttpResponseBadRequest,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from .accounts import admin as accounts_admin  # noqa: F401 (registers the players' admin, the admin's log-in)
from .play import staff_words, tempo
from .play.services import moderation, origin, verification
from .record.models import Attempt, BoardEntry, DailyDeal, FlaggedSubmission, Submission
from .record.players import PlayerStats

User = get_user_model()

#: What each flag reason means, for staff: the tempo rules and the server clock's speed rule.
REASONS = {
    **tempo.RULES,
    tempo.NO_TIMES: tempo.NO_TIMES_TEXT,
    **origin.REASONS,
    verification.TOO_FAST: gettext_noop("More actions a second, by the server's clock, than a person can play."),
    **staff_words.REASONS,
}

#: The tempo profile's fields (leaderboard.tempo.TempoProfile) in the order staff read them:
#: a label and a one-line meaning each.
PROFILE_FIELDS = {
    "actions": (_("actions"), _("Think times: one per action.")),
    "span_ms": (_("span"), _("The last action's time: the game's length by the browser's clock.")),
    "median_ms": (_("median"), _("The typical think time.")),
    "p10_ms": (_("quick tenth"), _("A tenth of the think times are shorter than this.")),
    "p90_ms": (_("slow tenth"), _("A tenth of the think times are longer than this.")),
    "spread": (_("spread"), _("Slow tenth over quick tenth: how much slow and quick differ (1: all alike).")),
    "share_under_150ms": (_("under 150 ms"), _("Share of think times faster than a person clicks.")),
    "longest_pause_ms": (_("longest pause"), _("The longest think time.")),
    "pauses_over_3s": (_("pauses"), _("Think times over 3 seconds: a person stops to think.")),
    "gap_cv": (_("variation"), _("Standard deviation over mean of the think times (shown, not a rule).")),
    "lag1_autocorrelation": (_("runs"), _("People have quick runs and slow spells: above 0 (shown, not a rule).")),
}


class ReviewMixin:
    """The review of a result, shared by the submissions and the moderation queue: its flag's
    reasons in words, its tempo profile, the chart of its think times, and the two decisions."""

    review_fields = ("reasons_in_words", "move_signals", "tempo_profile", "think_time_chart")

    @admin.display(description=_("reasons"))
    def reasons_in_words(self, submission):
        return (
            format_html_join("", "<p>{}</p>", ((gettext(REASONS.get(code, code)),) for code in submission.flag_reasons))
            or None
        )

    @admin.display(description=_("moves"))
    def move_signals(self, submission):
        rows = staff_words.signal_rows(submission.signals)
        return render_to_string("admin/leaderboard/tempo_profile.html", {"rows": rows}) if rows else None

    @admin.display(description=_("tempo profile"))
    def tempo_profile(self, submission):
        if not submission.tempo:
            return None
        rows = [
            (label, staff_words.profile_value(name, submission.tempo[name]), meaning)
            for name, (label, meaning) in PROFILE_FIELDS.items()
            if name in submission.tempo
        ]
        return render_to_string("admin/leaderboard/tempo_profile.html", {"rows": rows})

    @admin.display(description=_("think time per action"))
    def think_time_chart(self, submission):
        if not submission.times:
            return gettext("No times were sent with this game.")
        # chart_svg escapes every text it draws, so its markup is safe inline; the CSP allows
        # inline SVG (it forbids inline scripts and styles, and the chart has neither).
        return mark_safe(tempo.chart_svg(submission.times, verification.tempo_rules(), translate=gettext))

    @admin.action(description=_("Hide from every board"), permissions=["change"])
    def hide(self, request, queryset):
        for submission in queryset:
            moderation.submission_set_hidden(submission, True)
        count = len(queryset)
        messages.success(
            request, ngettext("%(count)d result hidden.", "%(count)d results hidden.", count) % {"count": count}
        )

    @admin.action(description=_("Reviewed: clear the flag (puts it on the boards)"), permissions=["change"])
    def clear_flag(self, request, queryset):
        for submission in queryset:
            moderation.submission_set_flagged(submission, False)
        count = len(queryset)
        messages.success(
            request, ngettext("%(count)d flag cleared.", "%(count)d flags cleared.", count) % {"count": count}
        )


@admin.register(Submission)
class SubmissionAdmin(ReviewMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "player",
        "deal_number",
        "daily_date",
        "status",
        "won",
        "moves",
        "score",
        "duration_ms",
        "hidden",
        "flagged",
        "submitted_at",
    )
    list_filter = ("status", "hidden", "flagged", "won", "daily_date")
    search_fields = ("player__username", "=deal_number", "=id")
    readonly_fields = [*(f.name for f in Submission._meta.fields), *ReviewMixin.review_fields]
    actions = ("hide", "unhide", "clear_flag", "reverify")

    @admin.action(description=_("Show on the boards again"), permissions=["change"])
    def unhide(self, request, queryset):
        for submission in queryset:
            moderation.submission_set_hidden(submission, False)

    @admin.action(description=_("Verify again"), permissions=["change"])
    def reverify(self, request, queryset):
        for submission in queryset:
            moderation.submission_reverify(submission)
        count = queryset.count()
        messages.info(
            request,
            ngettext(
                "%(count)d submission queued for verification.", "%(count)d submissions queued for verification.", count
            )
            % {"count": count},
        )


@admin.register(FlaggedSubmission)
class FlaggedSubmissionAdmin(ReviewMixin, admin.ModelAdmin):
    """The moderation queue: verified results that a rule flagged, newest first, until staff
    clear the flag (the result goes on the boards) or hide the result. Read-only pages; the
    decisions are the actions and the change page's buttons (the ``moderate`` view)."""

    list_display = ("players", "deal", "daily_date", "moves", "duration", "reasons_short", "submitted_at")
    list_select_related = ("player", "attempt__linked_player")
    list_filter = ("daily_date",)
    search_fields = ("player__username",)
    ordering = ("-submitted_at", "-id")
    actions = ("clear_flag", "hide")
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "players",
                    "deal",
                    "daily_date",
                    "won",
                    "moves",
                    "score",
                    "foundation",
                    "duration",
                    "hints",
                    "undos",
                    "submitted_at",
                    "verified_at",
                )
            },
        ),
        (_("Review"), {"fields": ReviewMixin.review_fields}),
    )
    readonly_fields = [name for _title, fieldset in fieldsets for name in fieldset["fields"]]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .filter(status=Submission.Status.VERIFIED, flagged=True, hidden=False)
            .select_related("player", "attempt__linked_player")
        )

    @admin.display(description=_("player"), ordering="player__username")
    def players(self, submission):
        """The player, and the account its ranked try is linked to (origin.linked_try), with its results."""
        if not (other := submission.attempt.linked_player):
            return submission.player
        url = reverse("admin:leaderboard_submission_changelist")
        return format_html('{} + <a href="{}?q={}">{}</a>', submission.player, url, other, other)

    @admin.display(description=_("deal"), ordering="deal_number")
    def deal(self, submission):
        return submission.attempt.deal_code

    @admin.display(description=_("duration"), ordering="duration_ms")
    def duration(self, submission):
        return staff_words.minutes(submission.duration_ms)

    @admin.display(description=_("reasons"))
    def reasons_short(self, submission):
        return format_html_join(
            mark_safe("<br>"), "{}", ((gettext(REASONS.get(code, code)),) for code in submission.flag_reasons)
        )

    # A moderator of submissions moderates the queue too; nobody adds or deletes here.
    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) or request.user.has_perm("leaderboard.view_submission")

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) or request.user.has_perm("leaderboard.change_submission")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method != "GET":  # nothing to save here: the decisions go to moderate_view
            return HttpResponseNotAllowed(["GET"])
        return super().change_view(request, object_id, form_url, extra_context)

    def get_urls(self):
        moderate = path(
            "<path:object_id>/moderate/",
            self.admin_site.admin_view(self.moderate_view),
            name=f"{self.opts.app_label}_{self.opts.model_name}_moderate",
        )
        return [moderate, *super().get_urls()]

    def moderate_view(self, request, object_id):
        """The change page's buttons: POST ``decision`` = ``clear`` or ``hide`` (admin_view
        checks CSRF and that the user is staff)."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_change_permission(request):
            raise PermissionDenied
        submission = self.get_object(request, unquote(object_id))
        if submission is None:
            raise Http404(gettext("This result is no longer in the queue."))
        decision = request.POST.get("decision")
        if decision == "clear":
            moderation.submission_set_flagged(submission, False)
            message = gettext("Flag cleared: the game of %(player)s on %(deal)s is on the boards.")
        elif decision == "hide":
            moderation.submission_set_hidden(submission, True)
            message = gettext("The game of %(player)s on %(deal)s is hidden from every board.")
        else:
            return HttpResponseBadRequest(gettext("Unknown decision."))
        self.message_user(
            request, message % {"player": submission.player, "deal": submission.attempt.deal_code}, messages.SUCCESS
        )
        return HttpResponseRedirect(reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_changelist"))


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
