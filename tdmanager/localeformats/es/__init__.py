"""Spanish: Django's formats but for the thousands (see ``formats``)."""
