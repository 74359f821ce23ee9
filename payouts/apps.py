"""The payouts app: its receivers and import kinds, wired once the models are loaded."""

from django.apps import AppConfig


class PayoutsConfig(AppConfig):
    name = "payouts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import (
            imports,  # noqa: F401  (registers the payout tables' import and export)
            receivers,  # imported once the models are loaded: the receivers read them
        )

        receivers.connect()
