"""Django's message middleware, left out of the API's requests."""

from django.contrib.messages.middleware import MessageMiddleware

from .errorpages import is_api


class PageMessageMiddleware(MessageMiddleware):
    """Django's ``MessageMiddleware`` for pages; under /api/ nothing: no API view adds a message
    or shows one, and making the request's message store (a cookie signer, the session's store)
    cost every API call some 50-100 us of CPU. A page still shows the messages an earlier page
    left, whatever API calls came in between (they never read the store)."""

    def process_request(self, request):
        if not is_api(request):
            super().process_request(request)  # Django's process_response skips a request without a store
