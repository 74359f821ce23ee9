"""The event log: every action it records, the services that write it and publish the change,
and the log read as sentences."""
