"""Domain errors: a machine-readable code and a message in the user's language."""


class DomainError(Exception):
    """Raised by services when a rule forbids an action. ``status`` is the HTTP answer."""

    status = 409

    def __init__(self, code: str, message, *, status: int | None = None, **extra):
        super().__init__(str(message))
        self.code = code
        self.message = message
        if status is not None:
            self.status = status
        self.extra = extra

    def as_dict(self):
        data = {"code": self.code, "detail": str(self.message)}
        data.update(self.extra)
        return data


class ValidationFailed(DomainError):
    status = 400
