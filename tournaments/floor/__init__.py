"""The floor's tools: chips in play, chip sets, colour-ups and chip races, chip counts, penalties;
the floor overview of every running tournament."""
