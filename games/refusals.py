"""Why the engine refuses something: a stable reason code per rule, and the words for it.

A refusal is data, ``Refusal(code, args)``: ``code`` is a short snake_case name of the rule
that refused (stable: the browser engine, the vectors and any translation key on it) and
``args`` the plain JSON values the words need (card names such as ``"QS"``, 1-based column
and foundation numbers, counts, the offending text). The English words live in ONE
catalogue, ``MESSAGES``, a template per code; ``render`` fills a template in. Nothing else
in the engine writes a refusal's words.

Translation: the templates are marked with ``gettext_noop`` (an identity function here, so
the engine imports no Django) and ``makemessages`` extracts them under that name. The Django
side translates by passing its gettext: ``render(refusal, gettext)``, or the ``render`` of an
exception's ``.refusal``. The browser holds the same catalogue in
``frontend/static/frontend/messages.js``; the vectors carry this one and its test checks
that both hold the same codes and the same templates.

Template fields are ``{name}``, ``{name!r}`` (Python's repr of a text a player typed) and
``{name:,}`` (thousands separators); the field ``{suit}`` takes a suit letter and is written
as the suit's name from ``SUIT_NAMES``. No other format syntax is used, so the browser's
renderer stays small.
"""

from collections.abc import Callable, Mapping
from typing import NamedTuple


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it (Django's gettext_noop)."""
    return message


#: The English template of every reason code, grouped by what is refused.
MESSAGES: dict[str, str] = {
    # The rules of play (rules sections 5 and 6): Game.refusal_code.
    "game_won": gettext_noop("The game is won: nothing may follow the winning action."),
    "stock_empty": gettext_noop("The stock and the waste are both empty: there is nothing to turn."),
    "nothing_to_undo": gettext_noop("Nothing to undo."),
    "undo_limit": gettext_noop("Nothing left to undo: undo goes back at most {limit} actions."),
    "waste_empty": gettext_noop("The waste is empty."),
    "foundation_empty": gettext_noop("Foundation {foundation} is empty."),
    "column_empty": gettext_noop("Column {column} is empty."),
    "foundation_refuses": gettext_noop(
        "No foundation takes {card}: the {suit} foundations ({first} and {second}) take only "
        "the next card of their suit, Ace first."
    ),
    "column_refuses": gettext_noop(
        "{card} cannot go on {target}: a column takes a card of the opposite colour, exactly one rank lower."
    ),
    "empty_column_king_only": gettext_noop("An empty column takes only a King, not {card}."),
    "run_needs_empty_column": gettext_noop(
        "A run cannot move as a whole: only the top card moves, except a King-led run onto an empty column."
    ),
    "run_too_few_face_up": gettext_noop("Column {column} has fewer than {count} face-up cards."),
    "run_not_king_led": gettext_noop("Only a King-led run moves as a whole: {card} is not a King."),
    "not_a_run": gettext_noop(
        "The top {count} cards of column {column} are not a run: {card} does not follow "
        "{below} in alternating colour, one rank lower."
    ),
    # The notation of an action (rules section 7): actions.malformed_refusal.
    "action_not_string": gettext_noop("an action must be a string, not {type}"),
    "action_self_move": gettext_noop("malformed action {action!r}: a card cannot move onto its own column"),
    "action_bad_run": gettext_noop(
        "malformed action {action!r}: a run is 1 to 13 cards, written without leading zeros"
    ),
    "action_malformed": gettext_noop(
        "malformed action {action!r}: expected s, u, w>f, w>N, N>f, N>M, N>M:K or fK>N "
        "(columns 1-9, foundations 1-8, no spaces)"
    ),
    # A move log that is not a list at all (rules section 8): replay.
    "actions_not_list": gettext_noop("actions must be a list of action strings"),
    # Deal codes and numbers (rules sections 3 and 4): deal.parse_code, format_code, deal.
    "deal_code_not_string": gettext_noop("a deal code must be a string such as EH1-N-AAAAAAF"),
    "deal_code_shape": gettext_noop("{deal!r} is not a deal code: expected EH1-<mode>-<7 letters>, e.g. EH1-N-AAAAAAF"),
    "deal_code_version": gettext_noop("{deal!r}: unknown rules version {version!r}, only EH1 is played here"),
    "deal_code_mode": gettext_noop("{deal!r}: unknown mode {mode!r}, use N (numbered deal) or D (deal of the day)"),
    "deal_code_letters": gettext_noop("{deal!r}: the deal part must be exactly 7 upper-case letters A-Z"),
    "deal_code_range": gettext_noop("{deal!r} names deal {number:,}, outside 1..999,999"),
    "deal_mode_unknown": gettext_noop("unknown mode {mode!r}: use N (numbered deal) or D (deal of the day)"),
    "deal_number_range": gettext_noop("deal number {number!r} is outside 1..999,999"),
}

#: The name of each suit letter, for the ``{suit}`` field.
SUIT_NAMES: dict[str, str] = {
    "S": gettext_noop("spades"),
    "H": gettext_noop("hearts"),
    "D": gettext_noop("diamonds"),
    "C": gettext_noop("clubs"),
}


def _untranslated(message: str) -> str:
    return message


class Refusal(NamedTuple):
    """A rule's verdict: its reason ``code`` (a key of MESSAGES) and the template's ``args``."""

    code: str
    args: Mapping[str, object]

    def __str__(self) -> str:
        return render(self)


def refuse(code: str, **args: object) -> Refusal:
    """``Refusal(code, args)``: the one way the engine states a refusal."""
    return Refusal(code, args)


def render(refusal: Refusal, gettext: Callable[[str], str] = _untranslated) -> str:
    """The words of ``refusal``: its template filled in, in English unless ``gettext`` is
    given (Django's ``gettext`` translates template and suit name alike)."""
    args = refusal.args
    if "suit" in args:
        args = {**args, "suit": gettext(SUIT_NAMES[str(args["suit"])])}
    return gettext(MESSAGES[refusal.code]).format(**args)


class Refused(ValueError):
    """An error whose message is a rendered Refusal. ``.refusal`` keeps the reason (and
    ``.code`` names it) for whoever wants the code or other words; the exception's own
    ``args`` stay Python's, the message alone."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(render(refusal))
        self.refusal = refusal

    @property
    def code(self) -> str:
        return self.refusal.code

    def __reduce__(self) -> tuple[type["Refused"], tuple[Refusal]]:
        return type(self), (self.refusal,)
