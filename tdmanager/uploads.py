"""Reading an uploaded file, the one way every upload does it: sheets to import, the lobby
screens' images and layout files.

Its body is read, parsed and decoded inside the process's turn to read a file
(``bodylimits.file_turn``: one at a time, since the body, the parsed file and the decoded
picture are what cost memory); another file arriving meanwhile is refused 503 ``busy`` at once,
in words that name its kind, and holds no staff thread. The web app took the turn already for
a request it served (``bodylimits.TURN_HELD``). How large each kind may be is the body limits'
(``bodylimits.ROUTES``), checked before any of this.
"""

import contextlib

from tdmanager import bodylimits, errorpages
from tdmanager.errors import DomainError

#: The field a refusal names, by the kind of file.
FIELD = {bodylimits.SHEET: "file", bodylimits.IMAGE: "image"}


@contextlib.contextmanager
def reading(request, kind: str):
    """Held while ``request`` reads a file of ``kind``: ``bodylimits.SHEET``, or
    ``bodylimits.IMAGE`` for an image or a layout file (its images inside), from before its body
    is read to the end of its decodes and preview."""
    try:
        with bodylimits.file_turn(held=request.META.get(bodylimits.TURN_HELD, False)):
            yield
    except bodylimits.Busy:
        raise DomainError("busy", errorpages.busy_detail(kind), field=FIELD[kind], status=503) from None
