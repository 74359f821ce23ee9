"""Imports: sheets of people, blind structures, payout tables and league results, in and out.

``rules`` is the frame every kind plugs into (the row, the importer, the registry, the preview and
the export), ``people`` and ``structures`` the tournaments app's own kinds (the payout tables and
the league results register theirs from their apps), ``services`` the upload kept and the one
transaction that imports it, ``views`` the pages and ``api`` the REST API.
"""
