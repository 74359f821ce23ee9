"""Under /api/ every error is {"code", "detail"} JSON, in the user's language; elsewhere Django's pages."""

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def api_client(user=None, **kw):
    client = Client(raise_request_exception=False, **kw)
    if user is not None:
        client.force_login(user)
    return client


def assert_error(response, status, code):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code and isinstance(body["detail"], str) and body["detail"]
    return body


def test_404_for_an_unknown_url_under_api(director):
    body = assert_error(api_client(director).get("/api/v1/no-such-thing/"), 404, "not_found")
    assert body["detail"] == "Not found."
    assert_error(api_client().get("/api/nowhere"), 404, "not_found")


def test_404_is_in_the_users_language(director):
    r = api_client(director).get("/api/v1/no-such-thing/", HTTP_ACCEPT_LANGUAGE="it")
    assert assert_error(r, 404, "not_found")["detail"] == "Non trovato."


def test_404_outside_the_api_is_still_a_page(director):
    r = api_client(director).get("/no-such-page/")
    assert r.status_code == 404 and not r["Content-Type"].startswith("application/json")


@override_settings(DEBUG=True)
def test_404_under_api_is_json_with_debug_on_too(director):
    assert_error(api_client(director).get("/api/v1/no-such-thing/"), 404, "not_found")


def test_405_keeps_the_allow_header(director):
    r = api_client(director).delete("/api/v1/auth/token/")
    assert_error(r, 405, "method_not_allowed")
    assert "POST" in r["Allow"]


@override_settings(TDM_BODY_JSON=1000)
def test_413_for_a_body_over_the_limit(director):
    big = '{"name": "' + "x" * 2000 + '"}'
    r = api_client(director).post("/api/v1/people/", big, content_type="application/json")
    assert_error(r, 413, "request_too_large")
    r = api_client(director).post("/api/v1/people/", big, content_type="application/json", HTTP_ACCEPT_LANGUAGE="it")
    assert assert_error(r, 413, "request_too_large")["detail"] == "Il corpo della richiesta è troppo grande."


@override_settings(TDM_BODY_JSON=1000)
def test_413_when_django_finds_the_body_too_big_itself(rf):
    """RequestDataTooBig raised while reading the body (no declared length) is a 413 too."""
    from django.core.exceptions import RequestDataTooBig

    from tdmanager import errorpages

    request = rf.post("/api/v1/people/")
    assert errorpages.bad_request(request, RequestDataTooBig()).status_code == 413
    mw = errorpages.ApiErrorMiddleware(lambda r: None)
    assert mw.process_exception(request, RequestDataTooBig()).status_code == 413
    assert errorpages.bad_request(rf.post("/login/"), RequestDataTooBig()).status_code == 400


@override_settings(TDM_BODY_JSON=1000)
def test_413_for_a_chunked_body_without_content_length():
    """Under ASGI a body sent chunked arrives whole in a file, with no Content-Length."""
    import tempfile

    from django.core.handlers.asgi import ASGIRequest

    from tdmanager import errorpages

    def request(size):
        body = tempfile.SpooledTemporaryFile()  # noqa: SIM115 (the request owns it, as under ASGI)
        body.write(b"x" * size)
        body.seek(0)
        scope = {
            "type": "http",
            "method": "POST",
            "path": "/api/v1/people/",
            "query_string": b"",
            "headers": [(b"host", b"127.0.0.1"), (b"transfer-encoding", b"chunked")],
        }
        return ASGIRequest(scope, body)

    from django.http import HttpResponse

    mw = errorpages.ApiErrorMiddleware(lambda r: HttpResponse("passed on"))
    big = mw(request(5000))
    assert big.status_code == 413 and b"request_too_large" in big.content
    assert mw(request(10)).content == b"passed on"


def test_400_for_a_bad_host_header(director):
    r = api_client(director).get("/api/v1/people/", HTTP_HOST="evil.example")
    assert_error(r, 400, "bad_request")


def test_400_for_malformed_json(director):
    r = api_client(director).post("/api/v1/people/", "{not json", content_type="application/json")
    assert_error(r, 400, "parse_error")


def test_403_and_401_are_json(outsider):
    assert api_client(outsider).get("/api/v1/people/").status_code in (403,)
    assert_error(api_client(outsider).get("/api/v1/people/"), 403, "permission_denied")
    r = api_client().get("/api/v1/people/")
    assert r.status_code in (401, 403) and r.json()["code"] in ("not_authenticated", "permission_denied")


def test_a_browser_asking_for_html_gets_the_api_error_as_json_with_its_detail(outsider, director):
    as_json = api_client(outsider).get("/api/v1/people/", HTTP_ACCEPT="application/json").json()
    r = api_client(outsider).get("/api/v1/people/", HTTP_ACCEPT="text/html")
    assert assert_error(r, 403, "permission_denied") == as_json
    r = api_client(director).post("/api/v1/people/", "{not json", content_type="application/json", HTTP_ACCEPT="text/html")
    assert assert_error(r, 400, "parse_error")["detail"] != "The request is not valid."


def test_403_from_a_csrf_refusal_is_json(director):
    from django.test import Client as C

    client = C(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(director)
    r = client.post("/api/v1/people/", {"first_name": "A"}, content_type="application/json")
    assert_error(r, 403, "permission_denied")


def test_500_is_json_under_api_and_a_page_elsewhere(director, monkeypatch):
    from tournaments import api as tapi

    def boom(self, request, *args, **kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(tapi.PersonViewSet, "list", boom)
    r = api_client(director).get("/api/v1/people/", HTTP_ACCEPT_LANGUAGE="it")
    body = assert_error(r, 500, "server_error")
    assert "kaboom" not in body["detail"] and "errore" in body["detail"]

    from django.test import RequestFactory

    from tdmanager import errorpages

    page = errorpages.server_error(RequestFactory().get("/desk/"))
    assert page.status_code == 500 and not page["Content-Type"].startswith("application/json")


def test_handlers_are_wired():
    from tdmanager import errorpages, urls

    assert urls.handler400 is errorpages.bad_request
    assert urls.handler403 is errorpages.permission_denied
    assert urls.handler404 is errorpages.page_not_found
    assert urls.handler500 is errorpages.server_error
