"""A staff login ends after ``TDM_SESSION_IDLE_MINUTES`` without activity (a desk PC left
logged in is not a way in for whoever sits down next).

Activity is what a person does: a page opened, a form or an API call that changes something.
What pages ask by themselves while nobody touches them — the live state and its stream
(``/live/``), the API's reads (GET, HEAD) that refresh a page — keeps nothing alive, so a clock
page left open still ends. The last activity is kept in the session, written at most once a
minute; past the idle time the session is flushed: a page goes to the login page (which says
why), an API call is answered as one without a login. API tokens (``Authorization: Token``)
are not sessions and are not ended here.
"""

import time
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpResponseRedirect
from django.urls import reverse

SEEN = "tdm_seen"  # the session key: epoch seconds of the last activity


def is_activity(request) -> bool:
    path = request.path_info
    if path.startswith("/live/"):
        return False
    return not (path.startswith("/api/") and request.method in ("GET", "HEAD", "OPTIONS"))


class IdleSessionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        idle = settings.TDM_SESSION_IDLE_MINUTES * 60
        if idle > 0 and settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated:
            now = int(time.time())
            seen = request.session.get(SEEN)
            if seen is not None and now - seen > idle:
                logout(request)  # the session flushed: request.user is anonymous from here on
                if not request.path_info.startswith(("/api/", "/live/")) and request.method == "GET":
                    query = urlencode({"next": request.get_full_path(), "idle": 1})
                    return HttpResponseRedirect(f"{reverse('login')}?{query}")
            elif seen is None or (is_activity(request) and now - seen >= 60):
                request.session[SEEN] = now
        return self.get_response(request)
