"""pastfix: search your Claude Code history for how you fixed an error last time."""
