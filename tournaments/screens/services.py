"""The lobby screens' actions: a screen, its link, its layouts, images and sounds.

A director adds a screen (it gets its link), changes what it shows, or takes one
away; the API (``DisplayScreenViewSet``) and the displays page call these services, each logged.

Tokens: a director revokes one (the screen shows nothing until it gets a new
link) or replaces it with a new one (the old link stops at once, the new one is shown once on
the screens page). Either way the open live streams of the old token end in every web process
once the change is committed (``realtime.screen_revoked``).

Layouts: the director saves a layout made with the editor, copies, exports and imports one,
uploads a logo, and sets each screen's layouts, its speaker and what it announces. Each a logged
service; a changed layout reaches its screens within half a minute (each page asks for its
configuration, layouts included, ``live.display``)."""

import base64
import hashlib
import io
import secrets
import threading

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import bodylimits, compiled, realtime, shown_text
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.shown_text import check as check_shown
from tdmanager.transactions import service
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event, publish_on_commit
from tournaments.models import DisplayScreen, ScreenImage, ScreenLayout
from tournaments.models.checks import clean
from tournaments.screens import rules as screen_rules

#: What a director sets on a screen (the token is the service's; ``rotate`` is a list of tournaments).
FIELDS = (
    "name",
    "tournament",
    "show",
    "announcement",
    "rotate_seconds",
    "layouts",
    "speaker",
    "sounds",
    "overlay_width",
    "overlay_height",
    "overlay_delay",
    "bust_seconds",
    "language",
    "second_language",
)


def _ended_on_commit(token: str) -> None:
    transaction.on_commit(lambda: realtime.screen_revoked(token))


def _announce_shown(screen: DisplayScreen, action: Action, before: set[int] = frozenset()) -> None:
    """Every tournament the screen shows (and showed: ``before``) is announced once committed:
    its lobby's announcement and rotation changed. The screen's own tournament is announced by
    its event row."""
    for pk in sorted(({*screen.rotate.values_list("pk", flat=True)} | set(before)) - {screen.tournament_id, None}):
        publish_on_commit(pk, action.value)


def _checked(values: dict) -> dict:
    """The layouts and sounds as stored: each layout one that exists, the sounds over
    their defaults; ``ValidationFailed`` naming the field otherwise."""
    values = dict(values)
    shown_text.check(values.get("name"), "name", _("Name"))
    shown_text.check(values.get("announcement"), "announcement", _("Announcement"))
    if "layouts" in values:
        values["layouts"] = clean_screen_layouts(values["layouts"])
    if "sounds" in values:
        values["sounds"] = screen_rules.clean_sounds(values["sounds"])
    for field, label in (("language", _("Language")), ("second_language", _("Second language"))):
        if values.get(field, "") not in ("", *dict(settings.LANGUAGES)):
            raise ValidationFailed(
                "language_unknown", _("%(field)s: %(problem)s") % {"field": label, "problem": _("choose one of the languages listed.")}, field=field
            )
    return values


def _one_speaker(screen: DisplayScreen) -> list[str]:
    """A speaker is the only one among the screens showing the same tournaments (ten TVs never
    talk over each other): the others become quiet. Returns their names."""
    if not screen.speaker:
        return []
    shown = {t.pk for t in screen.tournaments_shown()}
    quiet = []
    for other in DisplayScreen.objects.filter(speaker=True).exclude(pk=screen.pk).order_by("name"):
        if shown & {t.pk for t in other.tournaments_shown()}:
            other.speaker = False
            other.save(update_fields=["speaker"])
            quiet.append(other.name)
    return quiet


@service
def create_screen(values: dict, *, actor: Actor) -> DisplayScreen:
    """A new screen with its own unguessable link (``values``: ``FIELDS`` and ``rotate``)."""
    values = _checked(values)
    rotate = values.pop("rotate", None)
    screen = clean(DisplayScreen(token=secrets.token_urlsafe(24), **{k: v for k, v in values.items() if k in FIELDS}))
    screen.save(force_insert=True)
    if rotate:
        screen.rotate.set(rotate)
    _one_speaker(screen)
    log_event(screen.tournament, Action.TOURNAMENTS_DISPLAY_CREATED, actor, screen=screen.name)
    _announce_shown(screen, Action.TOURNAMENTS_DISPLAY_CREATED)
    return screen


@service
def update_screen(screen: DisplayScreen, values: dict, *, actor: Actor) -> DisplayScreen:
    """Change what the screen shows: the ``FIELDS`` and ``rotate`` in ``values``; the rest stays."""
    values = _checked(values)
    screen = DisplayScreen.objects.select_for_update().get(pk=screen.pk)
    rotating = set(screen.rotate.values_list("pk", flat=True))
    before = {screen.tournament_id, *rotating}
    changed = sorted(k for k in values if k in FIELDS and getattr(screen, k) != values[k])
    for name in changed:
        setattr(screen, name, values[name])
    clean(screen)
    screen.save()
    if "rotate" in values:
        if {t.pk for t in values["rotate"]} != rotating:
            changed.append("rotate")
        screen.rotate.set(values["rotate"])
    quiet = _one_speaker(screen)
    if quiet:
        changed.append("quiet: " + ", ".join(quiet))
    log_event(screen.tournament, Action.TOURNAMENTS_DISPLAY_UPDATED, actor, screen=screen.name, fields=changed)
    _announce_shown(screen, Action.TOURNAMENTS_DISPLAY_UPDATED, before)
    return screen


@service
def delete_screen(screen: DisplayScreen, *, actor: Actor) -> None:
    """Take the screen away: its link stops working at once."""
    screen = DisplayScreen.objects.select_for_update().get(pk=screen.pk)
    shown = {screen.tournament_id, *screen.rotate.values_list("pk", flat=True)}
    token, name, tournament = screen.token, screen.name, screen.tournament
    screen.delete()
    log_event(tournament, Action.TOURNAMENTS_DISPLAY_DELETED, actor, screen=name)
    for pk in sorted(shown - {getattr(tournament, "pk", None), None}):
        publish_on_commit(pk, Action.TOURNAMENTS_DISPLAY_DELETED.value)
    _ended_on_commit(token)


@service
def revoke_screen_token(screen: DisplayScreen, *, actor: Actor) -> DisplayScreen:
    """The screen's link stops working: its page, state, seats and stream answer nobody."""
    screen = DisplayScreen.objects.select_for_update().get(pk=screen.pk)
    if screen.token_revoked_at is None:
        screen.token_revoked_at = timezone.now()
        screen.save(update_fields=["token_revoked_at"])
        log_event(screen.tournament, Action.TOURNAMENTS_DISPLAY_TOKEN_REVOKED, actor, screen=screen.name)
        _ended_on_commit(screen.token)
    return screen


@service
def rotate_screen_token(screen: DisplayScreen, *, actor: Actor) -> DisplayScreen:
    """A new link for the screen; the old one stops working at once."""
    screen = DisplayScreen.objects.select_for_update().get(pk=screen.pk)
    old = screen.token
    screen.token, screen.token_revoked_at = secrets.token_urlsafe(24), None
    screen.save(update_fields=["token", "token_revoked_at"])
    log_event(screen.tournament, Action.TOURNAMENTS_DISPLAY_TOKEN_ROTATED, actor, screen=screen.name)
    _ended_on_commit(old)
    return screen


#: the export file's format; an import reads this version
FORMAT, VERSION = "tdmanager-screen-layout", 1
MAX_UPLOAD = bodylimits.IMAGE_FILE  # the figure the web app's limit for an upload's body is made of
#: what an image's header may announce, read before anything is decoded: a 32 KB PNG may announce
#: 16 million pixels (1 × 16,777,216 took a second and 448 MB to decode)
FORMATS = ("PNG", "JPEG", "GIF", "WEBP")
MAX_WIDTH = MAX_HEIGHT = 4096
MAX_PIXELS = MAX_WIDTH * MAX_HEIGHT
MAX_RATIO = 32  # the longer side at most 32 times the shorter: no screen block is that thin
MAX_SIDE = 1920  # stored at most this wide or high: a TV shows nothing finer
#: decodes under way at once in a process, and how long another waits for one to end: a decode
#: of 4096 × 4096 takes half a second and about 80 MB, and a staff thread waiting on it serves
#: nobody else
DECODES, DECODE_WAIT = 1, 10.0
_decoding = threading.BoundedSemaphore(DECODES)


def _name(value) -> str:
    name = value.strip() if isinstance(value, str) else ""
    if not name or len(name) > 80 or "\x00" in name:
        raise ValidationFailed("invalid", _("Name: from 1 to 80 characters."), field="name")
    return check_shown(name, "name", _("Name"))


def _check_images(design: dict) -> None:
    wanted = screen_rules.images_of(design)
    known = set(ScreenImage.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    if wanted - known:
        raise ValidationFailed(
            "unknown_image", _("The layout names an image that does not exist: %(ids)s.") % {"ids": ", ".join(map(str, sorted(wanted - known)))}, field="design"
        )


@service
def save_layout(*, name, design, portrait: bool = False, actor: Actor, layout: ScreenLayout | None = None) -> ScreenLayout:
    """A new layout, or ``layout`` changed: its name (unique), orientation and design
    (``screen_rules.clean_design``; the images it names must exist)."""
    name, design = _name(name), screen_rules.clean_design(design)
    if not isinstance(portrait, bool):
        raise ValidationFailed("invalid", _("Portrait: true or false."), field="portrait")
    _check_images(design)
    if ScreenLayout.objects.filter(name=name).exclude(pk=getattr(layout, "pk", None)).exists():
        raise ValidationFailed("name_taken", _("A layout of this name exists already."), field="name")
    if layout is None:
        layout = ScreenLayout(name=name)
    else:
        layout = ScreenLayout.objects.select_for_update().get(pk=layout.pk)
    layout.name, layout.portrait, layout.design, layout.updated_at = name, portrait, design, timezone.now()
    layout.save()
    log_event(None, Action.TOURNAMENTS_LAYOUT_SAVED, actor, layout=layout.name, blocks=len(design["blocks"]))
    return layout


@service
def delete_layout(layout: ScreenLayout, *, actor: Actor) -> None:
    """Delete a layout no screen uses (refused, naming the screens, while one does)."""
    layout = ScreenLayout.objects.select_for_update().get(pk=layout.pk)
    key = f"layout:{layout.pk}"
    using = [s.name for s in DisplayScreen.objects.order_by("name") if key in (s.layouts or {}).values()]
    if using:
        raise DomainError("layout_in_use", _("Screens show this layout: %(screens)s. Choose another layout for them first.") % {"screens": ", ".join(using)})
    name = layout.name
    layout.delete()
    log_event(None, Action.TOURNAMENTS_LAYOUT_DELETED, actor, layout=name)


def resolve(key: str | None) -> dict:
    """A layout key's ``{"key", "name", "portrait", "design"}``; an unknown key (a layout deleted
    meanwhile) is the built-in default."""
    if key and key.startswith("layout:") and key[7:].isdigit():
        row = ScreenLayout.objects.filter(pk=int(key[7:])).first()
        if row is not None:
            return {"key": key, "name": row.name, "portrait": row.portrait, "design": row.design}
    name = key[8:] if key and key.startswith("builtin:") and key[8:] in screen_rules.BUILTIN else "default"
    b = screen_rules.BUILTIN[name]
    return {"key": screen_rules.builtin_key(name), "name": str(b["name"]), "portrait": b["portrait"], "design": b["design"]}


def choices() -> list[dict]:
    """Every layout a screen may show: the built-in ones, then the venue's by name."""
    out = [{"key": screen_rules.builtin_key(k), "name": str(b["name"]), "builtin": True, "portrait": b["portrait"]} for k, b in screen_rules.BUILTIN.items()]
    out += [
        {"key": f"layout:{pk}", "name": name, "builtin": False, "portrait": p}
        for pk, name, p in ScreenLayout.objects.order_by("name").values_list("pk", "name", "portrait")
    ]
    return out


def clean_screen_layouts(value) -> dict:
    """A screen's ``layouts``: state → a key that exists (``live`` at least, when any)."""
    if not isinstance(value, dict) or set(value) - set(screen_rules.STATES):
        raise ValidationFailed("invalid", _("An object of states (%(states)s), each a layout.") % {"states": ", ".join(screen_rules.STATES)}, field="layouts")
    known = {c["key"] for c in choices()}
    out = {}
    for state, key in value.items():
        if key in ("", None):
            continue
        if not isinstance(key, str) or key not in known:
            raise ValidationFailed("unknown_layout", _("There is no such layout: %(key)s.") % {"key": key}, field=f"layouts.{state}")
        out[state] = key
    return out


# --- export and import ------------------------------------------------------------------------


def export_layout(key: str) -> dict:
    """A layout as a file to share with another room: its design and the images it shows (PNG,
    base64)."""
    layout = resolve(key)
    images = {
        str(img.pk): {"name": img.name, "png": base64.b64encode(bytes(img.png)).decode()}
        for img in ScreenImage.objects.filter(pk__in=screen_rules.images_of(layout["design"]))
    }
    return {"format": FORMAT, "version": VERSION, "name": layout["name"], "portrait": layout["portrait"], "design": layout["design"], "images": images}


def import_layout(data, *, actor: Actor, name: str | None = None) -> ScreenLayout:
    """A layout from an exported file: the images its blocks show decoded and encoded again like an
    upload, the design checked like one made here, a name of its own (``name``, else the file's
    with a number when taken). Images the file holds that no block shows are dropped unread. Every
    image is decoded before the transaction that stores them opens: a slow decode holds no
    transaction, and a refused one stores nothing."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValidationFailed("bad_file", _("This is not a layout file of this product."), field="file")
    images = data.get("images") or {}
    if not isinstance(images, dict) or len(images) > 20:
        raise ValidationFailed("bad_file", _("The layout file's images cannot be read."), field="file")
    design = screen_rules.clean_design(data.get("design"))
    base = _name(name if name else data.get("name"))
    held = {str(k): v for k, v in images.items()}
    decoded = {}
    for old_id in sorted({str(i) for i in screen_rules.images_of(design)}):
        img = held.get(old_id)
        if img is None:
            raise ValidationFailed("bad_file", _("The layout file names an image it does not hold."), field="file")
        try:
            raw = base64.b64decode(img["png"], validate=True)
        except (TypeError, KeyError, ValueError):
            raise ValidationFailed("bad_file", _("The layout file's images cannot be read."), field="file") from None
        image_name = _name(str(img.get("name") or "image")[:80] or "image") if isinstance(img, dict) else "image"
        decoded[old_id] = (image_name, _decode_image(raw))
    portrait = data.get("portrait", False)
    return _store_import(base, design, decoded, portrait=portrait if isinstance(portrait, bool) else False, actor=actor)


@service
def _store_import(base: str, design: dict, decoded: dict, *, portrait: bool, actor: Actor) -> ScreenLayout:
    """The imported layout stored with its images, already decoded (``import_layout``)."""
    mapped = {old_id: _store_image(image_name, picture, actor=actor).pk for old_id, (image_name, picture) in decoded.items()}
    for block in design["blocks"]:
        if "image" in block:
            block["image"] = mapped[str(block["image"])]
    final, n = base, 2
    while ScreenLayout.objects.filter(name=final).exists():
        final, n = f"{base[:74]} ({n})", n + 1
    return save_layout(name=final, design=design, portrait=portrait, actor=actor)


# --- images -------------------------------------------------------------------------------------


def upload_image(*, name, content: bytes, actor: Actor) -> ScreenImage:
    """A logo or a sponsor's image: decoded (``_decode_image``: PNG, JPEG, GIF or WebP, at most
    5 MB and 4096 × 4096), its first frame drawn again at most 1920 pixels wide or high, and stored
    as a PNG of its own without what the file carried besides (comments, metadata, scripts): never
    served as sent. Decoded before the transaction that stores it opens."""
    name = _name(name)
    return _store_image(name, _decode_image(content), actor=actor)


def _decode_image(content) -> tuple[bytes, int, int]:
    """``content`` as the PNG stored, with its width and height, or ``ValidationFailed`` on field ``image``: ``bad_image``
    (not a PNG, JPEG, GIF or WebP), ``too_large`` (over 5 MB, a side over 4096 pixels, or one side
    over 32 times the other). The header is read first (Pillow decodes nothing on opening a file),
    so an image refused for its size is never decoded. At most ``DECODES`` decodes run at once in
    a process; another waits up to ``DECODE_WAIT`` seconds for one of them to end, then is refused
    503 ``busy`` (try again in a moment). Never call it inside a transaction: it may take seconds."""
    from PIL import Image, UnidentifiedImageError

    if not isinstance(content, (bytes, bytearray)) or not content:
        raise ValidationFailed("invalid", _("Choose an image file."), field="image")
    if len(content) > MAX_UPLOAD:
        raise ValidationFailed("too_large", _("The image is larger than 5 MB."), field="image")
    not_an_image = ValidationFailed("bad_image", _("The file is not a PNG, JPEG, GIF or WebP image."), field="image")
    too_large = ValidationFailed("too_large", _("The image is larger than 4096 × 4096 pixels."), field="image")
    try:
        # formats: no other decoder of Pillow's ever reads what was sent
        with Image.open(io.BytesIO(content), formats=FORMATS) as src:
            if src.format not in FORMATS:
                raise not_an_image
            width, height = src.size
            if width < 1 or height < 1:
                raise not_an_image
            if width > MAX_WIDTH or height > MAX_HEIGHT or width * height > MAX_PIXELS:
                raise too_large
            if max(width, height) > MAX_RATIO * min(width, height):
                raise ValidationFailed(
                    "too_large", _("The image is too long and thin: one side is more than %(n)s times the other.") % {"n": MAX_RATIO}, field="image"
                )
            if not _decoding.acquire(timeout=DECODE_WAIT):
                raise DomainError("busy", _("Other images are being read at this moment: try again in a moment."), field="image", status=503)
            try:
                src.seek(0)
                picture = _drawn_small(src)
                out = io.BytesIO()
                picture.save(out, format="PNG", optimize=True)
                size = picture.size
            finally:
                _decoding.release()
    except DomainError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        # Pillow's own bound (far above ours) refuses on opening, before our checks
        raise too_large from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise not_an_image from None
    return out.getvalue(), *size


def _drawn_small(src):
    """``src`` drawn again at most ``MAX_SIDE`` a side, in RGBA, for as little memory as its
    decode allows. A 4096² picture is 64 MB decoded; resized at once, or made RGBA at full size,
    it took 110 MB. So: made small in its own mode, by whole steps first (each 2 × 2 pixels
    averaged, the full picture let go before the rest), then RGBA. A palette or 1-bit picture is
    made RGBA first (it costs a quarter as much), as resizing one would pick pixels, not blend them."""
    src.draft("RGB", (MAX_SIDE, MAX_SIDE))  # a JPEG is decoded at a smaller scale at once
    picture = src.convert("RGBA") if src.mode in ("1", "P", "PA") else src
    picture.load()
    step = max(picture.size) // MAX_SIDE
    if step > 1:
        full, picture = picture, picture.reduce(step)
        full.close()  # its pixels let go now, not when the request ends
    picture.thumbnail((MAX_SIDE, MAX_SIDE))
    return picture if picture.mode == "RGBA" else picture.convert("RGBA")


@service
def _store_image(name: str, decoded: tuple[bytes, int, int], *, actor: Actor) -> ScreenImage:
    """An image already decoded and encoded again (``_decode_image``) stored and logged.

    The row is written with its PNG as a bound parameter (``compiled.insert``: server-side
    binding on PostgreSQL), as a kept sheet is. The ORM's own insert binds on the client: its
    statement's text then holds the picture as hex, twice its size, and psycopg keeps the texts
    it has run on each connection to count them for preparing (``prepare_threshold``), so every
    pooled connection would keep the last images uploaded through it."""
    png, width, height = decoded
    image = ScreenImage(name=name, png=png, digest=hashlib.sha256(png).hexdigest(), width=width, height=height)
    compiled.insert([image])
    log_event(None, Action.TOURNAMENTS_SCREEN_IMAGE_UPLOADED, actor, image=image.name, width=image.width, height=image.height)
    return image


def image_addresses(designs=None) -> dict[str, str]:
    """The images the designs show (every image, with none given: the editor's preview may place
    any): id → the digest its address names (``live.screen_image``)."""
    rows = ScreenImage.objects.all()
    if designs is not None:
        rows = rows.filter(pk__in=set().union(set(), *(screen_rules.images_of(d) for d in designs)))
    return {str(pk): digest for pk, digest in rows.values_list("pk", "digest")}


def sounds_of(screen: DisplayScreen) -> dict:
    return screen_rules.clean_sounds(screen.sounds or {})
