"""`pastfix status`: where the index is, what it holds, and what keeps it up to date.

Claude Code deletes transcripts older than its `cleanupPeriodDays` setting (30 when
unset) each time it starts; the index keeps their sessions (migrations.m012_archive),
but only those it read before they went. So status says what reads them in time:
the SessionEnd hook, and when the last build was.
"""

from __future__ import annotations

import calendar
import json
import os
import sqlite3
import stat
import time
from pathlib import Path
from typing import Any

from pastfix import agents, count, install, paths, queries, records

# The standing problems the text lists (all of them are in the problems table).
PROBLEMS_SHOWN = 5
# The sources of a running build the text names (--json lists them all).
SOURCES_SHOWN = 3
# Claude Code's default cleanupPeriodDays; hook install mentions the setting when it is
# unset or no longer than this.
DEFAULT_CLEANUP_DAYS = 30


def cleanup_period_days(settings: dict[str, Any]) -> int | None:
    """Claude Code's cleanupPeriodDays as `settings` has it; None when unset (30 days)."""
    value = settings.get("cleanupPeriodDays")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def cleanup_notice(days: int | None) -> str | None:
    """The one line `hook install` prints about cleanupPeriodDays, when it is unset or short."""
    if days is not None and days > DEFAULT_CLEANUP_DAYS:
        return None
    if days == 0:
        # Meant as "never clean up", it stops Claude Code writing transcripts at all
        # (anthropics/claude-code#23710): there is nothing for the index to read.
        return (
            "cleanupPeriodDays is 0, which can stop Claude Code writing transcripts at all:"
            " set a large number of days instead (99999) for the index to have sessions to read"
        )
    setting = "unset, so 30" if days is None else str(days)
    return (
        f"Claude Code deletes transcripts older than cleanupPeriodDays ({setting} days):"
        " the SessionEnd hook indexes each session before that, and the index keeps it"
        " after; to keep the transcripts too, raise cleanupPeriodDays in settings.json"
    )


def status(db_path: Path, settings_path: Path | None = None) -> dict[str, Any]:
    """What `pastfix status --json` prints (see the module docstring)."""
    settings_path = settings_path or install.default_settings()
    result: dict[str, Any] = {"index": str(db_path.absolute()), "exists": db_path.is_file()}
    running = paths.running_build(db_path)
    # What a build running now reads: a first build has recorded nothing in the index yet.
    reading = _sources(running.get("sources")) if running is not None else []
    result.update(
        _index(db_path, reading, running is not None) if result["exists"] else _no_index(reading)
    )
    result["build_running"] = running is not None
    result["build_sources"] = reading if running is not None and "sources" in running else None
    settings, problem = _settings(settings_path)
    events = install.installed_events(settings)
    result["hook_installed"] = bool(events)
    result["hook"] = {
        "settings": str(settings_path),
        "events": events,
        "index": install.hook_index(settings),
    }
    if problem:
        result["hook"]["problem"] = problem
    # the other agents' hooks, for those whose folder is here
    result["agent_hooks"] = [
        {
            "agent": name,
            "where": str(where),
            "installed": how.installed(where),
            **_problem(how.problem(where)),
            "index": how.reads(where),
        }
        for name, how in install.HOOKS.items()
        if name != agents.CLAUDE
        for where in [how.where()]
        if any(p.exists() for p in agents.reader(name).default_folders()) or where.exists()
    ]
    result["cleanup_period_days"] = cleanup_period_days(settings)
    # what keeps it from being known: a settings file not read, a value not a number
    value = settings.get("cleanupPeriodDays")
    if problem:
        result["cleanup_problem"] = f"{settings_path} cannot be read"
    elif value is not None and result["cleanup_period_days"] is None:
        result["cleanup_problem"] = f"cleanupPeriodDays is {json.dumps(value)}, not a number"
    result["mcp_installed"], result["mcp"] = _mcp()
    skill = install.default_skills() / install.SKILL_NAME / "SKILL.md"
    result["skill_installed"] = skill.is_file()
    result["skill"] = {"where": str(skill.parent)}
    # the other agents' skill folders, for those whose folder is here
    result["agent_skills"] = [
        {"agent": name, "where": str(where), "installed": (where / "SKILL.md").is_file()}
        for name, folder in install.SKILLS.items()
        if name != agents.CLAUDE
        for where in [folder() / install.SKILL_NAME]
        if any(p.exists() for p in agents.reader(name).default_folders()) or where.exists()
    ]
    result["advice"] = advice(result)
    return result


# The one problem of a file read as an index: what it holds is counted all the same.
OLDER = "built by an older pastfix: run pastfix build to bring it up to date"


def _read(found: dict[str, Any]) -> bool:
    """Whether `found` counts what an index holds: not of an index that cannot be opened
    (a FIFO beside it), whose zeros and default sources told of it as of an empty index
    (a file that is no index is an error: _index)."""
    return found["exists"] and found.get("problem") in (None, OLDER)


def _no_index(reading: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What status says of no index, or of a file that is none; `reading`: the sources of
    the build running now, listed instead of the default ones."""
    return {
        "size_bytes": 0,
        "sessions": 0,
        "messages": 0,
        "failures": 0,
        "sessions_without_transcript": 0,
        "problems": 0,
        "problem_examples": [],
        "last_build": None,
        "sources": [
            {
                **s,
                "exists": Path(s["path"]).is_dir(),
                "files": 0,
                "files_without_transcript": 0,
                "files_with_rows_kept": 0,
                "read_by_last_build": False,
                "read_by_stopped_build": False,
            }
            for s in reading or _defaults()
        ],
    }


def _defaults() -> list[dict[str, Any]]:
    return [
        {"path": str(p), "agent": agents.agent_of(p) if p.is_dir() else "claude"}
        for p in agents.default_sources()
    ]


def _index(db_path: Path, reading: list[dict[str, Any]], running: bool) -> dict[str, Any]:
    """What the index holds; `reading`: the sources of the build running now, listed as the
    last build's until a build has ended (the first one writes every row at its end).

    A build that was stopped (Ctrl-C) left no last build, if it was the first, or the
    index `stale` (Builder._begin), and its lock file still names what it was given: its
    sources are listed, `read_by_stopped_build`. The folders a build without --source would
    read here are not: they told of the demo's folder as the source of an index whose
    first build, of another folder, was stopped (a new user, nu47 finding 6); and the files
    a stopped incremental build stored were of sources "not read by the last build"."""
    wal = Path(f"{db_path}-wal")
    found: dict[str, Any] = {
        "size_bytes": db_path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    }
    if companion := paths.companion_not_file(db_path):
        return {**_no_index(), **found, "problem": companion}
    conn = sqlite3.connect(queries.read_uri(db_path), uri=True)
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        if "sessions" not in names or "_build_state" not in names:
            if running:  # a first build, before it commits the schema
                unbuilt = queries.UNBUILT_RUNNING.format(path=db_path)
                return {**_no_index(reading), **found, "problem": unbuilt}
            # Said alone, as find says it: its lines of an index's (the hook, MCP) and exit
            # 0 then told of another program's database as of one (a new user, nu47 #9).
            raise queries.NotAnIndex(queries.NOT_AN_INDEX.format(path=db_path))
        columns = {r[1] for r in conn.execute("PRAGMA table_info(sessions)")}
        deleted = "transcript_deleted_at IS NOT NULL" if "transcript_deleted_at" in columns else "0"
        found["sessions"], found["messages"], found["sessions_without_transcript"] = conn.execute(
            f"SELECT count(*), coalesce(sum(message_count), 0), count(CASE WHEN {deleted}"
            " THEN 1 END) FROM sessions"
        ).fetchone()
        found["failures"] = conn.execute(
            "SELECT count(*) FROM tool_results WHERE is_error = 1"
        ).fetchone()[0]
        # What the builds skipped, or read in part, and still stands: each build tells only
        # those it finds new.
        found["problems"] = conn.execute("SELECT count(*) FROM problems").fetchone()[0]
        found["problem_examples"] = [
            f"{path}:{line_no}: {reason}" if line_no else f"{path}: {reason}"
            for path, line_no, reason in conn.execute(
                "SELECT path, line_no, reason FROM problems ORDER BY path, line_no LIMIT ?",
                [PROBLEMS_SHOWN],
            )
        ]
        last_build = _state(conn, "last_build")
        found["last_build"] = last_build if isinstance(last_build, dict) else None
        stopped = not running and (found["last_build"] is None or bool(_state(conn, "stale")))
        known = _sources(_state(conn, "sources"))
        columns = {r[1] for r in conn.execute("PRAGMA table_info(source_files)")}
        agent = "agent" if "agent" in columns else "'claude'"
        if "missing_since" not in columns:
            found["problem"] = OLDER
            rows = conn.execute(f"SELECT path, NULL, {agent} FROM source_files").fetchall()
        else:
            rows = conn.execute(
                f"SELECT path, missing_since, {agent} FROM source_files"
                " WHERE substr(path, 1, ?) != ?",  # no forgotten file's (nameless) row
                [len(records.FORGOTTEN), records.FORGOTTEN],
            ).fetchall()
    finally:
        conn.close()
    files = [(p, gone) for p, gone, _ in rows]
    last = _sources((found["last_build"] or {}).get("sources")) or None
    given = _sources(paths.build_note(db_path).get("sources")) if stopped else []
    first = last or reading
    roots = _roots([*first, *(s for s in given if s not in first)], known, rows)
    # The kept copy (`<file>#<session id>`) of the rows a file no longer holds (cut short,
    # rewritten) is part of that file, no file of its own: while the file is there it is
    # told apart, as the rows kept; once the file is gone, the file is the one deleted.
    present = {p for p, gone in files if not gone}
    stored = {p for p, _ in files}
    copies = {p for p, gone in files if gone and "#" in p and p.rpartition("#")[0] in stored}
    cut = {p for p in copies if p.rpartition("#")[0] in present}
    files = [(p, gone) for p, gone in files if p not in copies]
    # Each file counts once, for the innermost source it is in: one build may have read a
    # project's folder, another the folder of every project.
    by_length = sorted({r["path"] for r in roots}, key=len, reverse=True)

    def source_of(path: str) -> str | None:
        return next((r for r in by_length if path.startswith(r + os.sep)), None)

    owner = {p: source_of(p) for p, _ in files}
    found["sources"] = [
        {
            **root,
            "exists": Path(root["path"]).is_dir(),
            "files": sum(owner[p] == root["path"] for p, _ in files),
            "files_without_transcript": sum(
                bool(gone) and owner[p] == root["path"] for p, gone in files
            ),
            "files_with_rows_kept": len(
                {p.rpartition("#")[0] for p in cut if source_of(p) == root["path"]}
            ),
            "read_by_last_build": last is not None and root in last,
            "read_by_stopped_build": root in given,
        }
        for root in roots
    ]
    return found


def _state(conn: sqlite3.Connection, name: str) -> Any:
    """A JSON value of _build_state, None when it is not there or not JSON (a hand edit)."""
    row = conn.execute("SELECT value FROM _build_state WHERE name = ?", [name]).fetchone()
    try:
        return json.loads(row[0]) if row else None
    except (TypeError, ValueError):
        return None


def _said_whole(last: dict[str, Any]) -> bool:
    """Whether a last_build note has what the text form says of it, of its types (an index
    carries its note: another version's, a hand edit's `{"at": 5}` was a traceback)."""
    counts = ("files_read", "files_seen", "new_lines")
    return (
        isinstance(last.get("at"), str)
        and isinstance(last.get("mode"), str)
        and all(type(last.get(key)) is int for key in counts)
        and type(last.get("seconds")) in (int, float)
    )


def _sources(value: Any) -> list[dict[str, Any]]:
    """The sources a build recorded (`[{"path", "agent"}]`), those that are, of `value` (a
    lock file's note may say anything: a source without its agent is none)."""
    if not isinstance(value, list):
        return []
    return [
        s
        for s in value
        if isinstance(s, dict)
        and isinstance(s.get("path"), str)
        and isinstance(s.get("agent"), str)
    ]


def _roots(
    last: list[dict[str, Any]], known: list[dict[str, Any]], files: list[tuple[str, Any, str]]
) -> list[dict[str, Any]]:
    """The sources status lists: the last build's, then every other one the index holds files
    of, as builds recorded them (db._record_build) or, for the files of none (an index built
    before they were recorded), their agent's default folder or the folder they share."""
    roots = list(last)
    for root in known:
        prefix = root["path"] + os.sep
        if root not in roots and any(p.startswith(prefix) for p, _, _ in files):
            roots.append(root)
    left: dict[str, list[str]] = {}
    for p, _, agent in files:
        if not any(p.startswith(r["path"] + os.sep) for r in roots):
            left.setdefault(agent, []).append(p)
    for agent, held in sorted(left.items()):
        known_agent = agent in agents.AGENTS  # (not one an index of a later pastfix names)
        for folder in agents.reader(agent).default_folders() if known_agent else []:
            prefix = str(folder) + os.sep
            if any(p.startswith(prefix) for p in held):
                roots.append({"path": str(folder), "agent": agent})
                held = [p for p in held if not p.startswith(prefix)]
        if held:
            shared = os.path.commonpath([os.path.dirname(p) for p in held])
            roots.append({"path": shared, "agent": agent})
    return roots


def _settings(path: Path) -> tuple[dict[str, Any], str | None]:
    try:
        return install.read_settings(path), None
    except install.InstallError as e:
        return {}, str(e)


def _problem(problem: str | None) -> dict[str, str]:
    """{"problem": ...} when there is one, as `hook` has it, else nothing."""
    return {"problem": problem} if problem else {}


def _mcp() -> tuple[bool, dict[str, Any]]:
    """Whether an MCP server that runs `pastfix mcp` is set up, for any agent, where, and
    the index each reads; and the config files that could not be read, where it may be set
    up unseen."""
    servers = [
        {"where": where, "index": index}
        for how in install.MCP_SERVERS.values()
        for where, index in how.found(how.where())
    ]
    problems = [
        {"agent": name, "config": str(config), "problem": problem}
        for name, how in install.MCP_SERVERS.items()
        for config in [how.where()]
        for problem in [install.config_problem(config)]
        if problem
    ]
    where = [server["where"] for server in servers]
    return bool(where), {"where": where, "servers": servers, "problems": problems}


def _world_readable(path: str) -> bool:
    try:
        return bool(os.stat(path).st_mode & stat.S_IROTH)
    except OSError:
        return False


def advice(found: dict[str, Any]) -> list[str]:
    """What to do, from what status found."""
    lines = []
    if not found["exists"]:
        lines.append(f"No index at {found['index']}: run pastfix build {found['index']}")
    elif found.get("problem"):
        lines.append(found["problem"])
    elif found["last_build"] is None:  # the first build has not ended: it shows 0 of all
        unbuilt = queries.UNBUILT_RUNNING if found["build_running"] else queries.UNBUILT
        lines.append(unbuilt.format(path=found["index"]))
    if _read(found) and _world_readable(found["index"]):
        # (made so by an older pastfix, which let SQLite create it 0644; never changed here)
        lines.append(
            f"{found['index']} is readable by every user of this machine, and holds your"
            f" history: chmod 600 {found['index']} keeps it yours"
        )
    hooks = [("The hook", found["hook"].get("index"))]
    hooks += [
        (f"{agents.label(other['agent'])}'s hook", other.get("index"))
        for other in found["agent_hooks"]
        if other["installed"]
    ]
    for which, hook_index in hooks:
        if hook_index and not Path(hook_index).is_file() and not _same(hook_index, found["index"]):
            lines.append(
                f"{which} reads {hook_index}, which is not built: until a session's end builds"
                f" it, the hook recalls nothing; run pastfix build {hook_index}"
            )
    # (a client starts the server without a shell: `~` in its --db is a folder named so)
    not_built = {
        server["index"]
        for server in found["mcp"]["servers"]
        if not Path(server["index"]).is_file()
        and not _same(server["index"], found["index"], expand=False)
    }
    for index in sorted(not_built):
        if index.startswith("~"):
            lines.append(
                f"An MCP server reads {index}, whose ~ its client does not expand: its tools"
                " find nothing; run pastfix mcp install again with --db"
            )
            continue
        lines.append(
            f"An MCP server reads {index}, which is not built: its tools find nothing there;"
            f" run pastfix build {index}, or pastfix mcp install again with --db"
        )
    days = found["cleanup_period_days"]
    if days == 0:
        lines.append(cleanup_notice(0) or "")
    # Claude Code's advice, where Claude Code is used (its folder is here)
    if found["hook"].get("problem") and paths.claude_config_dir().is_dir():
        lines.append(
            f"{found['hook']['problem']}; then pastfix hook install indexes Claude Code's"
            " sessions before it deletes them"
        )
    elif not found["hook_installed"] and paths.claude_config_dir().is_dir():
        lines.append(
            f"Claude Code deletes transcripts older than {days or DEFAULT_CLEANUP_DAYS} days"
            " (cleanupPeriodDays) and no hook indexes them before that: run pastfix hook"
            " install, or pastfix build at least that often"
        )
    return lines


# Folders side by side that status lists as their folder, once
GROUPED = 3


def _same(index: str, other: str, expand: bool = True) -> bool:
    """Whether two paths name the same index file (`expand`: `~` as a shell reads it)."""
    if expand:
        index, other = str(Path(index).expanduser()), str(Path(other).expanduser())
    return Path(index).absolute() == Path(other).absolute()


def _grouped(sources: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sources as the text lists them: folders of one agent side by side in one folder,
    alike in all but their counts, as that folder, once (a backup of `-proj/` folders
    beside `codex/` is read as one source for each project: a line each was a long list).
    Two are listed as they are (a backup's `projects/` beside `edge/`)."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for s in sources:
        alike = (
            s["agent"],
            os.path.dirname(s["path"]),
            s.get("exists", True),
            s["read_by_last_build"],
            s["read_by_stopped_build"],
            bool(s["files_with_rows_kept"]),
        )
        groups.setdefault(alike, []).append(s)
    listed = []
    for group in groups.values():
        if len(group) < GROUPED or any(s["path"] == os.path.dirname(s["path"]) for s in group):
            listed.extend(group)
            continue
        counts = ("files", "files_without_transcript", "files_with_rows_kept")
        listed.append(
            {
                **group[0],
                "path": os.path.dirname(group[0]["path"]),
                "folders": len(group),
                **{n: sum(s[n] for s in group) for n in counts},
            }
        )
    return listed


def format_text(found: dict[str, Any]) -> str:
    """`pastfix status` as lines for people."""
    size = f"{found['size_bytes'] / 1e6:,.1f} MB" if found["exists"] else "not built"
    lines = [f"index:      {found['index']} ({size})"]
    if _read(found):
        kept = found["sessions_without_transcript"]
        lines.append(
            f"holds:      {count(found['sessions'], 'session')} ({kept:,} kept without a"
            f" transcript), {count(found['messages'], 'message')},"
            f" {count(found['failures'], 'failure')}"
        )
        if found["problems"]:
            lines.append(
                f"problems:   {found['problems']:,}"
                f" {'file or line' if found['problems'] == 1 else 'files or lines'} skipped,"
                " or read in part (the problems table):"
            )
            lines += [f"              {problem}" for problem in found["problem_examples"]]
            if found["problems"] > len(found["problem_examples"]):
                lines.append(f"              ... and {found['problems'] - PROBLEMS_SHOWN:,} more")
        last = found["last_build"]
        if last and _said_whole(last):
            lines.append(
                f"last build: {last['at']} ({last['mode']}): read {last['files_read']:,} of"
                f" {count(last['files_seen'], 'file')}, {count(last['new_lines'], 'new line')},"
                f" in {last['seconds']:.2f}s ({_ago(last['at'])})"
            )
        elif last:
            lines.append("last build: its note in the index cannot be read")
    if found["build_running"]:
        reading = [f"{s['path']} ({s['agent']})" for s in found["build_sources"] or []]
        if len(reading) > SOURCES_SHOWN:
            reading[SOURCES_SHOWN:] = [f"{len(reading) - SOURCES_SHOWN:,} more"]
        said = f", reading {', '.join(reading)}" if reading else ""
        lines.append(f"build:      running now{said}")
    for s in _grouped(found["sources"]) if _read(found) or not found["exists"] else []:
        gone = s["files_without_transcript"]
        there = "" if s.get("exists", True) else ", folder missing"
        cut = s["files_with_rows_kept"]
        kept = f", {cut:,} with rows kept that they no longer hold" if cut else ""
        if s.get("read_by_stopped_build"):
            there += ", its latest build did not finish"
        elif found["exists"] and found["last_build"] and not s["read_by_last_build"]:
            there += ", not read by the last build"
        folders = f"{s['folders']:,} folders, " if s.get("folders", 1) > 1 else ""
        lines.append(
            f"source:     {s['path']} ({s['agent']}, {folders}{count(s['files'], 'file')} indexed,"
            f" {gone:,} of them deleted since{kept}{there})"
        )
    hook = found["hook"]
    # The hook reads the index it was installed with, which a ./index.db shown above is not.
    elsewhere = hook.get("index") and not _same(hook["index"], found["index"])
    lines.append(
        f"hook:       {'installed' if found['hook_installed'] else 'not installed'}"
        f" in {hook['settings']}"
        + (f" ({hook['problem']})" if hook.get("problem") else "")
        + (f" (it reads {hook['index']}, not this index)" if elsewhere else "")
    )
    for other in found["agent_hooks"]:
        elsewhere = other.get("index") and not _same(other["index"], found["index"])
        lines.append(
            f"hook:       {'installed' if other['installed'] else 'not installed'} for"
            f" {agents.label(other['agent'])} in {other['where']}"
            + (f" ({other['problem']})" if other.get("problem") else "")
            + (f" (it reads {other['index']}, not this index)" if elsewhere else "")
        )
    # Each server reads the index it was installed with (its --db), maybe not this one.
    mcp = [
        server["where"]
        + (
            ""
            if _same(server["index"], found["index"], expand=False)
            else f" (it reads {server['index']})"
        )
        for server in found["mcp"]["servers"]
    ]
    lines.append(f"mcp:        {'installed in ' + ', '.join(mcp) if mcp else 'not installed'}")
    for unread in found["mcp"]["problems"]:
        who = agents.label(unread["agent"])
        lines.append(f"mcp:        not read for {who}: {unread['problem']}")
    skill = "installed in" if found["skill_installed"] else "not installed in"
    lines.append(f"skill:      {skill} {found['skill']['where']}")
    for other in found["agent_skills"]:
        lines.append(
            f"skill:      {'installed' if other['installed'] else 'not installed'} for"
            f" {agents.label(other['agent'])} in {other['where']}"
        )
    days = found["cleanup_period_days"]
    kept = DEFAULT_CLEANUP_DAYS if days is None else days
    if found.get("cleanup_problem"):
        lines.append(f"cleanup:    unknown ({found['cleanup_problem']})")
    else:
        lines.append(
            f"cleanup:    Claude Code keeps transcripts {kept} days"
            f" (cleanupPeriodDays {'unset' if days is None else 'set'})"
        )
    return "\n".join(lines + found["advice"])


def _ago(at: str) -> str:
    try:
        then = calendar.timegm(time.strptime(at, "%Y-%m-%dT%H:%M:%SZ"))
    except ValueError:
        return "?"
    minutes = max(0.0, time.time() - then) / 60
    if minutes < 1:
        return "just now"
    if minutes < 90:
        return f"{minutes:.0f} minute{'s' if round(minutes) != 1 else ''} ago"
    hours = minutes / 60
    return f"{hours:.0f} hours ago" if hours < 48 else f"{hours / 24:.0f} days ago"  # 2 or more
