"""Each staff login's language, chosen once and kept.

The language picker (``set_language``) works as Django's for anybody (a cookie for the browser);
for a staff login it also stores the choice (``services.choose_language``), so the login's pages
are in its language on every device it opens, whatever the browser or a shared desk PC's cookie
says. ``LoginLanguageMiddleware`` applies it: the login's language is read once per session (kept
in the session beside the login) and activated after Django's ``LocaleMiddleware`` chose the
browser's. A login that never chose one follows the browser as before.
"""

from django.conf import settings
from django.urls import path
from django.utils import translation
from django.views.i18n import set_language as django_set_language

from tournaments.models import LoginLanguage
from tournaments.staff import services

#: the session's copy of the login's language ("" : it chose none, the browser's applies)
SESSION_KEY = "tdm_language"


def language_of(request) -> str:
    """The language the login chose, read once per session; "" when it chose none."""
    session = getattr(request, "session", None)
    if session is None or not request.user.is_authenticated:
        return ""
    code = session.get(SESSION_KEY)
    if code is None:
        code = LoginLanguage.objects.filter(user=request.user).values_list("language", flat=True).first() or ""
        session[SESSION_KEY] = code
    return code if code in dict(settings.LANGUAGES) else ""


class LoginLanguageMiddleware:
    """After the authentication: a staff login's chosen language replaces the browser's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        code = language_of(request)
        if code and code != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(code)
            request.LANGUAGE_CODE = code
        return self.get_response(request)


def set_language(request):
    """Django's language picker; a staff login's choice is kept with the login too."""
    response = django_set_language(request)
    code = request.POST.get("language", "") if request.method == "POST" else ""
    if code in dict(settings.LANGUAGES) and request.user.is_authenticated:
        services.choose_language(request.user, code)
        request.session[SESSION_KEY] = code
    return response


urlpatterns = [path("setlang/", set_language, name="set_language")]
