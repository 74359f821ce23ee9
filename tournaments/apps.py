from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tdmanager import realtime

        from .snapshot import build_snapshot

        realtime.hub.snapshot_builder = build_snapshot  # the transport is handed the builder
