"""Template tags every page uses."""
