from django.urls import include, path, re_path

from .errors import api_not_found
from .views import common as views

urlpatterns = [
    path("auth/signup/", views.SignupView.as_view(), name="signup"),
    path("auth/login/", views.LoginView.as_view(), name="login"),
    path("auth/logout/", views.LogoutView.as_view(), name="logout"),
    path("auth/me/", views.MeView.as_view(), name="me"),
    path("daily/", views.DailyTodayView.as_view(), name="daily-today"),
    path("daily/<str:day>/", views.DailyView.as_view(), name="daily"),
    path("attempts/", views.AttemptsView.as_view(), name="attempts"),
    path("attempts/<uuid:attempt_id>/", views.AttemptView.as_view(), name="attempt"),
    path("attempts/<uuid:attempt_id>/submission", views.SubmissionCreateView.as_view(), name="submission-create"),
    path("hints/", views.HintView.as_view(), name="hint"),
    path("submissions/<int:submission_id>/", views.SubmissionView.as_view(), name="submission"),
    path("leaderboards/daily/", views.DailyBoardTodayView.as_view(), name="board-daily-today"),
    path("leaderboards/daily/<str:day>/", views.DailyBoardView.as_view(), name="board-daily"),
    path("leaderboards/daily/<str:day>/histogram/", views.DailyHistogramView.as_view(), name="board-daily-histogram"),
    path("leaderboards/deals/<str:deal>/", views.DealBoardView.as_view(), name="board-deal"),
    path("leaderboards/players/", views.PlayersBoardView.as_view(), name="board-players"),
    path("players/<str:username>/", views.PlayerView.as_view(), name="player"),
    path("calendar/", views.CalendarThisMonthView.as_view(), name="calendar-this-month"),
    path("calendar/<str:month>/", views.CalendarView.as_view(), name="calendar"),
    path("groups/", include("leaderboard.api.group_urls")),
    re_path(r"^(?P<path>.*)$", api_not_found),
]
