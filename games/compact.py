"""Compact move logs and action times: about one byte per action (docs/compact-logs.md).

A stored log is a version byte, then each action as an unsigned LEB128 varint of its code in
``CODES``, a table fixed by this module's formulas (never by dict order). The single-card
actions come first so that each takes one byte; runs and take-backs come after (two bytes,
except the first 35 runs):

==========  ==============  ===================================================
codes       actions         code
==========  ==============  ===================================================
0, 1, 2     ``s u w>f``     as listed
3..11       ``w>N``         2 + N
12..20      ``N>f``         11 + N
21..92      ``N>M``         21 + 8 (N - 1) + (M - 1 if M < N else M - 2)
93..1028    ``N>M:K``       93 + 13 pair + (K - 1), pair = the ``N>M`` code - 21
1029..1100  ``fK>N``        1029 + 9 (K - 1) + (N - 1)
==========  ==============  ===================================================

Times (ms since the attempt started, never decreasing) are a version byte, then the first
time and each later time's difference from the one before, as unsigned LEB128 varints.

Public API::

    encode_log(actions) -> bytes / decode_log(data) -> list[str]
    encode_times(times) -> bytes / decode_times(data) -> list[int]
    CODES: tuple[str, ...]  (code -> action text); CompactError on anything else
"""

import itertools
import operator
import re

LOG_VERSION = 1
TIMES_VERSION = 1

#: A varint is at most this many bytes: values below 2**63 (a PostgreSQL bigint).
MAX_VARINT_BYTES = 9
MAX_VALUE = (1 << 63) - 1


class CompactError(ValueError):
    """Data that is not a compact log or times, or a log or times that cannot be encoded."""


def _code_table() -> tuple[str, ...]:
    """The code of each action text is its index here: the order of the module's table."""
    pairs = [(n, m) for n in range(1, 10) for m in range(1, 10) if m != n]
    return (
        "s",
        "u",
        "w>f",
        *(f"w>{n}" for n in range(1, 10)),
        *(f"{n}>f" for n in range(1, 10)),
        *(f"{n}>{m}" for n, m in pairs),
        *(f"{n}>{m}:{k}" for n, m in pairs for k in range(1, 14)),
        *(f"f{k}>{n}" for k in range(1, 9) for n in range(1, 10)),
    )


#: code -> action text (1101 codes: every action of games.ACTIONS, each text once).
CODES: tuple[str, ...] = _code_table()


def _varint(value: int) -> bytes:
    """``value`` (0 <= value <= MAX_VALUE) as unsigned LEB128: 7 bits a byte, low bits first,
    the high bit set on every byte but the last."""
    out = bytearray()
    while value > 0x7F:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    out.append(value)
    return bytes(out)


#: action text -> its varint bytes.
_ENCODED: dict[str, bytes] = {text: _varint(code) for code, text in enumerate(CODES)}
_LOG_HEADER = bytes([LOG_VERSION])
_TIMES_HEADER = bytes([TIMES_VERSION])
#: varint bytes -> action text.
_TEXT_OF: dict[bytes, str] = {encoded: text for text, encoded in _ENCODED.items()}
_HIGH_BYTES = bytes(range(0x80, 0x100))
#: A varint of two bytes or more: bytes with the high bit set, then one without.
_LONG_VARINT = re.compile(rb"[\x80-\xff]+[\x00-\x7f]")
_TOO_LONG = re.compile(rb"[\x80-\xff]{%d}" % MAX_VARINT_BYTES)
_NEEDLESS_ZERO = re.compile(rb"[\x80-\xff]\x00")


# -- logs ---------------------------------------------------------------------------------


def encode_log(actions: object) -> bytes:
    """The compact form of a list of action texts; CompactError names the first that has no code."""
    if not isinstance(actions, (list, tuple)):
        raise CompactError(f"a log is a list of action texts, not {type(actions).__name__}")
    try:
        return _LOG_HEADER + b"".join([_ENCODED[text] for text in actions])
    except (KeyError, TypeError):  # TypeError: an unhashable element
        pass
    index, text = next((i, t) for i, t in enumerate(actions) if not isinstance(t, str) or t not in _ENCODED)
    raise CompactError(f"action {index} has no code: {text!r} is not an action of the notation")


def decode_log(data: object) -> list[str]:
    """The action texts of a compact log (bytes, bytearray or memoryview)."""
    body = _body(data, LOG_VERSION, "log")
    if body.isascii():  # every code below 128, one byte each: the usual log
        return list(map(CODES.__getitem__, body))
    if not body[-1] & 0x80:  # else truncated: _varints says so
        try:  # the one-byte stretches as above, between the few longer codes (runs, take-backs)
            actions: list[str] = []
            position = 0
            for found in _LONG_VARINT.finditer(body):
                actions += map(CODES.__getitem__, body[position : found.start()])
                actions.append(_TEXT_OF[found.group()])
                position = found.end()
            actions += map(CODES.__getitem__, body[position:])
            return actions
        except KeyError:  # an unknown code, or a varint not as encode_log writes it: say which
            pass
    codes = _varints(body)
    if max(codes) >= len(CODES):
        index = next(i for i, code in enumerate(codes) if code >= len(CODES))
        raise CompactError(
            f"unknown action code {codes[index]} (action {index}, byte "
            f"{_offset_of(body, index)}): codes end at {len(CODES) - 1}"
        )
    return list(map(CODES.__getitem__, codes))


# -- times --------------------------------------------------------------------------------


def encode_times(times: object) -> bytes:
    """The compact form of a list of non-decreasing whole milliseconds, from 0 up; CompactError
    names the first time that cannot be written (not an int, negative, earlier than the one
    before it, or beyond MAX_VALUE)."""
    if not isinstance(times, (list, tuple)):
        raise CompactError(f"times are a list of whole milliseconds, not {type(times).__name__}")
    if not set(map(type, times)) <= {int}:  # exactly int: a bool is refused, as at intake
        index = next(i for i, time in enumerate(times) if type(time) is not int)
        raise CompactError(f"time {index} is not a whole number of milliseconds: {times[index]!r}")
    deltas = list(map(operator.sub, times, [0, *times]))
    if deltas and min(deltas) < 0:
        index = next(i for i, delta in enumerate(deltas) if delta < 0)
        problem = f"is earlier than the one before ({times[index - 1]})" if index else "is negative"
        raise CompactError(f"time {index} ({times[index]}) {problem}: a difference below 0 cannot be written")
    if times and times[-1] > MAX_VALUE:  # non-decreasing: the last is the largest
        raise CompactError(f"time {len(times) - 1} ({times[-1]}) is beyond {MAX_VALUE}")
    out = bytearray(_TIMES_HEADER)
    for delta in deltas:
        while delta > 0x7F:
            out.append(0x80 | (delta & 0x7F))
            delta >>= 7
        out.append(delta)
    return bytes(out)


def decode_times(data: object) -> list[int]:
    """The times of compact times data: the running sum of its varints."""
    times = list(itertools.accumulate(_varints(_body(data, TIMES_VERSION, "times"))))
    if times and times[-1] > MAX_VALUE:
        index = next(i for i, time in enumerate(times) if time > MAX_VALUE)
        raise CompactError(f"time {index} is beyond {MAX_VALUE}")
    return times


# -- the parts ----------------------------------------------------------------------------


def _body(data: object, version: int, what: str) -> bytes:
    """``data`` without its version byte, which must be ``version``."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise CompactError(f"compact {what} are bytes, not {type(data).__name__}")
    whole = bytes(data)
    if not whole:
        raise CompactError(f"compact {what}: empty, not even a version byte")
    if whole[0] != version:
        raise CompactError(f"compact {what}: version {whole[0]}, but this decoder reads version {version}")
    return whole[1:]


def _varints(body: bytes) -> list[int]:
    """The values of the varints of ``body``. Refuses, naming the byte (0 is the version
    byte): data that ends inside a varint, a varint longer than MAX_VARINT_BYTES, and one
    whose last byte is a needless zero (each value has one encoding: equal logs, equal bytes)."""
    if body and body[-1] & 0x80:
        raise CompactError(f"truncated varint at byte {len(body.rstrip(_HIGH_BYTES)) + 1}: the data ends inside it")
    too_long = _TOO_LONG.search(body)
    if too_long:
        raise CompactError(f"varint at byte {_start_of(body, too_long)} is longer than {MAX_VARINT_BYTES} bytes")
    needless_zero = b"\x00" in body and _NEEDLESS_ZERO.search(body)  # scanned only when a zero is there
    if needless_zero:
        raise CompactError(f"varint at byte {_start_of(body, needless_zero)} ends in a needless zero byte")
    values: list[int] = []
    append, rest = values.append, iter(body)
    for byte in rest:
        if byte < 0x80:  # one byte: most codes, and the gaps under 128 ms
            append(byte)
            continue
        value, shift = byte & 0x7F, 7
        for byte in rest:
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                break
            shift += 7
        append(value)
    return values


def _start_of(body: bytes, found: re.Match[bytes]) -> int:
    """The byte (0 is the version byte) where the varint that ``found`` is in starts."""
    return len(body[: found.start()].rstrip(_HIGH_BYTES)) + 1


def _offset_of(body: bytes, index: int) -> int:
    """The byte (0 is the version byte) where varint ``index`` of ``body`` starts."""
    ends = [position for position, byte in enumerate(body) if byte < 0x80]
    return 1 + (ends[index - 1] + 1 if index else 0)
