"""Management commands of tournaments."""
