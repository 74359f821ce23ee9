"""Log filters (``LOGGING`` in settings)."""

import logging

from django.core.exceptions import PermissionDenied


class RefusalsWithoutTraceback(logging.Filter):
    """A page refused to a login without the role (``PermissionDenied``) is an ordinary answer:
    Django logs it with its traceback, which buried the server log in tracebacks of nothing.
    The line stays ("Forbidden (Permission denied): /path"), the traceback goes."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], PermissionDenied):
            record.exc_info = None
            record.exc_text = None
        return True
