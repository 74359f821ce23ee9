"""The Tournament Director 3 (TD3): reading its save files (``.tdt``) and its points formulas.

``reader`` turns a save file (one JavaScript literal) into plain Python without running any of
it, ``model`` picks from that tree what an import needs (the event, its levels, fee profiles,
players, buy-ins, bust-outs, add-ons, prizes and the points formula), ``formula`` evaluates
TD3's points-for-playing language and ``variables`` gives its variables for a player of an
event.
"""
