"""Settings: ``base`` holds everything; ``test`` and ``production`` adjust it (STYLE f)."""
