"""Management commands of seating."""
