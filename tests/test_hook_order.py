"""The hook shows past sessions in find_past_fix's order: a fixed failure before unfixed ones.

Two newer sessions hit the error and fixed nothing; an older one fixed it. The hook
describes SHOWN sessions: ordered by recency alone, it would describe the two that
fixed nothing and leave the fix out (issue 21, item 6).
"""

import json

from conftest import build_index
from corpus import TS_ERROR, event, fixed_session
from jsonl import prompt, result, say, tool_use, write_jsonl

from pastfix import hook, queries

FIXED = "eeeeeeee-0000-4000-8000-000000000005"
STUCK = ["ffffffff-0000-4000-8000-000000000006", "ffffffff-0000-4000-8000-000000000007"]


def stuck_session(session: str, day: int) -> list[dict]:
    """The same build failing, and the session ending without a retry."""
    t = f"2026-01-0{day}T10:00:"
    return [
        prompt(f"{session}-p", session, "fix the build", t + "00Z"),
        tool_use(
            f"{session}-1",
            session,
            f"{session}-t1",
            "Bash",
            {"command": "npm run build"},
            t + "01Z",
        ),
        result(
            f"{session}-2",
            session,
            f"{session}-t1",
            "Exit code 2\n> tsc\n" + TS_ERROR.format(file="src/order.ts", line=12),
            t + "02Z",
            True,
        ),
        say(f"{session}-3", session, "I could not work out the Order type.", t + "03Z"),
    ]


def test_a_fixed_session_is_shown_before_newer_unfixed_ones(tmp_path):
    project = tmp_path / "projects" / "-home-dev-app"
    write_jsonl(project / f"{FIXED}.jsonl", fixed_session(FIXED, 1, "src/order.ts", 12))
    for day, session in enumerate(STUCK, 3):
        write_jsonl(project / f"{session}.jsonl", stuck_session(session, day))
    db = tmp_path / "index.db"
    build_index(db, tmp_path / "projects")

    error = "Exit code 2\n" + TS_ERROR.format(file="src/order.ts", line=12)
    rows = hook.matches(queries.connect(db), event(error))
    assert [r["session_id"] for r in rows] == [FIXED, STUCK[1], STUCK[0]]
    assert [r["outcome"] for r in rows] == ["fixed", "not fixed", "not fixed"]

    text = json.loads(hook.respond(json.dumps(event(error)), db))["hookSpecificOutput"][
        "additionalContext"
    ]
    assert "3 times in 3 other sessions" in text
    assert f"session {FIXED}" in text and "fix: edited src/order.ts" in text
    # the sessions that did not get past it are named, not described: "not fixed there"
    # is nothing to act on (a new user's find, session 31)
    assert f"session {STUCK[1]}" not in text and "not fixed there" not in text
    assert STUCK[1][: queries.SESSION_PREFIX_CHARS] in text.splitlines()[0]
