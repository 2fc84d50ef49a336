"""Groups of players with their own boards: a group's day board (its members' ranked daily
results, in the day's order) and its monthly standings.

``models`` (Group, Membership; imported by ``leaderboard.models``), ``services`` (writes:
create, join by invite code, leave, remove, hand on, the invite's code), ``selectors`` (reads:
groups, members, the day board, the standings), ``serializers`` and ``views`` (the API under
``/api/groups/``), ``urls``.

Who sees what: a group, its members and its boards are for its members only; to anyone else a
group does not exist (404, as an unknown one). The invite code is the owner's to show.
"""
