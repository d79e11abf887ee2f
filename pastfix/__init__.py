"""pastfix: search your coding agents' history for how you fixed an error last time."""

# The newest migration in pastfix.migrations: an index without it was built by an
# older pastfix, and its queries need `pastfix build` to bring it up to date.
LATEST_MIGRATION = "m030_claude_rejection_words"


def count(n: int, thing: str) -> str:
    """`1 file`, `2 files`, `0 files`: every count pastfix prints for people."""
    return f"{n:,} {thing}{'s' if n != 1 else ''}"
