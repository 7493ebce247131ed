"""The only code that writes game data. One module per use-case (STYLE c)."""
