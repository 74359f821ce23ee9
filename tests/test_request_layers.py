"""What every request passes through, made cheaper for the API, answers as before: DRF's content
negotiation (``tdmanager.negotiation.JsonFirstNegotiation``) and Django's messages (pages only)."""

import pytest
from django.contrib import messages
from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpResponse
from django.test import RequestFactory
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer, TemplateHTMLRenderer
from rest_framework.request import Request

from tdmanager.middleware import PageMessageMiddleware
from tdmanager.negotiation import JsonFirstNegotiation

ACCEPTS = [
    None,
    "*/*",
    "application/json",
    "",
    "text/html",
    "application/json; indent=4",
    "application/xml",
    "application/json, text/plain, */*",
    "text/html;q=0.9, application/json",
]
RENDERER_SETS = [[JSONRenderer(), BrowsableAPIRenderer()], [BrowsableAPIRenderer(), JSONRenderer()], [JSONRenderer()], [TemplateHTMLRenderer(), JSONRenderer()]]


def chosen(negotiation, request, renderers, suffix):
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers, suffix)
        return type(renderer), media_type
    except NotAcceptable:
        return "406"
    except Exception as exc:  # noqa: BLE001 (the same refusal either way)
        return type(exc)


@pytest.mark.parametrize("query", ["", "format=json", "format=api", "format=", "other=1"])
def test_the_same_renderer_as_drfs_negotiation(query):
    factory = RequestFactory()
    for accept in ACCEPTS:
        extra = {} if accept is None else {"HTTP_ACCEPT": accept}
        for renderers in RENDERER_SETS:
            for suffix in (None, "json", "api"):
                request = Request(factory.get("/api/v1/x/?" + query, **extra))
                ours = chosen(JsonFirstNegotiation(), request, renderers, suffix)
                theirs = chosen(DefaultContentNegotiation(), Request(factory.get("/api/v1/x/?" + query, **extra)), renderers, suffix)
                assert ours == theirs, (accept, query, [type(r).__name__ for r in renderers], suffix)


def test_an_api_call_answers_json_whatever_it_accepts(api, director):
    client = api(director)
    for accept in (None, "*/*", "application/json"):
        r = client.get("/api/v1/tournaments/", **({} if accept is None else {"HTTP_ACCEPT": accept}))
        assert r.status_code == 200 and r["Content-Type"] == "application/json"
    r = client.get("/api/v1/tournaments/", HTTP_ACCEPT="text/html")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/html")  # DRF's browsable API, as before


@pytest.mark.django_db
def test_messages_on_pages_only(client):
    """A page's messages survive API calls in between; an API call gets no message store."""
    assert issubclass(PageMessageMiddleware, MessageMiddleware)  # the admin's check (admin.E409) holds
    factory = RequestFactory()
    seen = {}

    def view(request):
        seen["store"] = hasattr(request, "_messages")
        if seen["store"]:
            messages.info(request, "saved")
        return HttpResponse("ok")

    for path, has_store in (("/api/v1/tournaments/", False), ("/desk/", True)):
        request = factory.get(path)
        request.session = client.session
        response = PageMessageMiddleware(view)(request)
        assert seen["store"] is has_store and response.status_code == 200
        if has_store:  # stored for the next page (the cookie store first)
            assert "messages" in response.cookies
