from django.urls import include, path, re_path

from .errors import api_not_found
from .views import account_settings as settings_views
from .views import accounts, boards, drafts, guests, play

board_patterns = [
    path("daily/", boards.DailyBoardTodayView.as_view(), name="board-daily-today"),
    path("daily/<str:day>/", boards.DailyBoardView.as_view(), name="board-daily"),
    path("daily/<str:day>/histogram/", boards.DailyHistogramView.as_view(), name="board-daily-histogram"),
    path("deals/<str:deal>/", boards.DealBoardView.as_view(), name="board-deal"),
    path("players/", boards.PlayersBoardView.as_view(), name="board-players"),
]

urlpatterns = [
    # First: the boards, polled by every open board page (the most frequent requests).
    path("leaderboards/", include(board_patterns)),
    path("auth/signup/", accounts.SignupView.as_view(), name="signup"),
    path("auth/login/", accounts.LoginView.as_view(), name="login"),
    path("auth/logout/", accounts.LogoutView.as_view(), name="logout"),
    path("auth/me/", accounts.MeView.as_view(), name="me"),
    path("auth/guest/", guests.GuestView.as_view(), name="guest"),
    path("auth/keep/", guests.KeepView.as_view(), name="keep"),
    path("auth/email/", settings_views.EmailView.as_view(), name="email"),
    path("auth/email/confirm/", settings_views.EmailConfirmView.as_view(), name="email-confirm"),
    path("auth/delete/", settings_views.DeleteView.as_view(), name="account-delete"),
    path("auth/name/", settings_views.NameView.as_view(), name="name-change"),
    path("auth/export/", settings_views.ExportView.as_view(), name="export"),
    path("auth/password/", settings_views.PasswordChangeView.as_view(), name="password-change"),
    path("auth/password/forgot/", settings_views.PasswordForgotView.as_view(), name="password-forgot"),
    path("auth/password/reset/", settings_views.PasswordResetView.as_view(), name="password-reset"),
    path("daily/", play.DailyTodayView.as_view(), name="daily-today"),
    path("daily/<str:day>/", play.DailyView.as_view(), name="daily"),
    path("attempts/", play.AttemptsView.as_view(), name="attempts"),
    path("attempts/<uuid:attempt_id>/", play.AttemptView.as_view(), name="attempt"),
    path("attempts/<uuid:attempt_id>/submission", play.SubmissionCreateView.as_view(), name="submission-create"),
    path("attempts/<uuid:attempt_id>/draft", drafts.DraftView.as_view(), name="draft"),
    path("hints/", play.HintView.as_view(), name="hint"),
    path("submissions/<int:submission_id>/", play.SubmissionView.as_view(), name="submission"),
    path("players/<str:username>/", boards.PlayerView.as_view(), name="player"),
    path("calendar/", boards.CalendarThisMonthView.as_view(), name="calendar-this-month"),
    path("calendar/<str:month>/", boards.CalendarView.as_view(), name="calendar"),
    path("groups/", include("leaderboard.api.group_urls")),
    re_path(r"^(?P<path>.*)$", api_not_found),
]
