from django.apps import AppConfig


class FormatsConfig(AppConfig):
    name = "tournaments.formats"
    label = "formats"
    verbose_name = "Tournament formats"
