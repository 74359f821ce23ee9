"""Seating: the draw, balancing and breaking tables, moves, busts, the room's tables and dealers."""
