"""Staff's part of the accounts, in the Django admin: the players (find one, disable accounts,
delete one as its own deletion does), and the admin's own log-in (its form, and a passkey too
with ADMIN_SECOND_FACTOR). Registered by ``leaderboard.admin``, which imports this module."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.signals import user_logged_in
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .authentication import forget_users
from .deletion import account_erase

User = get_user_model()

admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """Disabling an account: untick "active" (the player can no longer log in). Deleting one
    erases it as the player's own deletion does."""

    list_display = ("username", "is_active", "is_staff", "date_joined", "last_login")
    actions = ("disable",)

    @admin.action(description=_("Disable the selected accounts"), permissions=["change"])
    def disable(self, request, queryset):
        disabled = list(queryset.values_list("pk", flat=True))
        queryset.update(is_active=False)
        forget_users(disabled)  # an update sends no signal: their tokens stop working now

    def delete_model(self, request, obj):
        """A deletion by staff is the player's own (``account_erase``): the boards ranked again,
        the groups handed on, the archives erased; Django's bare delete would only cascade."""
        account_erase(obj)

    def delete_queryset(self, request, queryset):
        for user in queryset.order_by("pk"):
            account_erase(user)


# -- the admin's own log-in -------------------------------------------------------------------
#: Marks a session made by a log-in other than the admin's form (the API's, which the pages'
#: form posts to): such a session opens the admin only after the admin's own log-in, so the
#: admin's door keeps its checks whatever another door lets through.
OTHER_LOGIN_SESSION_KEY = "logged_in_elsewhere"
_staff_may_enter = admin.site.has_permission


def _mark_session(sender, request, user, **kwargs):
    if request is None or not getattr(request, "path", ""):
        return  # not an HTTP request (a test client's force_login, a shell)
    if request.path == reverse("admin:login"):
        request.session.pop(OTHER_LOGIN_SESSION_KEY, None)
    else:
        request.session[OTHER_LOGIN_SESSION_KEY] = True


def _has_permission(request) -> bool:
    """Staff, logged in by the admin's own form, and with ADMIN_SECOND_FACTOR a passkey used in
    this session too (django-otp's ``is_verified``: the admin's log-in page offers it)."""
    if not _staff_may_enter(request) or request.session.get(OTHER_LOGIN_SESSION_KEY, False):
        return False
    return not settings.ADMIN_SECOND_FACTOR or request.user.is_verified()


user_logged_in.connect(_mark_session, dispatch_uid="admin-session-mark")
admin.site.has_permission = _has_permission
admin.site.login_template = "admin/leaderboard/login.html"
