"""Answers rendered once and cached as JSON bytes: a cached board page is sent as stored,
without unpickling a hundred rows and rendering them again on every request."""

import json

from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

_RENDERER = JSONRenderer()


def json_bytes(data) -> bytes:
    """``data`` exactly as the API's JSON renderer writes it (DRF's JSONRenderer, no indent)."""
    return _RENDERER.render(data)


class JSONBytesResponse(Response):
    """A ``Response`` whose body is already rendered by ``json_bytes``. Sent as it is when the
    client accepted the API's JSON without an indent; any other rendering (the browsable
    API, ``Accept: application/json; indent=4``) renders the data decoded from it, so every
    client gets what a plain ``Response`` of that data would give."""

    def __init__(self, body: bytes, **kwargs):
        super().__init__(None, **kwargs)
        self.body = body

    @property
    def data(self):
        if self._data is None:
            self._data = json.loads(self.body)
        return self._data

    @data.setter
    def data(self, value):
        self._data = value

    @property
    def rendered_content(self):
        renderer = getattr(self, "accepted_renderer", None)
        if (
            type(renderer) is JSONRenderer
            and renderer.get_indent(self.accepted_media_type, self.renderer_context) is None
        ):
            self["Content-Type"] = self.content_type or renderer.media_type  # JSON has no charset
            return self.body
        return super().rendered_content
