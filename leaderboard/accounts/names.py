"""Names that cannot pose as another: a name is stored NFKC-normalised, and refused when its
confusable skeleton is another account's or when it mixes scripts (Unicode TR39).

confusable_homoglyphs ships TR39's confusables (``confusables.txt``) and each character's
script, but no skeleton, and its data lists each confusable pair both ways. The direction is
recovered here: in TR39 a source character maps to one prototype and a prototype is never a
source, so a character listed with one partner is that partner's source, and a character
listed with many is their prototype. A pair that lists only each other (a prototype with one
source) is one class either way: the ASCII one, else the lower code point, stands for both.
"""

import functools
import unicodedata

from confusable_homoglyphs import categories, utils

# Scripts a name may mix: none but these, as TR39's "highly restrictive" level allows
# (Japanese, Chinese with Bopomofo, Korean). Common (digits, "_", ".") and Inherited
# (combining marks) go with any script.
_ANY_SCRIPT = {"COMMON", "INHERITED"}
_MIXES = [{"HAN", "HIRAGANA", "KATAKANA"}, {"HAN", "BOPOMOFO"}, {"HAN", "HANGUL"}]
_MARKS = str.maketrans("", "", "\u200e\u200f")  # the data wraps right-to-left characters in these


def normalized(name: str) -> str:
    """What is stored: NFKC (a full-width or mathematical "ｆ" or "𝐩" is a plain "f", "p")."""
    return unicodedata.normalize("NFKC", name)


def skeleton(text: str) -> str:
    """TR39's skeleton: NFD, each character to its prototype, NFD again. Equal skeletons look
    alike."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """The skeleton names are compared by, case aside: the skeleton of the case-folded
    skeleton, so "Аlice" (a Cyrillic "А") and "aIice" (a capital "I") are both "alice"."""
    return skeleton(skeleton(normalized(name)).casefold())


def mixes_scripts(name: str) -> bool:
    scripts = categories.unique_aliases(name) - _ANY_SCRIPT
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in _MIXES)


@functools.cache
def _prototypes() -> dict[str, str]:
    data = utils.load("confusables.json")
    partners = {char.translate(_MARKS): [e["c"].translate(_MARKS) for e in listed] for char, listed in data.items()}
    prototypes = {}
    for char, listed in partners.items():
        if len(listed) != 1 or len(char) != 1:
            continue  # a prototype (of many, or of several characters): maps to itself
        partner = listed[0]
        if partners.get(partner) == [char] and len(partner) == 1 and _stands_for_both(partner, char):
            continue  # one class of two, and this is the one that stands for it
        prototypes[char] = partner
    # A prototype is written in characters that map to themselves: where one of a pair was
    # chosen above, map it inside longer prototypes too, so the skeleton stays one pass.
    return {char: "".join(prototypes.get(c, c) for c in target) for char, target in prototypes.items()}


def _stands_for_both(char: str, other: str) -> bool:
    return (not char.isascii(), ord(char)) < (not other.isascii(), ord(other))
