from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tdmanager import realtime, roles

        from .selectors import granted_to_regulator
        from .snapshot import build_snapshot

        realtime.hub.snapshot_builder = build_snapshot  # the transport is handed the builder
        roles.regulator_scope["granted"] = granted_to_regulator  # which tournaments a regulator reads
