"""DRF's content negotiation, the common case answered first (``DEFAULT_CONTENT_NEGOTIATION_CLASS``;
a module of its own: ``rest_framework.views`` imports the setting's class when it loads)."""

from rest_framework.negotiation import DefaultContentNegotiation


class JsonFirstNegotiation(DefaultContentNegotiation):
    """DRF's content negotiation, with what nearly every call asks answered at once: no
    ``Accept`` header, ``*/*`` or ``application/json``, no format suffix or ``?format=``, and
    a view whose first renderer is JSON. DRF would choose that renderer and that media type
    too, but only after building the request's headers mapping and parsing the media types on
    every call. Anything else goes through DRF's own negotiation."""

    _PLAIN = frozenset((None, "*/*", "application/json"))

    def select_renderer(self, request, renderers, format_suffix=None):
        if (
            not format_suffix
            and renderers
            and renderers[0].media_type == "application/json"
            and request.META.get("HTTP_ACCEPT") in self._PLAIN
            and (self.settings.URL_FORMAT_OVERRIDE is None or self.settings.URL_FORMAT_OVERRIDE not in request.query_params)
        ):
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)
