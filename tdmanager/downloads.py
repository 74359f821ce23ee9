"""A file to download: its name as the reader will see it saved, one way for every export.

The name keeps its letters in any script ("Venerdì Deepstack.csv", "Турнир.xlsx"); what a file
system or a header refuses (slashes, quotes, control characters, a leading dot) becomes "_".
The header carries it as RFC 6266 asks (``filename*`` in UTF-8 when it is not plain ASCII),
so every browser saves it under the name the page showed.
"""

from django.utils.http import content_disposition_header

KEPT = " ._-()"  # besides letters and digits: what a name may hold
LONGEST = 100


def safe_name(name: str) -> str:
    """``name`` fit for a saved file: letters and digits of any script, and ``KEPT``."""
    kept = "".join(ch if ch.isalnum() or ch in KEPT else "_" for ch in name or "").strip(" .")
    return kept[:LONGEST] or "export"


def attachment(name: str) -> str:
    """The ``Content-Disposition`` of a download named ``name``."""
    return content_disposition_header(True, safe_name(name))
