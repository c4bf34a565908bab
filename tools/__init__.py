"""Build-time tools (translations, generated pages). Not shipped to the browser."""
