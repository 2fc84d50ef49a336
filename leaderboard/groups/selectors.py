"""Reads of groups: a player's groups, a group's members and invite, its board of a day (the
boards' read of the members' entries: ``boards.reads.players_ranked``) and its monthly standings.

Only members see a group: ``group_for`` answers anyone else as if it did not exist.
"""

from calendar import monthrange
from datetime import date

from django.contrib.auth import get_user_model
from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext

from ..boards.order import daily_board
from ..boards.selectors import pages as board_reads
from ..core import sql
from ..core.errors import NotFound
from ..core.rendering import json_bytes
from ..record.models import BoardEntry
from .models import Group, Membership

User = get_user_model()

#: A day's points by place in the group (1st, 2nd, ...); every other place earns PLAYED_POINTS.
PLACE_POINTS = (10, 8, 6, 5, 4, 3, 2, 1)
PLAYED_POINTS = 1


def not_found() -> NotFound:
    """The one answer for a group that does not exist and for one the caller is not in."""
    return NotFound(gettext("No such group."), code="group_not_found")


def group_for(viewer, group_id: int) -> Group:
    """The group when ``viewer`` is a member; ``not_found`` for anyone else."""
    group = Group.objects.filter(pk=group_id, memberships__player=viewer).select_related("owner").first()
    if group is None:
        raise not_found()
    return group


# A group's members by the unique (group, player) index: plain SQL, as the hot reads are (``sql``).
_MEMBERS = f'SELECT "player_id" FROM "{Membership._meta.db_table}" WHERE "group_id" = %s'


def members_for(viewer, group_id: int) -> list[int]:
    """The ids of the group's members when ``viewer`` is one (one index-only read: a group's
    board needs no more); ``not_found`` for anyone else."""
    members = [player for (player,) in sql.run(_MEMBERS, [group_id])]
    if viewer.pk not in members:
        raise not_found()
    return members


def groups_of(player) -> list[dict]:
    """The player's groups, oldest membership first."""
    return _listed(player, Membership.objects.filter(player=player))


def groups_shared(viewer, username: str) -> list[dict]:
    """The groups of the player named ``username`` that ``viewer`` may see: all of them for
    themselves, else the groups they are both in (a stranger's groups are theirs to tell)."""
    if username == viewer.username:
        return groups_of(viewer)
    theirs = Membership.objects.filter(player__username=username, player__is_active=True)
    return _listed(viewer, Membership.objects.filter(player=viewer, group__in=theirs.values("group")))


def _listed(viewer, memberships) -> list[dict]:
    groups = (
        Group.objects.filter(pk__in=memberships.values("group"))
        .annotate(member_count=Count("memberships"))
        .select_related("owner")
    )
    joined = dict(Membership.objects.filter(player=viewer, group__in=groups).values_list("group_id", "joined_at"))
    rows = [
        {
            "id": g.pk,
            "name": g.name,
            "owner": g.owner.username,
            "members": g.member_count,
            "is_owner": g.owner_id == viewer.pk,
            "joined_at": joined.get(g.pk),
        }
        for g in groups
    ]
    return sorted(rows, key=lambda row: (row["joined_at"] is None, row["joined_at"], row["id"]))


def group_detail(group: Group, viewer) -> dict:
    """The group as a member sees it: its members (the owner marked) and, for the owner, the
    invite's code and link."""
    members = Membership.objects.filter(group=group).select_related("player").order_by("joined_at", "pk")
    is_owner = group.owner_id == viewer.pk
    return {
        "id": group.pk,
        "name": group.name,
        "owner": group.owner.username,
        "created_at": group.created_at,
        "is_owner": is_owner,
        "members": [
            {"player": m.player.username, "joined_at": m.joined_at, "owner": m.player_id == group.owner_id}
            for m in members
        ],
        "invite": invite_of(group) if is_owner else None,
    }


def invite_of(group: Group) -> dict | None:
    if not group.invite_code:
        return None
    return {"code": group.invite_code, "url": f"/groups/join/{group.invite_code}/"}


def invite_preview(code: str, viewer) -> dict:
    """What the invite link shows before joining: the group's name, owner and size (whoever
    holds the link may join anyway), never its members. The group's id only for members."""
    group = (
        Group.objects.filter(invite_code=code)
        .select_related("owner")
        .annotate(member_count=Count("memberships"))
        .first()
        if code
        else None
    )
    if group is None:
        raise NotFound(
            gettext("This invite link is not valid: it may have been revoked or replaced."), code="invalid_invite"
        )
    member = Membership.objects.filter(group=group, player=viewer).exists()
    return {
        "name": group.name,
        "owner": group.owner.username,
        "members": group.member_count,
        "member": member,
        "id": group.pk if member else None,
    }


# -- standings ------------------------------------------------------------------------------


def place_points(place: int) -> int:
    """A day's points for a place in the group (1-based)."""
    return PLACE_POINTS[place - 1] if place <= len(PLACE_POINTS) else PLAYED_POINTS


def group_standings(group: Group, month: date) -> dict:
    """The members' month: points, first places, games won, days played and average place
    within the group, from their ranked daily results in PostgreSQL (each day's places
    among the present members, in the day board's order). Ordered by points, then first
    places, then average place (lower first), then name."""
    days_in_month = monthrange(month.year, month.month)[1]
    boards = [daily_board(month.replace(day=d)) for d in range(1, days_in_month + 1)]
    members = dict(Membership.objects.filter(group=group).values_list("player_id", "player__username"))
    entries = (
        BoardEntry.objects.filter(board__in=boards, player_id__in=list(members))
        .annotate(
            place=Window(
                RowNumber(), partition_by=[F("board")], order_by=[F("rank_key"), F("submitted_at"), F("submission_id")]
            )
        )
        .values_list("player_id", "board", "place", "submission__won")
    )
    totals = {pid: {"points": 0, "firsts": 0, "won": 0, "days_played": 0, "places": 0} for pid in members}
    played_days = set()
    for player_id, board, place, won in entries:
        total = totals[player_id]
        total["points"] += place_points(place)
        total["firsts"] += place == 1
        total["won"] += bool(won)
        total["days_played"] += 1
        total["places"] += place
        played_days.add(board)
    rows = []
    for player_id, total in totals.items():
        played = total.pop("days_played")
        places = total.pop("places")
        rows.append(
            {
                "player": members[player_id],
                **total,
                "days_played": played,
                "average_place": round(places / played, 2) if played else None,
            }
        )
    rows.sort(
        key=lambda r: (
            -r["points"],
            -r["firsts"],
            r["average_place"] if r["average_place"] is not None else float("inf"),
            r["player"],
        )
    )
    return {
        "group": group.pk,
        "month": month.strftime("%Y-%m"),
        "days": len(played_days),
        "place_points": list(PLACE_POINTS),
        "played_points": PLAYED_POINTS,
        "results": [{"rank": i + 1, **row} for i, row in enumerate(rows)],
    }


# -- the group's day board ------------------------------------------------------------------


def group_board_page(group_id: int, members: list[int], day: date, page: int, page_size: int) -> bytes:
    """One page of the board of ``day`` of the group of ``members`` (ids), as the API's JSON:
    ranks within the group, and each row's ``day_rank`` on the day's board."""
    board = daily_board(day)
    ranked = board_reads.players_ranked(board, members)
    offset = (page - 1) * page_size
    head = {
        "board": board,
        "group": group_id,
        "members": len(members),
        "count": len(ranked),
        "page": page,
        "page_size": page_size,
    }
    return _board_json(head, offset, ranked[offset : offset + page_size])


def group_board_around(group_id: int, members: list[int], day: date, viewer, radius: int) -> bytes:
    """The caller's rank in the group on ``day`` and the rows ``radius`` above and below it,
    as the day board's ``around=me`` answers (no rows when the caller has no result)."""
    board = daily_board(day)
    ranked = board_reads.players_ranked(board, members)
    mine = next((i for i, (player_id, _, _) in enumerate(ranked) if player_id == viewer.pk), None)
    offset = max(mine - radius, 0) if mine is not None else 0
    rows = ranked[offset : offset + 2 * radius + 1] if mine is not None else []
    head = {
        "board": board,
        "group": group_id,
        "members": len(members),
        "count": len(ranked),
        "me": None if mine is None else mine + 1,
    }
    return _board_json(head, offset, rows)


def _board_json(head: dict, offset: int, rows) -> bytes:
    """``head`` and its ``"results"``: each stored row (rank aside, ``boards.rows``) after its
    rank in the group and its rank on the day (both 1-based)."""
    start = json_bytes({**head, "results": []})  # ends with '[]}'
    ranked = [
        b'{"rank":%d,"day_rank":%d,%s' % (offset + i + 1, day_rank + 1, row)
        for i, (_, day_rank, row) in enumerate(rows)
    ]
    return start[:-2] + b",".join(ranked) + b"]}"
