"""Management commands of the ground floor."""
