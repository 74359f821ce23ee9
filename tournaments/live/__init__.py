"""The live state of a tournament: the snapshot screens and dashboards show, its stream (SSE) and
polling, the screens' seat lookup."""
