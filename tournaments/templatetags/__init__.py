"""Template tags of tournaments' pages."""
