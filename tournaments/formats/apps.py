from django.apps import AppConfig


class FormatsConfig(AppConfig):
    name = "tournaments.formats"
    label = "formats"
    verbose_name = "Tournament formats"

    def ready(self):
        from . import receivers  # imported once the models are loaded: the receivers read them

        receivers.connect()
