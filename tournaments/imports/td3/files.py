"""TD3 save files as they come in: one ``.tdt``, or a ``.zip`` of them, read within bounds.

``unpack(data, filename)`` gives the save files of an upload as ``(name, bytes)``: the file
itself when it is one, every ``.tdt`` of a zip otherwise (folders inside it flattened, other
files ignored). A zip is read as the sheets' reader reads a workbook: at most ``MAX_FILES``
save files, each at most ``MAX_EACH`` and all together at most ``MAX_UNPACKED`` once unpacked,
the sizes the zip declares checked before anything is inflated and the inflating itself cut
at the declared size (a zip that lies about its sizes, a bomb, is refused, never unpacked
whole); only stored or deflated members, never encrypted ones.

``bundle(files)`` makes the one upload of several save files (a zip, stored, not compressed):
the import frame keeps one file from its preview to its confirmation.

``events(files)`` reads each save file into ``model.Event``; a file that is not a TD3 save, is
cut short or holds what cannot be read refuses the whole run with ``Td3FileError``, naming
the file and the line and column.
"""

from __future__ import annotations

import hashlib
import io
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath

from tournaments.imports.td3 import model, reader
from tournaments.imports.td3.reader import Td3FormatError
from tournaments.imports.td3.reader import translated as _

MAX_FILES = 2000
MAX_EACH = 16 * 1024 * 1024
MAX_UNPACKED = 400 * 1024 * 1024
_CHUNK = 1024 * 1024


class Td3FileError(ValueError):
    """A file of the run cannot come in: ``filename`` names it, ``message`` says why and where."""

    def __init__(self, filename: str, message: str):
        self.filename = filename
        self.message = message
        super().__init__(f"{filename}: {message}")


@dataclass(frozen=True)
class SaveFile:
    name: str
    event: model.Event
    digest: str  # of the file's bytes: the same file again is the same digest


def is_zip(data: bytes) -> bool:
    return data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06"


def unpack(data: bytes, filename: str) -> list[tuple[str, bytes]]:
    """The save files of an upload (see the module's docstring)."""
    if not is_zip(data):
        if len(data) > MAX_EACH:
            raise Td3FileError(filename, _("The file is larger than %(mb)d MB.") % {"mb": MAX_EACH // (1024 * 1024)})
        return [(filename or "event.tdt", data)]
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if not m.is_dir() and m.filename.lower().endswith(".tdt")]
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise Td3FileError(filename, _("The zip file cannot be read.")) from None
    if not members:
        raise Td3FileError(filename, _("The zip file holds no TD3 save file (.tdt)."))
    if len(members) > MAX_FILES:
        raise Td3FileError(filename, _("The zip file holds more than %(n)d save files.") % {"n": MAX_FILES})
    if sum(m.file_size for m in members) > MAX_UNPACKED:
        raise Td3FileError(filename, _("The zip file unpacks to more than %(mb)d MB.") % {"mb": MAX_UNPACKED // (1024 * 1024)})
    out, names = [], set()
    for member in sorted(members, key=lambda m: m.filename):
        name = PurePosixPath(member.filename.replace("\\", "/")).name
        if member.file_size > MAX_EACH:
            raise Td3FileError(name, _("The file is larger than %(mb)d MB.") % {"mb": MAX_EACH // (1024 * 1024)})
        if name in names:
            raise Td3FileError(name, _("Two files of the zip have this name: keep one."))
        names.add(name)
        out.append((name, _inflated(data, member, name)))
    return out


def _inflated(data: bytes, member: zipfile.ZipInfo, name: str) -> bytes:
    """A member's bytes, never more than it declares (a member that holds more is refused):
    its compressed bytes are found from its local header and inflated in chunks."""
    bad = Td3FileError(name, _("The file cannot be unpacked from the zip."))
    if member.flag_bits & 0x1 or member.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise bad
    at = member.header_offset
    header = data[at : at + 30]
    if len(header) != 30 or header[:4] != b"PK\x03\x04":
        raise bad
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    start = at + 30 + name_length + extra_length
    packed = data[start : start + member.compress_size]
    if len(packed) != member.compress_size:
        raise bad
    if member.compress_type == zipfile.ZIP_STORED:
        body = packed
    else:
        inflater, parts, size = zlib.decompressobj(-zlib.MAX_WBITS), [], 0
        try:
            for offset in range(0, len(packed), _CHUNK):
                piece = inflater.decompress(packed[offset : offset + _CHUNK], member.file_size + 1 - size)
                size += len(piece)
                parts.append(piece)
                if size > member.file_size or inflater.unconsumed_tail:
                    raise bad
            parts.append(inflater.flush())
        except zlib.error:
            raise bad from None
        body = b"".join(parts)
    if len(body) != member.file_size or zlib.crc32(body) != member.CRC:
        raise bad
    return body


def bundle(files: list[tuple[str, bytes]]) -> bytes:
    """Several save files as one zip (stored: the files are read back at once, not kept long)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        seen = set()
        for name, data in files:
            name = PurePosixPath((name or "event.tdt").replace("\\", "/")).name
            if not name.lower().endswith(".tdt"):
                name += ".tdt"
            if name in seen:
                raise Td3FileError(name, _("Two files have this name: keep one."))
            seen.add(name)
            archive.writestr(name, data)
    return buffer.getvalue()


def events(files: list[tuple[str, bytes]]) -> list[SaveFile]:
    """Each save file read (see the module's docstring); the first that cannot be refuses all."""
    out = []
    for name, data in files:
        try:
            event = model.event_of(reader.load(data, max_size=MAX_EACH))
        except Td3FormatError as exc:
            raise Td3FileError(name, str(exc)) from None
        except RecursionError:
            raise Td3FileError(name, _("The file nests too deep: not a TD3 save file.")) from None
        if not event.uuid:
            raise Td3FileError(name, _("The tournament has no id (“UUID”): not a TD3 save file."))
        out.append(SaveFile(name, event, hashlib.sha256(data).hexdigest()))
    return out
