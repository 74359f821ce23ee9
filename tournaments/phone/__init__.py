"""The player's phone: the page of one entry, reached from the QR code on the receipt."""
