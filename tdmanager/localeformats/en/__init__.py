"""English as Europe's card rooms write it: day before month, the 24-hour clock (see ``formats``)."""
