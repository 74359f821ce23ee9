"""The formats app: its receivers and import kinds, wired once the models are loaded."""

from django.apps import AppConfig


class FormatsConfig(AppConfig):
    name = "tournaments.formats"
    label = "formats"
    verbose_name = "Tournament formats"

    def ready(self):
        from . import (
            imports,  # noqa: F401  (registers the league's results import and export)
            receivers,  # imported once the models are loaded: the receivers read them
            td3,  # noqa: F401  (registers the import of The Tournament Director's save files)
        )

        receivers.connect()
