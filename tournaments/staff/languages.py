"""Each staff login's language, chosen once and kept.

The language picker (``set_language``) works as Django's for anybody (a cookie for the browser);
for a staff login it also stores the choice (``services.choose_language``), so the login's pages
are in its language on every device it opens, whatever the browser or a shared desk PC's cookie
says, from the next page each device loads. ``LoginLanguageMiddleware`` applies it to the pages
(read from the cache, ``selectors.login_language``: no database read per page) after Django's
``LocaleMiddleware`` chose the browser's; ``TokenInLoginLanguage`` applies it to a device token's
API calls (read in the token's own query). A login that never chose one follows the browser.
"""

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.urls import path
from django.utils import translation
from django.views.i18n import set_language as django_set_language

from tdmanager.authentication import TokenWithRoles
from tournaments.models import LoginLanguage
from tournaments.staff import selectors, services


def language_of(request) -> str:
    """The language the login chose; "" when it chose none (or for a visitor)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    return selectors.login_language(user)


def _activate(request, code: str) -> None:
    if code in dict(settings.LANGUAGES) and code != translation.get_language():
        translation.activate(code)
        request.LANGUAGE_CODE = code


class TokenInLoginLanguage(TokenWithRoles):
    """A device token's API calls in the login's language, like its pages (the ``{"code",
    "detail"}`` of a refusal included); a login that chose none: the request's Accept-Language."""

    def query(self, digest):
        chosen = LoginLanguage.objects.filter(user=OuterRef("user_id")).values("language")[:1]
        return super().query(digest).annotate(tdm_language=Subquery(chosen))

    def authenticate(self, request):
        found = super().authenticate(request)
        if found is not None and found[1].tdm_language:
            _activate(request, found[1].tdm_language)
        return found


class LoginLanguageMiddleware:
    """After the authentication: a staff login's chosen language replaces the browser's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        _activate(request, language_of(request))
        return self.get_response(request)


def set_language(request):
    """Django's language picker; a staff login's choice is kept with the login too."""
    response = django_set_language(request)
    code = request.POST.get("language", "") if request.method == "POST" else ""
    if code in dict(settings.LANGUAGES) and request.user.is_authenticated:
        services.choose_language(request.user, code)
    return response


urlpatterns = [path("setlang/", set_language, name="set_language")]
