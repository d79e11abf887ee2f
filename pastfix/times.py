"""What is taken as a time: the one rule for what a card, a page or the hook shows and sorts
by, and for which sessions the fix rules read by their times (db._by_place). A module of its
own so that a build, which computes the fixes, does not import pastfix.queries (14 ms).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

# How far past this machine's clock a time may be and still be taken as one (another
# machine's clock ahead, a zone mislabelled).
FUTURE_SLACK = timedelta(days=1)
# The earliest time taken as one: before it, a zero written as a time (the epoch,
# `1970-01-01T00:00:00Z`), which a card showed as "failed 1970-01-01 00:00 UTC" (a new
# user's try, nu48 finding 1). No agent here wrote a transcript before 2000.
EARLIEST_TIME = datetime(2000, 1, 1, tzinfo=UTC)


def known_time(timestamp: str | None) -> datetime | None:
    """A row's timestamp as a time in UTC, or None when it is none: not an ISO time
    (`yesterday`, `2026-13-45T99:99:99Z`, empty), before EARLIEST_TIME (the epoch) or
    later than FUTURE_SLACK from now (`9999-12-31...`). The one rule for what a card, a
    page or the hook shows and sorts by, and for which sessions the fix rules read by
    their times (db._by_place).

    The index keeps what the transcript wrote (a row's timestamp is its transcript's
    text); shown as written, a card said `Bash failed yesterday in ...`, and a future
    time stood first among the latest failures for ever. A time without a zone is UTC, as
    agents write it.
    """
    if not timestamp:
        return None
    try:
        moment = datetime.fromisoformat(timestamp)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return moment if EARLIEST_TIME <= moment <= datetime.now(UTC) + FUTURE_SLACK else None
