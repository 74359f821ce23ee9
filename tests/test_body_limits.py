"""A request's body is bounded before it is read (tdmanager.bodylimits): a declared length over its
route's limit is answered 413 before any byte of the body arrives, a chunked one as soon as it
passes the limit; Django's side holds the same limits; a staff image upload takes the 5 MB the
layouts service takes, page and API alike.

The raw-socket tests run the real web app (``tdmanager.asgi.Application``) behind uvicorn with the
project's protocol (``tdmanager.httpserver``), in this process on a thread: what is sent, and
when, is exactly what the test says, and the spooled files the app opens are this process's.
Every wait ends on the server's answer or its closing.
"""

import io
import os
import socket
import tempfile
import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from tdmanager import bodylimits
from tests.servers import connect, until_closed

pytestmark = pytest.mark.django_db(transaction=True)

HUGE = 2_000_000_000


@pytest.fixture
def server(settings, tmp_path, monkeypatch):
    """The web app on a socket; returns its port. Its spooled bodies go to ``tmp_path``."""
    import uvicorn

    from tdmanager.asgi import Application
    from tdmanager.httpserver import HttpProtocol

    settings.TDM_WEB_THREADS = 2
    settings.TDM_BODY_TIMEOUT = 30  # longer than any wait here: an answer is never the deadline's
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    app = Application()
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen(64)  # connections wait in the backlog until the server accepts: no start-up to wait for
    server = uvicorn.Server(uvicorn.Config(app, http=HttpProtocol, lifespan="off", log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    yield listening.getsockname()[1]
    server.should_exit = True
    thread.join(10)
    app.close()
    listening.close()


def head(path, *lines) -> bytes:
    return ("\r\n".join([f"POST {path} HTTP/1.1", "Host: 127.0.0.1", *lines]) + "\r\n\r\n").encode()


def spooled(directory) -> list[str]:
    """This process's open files in ``directory`` (a spooled body rolled over to disk is one,
    unlinked but open)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(directory)):
            found.append(target)
    return found


def test_a_declared_length_over_the_limit_is_refused_before_any_byte_of_the_body(server, tmp_path):
    """Anonymous, 2 GB declared: 413 at once, the body never sent (the client sends none and
    still gets its answer), nothing spooled; the API in JSON, the login page as text in the
    client's language."""
    api = connect(server)
    api.sendall(head("/api/v1/auth/token/", "Content-Type: application/json", f"Content-Length: {HUGE}"))
    answer = until_closed(api, timeout=4)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b'{"code": "request_too_large", "detail": "The request body is too large."}' in answer

    page = connect(server)
    page.sendall(head("/login/", "Content-Type: application/x-www-form-urlencoded", "Accept-Language: it", f"Content-Length: {HUGE}"))
    answer = until_closed(page, timeout=4)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert answer.endswith("Il corpo della richiesta è troppo grande.".encode())
    assert b"text/plain" in answer
    assert spooled(tmp_path) == []


@pytest.mark.parametrize(("path", "setting", "kind"), [("/api/v1/auth/token/", "TDM_BODY_JSON", "json"), ("/login/", "TDM_BODY_FORM", "form")])
def test_a_chunked_body_is_cut_off_as_it_passes_the_limit(server, settings, tmp_path, path, setting, kind):
    """Sent without a length, the body is answered 413 once it is past the limit, not after the
    whole of it (the client sends a byte past the limit, then waits for the answer: it never
    sends the rest), and the file it was spooled to is closed."""
    setattr(settings, setting, 200_000)
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 50_000  # spooled to disk (tmp_path) well before the limit
    assert bodylimits.limit(kind) == 200_000
    sock = connect(server)
    sock.sendall(head(path, "Content-Type: application/json", "Transfer-Encoding: chunked"))
    piece = b"x" * 50_000
    for _ in range(4):  # the limit, to the byte: still taken
        sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
    sock.sendall(b"1\r\nx\r\n")  # one byte past it
    answer = until_closed(sock, timeout=4)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert (b'"code": "request_too_large"' in answer) == (kind == "json")
    assert spooled(tmp_path) == []


def big_png(size: int) -> bytes:
    """A real PNG of about ``size`` bytes (stored uncompressed: a plain colour, quick to decode)."""
    side = int((size / 3) ** 0.5)
    out = io.BytesIO()
    Image.new("RGB", (side, side), (20, 120, 40)).save(out, format="PNG", compress_level=0)
    return out.getvalue()


def test_an_image_of_4_mb_is_taken_by_the_api_over_the_socket(server, director):
    """The web app's limit for the API's image upload is the service's 5 MB and the form's room,
    not an API call's JSON limit (a 4 MB image was refused 413)."""
    from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

    from tournaments.staff.logins import issue_token

    content = big_png(4 * 1024 * 1024)
    assert 4_000_000 < len(content) < bodylimits.IMAGE_FILE
    body = encode_multipart(BOUNDARY, {"name": "Sponsor", "image": SimpleUploadedFile("sponsor.png", content, content_type="image/png")})
    token = issue_token(director, device="test")[1]
    sock = connect(server)
    sock.sendall(
        head(
            "/api/v1/screen-images/", f"Authorization: Token {token}", f"Content-Type: {MULTIPART_CONTENT}", f"Content-Length: {len(body)}", "Connection: close"
        )
        + body
    )
    answer = until_closed(sock, timeout=8)
    assert answer.startswith(b"HTTP/1.1 201"), answer[:400]

    over = connect(server)  # past the image and its form's room: refused before it is sent
    over.sendall(
        head(
            "/api/v1/screen-images/",
            f"Authorization: Token {token}",
            f"Content-Type: {MULTIPART_CONTENT}",
            f"Content-Length: {bodylimits.IMAGE_FILE + 2 * bodylimits.MULTIPART_ROOM}",
        )
    )
    answer = until_closed(over, timeout=4)
    assert answer.startswith(b"HTTP/1.1 413") and b"request_too_large" in answer


def test_an_image_of_4_mb_is_taken_and_one_over_5_mb_refused_page_and_api_alike(client, director):
    """Django's side (the test client, any WSGI server) holds the same limits as the web app."""
    client.force_login(director)
    content = big_png(4 * 1024 * 1024)
    r = client.post("/api/v1/screen-images/", {"name": "Sponsor", "image": SimpleUploadedFile("sponsor.png", content, content_type="image/png")})
    assert r.status_code == 201, r.content[:300]
    r = client.post("/screens/layouts/", {"op": "image", "name": "Sponsor 2", "image": SimpleUploadedFile("sponsor.png", content, content_type="image/png")})
    assert r.status_code == 302 and r.url.endswith("/screens/layouts/")
    assert [str(m) for m in r.wsgi_request._messages][0].startswith("Image Sponsor 2 uploaded")

    # over the service's 5 MB, within the body's limit: the service says so
    over = content + b"\x00" * (bodylimits.IMAGE_FILE + 1 - len(content))
    r = client.post("/api/v1/screen-images/", {"name": "Big", "image": SimpleUploadedFile("big.png", over, content_type="image/png")})
    assert r.status_code == 400 and r.json()["code"] == "too_large"
    r = client.post("/screens/layouts/", {"op": "image", "name": "Big", "image": SimpleUploadedFile("big.png", over, content_type="image/png")})
    assert r.status_code == 302 and "5 MB" in str(list(r.wsgi_request._messages)[-1])

    # past the body's limit: refused before it is read, 413 in both
    huge = over + b"\x00" * bodylimits.MULTIPART_ROOM
    r = client.post("/api/v1/screen-images/", {"name": "Huge", "image": SimpleUploadedFile("huge.png", huge, content_type="image/png")})
    assert r.status_code == 413 and r.json()["code"] == "request_too_large"
    page = huge + b"\x00" * (bodylimits.LAYOUT_FILE - bodylimits.IMAGE_FILE)  # the page takes a layout file too: its limit is that one's
    r = client.post("/screens/layouts/", {"op": "image", "name": "Huge", "image": SimpleUploadedFile("huge.png", page, content_type="image/png")})
    assert r.status_code == 413


def test_the_small_limits_hold_at_djangos_side_for_anonymous_routes(client, settings):
    settings.TDM_BODY_JSON = settings.TDM_BODY_FORM = 10_000
    r = client.post("/api/v1/auth/token/", '{"username": "' + "x" * 20_000 + '"}', content_type="application/json")
    assert r.status_code == 413 and r.json()["code"] == "request_too_large"
    r = client.post("/login/", {"username": "x" * 20_000, "password": "y"}, HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 413 and r.content.decode() == "Il corpo della richiesta è troppo grande."


def test_a_file_that_is_no_image_is_bad_image_nul_bytes_or_not(client, director):
    """The image field's bytes are the image service's to judge: a file with NUL bytes that is no
    image is ``bad_image``, not refused as text carrying a NUL; any other field still is."""
    client.force_login(director)
    for content in (b"kind,small_blind\nLEVEL,1\x0000\n", b"\x00" * 1000):
        r = client.post("/api/v1/screen-images/", {"name": "x", "image": SimpleUploadedFile("logo.png", content, content_type="image/png")})
        assert r.status_code == 400 and r.json()["code"] == "bad_image", r.content
    r = client.post("/api/v1/screen-images/", {"name": "x\x00", "image": SimpleUploadedFile("logo.png", b"\x00", content_type="image/png")})
    assert r.status_code == 400 and r.json()["code"] == "nul_character"
    r = client.post("/api/v1/screen-images/", {"name": "x", "file": SimpleUploadedFile("image", b"text\x00", content_type="text/plain")})
    assert r.status_code == 400 and r.json()["code"] == "nul_character"


def test_a_large_upload_is_still_looked_at_for_nul_characters(client, director):
    """An upload over the JSON limit is read against its route's own limit, so the NUL check
    still sees it (Django's one setting made it skip a body it could not read)."""
    client.force_login(director)
    text = b"a line of text\x00" + b"x" * (2 * 1024 * 1024)
    r = client.post("/api/v1/screen-images/", {"name": "x", "file": SimpleUploadedFile("notes.txt", text, content_type="text/plain")})
    assert r.status_code == 400 and r.json()["code"] == "nul_character"


def import_layout_file(port, token, body: bytes) -> bytes:
    """The answer to a layout file's import sent whole, its length declared, over a socket."""
    sock = connect(port)
    sock.sendall(
        head(
            "/api/v1/screen-layouts/import/",
            f"Authorization: Token {token}",
            "Content-Type: application/json",
            f"Content-Length: {len(body)}",
            "Connection: close",
        )
        + body
    )
    return until_closed(sock, timeout=8)


def test_what_a_large_body_was_parsed_into_is_freed_with_its_request(server, director, monkeypatch):
    """A layout file's megabytes of text, held by REST framework's request, view and answer (which
    refer to one another), are freed when the request ends, not when the cycle collector happens
    to run: ten imports held 230 MB that way. The collector's own runs are held off here, so only
    the server's collection can free it."""
    import gc
    import json
    import weakref

    from tournaments.screens import api as screens_api
    from tournaments.staff.logins import issue_token

    held = []
    real = screens_api.Actor.from_request

    def spy(request):
        held.append(weakref.ref(request))  # REST framework's request: its parsed body hangs on it
        return real(request)

    monkeypatch.setattr(screens_api.Actor, "from_request", spy)
    design = {"blocks": [{"kind": "clock", "x": 0, "y": 0, "w": 24, "h": 24}]}
    padding = {str(i): {"name": f"unused {i}", "png": "A" * 100_000} for i in range(1, 21)}  # images no block shows
    file = {"format": "tdmanager-screen-layout", "version": 1, "name": "Big", "portrait": False, "design": design, "images": padding}
    body = json.dumps({"file": file}).encode()
    assert bodylimits.COLLECT_AFTER < len(body) < bodylimits.LAYOUT_FILE
    token = issue_token(director, device="test")[1]
    gc.disable()
    try:
        answer = import_layout_file(server, token, body)
        assert answer.startswith(b"HTTP/1.1 201"), answer[:400]
        assert len(held) == 1 and held[0]() is None, "the request and its parsed body outlived it"
    finally:
        gc.enable()


def test_a_file_while_another_is_read_is_refused_busy_unread(server, director):
    """One image or layout file is read at a time in a process: the web app refuses the next
    before any byte of its body arrives (503 busy, in the client's language), so a flood of
    imports costs the process their heads alone; once the turn is free, a file is read."""
    from tournaments.staff.logins import issue_token

    token = issue_token(director, device="test")[1]
    length = 3 * 1024 * 1024  # a layout file's size: over the small bodies' 1 MiB
    assert length > bodylimits.COLLECT_AFTER
    with bodylimits.file_turn():  # another request's
        for chunked in (False, True):
            sock = connect(server)
            sized = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {length}"
            sock.sendall(
                head("/api/v1/screen-layouts/import/", f"Authorization: Token {token}", "Content-Type: application/json", sized, "Accept-Language: it")
            )
            answer = until_closed(sock, timeout=4)  # the head alone: no byte of the body was sent
            assert answer.startswith(b"HTTP/1.1 503") and b'"code": "busy"' in answer and b"in questo momento" in answer, answer[:400]
    body = b'{"file": {}, "name": "' + b"x" * length + b'"}'  # read now: refused for what it is
    answer = import_layout_file(server, token, body)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:400]


def test_a_sheet_while_another_file_is_read_is_refused_as_sheets_being_read(server, director):
    """The web app's busy answer names what the route reads: a sheet to import is told that
    other sheets are being read, not images."""
    from tournaments.staff.logins import issue_token

    token = issue_token(director, device="test")[1]
    with bodylimits.file_turn():
        sock = connect(server)
        sized = f"Content-Length: {3 * 1024 * 1024}"
        sock.sendall(
            head(
                "/api/v1/imports/people/preview/",
                f"Authorization: Token {token}",
                "Content-Type: multipart/form-data; boundary=x",
                sized,
                "Accept-Language: it",
            )
        )
        answer = until_closed(sock, timeout=4)
    assert answer.startswith(b"HTTP/1.1 503") and b'"code": "busy"' in answer, answer[:400]
    assert b"Altri fogli sono in lettura" in answer, answer[:400]
