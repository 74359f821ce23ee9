"""The tournaments app: where its receivers, import kinds and the realtime hub are wired once the
models are loaded."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Imported here, once every app's models are loaded: these modules read them.
        from tdmanager import authentication, backup, idempotency, realtime, roles, security
        from tournaments.cashier.ledger import receipts_after_restore
        from tournaments.eventlog.services import tell_players_later
        from tournaments.floor.services import chip_race_replay
        from tournaments.live.snapshot import build_snapshot
        from tournaments.oversight.selectors import granted_to_regulator
        from tournaments.people.privacy import erasures_after_restore
        from tournaments.phone.views import phone_index
        from tournaments.staff.logins import connect_receivers, record_lockout

        from .imports import (
            people,  # noqa: F401  (registers the people's import and export)
            structures,  # noqa: F401  (and the blind structures')
        )
        from .models import DeviceToken, IdempotencyRecord
        from .signals import draw_replay_wanted
        from .sql import claim_idempotency_key

        realtime.hub.snapshot_builder = build_snapshot  # the transport is handed the builders
        realtime.hub.phone_builder = phone_index
        realtime.after_publish(tell_players_later)  # the players' notices, sent by the worker
        idempotency.keys.model = IdempotencyRecord  # the keys' table, and the statement claiming a key
        idempotency.keys.claim = claim_idempotency_key
        security.login_locked_out.connect(record_lockout, dispatch_uid="tournaments-login-lockout")  # the audit line
        authentication.tokens.model = DeviceToken  # the devices' API tokens
        connect_receivers()  # a login disabled loses its tokens
        backup.database_restored.connect(receipts_after_restore, dispatch_uid="tournaments-receipts-restore")  # no receipt twice
        backup.database_restored.connect(erasures_after_restore, dispatch_uid="tournaments-erasures-restore")  # nobody erased comes back
        roles.regulator_scope["granted"] = granted_to_regulator  # which tournaments a regulator reads
        draw_replay_wanted.connect(chip_race_replay, dispatch_uid="tournaments-chip-race-replay")  # replay_draw deals a race again
