"""Model fields that keep a move log and its action times in the compact encoding of
games.compact (docs/compact-logs.md): a ``bytea`` column, a list in Python.

The plain-SQL statements (intake's INSERT, the worker's claim) bypass these fields: they call
``games.compact`` themselves, with the same functions.
"""

from django.core import exceptions
from django.db import models

from games import compact


class _CompactListField(models.BinaryField):
    """A list stored as bytes by ``encode``, loaded by ``decode``; serialized (dumpdata) as the
    list itself, as a JSONField was."""

    empty_values: list[object] = [None, b"", [], ()]  # blank as a JSONField: no bytes or an empty list

    @staticmethod
    def encode(value, /) -> bytes:
        raise NotImplementedError

    @staticmethod
    def decode(data, /) -> list:
        raise NotImplementedError

    def from_db_value(self, value, expression, connection):
        return None if value is None else self.decode(value)

    def to_python(self, value):
        if isinstance(value, (bytes, bytearray, memoryview)):
            try:
                return self.decode(value)
            except compact.CompactError as exc:
                raise exceptions.ValidationError(str(exc), code="invalid") from exc
        return value

    def get_prep_value(self, value):
        """A list is encoded; bytes pass as they are (already compact)."""
        value = super().get_prep_value(value)
        if value is None or isinstance(value, (bytes, bytearray, memoryview)):
            return value
        return self.encode(value)

    def value_to_string(self, obj):
        return self.value_from_object(obj)


class CompactLogField(_CompactListField):
    """A move log: a list of action texts of the notation, stored by games.compact.encode_log."""

    encode = staticmethod(compact.encode_log)
    decode = staticmethod(compact.decode_log)


class CompactTimesField(_CompactListField):
    """Action times: a list of non-decreasing whole ms, stored by games.compact.encode_times."""

    encode = staticmethod(compact.encode_times)
    decode = staticmethod(compact.decode_times)
