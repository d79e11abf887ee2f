"""`pastfix hook`: recall a past fix when a tool call fails, as a Claude Code or Codex hook.

Claude Code runs the hook after every failed tool call (the PostToolUseFailure
event) with the event as JSON on standard input. When an earlier failure in
another session matches this one well (the same error signature, or every word
of its key line), the hook prints

    {"hookSpecificOutput": {"hookEventName": "PostToolUseFailure",
                            "additionalContext": "..."}}

and Claude Code shows that context to the model beside the failure: how often
and where the error was seen before, and for the best one or two sessions what
fixed it, a fix made alike in several sessions once (the rows of
queries.find_past_fix). Otherwise it prints nothing.

Codex CLI has no failure event: its PostToolUse hook runs after every call, with
the result as `tool_response` and no failure flag. The hook tells a failure from
that result (pastfix.codex.hook_failure, the rule the build indexes Codex
failures by), stays silent on everything else, and answers a failure in the same
form with "hookEventName": "PostToolUse"; Codex gives the additionalContext to
the model as a developer message beside the call's output (Codex 0.171.0, see
tests/test_codex_e2e.py). A PostToolUse event without Codex's `turn_id` (Claude
Code's, which has a failure event of its own) gets no answer.

A hook must never disturb the session: an interrupt, Claude Code's own noise
(a rejected call, a cancelled sibling, a file not read first...), a key line too
generic to mean anything (`Exit code 1`), no match, another file's fix of a file or folder
that was not there, and every problem (no index, a locked one, bad input) give no output
and exit status 0; problems are told on stderr. An error met before only on the way to
other goals, worked around there, gets one line saying so, never that way round as a fix
(matches(), context()). Every wait is bounded: a build locking the index gets WAIT_SECONDS in all,
the lookup TIME_LIMIT, and `--refresh` behind a running build answers from the
index as it is. It runs on every failed call, so it imports little: no click, no
sqlite-utils (pastfix.entry sends `pastfix hook` here before importing click).
No SQL here: the lookup is queries.find_past_fix.
"""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pastfix import agents, cards, count, paths, queries, records, signatures
from pastfix.patterns import lazy

EVENT = agents.hook_events(agents.CLAUDE)[0]
# Codex's event, after every call, failed or not.
CODEX_EVENT = agents.hook_events("codex")[0]
# Kinds of failure the hook stays silent on: Claude Code's own reports, whose fix is
# obvious from the message itself (read the file first, retry the edit) or which
# are not failures of the work at all (a rejection, an interrupt, a cancelled sibling, a
# call its tool could not get leave to run: auto mode's classifier down, whose past "fix"
# was whatever ran once it was back; nu40 finding 1).
SILENT_KINDS = frozenset(
    {
        "rejected",
        "interrupted",
        "sibling_error",
        "undecided",
        "not_read",
        "permission_denied",
        "hook_blocked",
        "string_not_found",
    }
)
# How find_past_fix matched a row that counts as a good match.
GOOD_MATCHES = ("signature", "all words")
# Rows asked of find_past_fix; those of the calling session (or, in a replay, of a
# later time) are dropped from them.
CANDIDATES = 30
# Past sessions described in full (each once), and the most characters of context.
SHOWN = 2
MAX_CONTEXT = 1500
# A key line needs this many words that are not placeholders to be worth recalling.
MIN_WORDS = 2
_WORD = lazy(r"[^\W_]+")
_PLACEHOLDERS = frozenset({"n", "str", "path", "tmp", "url", "uuid", "hex", "time", "ip"})
# How long the hook waits, in all, for a build that locks the index (a fresh or
# forced one, while it commits), and how long its lookup may take (find_past_fix:
# ~10-50 ms on 500 MB to 2.5 GB indexes, see docs/benchmarks.md). Together well
# under a second: after that the hook is silent.
WAIT_SECONDS = 0.15
TIME_LIMIT = 0.5
# --refresh: how long it waits for another process's lock, and reads files (the rest of
# the hook's answer comes after).
REFRESH_BUSY_SECONDS = 0.2
REFRESH_SECONDS = 0.5


# What the hook reads, said when it gets nothing else.
USAGE = (
    "it reads the agent's hook event as JSON, such as Claude Code's PostToolUseFailure"
    " event (pastfix hook --db index.db < event.json)"
)


class HookInputError(Exception):
    """An event the hook cannot read, or an --agent it does not know: for the user."""


def too_generic(key: str) -> bool:
    """Whether a key line says too little to find the same error (`Exit code 1`, `Error`)."""
    if signatures.status_of(key) is not None:
        return True
    sig = signatures.normalise(key)
    words = [w for w in _WORD.findall(sig) if w.lower() not in _PLACEHOLDERS]
    return len(words) < MIN_WORDS


def matches(
    conn: sqlite3.Connection, event: dict[str, Any], before: str | None = None
) -> list[dict[str, Any]]:
    """The find_past_fix rows that match a PostToolUseFailure event well, best first.

    Their order is find_past_fix's (context() describes the first SHOWN): among equal
    matches a failure whose fix is claimed comes before newer ones that were not fixed
    (queries.find_class), so the fix is what the model is shown; and among matches as
    good, those of a project on the event's kind of system (a Windows folder or not) come
    first: a Linux session's `cmake: command not found` was shown a Windows session's
    `cmd.exe /c "cmake ..."` (a new user's try, session 28).

    Rows of the event's own sessions (own_sessions()) are left out, and with `before` (an ISO
    timestamp, for a replay) rows of failures at or after it.
    """
    error = event.get("error")
    if event.get("is_interrupt") is True or not isinstance(error, str) or not error.strip():
        return []
    if signatures.classify(error) in SILENT_KINDS:
        return []
    # As the index stores text (its failures' key lines and signatures are of redacted text).
    error = conn.execute("SELECT pasted_error(?)", [queries.pasted(error)]).fetchone()[0]
    key = signatures.key_line(error)
    if not key or too_generic(key):
        return []
    found = _recalled(conn, event, error, key, before)
    if found is None:
        # Its key line was not seen before: another error line of it that was, as the find
        # page, `pastfix find` and MCP find one (queries.by_which_line), looked for alone.
        other = queries.by_other_line(conn, error, CANDIDATES)
        found = _recalled(conn, event, other[0], other[0], before) if other else None
    return found or []


def _recalled(
    conn: sqlite3.Connection, event: dict[str, Any], error: str, key: str, before: str | None
) -> list[dict[str, Any]] | None:
    """matches() of an event's `error` by its key line `key`; None when no failure had that
    error (queries.seen_before), so that another line of it may be looked for."""
    own = own_sessions(conn, event)
    # with the file a linter names above it (`./app/page.tsx`, then `12:9  Error: ...`):
    # the same error about another file is not this one (queries.diagnosed_elsewhere)
    header = signatures.file_header(error, key)
    pasted = key if header is None else f"{header.group(0)}\n{key}"
    # (and the exit status that tells a file written from a file run)
    pasted = signatures.status_before(error, key) + pasted
    rows = []
    # the same error met on the way to another goal, only worked around (left out below)
    around = []
    # whether its signature was seen about another file that was not there (left out below)
    elsewhere = False
    tool, target = event.get("tool_name"), _target(event)
    found = queries.find_past_fix(conn, pasted, CANDIDATES)
    if not queries.seen_before(found):
        return None
    for row in found:
        if row["matched"] not in GOOD_MATCHES or row["session_id"] in own:
            continue
        if row["kind"] in SILENT_KINDS:
            continue
        if before is not None and (row["failed_at"] or "") >= before:
            continue
        missing = signatures.says_a_file_is_missing(row["signature"] or "")
        if row["other_names"]:
            # its error signature about other names (a TypeScript property, a yarn script,
            # a column): its fix edited those, and an agent told "this error was seen
            # before" would apply it (a new user's made-up errors, session 35); or about
            # another file that was not there (queries.its_file_is_the_error), as below
            elsewhere = elsewhere or (
                missing and bool(row["other_file"]) and row["matched"] == "signature"
            )
            continue
        if queries.another_goal(row, tool, target):
            # the same error met on the way to another goal, only worked around there: its
            # way round (sql.js from npm for sqlite3) is no fix of this call's (`apt-get
            # install -y jq`), as about other names above (nu45 finding 2)
            if row["matched"] == "signature":
                around.append({**row, "other_goal": True})
            continue
        if missing and another_files(conn, event, row):
            # the same error about another file or folder that was not there, fixed there or
            # not: its fix made, renamed or looked for that one (another project's `mkdir -p
            # .claude/logs`, `AppShell.jsx` renamed), no fix of a file missing here (a new
            # user's three of four missing files, nu42 finding 1; docs/benchmarks.md, "The
            # same error about another file": each was the same error with another path)
            elsewhere = elsewhere or row["matched"] == "signature"
            continue
        if row["other_file"] and not row["fixed_at"]:
            # the same error about another file, not fixed there: nothing for the agent to
            # learn, for the context it costs
            continue
        rows.append(row)
    if elsewhere or any(row["matched"] == "signature" for row in rows):
        # The error itself was seen (here or about another file): failures that only hold
        # its words are other errors that say them (a Dialyzer log holding `file`, `does
        # not` and `exist`), and were counted as this one ("seen 12 times" for 2: a new
        # user's find).
        rows = [row for row in rows if row["matched"] == "signature"]
    if not any(row["fixed_at"] for row in rows):
        # Seen before and got past nowhere: "not fixed there" and the assistant's next
        # words cost the model context and give it nothing to act on (a new user's
        # find, session 31: three of seven events answered with only that). Met only on
        # the way to other goals: that it was, in one line (context(): `brew` is not
        # installed here, whatever brew was to install; nu47 finding 8).
        return around
    return same_system_first(rows, event.get("cwd"))


def own_sessions(conn: sqlite3.Connection, event: dict[str, Any]) -> set[str]:
    """The sessions an event's own: its `session_id`, and every session the index stored from
    its transcript file, or from the file beside it named by its id. Claude Code 1.0.x wrote
    a resumed session's lines, under a new id, into the file of the session it resumed
    (`--resume` opens a file by its name), so the id an event gives and the ids stored from
    its file differ, and the hook recalled the session's own earlier failure, or the one it
    resumed, as another session's (nu41). The paths as the event gives them, and as their
    links lead: a build stores each file by the path it walked to it."""
    own = event.get("session_id")
    found = {own} if isinstance(own, str) and own else set()
    transcript = event.get("transcript_path")
    if not isinstance(transcript, str) or not transcript:
        return found
    paths = [transcript]
    if isinstance(own, str) and own and records.plain_id(own):
        paths.append(str(Path(transcript).with_name(f"{own}.jsonl")))
    try:
        paths += [os.path.realpath(path) for path in paths]
    except (OSError, ValueError):  # (a NUL in the event's path)
        pass
    return found | queries.sessions_of_files(conn, paths)


def another_files(conn: sqlite3.Connection, event: dict[str, Any], row: dict[str, Any]) -> bool:
    """Whether a find_past_fix row of a file or folder that was not there is the event's error
    about another one: said so by its match (`other_file`: find_past_fix compares the paths
    the error names, queries.missing_elsewhere), or by where the two were
    (queries.another_path, the rule's one home): each one's path as its call gave it (a file
    tool's `tool_input`, else the paths its key line names: signatures.named_paths),
    resolved against its project (the event's `cwd`, the row's). Claude Code's `File does not
    exist.` names no file: its `tool_input` says which one it was."""
    if row["other_file"]:
        return True
    cwd = event.get("cwd")
    here = queries.folder(cwd if isinstance(cwd, str) else "")
    there = queries.folder(row["project"] or "")
    tool_input = event.get("tool_input")
    given = tool_input if isinstance(tool_input, dict) else {}
    path = given.get("file_path") or given.get("notebook_path")
    if isinstance(path, str) and path:
        # as the index stores text (redacted alike)
        path = conn.execute("SELECT pasted_error(?)", [queries.pasted(path)]).fetchone()[0]
        mine = {queries.resolved(path, here)}
    else:
        error = event.get("error")
        key = signatures.key_line(error) if isinstance(error, str) else ""
        mine = queries.call_paths(None, None, key, here)
    key = signatures.key_line(row["error"] or "")
    theirs = queries.call_paths(row["tool"], row["target"], key, there)
    return queries.another_path(mine, here, theirs, there)


def _target(event: dict[str, Any]) -> str | None:
    """What the event's call was given, as find_past_fix's `target` has it: its command, or
    its file."""
    tool_input = event.get("tool_input")
    given = tool_input if isinstance(tool_input, dict) else {}
    for key in ("command", "file_path", "notebook_path", "path"):
        value = given.get(key)
        if isinstance(value, str) and value:
            return value
        if key == "command" and isinstance(value, list) and value:
            # Codex's argv (`["bash", "-lc", "..."]`)
            return shlex.join(str(word) for word in value)
    return None


def same_system_first(rows: list[dict[str, Any]], cwd: object) -> list[dict[str, Any]]:
    """`rows` with those of a project on `cwd`'s kind of system (Windows or not) before the
    others as good (queries.find_class, which already puts those written by a shell of the
    error's family first, as `pastfix find` does: queries.other_shell, the rule's one home;
    the folder is what the hook knows besides); within a class, find_past_fix's own order."""
    if not isinstance(cwd, str) or not cwd:
        return rows
    windows = _on_windows(cwd)
    return sorted(
        rows, key=lambda row: (queries.find_class(row), _on_windows(row["project"]) != windows)
    )


def _on_windows(folder: str | None) -> bool:
    """Whether a project folder is a Windows one (`C:\\Users\\me\\x`, Git Bash's `/c/Users/me`)."""
    return bool(folder and _WINDOWS_FOLDER.match(folder))


_WINDOWS_FOLDER = lazy(r"[A-Za-z]:[\\/]|/[a-z]/(?:Users|Program Files)/")


# The remedy steps the hook shows of a past fix (then its confirmation).
HOOK_STEPS = 3


# The lines of an edit's diff the hook shows, at most: beyond, a marker says how many it
# left out.
HOOK_DIFF_LINES = 3


def _diff_shown(diff: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The lines of a step's diff the hook shows: on to its first line out and first line in
    (the first two of a rename were both `-`, which read as a deletion, a new user's try,
    session 27), all of them when they are HOOK_DIFF_LINES or fewer, else those two with
    a marker of the lines between; then a marker of the lines after, as a card's. Two
    lines of two edits, the line between them left out, read as one line replaced by
    another (`- import React from 'react';` `+ import { ChartData } from '../types';`, where
    find showed the `- import { ChartData, DataPoint } ...` between: nu42 finding 11)."""
    first = {sign: n for n, (sign, _) in reversed(list(enumerate(diff))) if sign in "-+"}
    ends = sorted(first.values()) if "-" in first and "+" in first else [0, 1]
    upto = min(ends[-1] + 1, len(diff))
    shown = diff[:upto]
    if upto > HOOK_DIFF_LINES:
        between = upto - 2
        shown = [diff[ends[0]], ("…", _more(between)), diff[ends[-1]]]
    if len(diff) > upto:
        shown.append(("…", _more(len(diff) - upto)))
    return shown


def _more(count: int) -> str:
    """A marker's words, as a card's (cards.diff_lines): `2 more lines`."""
    return f"{count} more line{'s' * (count != 1)}"


def _fix(row: dict[str, Any]) -> list[str]:
    """What fixed a past failure, in a few short lines: the remedy, then its confirmation."""
    lines = []
    if row["fixed_at"]:
        for step in cards.remedy_steps(row)[:HOOK_STEPS]:
            if step["edits"]:
                path = cards.in_project(step["path"], row["project"])
                change = f" (changed: {step['change']})" if step["change"] else ""
                lines.append(f"  fix: edited {path}{change}" if path else "  fix: applied a patch")
                diff = [line for edit in step["edits"] for line in cards.edit_lines(edit)]
                lines += [
                    f"    {sign} {queries.one_line(text, 120)}" for sign, text in _diff_shown(diff)
                ]
            else:
                change = f" (changed: {step['change']})" if step["change"] else ""
                target = queries.one_line(step["target"], 160)
                lines.append(f"  fix: {step['tool']} `{target}`{change}")
        steps = cards.remedy_steps(row)
        confirm = cards.confirming_step(steps, HOOK_STEPS)
        if confirm["shown"]:
            worked_around = row["outcome"] == "worked around"
            said = "worked around:" if worked_around else "and"
            lines.append(f"  {said} that call {cards.succeeded(row)}")
        elif cards.same_call_again(row):
            lines.append(f"  confirmed: {cards.SAME_CALL_AGAIN} {cards.succeeded(row)}")
        elif cards.outside_the_session(row):
            target = queries.one_line(row["fix_target"], 160)
            lines.append(
                f"  worked around {cards.OUTSIDE_THE_SESSION} {row['tool']} `{target}`"
                f" {cards.outside_went(row)}"
            )
        else:
            how = "worked around by" if row["outcome"] == "worked around" else "confirmed:"
            target = cards.where_it_differs(row["fix_target"], row.get("target"), 160)
            lines.append(
                f"  {how} {confirm['tool'] or row['tool']} `{target}` {cards.succeeded(row)}"
            )
    else:
        unfixed = cards.not_fixed_words(row)
        head = "not fixed" if unfixed["fixed"] == "no" else unfixed["fixed"]
        lines.append(f"  {head} there: {unfixed['why']}")
    if row["next_text"]:
        lines.append(f"  the assistant said next: {queries.one_line(row['next_text'], 200)}")
    return lines


def _same_fix(same: list[dict[str, Any]]) -> list[str]:
    """The line naming the other sessions that fixed the error the same way, as a card's
    (`same fix in 3 sessions; also: ...`), by their ids, as the hook names sessions."""
    if not same:
        return []
    others = ", ".join(
        f"{other['session_id'][: queries.SESSION_PREFIX_CHARS]} ({cards.day(other['failed_at'])})"
        for other in same
    )
    return [f"  same fix in {len(same) + 1} sessions; also: {others}"]


def _resume(row: dict[str, Any]) -> str:
    """` (<the command that resumes the row's session>)`, saying why it names another id
    when it does: a Claude Code 1.0.x session resumed into another's file is reopened by
    that file's id, and two ids side by side, unexplained, read as a mistake (nu41)."""
    resume = row.get("resume")
    if not resume:
        return ""
    if row["session_id"] not in resume:
        return f" ({resume}: its transcript is that session's file)"
    return f" ({resume})"


def context(rows: list[dict[str, Any]], db_path: Path | None = None) -> str:
    """The additionalContext for good matches: where the error was seen, what fixed it.

    `db_path`, the index the rows are from, is named in the closing line: `pastfix find`
    without one reads ./index.db first, so from a folder holding another index, or for a
    hook installed with --db elsewhere, it would answer from another index."""
    sessions: dict[str, int] = {}
    for row in rows:
        sessions[row["session_id"]] = sessions.get(row["session_id"], 0) + row["occurrences"]
    times = sum(sessions.values())
    named = ", ".join(s[: queries.SESSION_PREFIX_CHARS] for s in list(sessions)[:6])
    if rows and all(row.get("other_goal") for row in rows):
        return _other_goals(rows, times, len(sessions), named)
    seen = "this error was seen before"
    if rows and all(row["matched"] == "all words" for row in rows):
        seen = "failures holding every word of this error were seen before"
    elif rows and all(row.get("other_file") for row in rows):
        # (not this error: `ls: cannot access <path>/a.md` of other paths; a new user's try)
        seen = "this error about another file was seen before"
    head = (
        f"pastfix: {seen}, {times} time{'s' * (times != 1)} in"
        f" {len(sessions)} other session{'s' * (len(sessions) != 1)}"
        f" ({named}{', …' if len(sessions) > 6 else ''})."
    )
    # The best row of each of the first SHOWN sessions: a session's other rows (another
    # signature of the same error, matched by its words) would say it twice.
    # Only sessions that got past it, when one did: "not fixed there" is nothing to act on.
    fixed = [row for row in rows if row["fixed_at"]] or rows
    best: dict[str, dict[str, Any]] = {}
    for row in fixed:
        best.setdefault(row["session_id"], row)
    # The same fix in several sessions (two worktrees of one repository): one block, naming
    # the others, as find's card does (cards.group_same_fixes, the rule's one home). Two
    # blocks of one fix spent the budget on it twice, and left out another fix (nu45 finding
    # 6).
    blocks = []
    for row, same in cards.group_same_fixes(best.values(), cards.row_fix_key)[:SHOWN]:
        how = cards.how_matched(row)
        blocks.append(
            "\n".join(
                [
                    f"- {cards.day(row['failed_at'])}"
                    f"{' in ' + row['project'] if row['project'] else ''} ({how}),"
                    f" session {row['session_id']}"
                    # (none for a session id that is no plain word, or a Gemini checkpoint)
                    f"{_resume(row)}:",
                    *_fix(row),
                    *_same_fix(same),
                ]
            )
        )
    db = f" --db {shlex.quote(str(db_path))}" if db_path else ""
    tail = f"More: `pastfix find - --json{db}` with the error on stdin."
    text = "\n".join([head, *blocks, tail])
    while len(text) > MAX_CONTEXT and len(blocks) > 1:
        blocks.pop()
        text = "\n".join([head, *blocks, tail])
    return text if len(text) <= MAX_CONTEXT else text[: MAX_CONTEXT - 1] + "…"


def _other_goals(rows: list[dict[str, Any]], times: int, sessions: int, named: str) -> str:
    """The one line for an error met before only on the way to other goals (_recalled):
    that it was, and the programs its ways round ran, marked as no fix for this command.
    The error is a fact of the machine (`brew` is not installed, sudo asks for a password),
    which an agent may act on; the way round was for another goal (pip3's yt-dlp for an
    ffmpeg), so it is named by its programs, never given as this call's fix (nu45 finding 2,
    nu47 finding 8)."""
    ran = cards.ways_round(rows)
    ways = f"; the way round there ran {', '.join(list(ran)[:3])}" if ran else ""
    return (
        f"pastfix: this error was seen before, {times} time{'s' * (times != 1)} in"
        f" {sessions} other session{'s' * (sessions != 1)} ({named}), only worked around"
        f" on the way to another goal ({queries.OTHER_GOAL}){ways}: no fix for this command."
    )


def output(additional_context: str, event_name: str = EVENT) -> str:
    """The hook's JSON answer to an `event_name` event carrying `additional_context`."""
    return json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": event_name,
                "additionalContext": additional_context,
            }
        }
    )


def failure_event(event: dict[str, Any], agent: str | None = None) -> dict[str, Any] | None:
    """The event as a PostToolUseFailure event, with its `error`; None when it is none.

    A Codex PostToolUse event is one when its call failed: its `error` is the
    failure as the build stores it (`Exit code N` first for a command). With
    `agent` (`pastfix hook --agent NAME`), that agent's hook module says
    (pastfix.agents.Agent.hook).
    """
    module = _hook_module(agent)
    if module is not None:
        failure = module.hook_failure(event)
        return None if failure is None else {**event, **failure}
    name = event.get("hook_event_name", EVENT)
    if name == EVENT:
        return event
    if name != CODEX_EVENT or "turn_id" not in event:
        return None
    from pastfix import codex  # imported here: only Codex's events pay for it (~10 ms)

    error = codex.hook_failure(event)
    return None if error is None else {**event, "error": error}


def _hook_module(agent: str | None) -> Any:
    """The module answering `agent`'s hook events; None for the events told apart here."""
    if agent is None:
        return None
    from pastfix import agents

    known = agents.AGENTS.get(agent)
    if known is None:
        *names, last = [name for name, a in agents.AGENTS.items() if a.hook]
        raise HookInputError(
            f"no agent {agent!r}: --agent takes {', '.join(names)} or {last}"
            " (Claude Code's and Codex's events need none)"
        )
    if known.hook is None:  # Claude Code's and Codex's events, told apart without it
        return None
    import importlib

    return importlib.import_module(known.hook)


def respond(
    stdin_text: str, db_path: Path, before: str | None = None, agent: str | None = None
) -> str:
    """What the hook prints for one event: the JSON answer, or "" to stay silent.

    Problems (bad input, no index, a locked one) raise: run() tells them on stderr.
    """
    if not stdin_text.strip():
        raise HookInputError(f"no event on standard input: {USAGE}")
    try:
        received = json.loads(stdin_text)
    except ValueError as e:
        raise HookInputError(f"the event on standard input is not JSON ({e}): {USAGE}") from e
    except RecursionError as e:  # said `RecursionError: maximum recursion depth exceeded ...`
        raise HookInputError(
            f"the event on standard input is JSON nested too deeply: {USAGE}"
        ) from e
    if not isinstance(received, dict):  # `[1, 2]`, `"text"`, `null`: it was silent
        raise HookInputError(
            f"the event on standard input is {_json_kind(received)}, not an object: {USAGE}"
        )
    event = failure_event(received, agent)
    if event is None:
        return ""
    folder = paths.folder_not_index(db_path)
    if folder:  # queries.connect says only "not found"
        raise queries.NotAnIndex(folder)
    deadline = time.monotonic() + WAIT_SECONDS
    conn = queries.connect(db_path, timeout=WAIT_SECONDS, time_limit=TIME_LIMIT)
    try:
        # What connect() waited counts: the lookup's statement waits the rest.
        left = max(0.0, deadline - time.monotonic())
        conn.execute(f"PRAGMA busy_timeout = {int(left * 1000)}")
        rows = matches(conn, event, before)
    finally:
        conn.close()
    if not rows:
        return ""
    module = _hook_module(agent)
    if module is not None:
        answer: str = module.hook_output(context(rows, db_path), received)
        return answer
    return output(context(rows, db_path), received.get("hook_event_name", EVENT))


def _json_kind(value: Any) -> str:
    """What a decoded JSON value is, in JSON's words: `a JSON array`, `JSON null`."""
    if isinstance(value, bool) or value is None:
        return f"JSON {json.dumps(value)}"
    if isinstance(value, list):
        return "a JSON array"
    return "a JSON string" if isinstance(value, str) else "a JSON number"


def refresh(db_path: Path, agent: str | None = None) -> None:
    """Bring the index up to date with the calling agent's folders (Claude Code's,
    ~/.claude/projects, without `agent`), incrementally, within REFRESH_SECONDS.

    Only an index a build has finished, with redaction (the default), whose schema and
    rules are this pastfix's, is refreshed: a hook never starts a full re-index, a
    migration, or the rules' work over every row (said on stderr). Behind a running
    build it gives up at once, behind another process's lock after REFRESH_BUSY_SECONDS,
    and it reads files for REFRESH_SECONDS at most, leaving the rest to the next
    build, a file larger than that time allows whole (build.BUDGET_BYTES_PER_SECOND): the
    hook answers from the index as it is. (Behind a sqlite3 shell's lock it waited the
    build's minute; with a backlog it read all of it, 6 s; a new 300 MB transcript, 3.6 s.)
    """
    from pastfix import build as pbuild  # imported here: only --refresh pays for it

    folders = [p for p in agents.reader(agent or agents.CLAUDE).default_folders() if p.is_dir()]
    if not folders or not db_path.is_file():
        return
    try:
        with pbuild.build_lock(db_path, wait=False):
            why = _not_refreshed(db_path)
            if why:
                print(f"pastfix hook: not refreshed: {why}", file=sys.stderr)
                return
            stats = pbuild.build(
                db_path, folders, busy_timeout=REFRESH_BUSY_SECONDS, budget=REFRESH_SECONDS
            )
            if stats.files_left:
                print(
                    f"pastfix hook: {count(stats.files_left, 'file')} left to the next build",
                    file=sys.stderr,
                )
    except pbuild.BuildBusy as e:
        print(f"pastfix hook: {e}: answering from the index as it is", file=sys.stderr)


def _not_refreshed(db_path: Path) -> str | None:
    """Why --refresh leaves the index as it is (None: it refreshes it), read without
    writing and without waiting long."""
    from pastfix import LATEST_MIGRATION
    from pastfix import db as pdb

    try:
        conn = sqlite3.connect(
            f"{db_path.absolute().as_uri()}?mode=ro", uri=True, timeout=REFRESH_BUSY_SECONDS
        )
    except sqlite3.Error as e:
        return f"{db_path} cannot be opened ({e})"
    try:
        applied = {r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations")}
        if LATEST_MIGRATION not in applied:
            return f"{db_path} needs a migration: run `pastfix build`"
        if not conn.execute(queries.BUILT_SQL).fetchone():
            return f"no build of {db_path} has finished"
        if not pdb.redact_setting(conn):
            return f"{db_path} was built with --no-redact"
        if not (
            pdb.signatures_current(conn) and pdb.fixes_current(conn) and pdb.redaction_current(conn)
        ):
            return f"this pastfix's rules are newer than {db_path}'s: run `pastfix build`"
    except sqlite3.Error as e:
        return f"{db_path} cannot be read ({e})"
    finally:
        conn.close()
    return None


def run(
    stdin_text: str, db_path: Path, refresh_first: bool = False, agent: str | None = None
) -> str:
    """respond(), with every problem told on stderr and turned into silence.

    A refresh that fails still lets the hook answer from the index as it is.
    """
    if refresh_first:
        try:
            refresh(db_path, agent)
        except Exception as e:  # a hook must never disturb the session
            print(f"pastfix hook: {type(e).__name__}: {e}", file=sys.stderr)
    try:
        return respond(stdin_text, db_path, agent=agent)
    except (HookInputError, queries.NotAnIndex, queries.QueryError) as e:  # meant for people
        print(f"pastfix hook: {e}", file=sys.stderr)
        return ""
    except Exception as e:  # a hook must never disturb the session
        print(f"pastfix hook: {type(e).__name__}: {e}", file=sys.stderr)
        return ""


def main(argv: Sequence[str]) -> int | None:
    """`pastfix hook [--db DB] [--refresh] [--agent NAME]` without click; None for anything else.

    Any other argument (install, uninstall, --help) is left to the click command.
    """
    db_path, refresh_first, agent = None, False, None
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--refresh":
            refresh_first = True
        elif arg == "--db" and args:
            db_path = args.pop(0)
        elif arg.startswith("--db="):
            db_path = arg[5:]
        elif arg == "--agent" and args:
            agent = args.pop(0)
        else:
            return None
    if sys.stdin.isatty():  # run by hand: the agent always pipes the event in
        print(f"pastfix hook: {USAGE}", file=sys.stderr)
        return 0
    try:
        stdin_text = sys.stdin.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"pastfix hook: cannot read the event: {e}", file=sys.stderr)
        return 0
    try:
        db = Path(db_path) if db_path else paths.default_db()
        answer = run(stdin_text, db, refresh_first, agent)
    except paths.NoHome as e:  # the agent goes on; its user reads why in the hook's log
        print(f"pastfix hook: {e}", file=sys.stderr)
        return 0
    if answer:
        sys.stdout.write(answer + "\n")
    return 0
