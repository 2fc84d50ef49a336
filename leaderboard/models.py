"""The app's models, for Django and for callers outside the app. Each lives with its job:
the record of play (``record.models``), the frozen boards (``boards.models``), the groups
(``groups.models``), the sessions and the mail to send (``accounts.models``). Code inside the app imports them from
there, never from here."""

from .accounts.models import OutgoingMail, UserSession
from .boards.models import FrozenBoard
from .groups.models import Group, Membership
from .play.models import AttemptDraft
from .record.models import ArchivedMonth, ArchiveErasure, Attempt, BoardEntry, DailyDeal, FlaggedSubmission, Submission
from .record.players import DayHints, PlayerStats

__all__ = [
    "ArchiveErasure",
    "ArchivedMonth",
    "Attempt",
    "AttemptDraft",
    "BoardEntry",
    "DailyDeal",
    "DayHints",
    "FlaggedSubmission",
    "FrozenBoard",
    "Group",
    "Membership",
    "OutgoingMail",
    "PlayerStats",
    "Submission",
    "UserSession",
]
