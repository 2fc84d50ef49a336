"""Cards of the two-deck Easy Harp pack.

A card is a small int, ``suit * 13 + rank - 1``: suits in the order S, H, D, C and
ranks A (1) .. K (13). The two copies of a card are the same int: nothing in the
rules ever tells them apart.
"""

SUITS = "SHDC"
RANKS = "A23456789TJQK"
RED_SUITS = frozenset((1, 2))  # hearts, diamonds

ACE, KING = 1, 13
DECK_SIZE = 104

#: Per-card lookup tables, indexed by the card int.
RANK = tuple(c % 13 + 1 for c in range(52))
SUIT = tuple(c // 13 for c in range(52))
IS_RED = tuple(c // 13 in RED_SUITS for c in range(52))
NAME = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
_BY_NAME = {name: c for c, name in enumerate(NAME)}

#: STACKS_ON[below] is the set of cards that may be built on ``below`` in a column:
#: opposite colour, exactly one rank lower.
STACKS_ON = tuple(
    frozenset(c for c in range(52) if IS_RED[c] != IS_RED[below] and RANK[c] == RANK[below] - 1) for below in range(52)
)


def card(name: str) -> int:
    """Parse a card name such as ``"TH"`` into its int; raises ValueError."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"not a card: {name!r}") from None


def card_name(c: int) -> str:
    """The two-letter name of a card int, rank then suit: ``"QD"``."""
    return NAME[c]


def make_card(rank: int, suit: int) -> int:
    """The card int of ``rank`` (1..13) in ``suit`` (0..3: S, H, D, C)."""
    return suit * 13 + rank - 1
