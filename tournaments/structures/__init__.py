"""Blind structures: the built-in ones (JSON beside this file), their services and API bodies."""
