"""Datasette plugin (placeholder until the plugin lands)."""
