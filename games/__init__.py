"""Easy Harp, rules version EH1: a pure-Python engine (no framework imports).

Public API::

    deal(number) -> Layout                      # section 3
    parse_code(text) -> DealCode / format_code(number, mode)   # section 4
    parse_action("w>3") -> Action(kind, source, target, cards); str(action) == "w>3"  # section 7
    Game.new(number); game.play(parse_action("w>3")); game.refusal(action)
    game.refusal_code(action) -> Refusal(code, args) | None; render(refusal, gettext)
    game.legal_actions(); game.tap_destination("w", double=True)
    replay(code, actions) -> ReplayResult       # sections 7 and 8
"""

from .actions import ACTIONS, Action, MalformedAction, format_action, malformed_refusal, parse_action
from .cards import card, card_name
from .deal import DealCode, InvalidCode, Layout, deal, format_code, parse_code
from .game import HISTORY_LIMIT, Game, IllegalAction
from .refusals import MESSAGES, Refusal, Refused, render
from .replay import ReplayResult, replay, replay_onto

__all__ = [
    "ACTIONS",
    "Action",
    "DealCode",
    "Game",
    "HISTORY_LIMIT",
    "IllegalAction",
    "InvalidCode",
    "Layout",
    "MESSAGES",
    "MalformedAction",
    "Refusal",
    "Refused",
    "ReplayResult",
    "card",
    "card_name",
    "deal",
    "format_action",
    "format_code",
    "malformed_refusal",
    "parse_action",
    "parse_code",
    "render",
    "replay",
    "replay_onto",
]
