"""Install pastfix into the coding agents: its hooks, its skill, its MCP server.

The hooks go into a settings file ($CLAUDE_CONFIG_DIR/settings.json, else
~/.claude/settings.json, by default) in the format Claude Code reads:

    {"hooks": {"PostToolUseFailure": [{"matcher": "*", "hooks": [
        {"type": "command", "command": "... hook --db ...", "timeout": 10}]}],
               "SessionEnd": [{"hooks": [
        {"type": "command", "command": "nohup ... build ... &", "timeout": 10}]}]}}

Each command pastfix adds ends with MARKER, so installing again replaces them
and uninstalling removes them and nothing else; every other setting and hook is
kept as it was. The SessionEnd command starts an incremental build in the
background and returns at once, so Claude Code never waits for it.

Codex CLI reads hooks in the same form from $CODEX_HOME/hooks.json, and its MCP
servers from config.toml: see the Codex section below for what was verified; each
other agent's section says what its client reads. The tables at the end (HOOKS,
MCP_SERVERS, SKILLS: one entry per agent) are what the CLI and `pastfix status` use,
so neither names an agent.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from pastfix import agents, paths
from pastfix.patterns import lazy

MARKER = "# pastfix hook install"
FAILURE_EVENT, END_EVENT = agents.hook_events(agents.CLAUDE)
# Seconds Claude Code gives each command before cancelling it: the recall takes well
# under one, the SessionEnd command only starts the build.
TIMEOUT = 10
SKILL_NAME = "pastfix"


class InstallError(Exception):
    """A settings file or folder that cannot be used: the message is meant for the user."""


# What installing did, which the CLI says: pastfix's entries added, replaced by others,
# or found as they would be written (the file is then left as it was).
ADDED, UPDATED, UNCHANGED = "added", "updated", "unchanged"


def default_settings() -> Path:
    """Claude Code's user settings: $CLAUDE_CONFIG_DIR/settings.json (~/.claude/settings.json)."""
    return paths.claude_config_dir() / "settings.json"


def default_skills() -> Path:
    """Claude Code's user skills folder: $CLAUDE_CONFIG_DIR/skills (~/.claude/skills)."""
    return paths.claude_config_dir() / "skills"


def pastfix_executable() -> list[str]:
    """The absolute command that runs this pastfix: its script, or `python -m pastfix`."""
    script = Path(sys.executable).parent / "pastfix"
    if script.is_file():
        return [str(script.absolute())]
    found = shutil.which("pastfix")
    if found:
        return [str(Path(found).absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "pastfix"]


def hook_commands(db_path: Path, projects: Path | None = None) -> dict[str, str]:
    """The shell command of each hook pastfix installs, by event.

    The SessionEnd build reads what a plain `pastfix build` reads (pastfix.agents.
    default_sources), decided when it runs: Claude Code's projects under the
    CLAUDE_CONFIG_DIR of the Claude Code that runs it, and Codex's sessions, even
    a folder created after the install. `projects` names one folder instead.
    """
    return {
        FAILURE_EVENT: _recall_command(db_path),
        END_EVENT: _refresh_command(db_path, projects),
    }


def _recall_command(db_path: Path, agent: str | None = None) -> str:
    """`pastfix hook --db DB`, absolute: it answers Claude Code's and Codex's events alike;
    with `agent`, `--agent NAME` for an agent whose events its own module reads."""
    exe = " ".join(shlex.quote(part) for part in pastfix_executable())
    named = f" --agent {agent}" if agent else ""
    return f"{exe} hook --db {shlex.quote(str(db_path.absolute()))}{named}  {MARKER}"


def _refresh_command(db_path: Path, source: Path | None, agent: str | None = None) -> str:
    """An incremental build into the index, started in the background: of `source`, or of
    the default sources (those of a plain `pastfix build`) when it is None; with `agent`,
    read as that agent's (a folder still empty is then not taken for Claude Code's).
    `--missing-ok`: a session can end before the agent made its folder, and the build then
    reads nothing and leaves the index as it was (no error, no demo)."""
    exe = " ".join(shlex.quote(part) for part in pastfix_executable())
    db = shlex.quote(str(db_path.absolute()))
    folder = f" --source {shlex.quote(str(source.absolute()))}" if source else ""
    folder += f" --agent {agent}" if agent else ""
    build = f"{exe} build {db}{folder} --missing-ok -s"
    return f"nohup {build} >/dev/null 2>&1 </dev/null &  {MARKER}"


def _is_ours(handler: object) -> bool:
    # `bash`: GitHub Copilot CLI's name for a handler's command
    return isinstance(handler, dict) and any(
        str(handler.get(key, "")).rstrip().endswith(MARKER) for key in ("command", "bash")
    )


# What Windows editors may put first in a UTF-8 file: read past it, and written back.
_BOM = "\ufeff"


def _regular(path: Path) -> None:
    """Refuse a settings file that is there but no file (a FIFO, which a read would wait
    on for ever; a folder): the install and status read it whole."""
    if path.exists() and not path.is_file():
        raise InstallError(f"{path} is not a regular file: pastfix reads only a file there")


def read_settings(path: Path) -> dict[str, Any]:
    """A settings file as a dict: {} when it does not exist or is empty."""
    _regular(path)
    try:
        text = path.read_text(encoding="utf-8").removeprefix(_BOM)
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise InstallError(f"cannot read {path}: {e.strerror}") from e
    except UnicodeDecodeError as e:
        raise InstallError(f"{path} is not UTF-8 text (byte {e.start}): fix it first") from e
    if not text.strip():
        return {}
    try:
        settings = json.loads(text)
    except RecursionError as e:
        raise InstallError(f"{path} is nested too deeply to be settings: fix it first") from e
    except json.JSONDecodeError as e:
        if text[e.pos : e.pos + 2] in ("//", "/*"):
            # Gemini CLI, Copilot CLI and opencode read their files as JSON with comments:
            # such a file is not broken, only more than pastfix reads.
            raise InstallError(
                f"{path} has comments (line {e.lineno}): pastfix reads and writes plain JSON"
                " only, so remove them first"
            ) from e
        raise InstallError(f"{path} is not valid JSON ({e}): fix it first") from e
    except ValueError as e:  # a number of over 4,300 digits, which int() refuses: a traceback
        raise InstallError(f"{path} is not valid JSON ({e}): fix it first") from e
    if not isinstance(settings, dict):
        raise InstallError(f"{path} does not hold a JSON object: fix it first")
    return settings


# A UTF-16 surrogate alone: a string the JSON holds as an escape (`"\ud83d"`, half an emoji
# a prompt history cut), which no UTF-8 can write.
_LONE_SURROGATE = lazy("[\ud800-\udfff]")


def write_settings(path: Path, settings: dict[str, Any]) -> None:
    """Write a settings file atomically, beginning with the byte order mark it had.

    A lone surrogate goes back as the escape it was read from: written as it was, it stopped
    the install with a UnicodeEncodeError (a security test, session 33)."""
    text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
    text = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    try:
        with path.open("rb") as f:
            bom = f.read(3) == _BOM.encode()
    except OSError:  # not there yet, or unreadable: _write_text says what
        bom = False
    _write_text(path, _BOM + text if bom else text)


def _save_settings(
    path: Path, before: dict[str, Any], after: dict[str, Any], had_ours: bool
) -> str:
    """Write `after` to the settings file `before` was read from, unless they are the same;
    what that did (ADDED, UPDATED, UNCHANGED), `had_ours` telling whether pastfix's
    entries were there before."""
    if after == before:
        return UNCHANGED
    write_settings(path, after)
    return UPDATED if had_ours else ADDED


def _write_text(path: Path, text: str) -> None:
    """Write a file atomically, keeping its mode (a crash leaves the old file or the new one).

    A symlink is written through: ~/.claude/settings.json linked to a dotfiles repository
    stays the link, and its target gets the change. Renamed over, the link became a file
    of its own, which the user's repository no longer saw.
    """
    path = Path(os.path.realpath(path)) if path.is_symlink() else path
    tmp = None
    try:
        # A file the user made read-only (`chmod 444`) is refused as a read-only folder is:
        # the rename needs only the folder writable, and replaced it (a security test,
        # session 32). Its mode is read: root may write any file.
        if path.exists() and (
            not path.stat().st_mode & stat.S_IWUSR or not os.access(path, os.W_OK)
        ):
            raise PermissionError(errno.EACCES, "Permission denied (the file is read-only)")
        # In the try too: a read-only or unwritable folder fails here, not at the rename.
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if path.exists():
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except (OSError, UnicodeError) as e:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        reason = e.strerror if isinstance(e, OSError) else None
        raise InstallError(f"cannot write {path}: {reason or e}") from e


def _make_index_folder(db_path: Path) -> None:
    """Create the folder of the index the hooks or the server read, for the build that
    writes it there; before any file is written, so that a folder that cannot be made
    leaves every file as it was."""
    folder = db_path.absolute().parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InstallError(f"cannot create {folder}, the index's folder: {e.strerror or e}") from e


def without_ours(settings: dict[str, Any]) -> dict[str, Any]:
    """`settings` without the hooks pastfix added; other hooks and settings untouched."""
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return settings
    kept_hooks: dict[str, Any] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            kept_hooks[event] = groups
            continue
        kept_groups = []
        for group in groups:
            if _is_ours(group):  # a handler listed alone, as Copilot CLI lists them
                continue
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list) or not any(_is_ours(h) for h in handlers):
                kept_groups.append(group)
                continue
            rest = [h for h in handlers if not _is_ours(h)]
            if rest:
                kept_groups.append({**group, "hooks": rest})
        if kept_groups:
            kept_hooks[event] = kept_groups
    result = dict(settings)
    if kept_hooks:
        result["hooks"] = kept_hooks
    else:
        del result["hooks"]
    return result


def with_ours(
    settings: dict[str, Any], db_path: Path, projects: Path | None = None
) -> dict[str, Any]:
    """`settings` with pastfix's hooks (replacing any it added before)."""
    commands = hook_commands(db_path, projects)
    return _with_groups(
        settings,
        {
            FAILURE_EVENT: {"matcher": "*", "hooks": [_handler(commands[FAILURE_EVENT])]},
            END_EVENT: {"hooks": [_handler(commands[END_EVENT])]},
        },
    )


def _handler(command: str, timeout: int = TIMEOUT) -> dict[str, Any]:
    return {"type": "command", "command": command, "timeout": timeout}


def _with_groups(settings: dict[str, Any], groups: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """`settings` without pastfix's hooks, then with `groups` (one per event) after the rest."""
    result = dict(without_ours(settings))  # a copy: the settings read are compared with it
    hooks = result.get("hooks", {})
    if not isinstance(hooks, dict):
        raise InstallError('"hooks" in the settings is not an object: fix it first')
    hooks = dict(hooks)
    for event, group in groups.items():
        existing = hooks.get(event, [])
        if not isinstance(existing, list):
            raise InstallError(f'"hooks.{event}" in the settings is not a list: fix it first')
        hooks[event] = [*existing, group]
    result["hooks"] = hooks
    return result


def install_hooks(settings_path: Path, db_path: Path, projects: Path | None = None) -> str:
    """Add pastfix's hooks to a settings file (idempotent); ADDED, UPDATED or UNCHANGED."""
    settings = read_settings(settings_path)
    new = with_ours(settings, db_path, projects)
    _make_index_folder(db_path)
    return _save_settings(settings_path, settings, new, _holds_ours(settings))


def uninstall_hooks(settings_path: Path) -> bool:
    """Remove pastfix's hooks from a settings file; whether there were any."""
    if not settings_path.exists():
        return False
    settings = read_settings(settings_path)
    kept = without_ours(settings)
    if kept == settings:
        return False
    write_settings(settings_path, kept)
    return True


def installed_events(settings: dict[str, Any]) -> list[str]:
    """The events of `settings` that run a hook pastfix added (see MARKER)."""
    hooks = settings.get("hooks")
    return sorted(
        event
        for event, groups in (hooks.items() if isinstance(hooks, dict) else [])
        if isinstance(groups, list)
        and any(
            _is_ours(handler)
            for group in groups
            if isinstance(group, dict) and isinstance(group.get("hooks"), list)
            for handler in group["hooks"]
        )
    )


def hook_index(settings: dict[str, Any]) -> str | None:
    """The index pastfix's failure hook in `settings` reads (its `--db`), when it has one."""
    handlers = _our_handlers(settings.get("hooks"), FAILURE_EVENT)
    return next(filter(None, map(_handler_index, handlers)), None)


def _our_handlers(hooks: Any, event: str | None = None) -> Iterator[dict[str, Any]]:
    """The hook handlers pastfix added to a settings or hooks file's `hooks` (of `event`,
    else of every event), in Claude Code's form ({event: [{"hooks": [handler]}]}) or
    Copilot CLI's ({event: [handler]})."""
    if not isinstance(hooks, dict):
        return
    for groups in [hooks.get(event)] if event else hooks.values():
        for group in groups if isinstance(groups, list) else []:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler in handlers if isinstance(handlers, list) else [group]:
                if _is_ours(handler):
                    yield handler


def _handler_index(handler: dict[str, Any]) -> str | None:
    """The index a hook handler's command names (its `--db`); `bash`: Copilot CLI's."""
    try:
        words = shlex.split(str(handler.get("command") or handler.get("bash") or ""), comments=True)
    except ValueError:  # a quote left open by a hand edit
        return None
    return _db_argument(words)


def skill_source() -> Any:
    """The skill folder shipped in the package (SKILL.md and references/)."""
    return resources.files("pastfix") / "skill"


def install_skill(dest: Path) -> tuple[Path, str]:
    """Copy the skill to dest/pastfix, replacing an earlier copy unless it is the same:
    the folder, and ADDED, UPDATED or UNCHANGED.

    A folder of that name that is no copy of the skill (a clone of pastfix's repository
    where `--dest .` was run from its parent folder: a security test, session 32) is
    refused, never removed; the new copy is made beside the old one, then put in its place.
    """
    target = dest / SKILL_NAME
    try:
        with resources.as_file(skill_source()) as source:
            if dest.exists() and not dest.is_dir():
                # (mkdir's `File exists` named the skill's folder, which is not there)
                raise InstallError(f"{dest} is a file, not a folder: move it away first")
            if target.is_symlink() or target.exists():
                old = _skill_files(target)
                if old is None:
                    what = (
                        "a link"
                        if target.is_symlink()
                        else "a folder of other files"
                        if target.is_dir()
                        else "a file"
                    )
                    raise InstallError(
                        f"{target} is {what}, not a copy of pastfix's skill:"
                        " move it away first, or give another --dest"
                    )
                if old == _files(source):
                    return target, UNCHANGED
                done = UPDATED
            else:
                done = ADDED
            dest.mkdir(parents=True, exist_ok=True)
            new = dest / f".pastfix-skill-{os.getpid()}"
            try:
                shutil.copytree(source, new, ignore=shutil.ignore_patterns("__pycache__"))
                if done == UPDATED:
                    gone = Path(tempfile.mkdtemp(prefix=".pastfix-skill-old-", dir=dest))
                    target.rename(gone / SKILL_NAME)
                    shutil.rmtree(gone)
                new.rename(target)
            finally:
                if new.exists():
                    shutil.rmtree(new, ignore_errors=True)
    except OSError as e:
        raise InstallError(f"cannot install the skill in {target}: {e.strerror or e}") from e
    return target, done


# The start of the skill's SKILL.md: a folder whose SKILL.md starts otherwise is no copy.
_SKILL_HEAD = lazy(rb"\A---\s*\nname:\s*pastfix\s*\n")


def _skill_files(folder: Path) -> dict[str, bytes] | None:
    """The files of a copy of the skill at `folder`, or None when it is no such copy: a
    link, a folder without a SKILL.md that names pastfix, or one holding a link or a file
    that is no Markdown (__pycache__ aside: a clone of a repository holds .git). Names are
    checked before any file is read."""
    if folder.is_symlink() or not folder.is_dir():
        return None
    files = []
    for path in folder.rglob("*"):
        if "__pycache__" in path.relative_to(folder).parts:
            continue
        if path.is_symlink() or (not path.is_dir() and path.suffix != ".md"):
            return None
        if not path.is_dir():
            files.append(path)
    skill = folder / "SKILL.md"
    if skill not in files or not _SKILL_HEAD.match(skill.read_bytes()[:200]):
        return None
    return {str(path.relative_to(folder)): path.read_bytes() for path in files}


def _files(folder: Path) -> dict[str, bytes]:
    """The files under `folder` by relative path, with their bytes (__pycache__ aside)."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


# -- Codex CLI --------------------------------------------------------------------------
#
# Verified with Codex CLI 0.171.0 (npm @openai/codex; tests/test_codex_e2e.py):
# - hooks: $CODEX_HOME/hooks.json (~/.codex/hooks.json) in the same JSON form as
#   Claude Code's settings. Hooks are on by default there (`codex features list`:
#   `hooks stable true`); older versions need `[features] codex_hooks = true`.
#   Codex runs a hook it has not been told to trust only with
#   --dangerously-bypass-hook-trust: the user trusts it once with /hooks.
# - PostToolUse runs after every call, failed or not: `pastfix hook` tells a
#   failure itself (pastfix.codex.hook_failure). SessionEnd runs when the session
#   ends; Codex cuts its timeout to CODEX_END_TIMEOUT seconds.
# - MCP servers: `[mcp_servers.<name>]` tables of config.toml, with `command` and
#   `args`, which is what `codex mcp add pastfix -- CMD ARGS...` writes.
# - skills: ~/.agents/skills (Codex's documented user folder) and
#   $CODEX_HOME/skills are both listed to the model.
CODEX_FAILURE_EVENT, CODEX_END_EVENT = agents.hook_events("codex")
CODEX_END_TIMEOUT = 3
CODEX_SERVER = "pastfix"


def codex_hooks_file() -> Path:
    return paths.codex_home() / "hooks.json"


def codex_config_file() -> Path:
    return paths.codex_home() / "config.toml"


def codex_skills_dir() -> Path:
    return paths.home() / ".agents" / "skills"


def codex_hook_groups(db_path: Path) -> dict[str, dict[str, Any]]:
    """The hook groups pastfix adds to Codex's hooks.json, by event."""
    from pastfix.agents import codex_sessions

    refresh = _refresh_command(db_path, codex_sessions())
    return {
        CODEX_FAILURE_EVENT: {"matcher": "*", "hooks": [_handler(_recall_command(db_path))]},
        CODEX_END_EVENT: {"hooks": [_handler(refresh, CODEX_END_TIMEOUT)]},
    }


def install_codex_hooks(hooks_path: Path, db_path: Path) -> str:
    """Add pastfix's hooks to a Codex hooks.json (idempotent), keeping every other hook;
    ADDED, UPDATED or UNCHANGED."""
    settings = read_settings(hooks_path)
    new = _with_groups(settings, codex_hook_groups(db_path))
    _make_index_folder(db_path)
    return _save_settings(hooks_path, settings, new, _holds_ours(settings))


def codex_mcp_table(db_path: Path) -> dict[str, Any]:
    """The `[mcp_servers.pastfix]` table: the absolute command of `pastfix mcp --db DB`."""
    command, *rest = pastfix_executable()
    return {"command": command, "args": [*rest, "mcp", "--db", str(db_path.absolute())]}


_TOML_HEADER = lazy(r"^\s*\[")
_OUR_TABLE = lazy(
    r"^\s*\[\s*mcp_servers\s*\.\s*(?:pastfix|\"pastfix\"|'pastfix')\s*(?:\.[^\]]*)?\]\s*(?:#.*)?$"
)


def _without_codex_server(text: str) -> str:
    """config.toml text without the lines of `[mcp_servers.pastfix]` and its subtables."""
    kept, ours = [], False
    for line in text.splitlines(keepends=True):
        if _TOML_HEADER.match(line):
            ours = bool(_OUR_TABLE.match(line))
        if not ours:
            kept.append(line)
    return "".join(kept)


def _read_toml(path: Path) -> tuple[str, dict[str, Any]]:
    """A TOML file's text, as written, and its tables.

    A byte order mark (Windows' Notepad writes one) is kept in the text and not read as
    TOML: tomllib refused such a config.toml at its first character, though Codex reads it
    (Rust's toml parser skips one). Windows' line ends (CRLF) are kept too: read as text,
    they were written back as `\\n`."""
    _regular(path)
    try:
        with path.open(encoding="utf-8", newline="") as f:  # (CRLF lines kept as they are)
            text = f.read()
    except FileNotFoundError:
        return "", {}
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) else f"not UTF-8 text ({e.reason})"
        raise InstallError(f"cannot read {path}: {reason}") from e
    try:
        return text, tomllib.loads(text.removeprefix(_BOM))
    except ValueError as e:  # TOMLDecodeError, or an integer of over 4,300 digits
        raise InstallError(f"{path} is not valid TOML ({e}): fix it first") from e


def install_codex_mcp(config_path: Path, db_path: Path) -> str:
    """Add `[mcp_servers.pastfix]` to Codex's config.toml (again: replace it); ADDED,
    UPDATED or UNCHANGED.

    Every other line is kept as it was, comments too. The result is read back
    with tomllib: a config where pastfix's server is defined another way (an
    inline table, dotted keys) is refused with the `codex mcp add` command to use.
    """
    text, _ = _read_toml(config_path)
    table = codex_mcp_table(db_path)
    kept = _without_codex_server(text)
    lines = [f"[mcp_servers.{CODEX_SERVER}]"]
    lines += [f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in table.items()]
    new = kept.rstrip("\n") + ("\n\n" if kept.strip() else "") + "\n".join(lines) + "\n"
    try:
        written = tomllib.loads(new.removeprefix(_BOM)).get("mcp_servers", {}).get(CODEX_SERVER)
    except tomllib.TOMLDecodeError:
        written = None
    if written != table:
        args = " ".join(shlex.quote(a) for a in [table["command"], *table["args"]])
        raise InstallError(
            f"cannot add pastfix to {config_path} safely: run `codex mcp add pastfix -- {args}`"
        )
    _make_index_folder(db_path)
    if new == text:
        return UNCHANGED
    _write_text(config_path, new)
    return UPDATED if kept != text else ADDED


def codex_mcp_found(config_path: Path) -> list[tuple[str, str]]:
    """[(config_path, the index it reads)] when its `[mcp_servers]` run pastfix's server,
    else []."""
    try:
        # (only a regular file: a FIFO there blocked status for ever, a security test)
        text = config_path.read_text(encoding="utf-8") if config_path.is_file() else ""
        servers = tomllib.loads(text.removeprefix(_BOM)).get("mcp_servers")
    except (OSError, ValueError):
        servers = None
    index = pastfix_server_index(servers)
    return [(str(config_path), index)] if index else []


def uninstall_codex_mcp(config_path: Path) -> bool:
    """Remove `[mcp_servers.pastfix]` from Codex's config.toml; whether it was there."""
    if not config_path.exists():
        return False
    text, _ = _read_toml(config_path)
    kept = _without_codex_server(text)
    if kept == text:
        return False
    _write_text(config_path, kept.rstrip("\n") + "\n" if kept.strip() else "")
    return True


# -- GitHub Copilot CLI -------------------------------------------------------------------
#
# Read from the app.js of npm @github/copilot 1.0.20 and 1.0.60 (the CLI is not open
# source; later releases ship a native binary):
# - hooks: every *.json file under $COPILOT_HOME/hooks (~/.copilot/hooks, since
#   0.0.422), `{"version": 1, "hooks": {"<event>": [{"type": "command", "bash": "...",
#   "timeoutSec": N}]}}`; also .github/hooks/*.json of a repository (--settings).
#   pastfix writes a file of its own there, pastfix.json.
# - postToolUseFailure (since 1.0.15) runs after a failed call, with the failure on
#   stdin; the `additionalContext` of the JSON it prints is appended to the failure
#   the model reads (pastfix.copilot.hook_failure, hook_output). sessionEnd runs
#   when the session ends; its output is not read.
COPILOT_FAILURE_EVENT, COPILOT_END_EVENT = agents.hook_events("copilot")
COPILOT_HOOKS_FILE = "pastfix.json"


def copilot_hooks_file() -> Path:
    from pastfix import copilot

    return copilot.home() / "hooks" / COPILOT_HOOKS_FILE


def copilot_hooks(db_path: Path) -> dict[str, list[dict[str, Any]]]:
    """The hooks pastfix adds to Copilot CLI, by event."""
    from pastfix import copilot

    return {
        COPILOT_FAILURE_EVENT: [_copilot_handler(_recall_command(db_path, "copilot"))],
        COPILOT_END_EVENT: [_copilot_handler(_refresh_command(db_path, copilot.home()))],
    }


def _copilot_handler(command: str) -> dict[str, Any]:
    return {"type": "command", "bash": command, "timeoutSec": TIMEOUT}


def install_copilot_hooks(hooks_path: Path, db_path: Path) -> str:
    """Write pastfix's hooks into a Copilot CLI hooks file (again: replace them), keeping
    the file's other hooks; ADDED, UPDATED or UNCHANGED."""
    before = read_settings(hooks_path)
    settings = without_ours(before)
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise InstallError(f'"hooks" in {hooks_path} is not an object: fix it first')
    hooks = dict(hooks)  # a copy: the file read is compared with what is written
    for event, handlers in copilot_hooks(db_path).items():
        existing = hooks.get(event, [])
        if not isinstance(existing, list):
            raise InstallError(f'"hooks.{event}" in {hooks_path} is not a list: fix it first')
        hooks[event] = [*existing, *handlers]
    _make_index_folder(db_path)
    new = {"version": 1, **settings, "hooks": hooks}
    return _save_settings(hooks_path, before, new, _holds_ours(before))


def uninstall_copilot_hooks(hooks_path: Path) -> bool:
    """Remove pastfix's hooks from a Copilot CLI hooks file, and the file when nothing else
    is left in it; whether there were any."""
    removed = uninstall_hooks(hooks_path)
    if removed and set(read_settings(hooks_path)) <= {"version"}:
        try:
            hooks_path.unlink()
        except OSError as e:
            raise InstallError(f"cannot remove {hooks_path}: {e.strerror}") from e
    return removed


# -- the MCP server, at Claude Code's user scope ----------------------------

MCP_NAME = "pastfix"
# Seconds a `claude mcp` command may take (it starts in ~1 s).
CLI_TIMEOUT = 60
# The key of the MCP servers in ~/.claude.json, Gemini CLI's settings.json and Copilot
# CLI's mcp-config.json.
SERVERS_KEY = "mcpServers"


def mcp_server_command(db_path: Path) -> list[str]:
    """The command that starts pastfix's MCP server on `db_path`, with absolute paths.

    Absolute, so it runs from any folder and without pastfix on the session's PATH
    (a bare `pastfix mcp` fails with ENOENT when the venv is not on it).
    """
    return [*pastfix_executable(), "mcp", "--db", str(db_path.absolute())]


def install_json_mcp(path: Path, key: str, entry: dict[str, Any]) -> str:
    """Set `key`.pastfix of a JSON config file to `entry` (again: replace it), keeping every
    other key and server; a file that is not a JSON object is refused, untouched. ADDED,
    UPDATED or UNCHANGED."""
    config = read_settings(path)
    servers = config.get(key, {})
    if not isinstance(servers, dict):
        raise InstallError(f'"{key}" in {path} is not an object: fix it first')
    new = {**config, key: {**servers, MCP_NAME: entry}}
    return _save_settings(path, config, new, MCP_NAME in servers)


def uninstall_json_mcp(path: Path, key: str) -> bool:
    """Remove `key`.pastfix from a JSON config file, and nothing else; whether it was there."""
    if not path.exists():
        return False
    config = read_settings(path)
    servers = config.get(key)
    if not isinstance(servers, dict) or MCP_NAME not in servers:
        return False
    rest = {name: entry for name, entry in servers.items() if name != MCP_NAME}
    write_settings(path, {**config, key: rest})
    return True


def pastfix_server_index(servers: Any, folder: str | None = None) -> str | None:
    """The index read by a server of a table of MCP servers that runs `pastfix ... mcp`,
    under any name (`command` a string with `args`, or opencode's one list), and is not
    turned off (`enabled = false`, `"disabled": true`): its `--db`, else the PASTFIX_DB
    its `env` (opencode's `environment`) sets, else the default index; None when no server
    runs it. A client starts the server without a shell, so `~` is not expanded; a relative
    path is read from `folder` (a Claude Code server local to it), when given."""
    if not isinstance(servers, dict):
        return None
    for server in servers.values():
        if (
            not isinstance(server, dict)
            or server.get("enabled") is False
            or server.get("disabled") is True
        ):
            continue
        command = server.get("command")
        words = [*map(str, command if isinstance(command, list) else [command or ""])]
        words += map(str, server.get("args") or [])
        if any("pastfix" in w for w in words) and "mcp" in words:
            env = server.get("env", server.get("environment"))
            given = _db_argument(words) or (env.get(paths.ENV) if isinstance(env, dict) else None)
            if not given:
                return str(paths.default_db())
            return str(Path(folder) / given) if folder and not Path(given).is_absolute() else given
    return None


def _db_argument(words: list[str]) -> str | None:
    """The value of `--db FILE` or `--db=FILE` among a command's words."""
    for word, after in zip(words, [*words[1:], None], strict=True):
        if word == "--db" and after:
            return after
        if word.startswith("--db="):
            return word.removeprefix("--db=")
    return None


def config_problem(path: Path) -> str | None:
    """Why pastfix cannot read an agent's settings or config file, None when it can or
    there is none (pastfix status): what it finds there (has_our_hooks, the McpInstall's
    found) reads such a file as holding nothing, which status said as 'not installed'."""
    try:
        if path.suffix == ".toml":
            _read_toml(path)
        else:
            hooks = read_settings(path).get("hooks")
            if hooks is not None and not isinstance(hooks, dict):
                # what hook install refuses too: has_our_hooks read it as holding none
                return f'{path} holds "hooks" that are not an object: fix it first'
    except InstallError as e:
        return str(e)
    return None


def _json_config(path: Path) -> dict[str, Any]:
    """A JSON config as a dict, {} when it is missing or unreadable (pastfix status)."""
    try:
        _regular(path)
        config = json.loads(path.read_text(encoding="utf-8").removeprefix(_BOM))
    except (OSError, ValueError, RecursionError, InstallError):
        return {}
    return config if isinstance(config, dict) else {}


def json_mcp_found(path: Path, key: str) -> list[tuple[str, str]]:
    """[(path, the index it reads)] when its `key` runs pastfix's MCP server, else []."""
    index = pastfix_server_index(_json_config(path).get(key))
    return [(str(path), index)] if index else []


def claude_mcp_found(path: Path) -> list[tuple[str, str]]:
    """Where ~/.claude.json sets up pastfix's server, at user scope or local to a folder,
    each with the index it reads."""
    config = _json_config(path)
    places: list[tuple[Any, ...]] = [(f"{path} (user)", config.get(SERVERS_KEY))]
    projects = config.get("projects")
    for folder, project in (projects if isinstance(projects, dict) else {}).items():
        if isinstance(project, dict):
            places.append((f"{path} (local, {folder})", project.get(SERVERS_KEY)))
    return [(where, index) for where, servers in places if (index := pastfix_server_index(servers))]


def claude_cli() -> str | None:
    """The `claude` executable on the PATH, if any."""
    return shutil.which("claude")


def _claude(cli: str, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            [cli, "mcp", *args],
            capture_output=True,
            text=True,
            timeout=CLI_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise InstallError(f"cannot run `{cli} mcp {' '.join(args[:1])}`: {e}") from e


def _said(done: subprocess.CompletedProcess[str]) -> str:
    return " ".join((done.stderr or done.stdout or f"exit status {done.returncode}").split())


def install_mcp_claude(db_path: Path, cli: str | None = None) -> tuple[str, str]:
    """Add pastfix's MCP server to Claude Code at user scope (every folder), idempotent.

    With the `claude` CLI (`cli`, else the one on the PATH): `claude mcp remove` of an
    earlier entry, then `claude mcp add --scope user`. Without it: the `mcpServers` entry
    of the file the CLI writes (paths.claude_user_config()). Returns where it went, and
    ADDED, UPDATED or UNCHANGED (the CLI's entry is always written again: UPDATED).
    """
    command = mcp_server_command(db_path)
    cli = cli or claude_cli()
    _make_index_folder(db_path)
    if cli is None:
        config_path = paths.claude_user_config()
        entry = {"type": "stdio", "command": command[0], "args": command[1:], "env": {}}
        return str(config_path), install_json_mcp(config_path, SERVERS_KEY, entry)
    had = uninstall_mcp_claude(cli)
    done = _claude(cli, "add", "--scope", "user", MCP_NAME, "--", *command)
    if done.returncode != 0:
        raise InstallError(f"`claude mcp add` failed: {_said(done)}")
    return "Claude Code's user config (claude mcp add --scope user)", UPDATED if had else ADDED


def uninstall_mcp_claude(cli: str | None = None) -> bool:
    """Remove pastfix's MCP server from Claude Code's user scope; whether there was one."""
    cli = cli or claude_cli()
    if cli is None:
        return uninstall_json_mcp(paths.claude_user_config(), SERVERS_KEY)
    done = _claude(cli, "remove", "--scope", "user", MCP_NAME)
    if done.returncode == 0:
        return True
    if "No MCP server" in _said(done):
        return False
    raise InstallError(f"`claude mcp remove` failed: {_said(done)}")


# -- Gemini CLI -------------------------------------------------------------------------
#
# Read from google-gemini/gemini-cli@5411f113ca (docs/hooks/, hooks/hookRunner.ts) and
# checked with Gemini CLI 0.61.0 (tests/test_gemini_e2e.py):
# - hooks: the `hooks` object of ~/.gemini/settings.json ($GEMINI_CLI_HOME/.gemini), in
#   Claude Code's form, with `timeout` in milliseconds; on by default
#   (hooksConfig.enabled). Commands run through the shell, so MARKER, a comment, ends
#   them as it does Claude Code's.
# - AfterTool runs after every call that ran, failed or not: `pastfix hook --agent gemini`
#   tells a failure itself (pastfix.gemini.hook_failure). SessionEnd runs as the CLI
#   exits, without waiting for the hook: the build it starts is in the background anyway.
GEMINI_FAILURE_EVENT, GEMINI_END_EVENT = agents.hook_events("gemini")
# Milliseconds, Gemini's unit.
GEMINI_TIMEOUT_MS = TIMEOUT * 1000


def gemini_settings_file() -> Path:
    from pastfix import gemini

    return gemini.settings_file()


def gemini_hook_groups(db_path: Path) -> dict[str, dict[str, Any]]:
    """The hook groups pastfix adds to Gemini CLI's settings.json, by event."""
    from pastfix import gemini

    recall = _recall_command(db_path, gemini.AGENT)
    refresh = _refresh_command(db_path, gemini.gemini_home(), gemini.AGENT)
    return {
        GEMINI_FAILURE_EVENT: {
            "matcher": "*",
            "hooks": [{**_handler(recall, GEMINI_TIMEOUT_MS), "name": "pastfix"}],
        },
        GEMINI_END_EVENT: {
            "hooks": [{**_handler(refresh, GEMINI_TIMEOUT_MS), "name": "pastfix-refresh"}]
        },
    }


def install_gemini_hooks(settings_path: Path, db_path: Path) -> str:
    """Add pastfix's hooks to Gemini CLI's settings.json (idempotent), keeping the rest;
    ADDED, UPDATED or UNCHANGED."""
    settings = read_settings(settings_path)
    new = _with_groups(settings, gemini_hook_groups(db_path))
    _make_index_folder(db_path)
    return _save_settings(settings_path, settings, new, _holds_ours(settings))


# -- opencode ---------------------------------------------------------------------------
#
# opencode runs no command hooks; it loads JS plugins from $XDG_CONFIG_HOME/opencode/plugins
# (~/.config/opencode/plugins/*.js) at start. pastfix's (pastfix/opencode_plugin.js, the
# whole file is pastfix's) runs `pastfix hook --agent opencode` after a bash call that
# exited non-zero and appends its answer to the output the model reads. Verified with
# opencode 1.18.33 (npm opencode-ai, linux-x64; tests/test_opencode_e2e.py): the plugin
# loads as `export default {id, server}`, tool.execute.after gets such a call with
# metadata.exit, its output.output reaches the model; a tool that throws never gets there.
OPENCODE_PLUGIN = "pastfix.js"
_OPENCODE_PLUGIN_HEAD = "// pastfix: how a failed command was fixed before"


def opencode_config_dir() -> Path:
    """opencode's global config folder (Global.Path.config): $XDG_CONFIG_HOME/opencode,
    else ~/.config/opencode."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(paths.home() / ".config")
    return paths.expand(config) / "opencode"


def opencode_plugin_file() -> Path:
    """Where opencode loads a global plugin from: $XDG_CONFIG_HOME/opencode/plugins."""
    return opencode_config_dir() / "plugins" / OPENCODE_PLUGIN


def opencode_plugin(db_path: Path) -> str:
    """The plugin's text, naming this pastfix and the index by absolute paths."""
    template = (resources.files("pastfix") / "opencode_plugin.js").read_text()
    command = [*pastfix_executable(), "hook", "--agent", "opencode"]
    command += ["--db", str(db_path.absolute())]
    return template.replace("__PASTFIX_COMMAND__", json.dumps(command))


def _is_our_plugin(path: Path) -> bool:
    try:
        # (only a regular file: a FIFO there blocked install and status for ever)
        return path.is_file() and path.read_text().startswith(_OPENCODE_PLUGIN_HEAD)
    except (OSError, UnicodeDecodeError):
        return False


def install_opencode_plugin(path: Path, db_path: Path) -> str:
    """Write pastfix's opencode plugin (again: replace it); another file there is refused.
    ADDED, UPDATED or UNCHANGED."""
    if path.exists() and not _is_our_plugin(path):
        raise InstallError(f"{path} is not pastfix's plugin: move it away first")
    text = opencode_plugin(db_path)
    _make_index_folder(db_path)
    if not path.exists():
        _write_text(path, text)
        return ADDED
    if path.read_text() == text:
        return UNCHANGED
    _write_text(path, text)
    return UPDATED


def uninstall_opencode_plugin(path: Path) -> bool:
    """Remove pastfix's opencode plugin; whether there was one (another file is kept)."""
    if not _is_our_plugin(path):
        return False
    try:
        path.unlink()
    except OSError as e:
        raise InstallError(f"cannot remove {path}: {e.strerror}") from e
    return True


# -- the hooks of every agent, for `pastfix hook install/uninstall --agent NAME` --------


class HookInstall(NamedTuple):
    """How pastfix's failure hook goes into one agent (its section above says what was
    verified): where by default, how it is added (ADDED, UPDATED or UNCHANGED) and
    removed, what it is called, what to say once it is added or changed."""

    where: Callable[[], Path]
    install: Callable[[Path, Path], str]
    uninstall: Callable[[Path], bool]
    what: str  # "Added {what} to <file>", "Updated {what} in <file>"
    after: Callable[[Path], str | None] = lambda path: None
    # whether the file holds pastfix's hooks (pastfix status)
    installed: Callable[[Path], bool] = lambda path: has_our_hooks(path)
    # why the file cannot be read, when it cannot (pastfix status)
    problem: Callable[[Path], str | None] = lambda path: config_problem(path)
    # the index its failure hook reads (its --db), when it names one (pastfix status)
    reads: Callable[[Path], str | None] = lambda path: hook_file_index(path)


def has_our_hooks(path: Path) -> bool:
    """Whether a settings or hooks file runs a hook pastfix added, in Claude Code's form
    ({"hooks": {event: [{"hooks": [handler]}]}}) or Copilot CLI's ({event: [handler]})."""
    try:
        return _holds_ours(read_settings(path)) if path.is_file() else False
    except InstallError:
        return False


def _holds_ours(settings: dict[str, Any]) -> bool:
    """Whether these settings run a hook pastfix added (an empty "hooks" runs none)."""
    return any(True for _ in _our_handlers(settings.get("hooks")))


def _cleanup_after(settings: Path) -> str | None:
    from pastfix import status

    return status.cleanup_notice(status.cleanup_period_days(read_settings(settings)))


def hook_file_index(path: Path) -> str | None:
    """The index the hooks pastfix added to a settings or hooks file read (the `--db` of
    the first that names one)."""
    try:
        hooks = read_settings(path).get("hooks") if path.is_file() else None
    except InstallError:
        return None
    return next(filter(None, map(_handler_index, _our_handlers(hooks))), None)


def _plugin_index(path: Path) -> str | None:
    """The index pastfix's opencode plugin reads: the `--db` of the command it runs."""
    try:
        text = path.read_text() if path.is_file() else ""
        found = re.search(r'"--db", *("(?:[^"\\]|\\.)*")', text)
        # (a string JSON does not read, `"\q"` of a hand edit: status stopped with a traceback)
        return json.loads(found.group(1)) if found else None
    except (OSError, ValueError):  # UnicodeDecodeError, JSONDecodeError
        return None


HOOKS: dict[str, HookInstall] = {
    "claude": HookInstall(
        default_settings,
        install_hooks,
        uninstall_hooks,
        f"pastfix's {FAILURE_EVENT} and {END_EVENT} hooks",
        _cleanup_after,
    ),
    "codex": HookInstall(
        codex_hooks_file,
        install_codex_hooks,
        uninstall_hooks,
        f"pastfix's {CODEX_FAILURE_EVENT} and {CODEX_END_EVENT} hooks",
        lambda path: "Trust them once in Codex: run `codex`, then /hooks",
    ),
    "copilot": HookInstall(
        copilot_hooks_file,
        install_copilot_hooks,
        uninstall_copilot_hooks,
        f"pastfix's {COPILOT_FAILURE_EVENT} and {COPILOT_END_EVENT} hooks",
    ),
    "gemini": HookInstall(
        gemini_settings_file,
        install_gemini_hooks,
        uninstall_hooks,
        f"pastfix's {GEMINI_FAILURE_EVENT} and {GEMINI_END_EVENT} hooks",
    ),
    "opencode": HookInstall(
        opencode_plugin_file,
        install_opencode_plugin,
        uninstall_opencode_plugin,
        "pastfix's opencode plugin",
        lambda path: "Restart opencode to load it",
        installed=_is_our_plugin,
        problem=lambda path: None,  # a plugin of pastfix's own, no config of the user's
        reads=_plugin_index,
    ),
}


# -- the MCP server of every agent, for `pastfix mcp install/uninstall --agent NAME` -----
#
# Each with the absolute command of this pastfix and the index (mcp_server_command), at
# the agent's user scope, in the form its own `mcp add` command writes:
# - Gemini CLI: `mcpServers.pastfix` = {command, args} in its settings.json (gemini mcp
#   add --scope user); its model calls mcp_pastfix_find_past_fix and reads the result's
#   text. It runs no user server in a folder it does not trust (when folder trust is on).
# - GitHub Copilot CLI: `mcpServers.pastfix` = {type: local, command, args, tools: [*]} in
#   $COPILOT_HOME/mcp-config.json (~/.copilot/mcp-config.json; copilot mcp add); its
#   model calls pastfix-find_past_fix and reads the text, then the structured content.
# - opencode: `mcp.pastfix` = {type: local, command: [command, *args], enabled: true} in
#   its global opencode.json (the opencode.jsonc there when that is the one that exists:
#   what `opencode mcp add` edits); its model calls pastfix_find_past_fix and reads the
#   text.
# The three read their file as JSON with comments; pastfix edits plain JSON only, and
# names the client's own `mcp add` for a file with comments (each checked to write the
# same entry: Gemini and opencode keep the comments, Copilot drops them).
# Verified with Gemini CLI 0.61.0, Copilot CLI 1.0.60 and opencode 1.18.33
# (tests/test_<agent>_e2e.py): the model calls find_past_fix and its rows reach the next
# request.


class McpInstall(NamedTuple):
    """How pastfix's MCP server goes into one agent: the file it goes in by default, how
    it is added (giving where, as said to the user, and ADDED, UPDATED or UNCHANGED) and
    removed (whether it was there), and where a file sets up a server that runs
    `pastfix mcp`, with the index it reads (pastfix status)."""

    where: Callable[[], Path]
    install: Callable[[Path, Path], tuple[str, str]]
    uninstall: Callable[[Path], bool]
    found: Callable[[Path], list[tuple[str, str]]]


def _json_mcp(
    where: Callable[[], Path],
    key: str,
    entry: Callable[[list[str]], dict[str, Any]],
    add: str,
) -> McpInstall:
    """An McpInstall of a JSON config whose `key` holds the servers; `entry` gives
    pastfix's from the server's command. The three clients read their file as JSON with
    comments, which pastfix does not keep: a file it cannot edit is refused with `add`,
    the client's own command that adds the server ({} is the command)."""

    def install(path: Path, db_path: Path) -> tuple[str, str]:
        command = mcp_server_command(db_path)
        _make_index_folder(db_path)
        try:
            done = install_json_mcp(path, key, entry(command))
        except InstallError as e:
            line = add.format(" ".join(shlex.quote(part) for part in command))
            raise InstallError(f"{e}, or run `{line}`") from e
        return str(path), done

    return McpInstall(
        where,
        install,
        lambda path: uninstall_json_mcp(path, key),
        lambda path: json_mcp_found(path, key),
    )


def _install_codex_mcp(config_path: Path, db_path: Path) -> tuple[str, str]:
    return str(config_path), install_codex_mcp(config_path, db_path)


def copilot_mcp_file() -> Path:
    """Copilot CLI's user MCP config: $COPILOT_HOME/mcp-config.json (~/.copilot)."""
    from pastfix import copilot

    return copilot.home() / "mcp-config.json"


def opencode_config_file() -> Path:
    """opencode's global config file that `opencode mcp add` edits: opencode.json, or
    opencode.jsonc when only that one exists."""
    folder = opencode_config_dir()
    for name in ("opencode.json", "opencode.jsonc"):
        if (folder / name).exists():
            return folder / name
    return folder / "opencode.json"


MCP_SERVERS: dict[str, McpInstall] = {
    "claude": McpInstall(
        paths.claude_user_config,
        lambda path, db_path: install_mcp_claude(db_path),
        lambda path: uninstall_mcp_claude(),
        claude_mcp_found,
    ),
    "codex": McpInstall(
        codex_config_file, _install_codex_mcp, uninstall_codex_mcp, codex_mcp_found
    ),
    "copilot": _json_mcp(
        copilot_mcp_file,
        SERVERS_KEY,
        lambda command: {
            "type": "local",
            "command": command[0],
            "args": command[1:],
            "tools": ["*"],
        },
        "copilot mcp add pastfix -- {}",
    ),
    "gemini": _json_mcp(
        gemini_settings_file,
        SERVERS_KEY,
        lambda command: {"command": command[0], "args": command[1:]},
        "gemini mcp add --scope user pastfix {}",
    ),
    "opencode": _json_mcp(
        opencode_config_file,
        "mcp",
        lambda command: {"type": "local", "command": command, "enabled": True},
        "opencode mcp add pastfix -- {}",
    ),
}


# -- the skill's folder of every agent, for `pastfix skill install --agent NAME` --------
#
# The user folder each client loads skills (<folder>/<name>/SKILL.md) from, read from its
# own code and checked in the real client, the versions above (tests/test_<agent>_e2e.py:
# the skill is in the listing the model gets):
# - Gemini CLI: ~/.gemini/skills ($GEMINI_CLI_HOME/.gemini/skills; Storage.getUserSkillsDir).
# - GitHub Copilot CLI: $COPILOT_HOME/skills (~/.copilot/skills, "personal-copilot").
# - opencode: skills/ under its config folder ($XDG_CONFIG_HOME/opencode/skills).
# Gemini, Copilot and opencode also read ~/.agents/skills, Codex's folder: with the skill
# in both, Gemini CLI warns of a "Skill conflict" (the same skill, either one is used).


def gemini_skills_dir() -> Path:
    from pastfix import gemini

    return gemini.gemini_home() / "skills"


def copilot_skills_dir() -> Path:
    from pastfix import copilot

    return copilot.home() / "skills"


def opencode_skills_dir() -> Path:
    return opencode_config_dir() / "skills"


SKILLS: dict[str, Callable[[], Path]] = {
    "claude": default_skills,
    "codex": codex_skills_dir,
    "copilot": copilot_skills_dir,
    "gemini": gemini_skills_dir,
    "opencode": opencode_skills_dir,
}
