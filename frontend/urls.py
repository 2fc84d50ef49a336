from django.urls import path, re_path

from . import views

app_name = "frontend"

urlpatterns = [
    path("", views.play_daily, name="play-daily"),
    # The game page's shell, ahead of the codes (a code is upper case): see frontend/offline.py.
    path("play/offline/", views.play_offline, name="play-offline"),
    path("play/<str:code>/", views.play_code, name="play-code"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("boards/", views.boards, name="boards"),
    path("rules/", views.rules, name="rules"),
    path("calendar/", views.calendar, name="calendar"),
    re_path(r"^calendar/(?P<month>[0-9]{4}-[0-9]{2})/$", views.calendar, name="calendar-month"),
    path("players/<str:username>/", views.player, name="player"),
    path("groups/", views.groups, name="groups"),
    path("groups/<int:group_id>/", views.group, name="group"),
    path("groups/join/<str:code>/", views.group_join, name="group-join"),
    path("replay/<int:submission_id>/", views.replay, name="replay"),
    path("login/", views.login_page, name="login"),
    path("signup/", views.signup_page, name="signup"),
    path("account/", views.account, name="account"),
    path("account/email/<str:token>/", views.email_confirm, name="email-confirm"),
    path("password/forgot/", views.password_forgot, name="password-forgot"),
    path("password/reset/<str:uid>/<str:token>/", views.password_reset, name="password-reset"),
    path("privacy/", views.privacy, name="privacy"),
]
