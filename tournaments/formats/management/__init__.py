"""Management commands of the formats."""
