"""The seating app: its receivers, wired once the models are loaded."""

from django.apps import AppConfig


class SeatingConfig(AppConfig):
    name = "seating"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import receivers  # imported once the models are loaded: the receivers read them

        receivers.connect()
