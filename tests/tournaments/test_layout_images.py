"""An image's decoding cost is bounded before it is decoded, and the layouts page never answers 500.

- The header is read first: a format not named, a side over 4096 pixels, or one side more than 32
  times the other is refused (``too_large`` or ``bad_image`` on ``image``) and nothing is decoded;
  a 32 KB PNG of 1 × 16,777,216 pixels took a second and 448 MB to decode.
- An import decodes only the images its blocks show, and decodes them with no transaction open.
- A picture is made small in its own mode before it is made RGBA: an RGBA copy at full size
  doubled what a decode costs.
- At most one decode at a time; another waits briefly, then is refused 503 ``busy``. One upload or
  layout file is read at a time in a process; another is refused 503 ``busy`` at once, on the page
  as in the API (the web app refuses it before reading its body: tests/test_body_limits.py).
- The page's import reads its file with the bounded JSON parser: a deeply nested file is a form
  error, not a RecursionError.
"""

import base64
import functools
import io
import random
import struct
import threading
import zlib

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from PIL import Image, ImageFile

from tdmanager import bodylimits
from tournaments.models import ScreenImage, ScreenLayout
from tournaments.screens import services as screen_services

pytestmark = pytest.mark.django_db


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def grey_png(width: int, height: int, *, pixels: bool = True) -> bytes:
    """A grey PNG built by hand: every row a filter byte and black pixels, which compress to almost
    nothing; ``pixels=False`` gives a header with an empty image (Pillow opens it, never decodes)."""
    raw = (b"\x00" * (width + 1)) * height if pixels else b""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b"")


@functools.cache
def tall_png() -> bytes:
    return grey_png(1, 16_777_216)  # 4096² pixels, a 32 KB file


def png(width=40, height=20) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (width, height), (200, 30, 30, 255)).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def decodes(monkeypatch):
    """Every image Pillow decodes, with whether a transaction (other than the test's own) was open."""
    seen = []
    load = ImageFile.ImageFile.load

    def spy(self):
        if not any(self is image for image, _ in seen):
            seen.append((self, any(not getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)))
        return load(self)

    monkeypatch.setattr(ImageFile.ImageFile, "load", spy)
    return seen


def test_the_tall_png_is_refused_from_its_header_never_decoded(client, director, actor, decodes):
    content = tall_png()
    assert len(content) < 40_000
    with Image.open(io.BytesIO(content)) as header:
        assert header.size == (1, 16_777_216)  # what the old area cap let through
    with pytest.raises(screen_services.ValidationFailed) as refused:
        screen_services.upload_image(name="Tall", content=content, actor=actor)
    assert refused.value.code == "too_large" and refused.value.extra["field"] == "image"
    client.force_login(director)
    r = client.post("/api/v1/screen-images/", {"name": "Tall", "image": SimpleUploadedFile("t.png", content)}, HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400 and r.json()["code"] == "too_large" and r.json()["field"] == "image"
    assert "4096 × 4096 pixel" in r.json()["detail"]  # the user's language
    assert decodes == [] and not ScreenImage.objects.exists()


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (grey_png(4097, 10, pixels=False), "too_large"),  # a side over 4096
        (grey_png(10, 4097, pixels=False), "too_large"),
        (grey_png(4096, 100, pixels=False), "too_large"),  # 41:1
        (grey_png(20_000, 20_000, pixels=False), "too_large"),  # Pillow's own bound refuses on opening
        (grey_png(0, 10, pixels=False), "bad_image"),
    ],
    ids=["wide", "high", "thin", "huge", "empty"],
)
def test_an_image_out_of_bounds_is_refused_before_decoding(actor, decodes, content, code):
    with pytest.raises(screen_services.ValidationFailed) as refused:
        screen_services.upload_image(name="x", content=content, actor=actor)
    assert refused.value.code == code and refused.value.extra["field"] == "image"
    assert decodes == []


def test_a_format_not_named_is_never_decoded(actor, decodes):
    out = io.BytesIO()
    Image.new("RGB", (20, 20)).save(out, format="BMP")
    with pytest.raises(screen_services.ValidationFailed) as refused:
        screen_services.upload_image(name="x", content=out.getvalue(), actor=actor)
    assert refused.value.code == "bad_image" and refused.value.extra["field"] == "image"
    assert decodes == []
    # what is within bounds is decoded, once
    assert screen_services.upload_image(name="ok", content=grey_png(32 * 40, 40), actor=actor).width == 1280  # 32:1
    assert len(decodes) == 1


def test_an_upload_decodes_with_no_transaction_open(actor, decodes):
    screen_services.upload_image(name="Logo", content=png(), actor=actor)
    assert [open_ for _, open_ in decodes] == [False]


def _file(used: str, count: int = 20) -> dict:
    return {
        "format": screen_services.FORMAT,
        "version": screen_services.VERSION,
        "name": "Sala",
        "portrait": False,
        "design": {
            "theme": {"background": "#101010", "text": "#fafafa", "accent": "#ffcc00"},
            "blocks": [{"kind": "logo", "x": 0, "y": 0, "w": 4, "h": 3, "image": int(used)}, {"kind": "clock", "x": 4, "y": 0, "w": 20, "h": 24}],
        },
        "images": {str(i): {"name": f"img {i}", "png": base64.b64encode(png(8 + i, 8)).decode()} for i in range(1, count + 1)},
    }


def test_an_import_decodes_only_the_images_its_blocks_show_outside_its_transaction(actor, decodes):
    layout = screen_services.import_layout(_file(used="7"), actor=actor)
    assert len(decodes) == 1  # not 20
    assert [open_ for _, open_ in decodes] == [False]  # decoded before the transaction opened
    (stored,) = ScreenImage.objects.all()
    assert layout.design["blocks"][0]["image"] == stored.pk and (stored.width, stored.height) == (15, 8)


def test_an_import_refused_for_an_image_stores_nothing(actor, decodes):
    file = _file(used="3", count=3)
    file["images"]["3"]["png"] = base64.b64encode(tall_png()).decode()
    with pytest.raises(screen_services.ValidationFailed) as refused:
        screen_services.import_layout(file, actor=actor)
    assert refused.value.code == "too_large" and decodes == []
    assert not ScreenImage.objects.exists() and not ScreenLayout.objects.exists()


def test_a_decode_waits_for_a_free_slot_then_is_refused_busy(actor, monkeypatch):
    monkeypatch.setattr(screen_services, "DECODE_WAIT", 0.05)
    held = [screen_services._decoding.acquire(timeout=1) for _ in range(screen_services.DECODES)]
    try:
        assert all(held)
        with pytest.raises(screen_services.DomainError) as refused:
            screen_services.upload_image(name="x", content=png(), actor=actor)
        assert refused.value.code == "busy" and refused.value.status == 503
    finally:
        for _ in held:
            screen_services._decoding.release()
    done = threading.Event()
    screen_services._decoding.acquire()
    threading.Timer(0.01, lambda: (screen_services._decoding.release(), done.set())).start()
    monkeypatch.setattr(screen_services, "DECODE_WAIT", 5)
    assert screen_services.upload_image(name="x", content=png(), actor=actor).width == 40  # waited its turn
    assert done.wait(1)


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"a":' * 5_000])
def test_a_deeply_nested_file_is_a_form_error_on_the_page_as_in_the_api(client, director, api, body):
    client.force_login(director)
    r = client.post("/screens/layouts/", {"op": "import", "file": SimpleUploadedFile("deep.json", body, content_type="application/json")})
    assert r.status_code == 302 and r["Location"] == "/screens/layouts/"
    assert [str(m) for m in get_messages(r.wsgi_request)] == ["The JSON is nested deeper than 32 levels."]
    r = api(director).post("/api/v1/screen-layouts/import/", b'{"file": ' + body, content_type="application/json")
    assert r.status_code == 400
    assert not ScreenLayout.objects.exists()


@pytest.mark.parametrize(("mode", "fmt"), [("RGB", "PNG"), ("RGB", "JPEG"), ("L", "PNG"), ("RGBA", "WEBP")])
def test_a_picture_is_made_small_before_it_is_made_rgba(actor, monkeypatch, mode, fmt):
    made = []
    convert = Image.Image.convert

    def spy(self, *args, **kwargs):
        made.append((args[0] if args else kwargs.get("mode"), self.size))
        return convert(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "convert", spy)
    out = io.BytesIO()
    Image.new(mode, (3000, 200), {"RGB": (90, 90, 90), "L": 90, "RGBA": (90, 90, 90, 255)}[mode]).save(out, format=fmt)
    stored = screen_services.upload_image(name="Banner", content=out.getvalue(), actor=actor)
    assert (stored.width, stored.height) == (1920, 128)
    made_rgba = [size for target, size in made if target == "RGBA"]
    assert made_rgba and all(width <= screen_services.MAX_SIDE for width, _ in made_rgba), made
    with Image.open(io.BytesIO(bytes(stored.png))) as kept:
        assert kept.mode == "RGBA" and kept.getpixel((5, 5))[3] == 255  # drawn again, opaque


def test_a_palette_picture_is_blended_not_picked_when_made_small(actor):
    # one-pixel red and blue stripes: blended they are purple, picked they stay red or blue
    stripes = Image.new("P", (3840, 150))
    stripes.putpalette([255, 0, 0, 0, 0, 255] + [0] * 762)
    stripes.putdata([x % 2 for _ in range(150) for x in range(3840)])
    out = io.BytesIO()
    stripes.save(out, format="PNG")
    stored = screen_services.upload_image(name="Stripes", content=out.getvalue(), actor=actor)
    with Image.open(io.BytesIO(bytes(stored.png))) as kept:
        red, _green, blue, _alpha = kept.getpixel((100, 20))
    assert 80 < red < 180 and 80 < blue < 180


def test_a_second_file_is_refused_busy_while_one_is_read(client, director, api, monkeypatch):
    read = []
    monkeypatch.setattr(screen_services, "import_layout", lambda *a, **k: read.append(1))
    with bodylimits.file_turn():  # another request's
        r = api(director).post("/api/v1/screen-layouts/import/", {"file": _file(used="1")}, format="json", HTTP_ACCEPT_LANGUAGE="it")
        assert r.status_code == 503 and r.json()["code"] == "busy" and r.json()["field"] == "image"
        assert "in questo momento" in r.json()["detail"]
        r = api(director).post("/api/v1/screen-images/", {"name": "Logo", "image": SimpleUploadedFile("l.png", png())}, format="multipart")
        assert r.status_code == 503 and r.json()["code"] == "busy"
        client.force_login(director)
        r = client.post("/screens/layouts/", {"op": "image", "name": "Logo", "image": SimpleUploadedFile("l.png", png())})
        assert r.status_code == 302
        assert [str(m) for m in get_messages(r.wsgi_request)] == ["Other images are being read at this moment: try again in a moment."]
    assert read == [] and not ScreenImage.objects.exists()
    # with a reader's turn free, the same upload is read and stored
    r = client.post("/screens/layouts/", {"op": "image", "name": "Logo", "image": SimpleUploadedFile("l.png", png())})
    assert r.status_code == 302 and ScreenImage.objects.filter(name="Logo").exists()


@pytest.mark.skipif(connection.vendor != "postgresql" or not settings.TDM_PG_PREPARE, reason="PostgreSQL with TDM_PG_PREPARE on")
def test_an_uploaded_images_bytes_stay_out_of_the_statements_the_connection_keeps(client, director, api):
    """psycopg counts each statement text it runs on a connection (up to 100 of them) to prepare
    the frequent ones: a text holding the stored PNG (as hex) would stay in every pooled connection."""
    connection.ensure_connection()
    kept_texts = connection.connection._prepared  # psycopg's per-connection cache of statement texts
    client.force_login(director)
    for i in range(2):
        noise = io.BytesIO()  # noise does not compress: the stored PNG is about as large as its pixels
        Image.frombytes("RGB", (500, 500), random.Random(i).randbytes(500 * 500 * 3)).save(noise, format="PNG")
        r = api(director).post("/api/v1/screen-images/", {"name": f"Noise {i}", "image": SimpleUploadedFile("n.png", noise.getvalue())}, format="multipart")
        assert r.status_code == 201, r.content
        r = client.post("/screens/layouts/", {"op": "image", "name": f"Page {i}", "image": SimpleUploadedFile("n.png", noise.getvalue())})
        assert r.status_code == 302
    stored = list(ScreenImage.objects.values_list("png", flat=True))
    assert len(stored) == 4 and min(len(png) for png in stored) > 500_000
    longest = max(len(query) for query, _types in (*kept_texts._counts, *kept_texts._names))
    assert longest < 16 * 1024, f"a statement of {longest:,} bytes kept by the connection"
