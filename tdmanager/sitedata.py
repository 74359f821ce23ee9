"""What a browser keeps of a login, and how it is told to forget it.

The floor's tablets keep the pages and API reads they saw (its service worker, ``floor-sw.js``)
and the actions tapped offline (``floor-queue.js``): the table map with every player's name, a
people search with a phone number. Kept for one login only:

- Every answer under the floor's scope and the API says whose session it was for:
  ``X-TDM-Session``, a keyed hash of the session's key (never the key: the worker can read it),
  empty without a login. The worker keeps what it saw under that session only, throws it all
  away as soon as an answer names another session or none (a session ended on the server: a
  password reset, a login ended from the devices page, the idle time), and serves from what it
  kept only for the session it last heard of.
- A logout (from any page, and ending this browser's own login on the devices page) answers
  ``Clear-Site-Data: "cache", "storage"``: the browser drops the worker, its caches and the
  queue at once, whatever page it was on.
"""

from django.conf import settings
from django.utils.crypto import salted_hmac

HEADER = "X-TDM-Session"
CLEAR_SITE_DATA = '"cache", "storage"'
#: the answers the floor's worker keeps or reads: the floor's pages, the API, the login page
MARKED = ("/tournaments/", "/api/", "/login/")


def session_marker(request) -> str:
    """The session this request was answered under, as the worker may see it: a keyed hash of
    the session's key (it changes at every login), or "" without a login."""
    user = getattr(request, "user", None)
    key = getattr(getattr(request, "session", None), "session_key", None)
    if user is None or not user.is_authenticated or not key:
        return ""
    return salted_hmac("tdmanager.sitedata.session", key, secret=settings.SECRET_KEY, algorithm="sha256").hexdigest()[:32]


def forget_this_browser(response):
    """The browser drops what it keeps of this site (the floor's worker, its caches, the queue)."""
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    return response


class SessionMarkerMiddleware:
    """``X-TDM-Session`` on the answers the floor's worker keeps or reads (``MARKED``), read
    after the view: a login or a logout there is already in it. The session and the user were
    read for the request already (the role policy, the API's authentication); a visitor without
    a session cookie costs nothing."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path_info.startswith(MARKED):
            response[HEADER] = session_marker(request)
        return response
