"""Payouts: prize pools, payout tables, places and prizes, satellites, deals, bounties, leagues'
points, side pools and the jackpot, and the reports."""
