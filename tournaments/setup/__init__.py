"""A tournament's setup and lifecycle: creating and changing one, templates, its published changes,
the TV table's stream, from planned to finished."""
