from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tdmanager import realtime, roles

        from .phone import phone_index
        from .selectors import granted_to_regulator
        from .snapshot import build_snapshot

        realtime.hub.snapshot_builder = build_snapshot  # the transport is handed the builders
        realtime.hub.phone_builder = phone_index
        roles.regulator_scope["granted"] = granted_to_regulator  # which tournaments a regulator reads
