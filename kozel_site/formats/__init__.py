"""Our own date formats per locale (settings.FORMAT_MODULE_PATH); Django's for the rest."""
