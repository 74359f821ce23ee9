"""Tournament formats beyond the single-table-to-winner freezeout: heads-up brackets, timed events
and qualifying tables, multi-day flights with bagging, daily series and leaderboards."""
