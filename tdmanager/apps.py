"""The ground floor's app: its system checks and receivers, registered once the apps are loaded."""

from django.apps import AppConfig


class TdmanagerConfig(AppConfig):
    name = "tdmanager"
    verbose_name = "TDManager"

    def ready(self):
        from . import (
            checks,  # noqa: F401  registers the system checks, once the apps are loaded
            reached,  # noqa: F401  counts the logins on the secure address (it reads the sessions' signal)
        )
