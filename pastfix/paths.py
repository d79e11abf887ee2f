"""Where the index lives when no path is given: the hook, the MCP server and the skill.

`pastfix build` and `pastfix find` keep `index.db` in the current directory as
their default, for `datasette serve index.db`. The commands that Claude Code
runs on its own (the hook, the MCP server) start in whatever directory the
session is in, so they need one fixed place: $PASTFIX_DB when it is set, else
$XDG_DATA_HOME/pastfix/index.db (~/.local/share/pastfix/index.db). The index is
pastfix's own data, derived from the transcripts, so it goes where data of an
application goes rather than inside ~/.claude, which Claude Code owns.

Claude Code's own folder is $CLAUDE_CONFIG_DIR when that is set (claude_config_dir):
the transcripts, the settings file the hook goes into and the skills folder follow it.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: builds are not serialised there
    fcntl = None  # type: ignore[assignment]

ENV = "PASTFIX_DB"
# The most of a lock file read for what its build reads (300 folders are ~30 KB).
LOCK_NOTE_BYTES = 1 << 20
CLAUDE_CONFIG_ENV = "CLAUDE_CONFIG_DIR"


class NoHome(Exception):
    """No home folder to find the agents' folders and the index in (its text is one line)."""


def home() -> Path:
    """The user's home folder: $HOME, else, when it is unset or empty, the password
    database's, as a login shell would set it.

    Python reads an empty HOME as `/` (`~/.local/share` became `/.local/share`, the
    transcripts `/.claude/projects`): an empty HOME (a cron job's, `env HOME= ...`) is
    taken as unset. A user with no home there either is a one-line error (NoHome), where
    Python raised "Could not determine home directory" deep in a traceback.
    """
    value = os.environ.get("HOME")
    if value:
        return Path(value)
    try:
        import pwd

        folder = pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError):  # Windows has no pwd; a uid it does not list
        folder = os.path.expanduser("~") if os.name == "nt" else ""
    if not folder or folder.startswith("~"):
        raise NoHome(
            f"no home folder: HOME is {'empty' if value == '' else 'unset'} and user"
            f" {os.getuid() if hasattr(os, 'getuid') else '?'} has none in the password"
            " database: set HOME"
        )
    return Path(folder)


def expand(value: str) -> Path:
    """`value` (a path from the environment) with a leading `~` read as home()."""
    if value == "~" or value.startswith("~/"):
        return home() / value[2:]
    return Path(value).expanduser()


def default_db() -> Path:
    """$PASTFIX_DB, or $XDG_DATA_HOME/pastfix/index.db (~/.local/share/pastfix/index.db).

    A relative XDG_DATA_HOME is ignored, as the XDG spec asks: the hook and the MCP server
    start in each session's folder, where it named another index every time.
    """
    if os.environ.get(ENV):
        return expand(os.environ[ENV])
    data = expand(os.environ.get("XDG_DATA_HOME") or "")
    if not data.is_absolute():
        data = home() / ".local" / "share"
    return data / "pastfix" / "index.db"


def codex_home() -> Path:
    """Where Codex CLI keeps its config, hooks and sessions: $CODEX_HOME, else ~/.codex."""
    folder = os.environ.get("CODEX_HOME")
    return Path(folder) if folder else home() / ".codex"


def claude_config_dir() -> Path:
    """Where Claude Code keeps its files: $CLAUDE_CONFIG_DIR, as Claude Code itself reads it,
    else ~/.claude.

    Its settings.json, skills/ and projects/ (the transcripts) all move with it.
    """
    if os.environ.get(CLAUDE_CONFIG_ENV):
        return expand(os.environ[CLAUDE_CONFIG_ENV])
    return home() / ".claude"


def claude_projects() -> Path:
    """Where Claude Code keeps its transcripts: $CLAUDE_CONFIG_DIR/projects (~/.claude/projects)."""
    return claude_config_dir() / "projects"


# The index a command finds when none is named, in the order it looks: a project's own
# index.db, then the index of the hook and the MCP server.
LOCAL_DB = Path("index.db")


def folder_not_index(path: Path) -> str | None:
    """Why `path` is no index when it is a folder (such as the one the index is in), else None:
    said as such, where "not found: build it" sent the user to build over the folder."""
    if not path.is_dir():
        return None
    return (
        f"{path} is a folder, not an index: name the index file in it, such as {path / 'index.db'}"
    )


def companion_not_file(path: Path) -> str | None:
    """Why the index at `path` must not be opened: a journal, WAL or shared-memory file
    beside it that is no regular file. SQLite opens a `-journal` it finds to see whether it
    is hot, and the open of a FIFO waits for a writer for ever, signals retried: every
    reader hung and a build could be stopped only by SIGKILL (a security test, session 32).
    None when each is a regular file or absent."""
    for suffix in ("-journal", "-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        try:
            mode = companion.lstat().st_mode
        except OSError:
            continue
        if not stat.S_ISREG(mode):
            return (
                f"{companion} is not a regular file: SQLite would wait on it;"
                " remove it to use the index"
            )
    return None


def find_db() -> list[Path]:
    """Where `pastfix find` and `pastfix probe` look for the index when none is given.

    ./index.db, then default_db(): so the command the skill and the hook tell an agent
    to run works from any project folder, where there is no index.db of its own. A
    ./index.db of the demo sessions only is passed over when the other exists
    (cli.found_index).
    """
    return [LOCAL_DB, default_db()]


def claude_user_config() -> Path:
    """The file where Claude Code keeps its user-scope MCP servers (`mcpServers`).

    $CLAUDE_CONFIG_DIR/.claude.json when that is set, else ~/.claude.json (checked with
    `claude mcp add --scope user` of Claude Code 2.1.197 and 2.1.332).
    """
    folder = os.environ.get("CLAUDE_CONFIG_DIR")
    return expand(folder) / ".claude.json" if folder else home() / ".claude.json"


def lock_path(db_path: str | Path) -> Path:
    """The file whose flock says a build of `db_path` is running (beside the real file;
    see pastfix.build.build_lock)."""
    return Path(os.path.realpath(db_path) + ".lock")


def build_running(db_path: str | Path) -> bool:
    """Whether a build of `db_path` holds its lock now (`pastfix status`, and what a reader
    says of an index whose first build has not ended: it writes in one transaction)."""
    return running_build(db_path) is not None


def running_build(db_path: str | Path) -> dict[str, Any] | None:
    """What the build of `db_path` that holds its lock now wrote into the lock file
    (pastfix.build.build_lock: `{"sources": [{"path", "agent"}]}`, `{}` when it said
    nothing), None when no build holds it.

    Asked by taking a shared flock for an instant, never waiting and never creating the
    lock file: a build asking for its lock in that instant looks again (build_lock polls),
    and the hook's refresh, which does not wait, leaves its work to the next build."""
    if fcntl is None:
        return None
    try:
        # (not waiting for a writer of a FIFO, nor following a link: a lock that is no
        # regular file is no build's; a security test, session 31)
        fd = os.open(lock_path(db_path), os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:  # no build of it ever ran, or its folder cannot be read
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _said(fd)
        except OSError:  # a file system without flock: nothing to tell
            return None
        return None
    finally:
        os.close(fd)  # releases the shared lock


def build_note(db_path: str | Path) -> dict[str, Any]:
    """What the last build of `db_path` wrote into the lock file, whether or not it holds
    the lock now: the note stays after it, and is cleared only by the next holder. Of an
    index no build has finished, and none is running, it names the sources of the build
    that was stopped (`pastfix status`). {} when there is none (forget's and the hook's
    refresh write none), or no lock file that is a regular file."""
    try:
        fd = os.open(lock_path(db_path), os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return {}
    try:
        return _said(fd) if stat.S_ISREG(os.fstat(fd).st_mode) else {}
    finally:
        os.close(fd)


def _said(fd: int) -> dict[str, Any]:
    """The lock file's JSON object, {} when it holds none (a build still writing it, an
    older pastfix's build, forget)."""
    try:
        said = json.loads(os.pread(fd, LOCK_NOTE_BYTES, 0) or b"{}")
    except (OSError, ValueError, RecursionError):  # (`[` nested 100,000 deep)
        return {}
    return said if isinstance(said, dict) else {}
