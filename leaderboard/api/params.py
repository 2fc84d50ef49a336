"""The API's parameter parsers: a URL's or a query's text made a value, or refused in the
error shape (a 400, or a 404 for a path that names nothing)."""

from datetime import date

from django.utils.translation import gettext as _

import games
from games.deal import MAX_DEAL

from ..core import days
from ..core.errors import Invalid, NotFound
from ..history import selectors as calendar


def int_param(request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    value = whole_number(raw, low, high)
    if value is None:
        raise Invalid(
            _("%(name)s must be a whole number from %(low)s to %(high)s.") % {"name": name, "low": low, "high": high},
            code="invalid_parameter",
        )
    return value


def whole_number(raw: str, low: int, high: int) -> int | None:
    """``raw`` as a whole number from ``low`` to ``high``, or None (digits only: "²".isdigit()
    is True, and a text of thousands of digits is no number int() will read)."""
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18 or not low <= int(raw) <= high:
        return None
    return int(raw)


def date_param(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise NotFound(_("%(text)s is not a date (use YYYY-MM-DD).") % {"text": repr(text)}) from None


def month_param(text: str) -> date:
    """A month of the calendar, YYYY-MM, as its first day."""
    month = None
    if len(text) == 7 and text.isascii() and text[4] == "-" and (text[:4] + text[5:]).isdigit():
        try:
            month = date.fromisoformat(f"{text}-01")
        except ValueError:
            pass
    if month is None or not calendar.MONTHS[0] <= month <= calendar.MONTHS[1]:
        raise NotFound(_("%(text)s is not a month of the calendar (use YYYY-MM).") % {"text": repr(text)})
    return month


def valid_body(serializer_class, request) -> dict:
    """The request body checked by ``serializer_class`` (a 400 in the error shape if not)."""
    checked = serializer_class(data=request.data)
    checked.is_valid(raise_exception=True)
    return checked.validated_data


def board_day(day: str | None) -> date | None:
    """The day of a day's board URL, without raising (``live_board``): None when it is none."""
    today = days.today()
    try:
        when = date.fromisoformat(day) if day else today
    except ValueError:
        return None
    return when if when <= today else None


def deal_number(deal: str) -> int:
    """The number of a numbered deal's board URL: a deal code or a deal number."""
    if deal.isascii() and deal.isdigit() and len(deal) <= 9 and 1 <= int(deal) <= MAX_DEAL:
        return int(deal)
    try:
        return games.parse_code(deal.upper()).number
    except games.InvalidCode as exc:
        raise NotFound(games.render(exc.refusal, _), code="invalid_deal") from None
