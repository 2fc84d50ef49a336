"""``/api/groups/...`` (included by leaderboard.api.urls)."""

from django.urls import path

from .views import groups as views

urlpatterns = [
    path("", views.GroupsView.as_view(), name="groups"),
    path("join/", views.JoinView.as_view(), name="group-join"),
    path("invites/<str:code>/", views.InvitePreviewView.as_view(), name="group-invite-preview"),
    path("<int:group_id>/", views.GroupView.as_view(), name="group"),
    path("<int:group_id>/leave/", views.LeaveView.as_view(), name="group-leave"),
    path("<int:group_id>/invite/", views.InviteView.as_view(), name="group-invite"),
    path("<int:group_id>/owner/", views.OwnerView.as_view(), name="group-owner"),
    path("<int:group_id>/members/<str:username>/", views.MemberView.as_view(), name="group-member"),
    path("<int:group_id>/boards/daily/", views.GroupDayBoardTodayView.as_view(), name="group-board-today"),
    path("<int:group_id>/boards/daily/<str:day>/", views.GroupDayBoardView.as_view(), name="group-board"),
    path("<int:group_id>/standings/", views.StandingsView.as_view(), name="group-standings"),
]
