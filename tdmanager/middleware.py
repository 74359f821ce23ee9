"""Django's message middleware, left out of the API's requests; the API's JSON bodies are objects."""

from django.contrib.messages.middleware import MessageMiddleware
from django.utils.translation import gettext as _

from .errorpages import api_error, is_api

_BODY_METHODS = frozenset(("POST", "PUT", "PATCH"))


class PageMessageMiddleware(MessageMiddleware):
    """Django's ``MessageMiddleware`` for pages; under /api/ nothing: no API view adds a message
    or shows one, so making the request's message store (a cookie signer, the session's store)
    would be work every API call pays for nothing. A page still shows the messages an earlier page
    left, whatever API calls came in between (they never read the store)."""

    def process_request(self, request):
        if not is_api(request):
            super().process_request(request)  # Django's process_response skips a request without a store


class JsonObjectBodyMiddleware:
    """Every request body the API takes is a JSON object (the schema says so for each
    operation). ``tdmanager.jsonbody.BoundedJSONParser`` refuses any other when a view reads its
    body; this refuses it before the view, so that an action that reads nothing (lock the payout
    table, back to the proposal) does not answer 200 to ``[null, null]``: 400 ``bad_body``. Only
    the first character is looked at; the parser reads the rest."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method not in _BODY_METHODS or request.content_type != "application/json" or not is_api(request):
            return None
        body = request.body.lstrip(b" \t\r\n")
        if body and not body.startswith(b"{"):
            return api_error(400, "bad_body", _("The body must be a JSON object."))
        return None
