"""Receipt numbers handed out, kept outside the database: ``var/receipts.journal``.

A backup restored after the room went on selling brings back the receipt counter as it was in
the backup; the sales made since are gone with their rows, but the players hold their printed
receipts. So that the desk never prints one of those numbers again, every web process writes
ahead here, before a sale's transaction commits, the highest number it may hand out: when a
sale takes a number above the last line, a line reserving the next ``TDM_RECEIPT_JOURNAL_BLOCK``
numbers is appended (``os.write`` of one short line with ``O_APPEND``, then ``fsync``). The sale
path costs one integer comparison, and one append and fsync per block (100 sales by default).

After a restore (``manage.py restore``) the counter continues after the journal's last line (or
after ``--last-receipt N``, the last receipt printed, when larger); the numbers between the
backup's last receipt and that line are reported as lost with the restore (the reconciliation
report of the tournaments open then). Numbers reserved but never printed are skipped, not
reused: a gap of at most a block is the price of writing once per block.

The file belongs to the machine: with several web machines each keeps its own; after a restore
give ``--last-receipt`` from the last receipt printed anywhere (or the largest of the journals).
"""

import logging
import os
import threading
import time
from pathlib import Path

from django.conf import settings

log = logging.getLogger("tdmanager.receipts")

_lock = threading.Lock()
_reserved: int | None = None  # this process's knowledge of the journal's last reservation


def path() -> Path:
    return Path(getattr(settings, "TDM_RECEIPT_JOURNAL", "") or Path(settings.VAR_DIR) / "receipts.journal")


def last_reserved(journal: Path | None = None) -> int:
    """The highest receipt number the journal reserves (0: no journal)."""
    journal = journal or path()
    try:
        with open(journal, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 4096))
            tail = f.read().decode("ascii", "replace").splitlines()
    except FileNotFoundError:
        return 0
    best = 0
    for line in tail:
        word = line.split(" ", 1)[0]
        if word.isdigit():
            best = max(best, int(word))
    return best


def issued(number: int) -> None:
    """A sale took receipt ``number`` (inside its lock, before it commits): make sure the journal
    reserves it. Never refuses a sale: a journal that cannot be written is logged."""
    global _reserved
    if _reserved is not None and number <= _reserved:
        return
    block = max(1, settings.TDM_RECEIPT_JOURNAL_BLOCK)
    with _lock:
        try:
            mark = last_reserved()  # another process may have reserved further already
            if number > mark:
                mark = number + block - 1
                _append(f"{mark} {time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n")
            _reserved = mark
        except OSError:
            log.exception("receipt journal %s not written: a restore cannot know receipt %s was printed", path(), number)


def _append(line: str) -> None:
    journal = path()
    journal.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
    try:
        os.write(fd, line.encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)


def forget() -> None:
    """Forget what this process knows (a restore, tests): the next number reads the file again."""
    global _reserved
    _reserved = None


def continued_from(last_number: int) -> None:
    """After a restore the counter continues after ``last_number``: the journal says so too, so
    that a later restore of an older backup does not go back below it."""
    forget()
    if last_number > last_reserved():
        _append(f"{last_number} {time.strftime('%Y-%m-%dT%H:%M:%S%z')} restore\n")
