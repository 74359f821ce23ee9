"""The product's own number formats where a language's card rooms write numbers otherwise than
Django's defaults (``FORMAT_MODULE_PATH``): each language a package with a ``formats`` module,
only the settings that differ, Django's for the rest."""
