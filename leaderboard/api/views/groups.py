"""Thin API views of groups (``/api/groups/...``): parse, call a service or selector, answer.

Every view needs a signed-in player (401 otherwise). A group the caller is not in answers 404,
exactly as one that does not exist; a member asking for an owner's action is refused (403).
"""

from datetime import date

from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ...boards.order import daily_board
from ...core import days
from ...core.errors import Invalid, NotFound
from ...groups import selectors, services
from ..group_serializers import (
    GroupBoardOut,
    GroupIn,
    GroupOut,
    GroupsOut,
    HandOnIn,
    InviteOut,
    InvitePreviewOut,
    JoinedOut,
    JoinIn,
    LeftOut,
    StandingsOut,
)
from ..params import board_day, date_param, int_param, valid_body
from .common import ERRORS, NOT_MODIFIED, PAGE_PARAMS, LiveView

PLAYER_PARAM = OpenApiParameter(
    "player", str, description="Another player's groups that the caller shares (all of them for the caller's own name)"
)
MONTH_PARAM = OpenApiParameter("month", str, description="YYYY-MM; this month by default")


class _GroupView(APIView):
    permission_classes = [IsAuthenticated]


def _detail(group, viewer) -> dict:
    return {**selectors.group_detail(group, viewer), "max_members": services.MAX_MEMBERS}


class GroupsView(_GroupView):
    @extend_schema(parameters=[PLAYER_PARAM], responses={200: GroupsOut, **ERRORS}, operation_id="groups_list")
    def get(self, request):
        """The caller's groups, or with ``player`` the groups the caller shares with them."""
        player = request.query_params.get("player")
        found = selectors.groups_shared(request.user, player) if player else selectors.groups_of(request.user)
        return Response(GroupsOut({"max_groups": services.MAX_GROUPS, "results": found}).data)

    @extend_schema(request=GroupIn, responses={201: GroupOut, **ERRORS})
    def post(self, request):
        """Create a group owned by the caller, with an invite link."""
        group = services.group_create(owner=request.user, **valid_body(GroupIn, request))
        return Response(GroupOut(_detail(group, request.user)).data, status=status.HTTP_201_CREATED)


class GroupView(_GroupView):
    @extend_schema(responses={200: GroupOut, **ERRORS})
    def get(self, request, group_id: int):
        """A group, its members and (for the owner) its invite."""
        return Response(GroupOut(_detail(selectors.group_for(request.user, group_id), request.user)).data)

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, group_id: int):
        """The owner deletes the group."""
        services.group_delete(owner=request.user, group_id=group_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class JoinView(_GroupView):
    @extend_schema(request=JoinIn, responses={200: JoinedOut, 201: JoinedOut, **ERRORS})
    def post(self, request):
        """Join the group of an invite code (201; 200 when a member already)."""
        group, joined = services.group_join(player=request.user, **valid_body(JoinIn, request))
        answer = {**_detail(group, request.user), "joined": joined}
        return Response(JoinedOut(answer).data, status=status.HTTP_201_CREATED if joined else status.HTTP_200_OK)


class InvitePreviewView(_GroupView):
    @extend_schema(responses={200: InvitePreviewOut, **ERRORS})
    def get(self, request, code: str):
        """What an invite link leads to: the group's name, owner and size."""
        return Response(InvitePreviewOut(selectors.invite_preview(code, request.user)).data)


class InviteView(_GroupView):
    @extend_schema(request=None, responses={200: InviteOut, **ERRORS})
    def post(self, request, group_id: int):
        """The owner makes a new invite code; the old link stops working."""
        code = services.invite_rotate(owner=request.user, group_id=group_id)
        return Response(InviteOut({"code": code, "url": f"/groups/join/{code}/"}).data)

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, group_id: int):
        """The owner revokes the invite: nobody joins until a new code is made."""
        services.invite_revoke(owner=request.user, group_id=group_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeaveView(_GroupView):
    @extend_schema(request=None, responses={200: LeftOut, **ERRORS})
    def post(self, request, group_id: int):
        """Leave the group (an owner with other members hands it on first: 409)."""
        deleted = services.group_leave(player=request.user, group_id=group_id)
        return Response(LeftOut({"deleted": deleted}).data)


class MemberView(_GroupView):
    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, group_id: int, username: str):
        """The owner removes a member."""
        services.member_remove(owner=request.user, group_id=group_id, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class OwnerView(_GroupView):
    @extend_schema(request=HandOnIn, responses={200: GroupOut, **ERRORS})
    def post(self, request, group_id: int):
        """The owner hands ownership on to another member."""
        data = valid_body(HandOnIn, request)
        group = services.owner_hand_on(owner=request.user, group_id=group_id, username=data["player"])
        return Response(GroupOut(_detail(group, request.user)).data)


class GroupDayBoardView(LiveView, _GroupView):
    def live_board(self, request, group_id: int, day: str | None = None):
        when = board_day(day)
        return None if when is None else (daily_board(when), group_id)

    @extend_schema(parameters=PAGE_PARAMS, responses={200: GroupBoardOut, **ERRORS, **NOT_MODIFIED})
    def get(self, request, group_id: int, day: str | None = None):
        """The members' ranked results of a day, in the day board's order, with their ranks on
        the day's board; ``around=me`` as on the day's board."""
        members = selectors.members_for(request.user, group_id)
        today = days.today()
        when = date_param(day) if day else today
        if when > today:
            raise NotFound(gettext("The board of %(day)s does not exist yet.") % {"day": when.isoformat()})
        size = int_param(request, "page_size", settings.BOARD_PAGE_SIZE, 1, settings.BOARD_MAX_PAGE_SIZE)
        around = request.query_params.get("around")
        if around is not None and around != "me":
            raise Invalid(gettext("around takes only the value 'me'."), code="invalid_parameter")
        if around:
            return self.live_answer(
                selectors.group_board_around(group_id, members, when, request.user, radius=size // 2)
            )
        page = int_param(request, "page", 1, 1, 1_000_000)
        return self.live_answer(selectors.group_board_page(group_id, members, when, page, size))


class GroupDayBoardTodayView(GroupDayBoardView):
    @extend_schema(
        parameters=PAGE_PARAMS,
        responses={200: GroupBoardOut, **ERRORS, **NOT_MODIFIED},
        operation_id="group_board_today",
    )
    def get(self, request, group_id: int, day: str | None = None):
        return super().get(request, group_id)  # today's: its URL names no day


class StandingsView(_GroupView):
    @extend_schema(parameters=[MONTH_PARAM], responses={200: StandingsOut, **ERRORS})
    def get(self, request, group_id: int):
        """The members' standings for a month: points by place, first places, games won, days
        played, average place."""
        group = selectors.group_for(request.user, group_id)
        month = _month(request.query_params.get("month"))
        return Response(StandingsOut(selectors.group_standings(group, month)).data)


def _month(text: str | None) -> date:
    if text is None:
        return days.today().replace(day=1)
    try:
        return date.fromisoformat(f"{text}-01") if len(text) == 7 else _bad_month()
    except ValueError:
        return _bad_month()


def _bad_month():
    raise Invalid(gettext("month must be a month as YYYY-MM."), code="invalid_parameter")
