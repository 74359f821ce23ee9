"""A staff login ends after ``TDM_SESSION_IDLE_MINUTES`` without activity (a desk PC left
logged in is not a way in for whoever sits down next).

Activity is what a person does: a page opened, a form or an API call that changes something.
What pages ask by themselves while nobody touches them — the live state and its stream
(``/live/``), the API's reads (GET, HEAD) that refresh a page — keeps nothing alive, so a clock
page left open still ends. The last activity is kept in the session, written at most once a
minute; past the idle time the session is flushed: a page goes to the login page (which says
why), an API call is answered as one without a login. API tokens (``Authorization: Token``)
are not sessions and are not ended here.

Each write of the last activity is announced (``session_used``, with the request): the app that
lists the devices logged in keeps the browser's last use from it, at the same once a minute.
"""

import time
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import logout
from django.dispatch import Signal
from django.http import HttpResponseRedirect
from django.urls import reverse

SEEN = "tdm_seen"  # the session key: epoch seconds of the last activity
#: sent with ``request`` when a logged-in session's last activity is written (at most once a minute)
session_used = Signal()


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
        if settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated:
            now = int(time.time())
            seen = request.session.get(SEEN)
            if idle > 0 and seen is not None and now - seen > idle:
                logout(request)  # the session flushed: request.user is anonymous from here on
                if not request.path_info.startswith(("/api/", "/live/")) and request.method == "GET":
                    query = urlencode({"next": request.get_full_path(), "idle": 1})
                    return HttpResponseRedirect(f"{reverse('login')}?{query}")
            elif seen is None or (is_activity(request) and now - seen >= 60):
                request.session[SEEN] = now
                session_used.send(sender=IdleSessionMiddleware, request=request)
        return self.get_response(request)
