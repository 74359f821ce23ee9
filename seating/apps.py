from django.apps import AppConfig


class SeatingConfig(AppConfig):
    name = "seating"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import receivers

        receivers.connect()
