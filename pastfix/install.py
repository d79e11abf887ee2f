"""Install pastfix into Claude Code: its hooks in a settings file, its skill in a skills folder.

The hooks go into a settings file (~/.claude/settings.json by default) in the
format Claude Code reads:

    {"hooks": {"PostToolUseFailure": [{"matcher": "*", "hooks": [
        {"type": "command", "command": "... hook --db ...", "timeout": 10}]}],
               "SessionEnd": [{"hooks": [
        {"type": "command", "command": "nohup ... build ... &", "timeout": 10}]}]}}

Each command pastfix adds ends with MARKER, so installing again replaces them
and uninstalling removes them and nothing else; every other setting and hook is
kept as it was. The SessionEnd command starts an incremental build in the
background and returns at once, so Claude Code never waits for it.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from pastfix import paths

MARKER = "# pastfix hook install"
FAILURE_EVENT = "PostToolUseFailure"
END_EVENT = "SessionEnd"
# Seconds Claude Code gives each command before cancelling it: the recall takes well
# under one, the SessionEnd command only starts the build.
TIMEOUT = 10
SKILL_NAME = "pastfix"


class InstallError(Exception):
    """A settings file or folder that cannot be used: the message is meant for the user."""


def default_settings() -> Path:
    return Path.home() / ".claude" / "settings.json"


def default_skills() -> Path:
    return Path.home() / ".claude" / "skills"


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
    """The shell command of each hook pastfix installs, by event."""
    exe = " ".join(shlex.quote(part) for part in pastfix_executable())
    db = shlex.quote(str(db_path.absolute()))
    source = shlex.quote(str((projects or paths.claude_projects()).absolute()))
    return {
        FAILURE_EVENT: f"{exe} hook --db {db}  {MARKER}",
        END_EVENT: (
            f"nohup {exe} build {db} --source {source} -s >/dev/null 2>&1 </dev/null &  {MARKER}"
        ),
    }


def _is_ours(handler: object) -> bool:
    return isinstance(handler, dict) and str(handler.get("command", "")).rstrip().endswith(MARKER)


def read_settings(path: Path) -> dict[str, Any]:
    """A settings file as a dict: {} when it does not exist or is empty."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise InstallError(f"cannot read {path}: {e.strerror}") from e
    if not text.strip():
        return {}
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as e:
        raise InstallError(f"{path} is not valid JSON ({e}): fix it first") from e
    if not isinstance(settings, dict):
        raise InstallError(f"{path} does not hold a JSON object: fix it first")
    return settings


def write_settings(path: Path, settings: dict[str, Any]) -> None:
    """Write a settings file atomically (a crash leaves the old file or the new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        if path.exists():
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise InstallError(f"cannot write {path}: {e.strerror}") from e


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
    result = without_ours(settings)
    hooks = result.get("hooks", {})
    if not isinstance(hooks, dict):
        raise InstallError('"hooks" in the settings is not an object: fix it first')
    hooks = dict(hooks)
    commands = hook_commands(db_path, projects)
    groups: dict[str, dict[str, Any]] = {
        FAILURE_EVENT: {"matcher": "*", "hooks": []},
        END_EVENT: {"hooks": []},
    }
    for event, group in groups.items():
        group["hooks"] = [{"type": "command", "command": commands[event], "timeout": TIMEOUT}]
        existing = hooks.get(event, [])
        if not isinstance(existing, list):
            raise InstallError(f'"hooks.{event}" in the settings is not a list: fix it first')
        hooks[event] = [*existing, group]
    result["hooks"] = hooks
    return result


def install_hooks(settings_path: Path, db_path: Path, projects: Path | None = None) -> None:
    """Add pastfix's hooks to a settings file (idempotent)."""
    settings = read_settings(settings_path)
    write_settings(settings_path, with_ours(settings, db_path, projects))
    db_path.absolute().parent.mkdir(parents=True, exist_ok=True)


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


def skill_source() -> Any:
    """The skill folder shipped in the package (SKILL.md and references/)."""
    return resources.files("pastfix") / "skill"


def install_skill(dest: Path) -> Path:
    """Copy the skill to dest/pastfix, replacing an earlier copy; the folder written."""
    target = dest / SKILL_NAME
    try:
        if target.exists():
            shutil.rmtree(target)
        with resources.as_file(skill_source()) as source:
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    except OSError as e:
        raise InstallError(f"cannot install the skill in {target}: {e.strerror or e}") from e
    return target
