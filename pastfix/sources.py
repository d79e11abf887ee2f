"""Where each agent keeps its transcripts, and which reader a source folder needs."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from pastfix import codex, paths, transcripts
from pastfix.records import Batch, PersistedOutput, Reader, SourceFile

AGENTS = ("claude", "codex")
READERS: dict[str, Reader] = {"claude": transcripts, "codex": codex}
# Agents that store large tool output in files beside a transcript: how the build
# puts that text in place of the marker the transcript keeps (before prepare()).
SIDE_OUTPUTS: dict[str, Callable[[Batch, SourceFile], list[PersistedOutput]]] = {
    "claude": transcripts.read_persisted_outputs
}


class WrongAgent(Exception):
    """A source folder that holds another agent's transcripts than the one asked for, or
    both agents' in folders that need a --source each."""


def codex_sessions() -> Path:
    """~/.codex/sessions, or $CODEX_HOME/sessions when Codex is told to live elsewhere."""
    return paths.codex_home() / "sessions"


def default_sources(agent: str | None = None) -> list[Path]:
    """The folders `pastfix build` reads without --source.

    ~/.claude/projects and ~/.codex/sessions, those that exist; the bundled demo
    sessions when neither does (or, for `agent` claude, when the first does not).
    """
    if agent == "codex":
        return [codex_sessions()]
    if agent == "claude":
        return [transcripts.default_source()]
    found = [p for p in (paths.claude_projects(), codex_sessions()) if p.is_dir()]
    return found or [transcripts.DEMO_PROJECTS]


def agent_of(root: Path, agent: str | None = None) -> str:
    """The agent whose transcripts `root` holds, told from its files.

    A folder with Codex rollouts (rollout-*.jsonl, in YYYY/MM/DD folders or not) is
    Codex's, and so is one that holds such folders below it (~/.codex, the parent of
    ~/.codex/sessions and ~/.codex/archived_sessions) and no Claude Code project; any other
    is Claude Code's; an empty one is `agent`'s. WrongAgent when `agent` is given and the
    files say otherwise, or when Codex's folders and Claude Code's are both below `root`:
    read as either, the other's lines would all be skipped.
    """
    found = "codex" if codex.is_sessions_folder(root) else None
    if found is None and _has_claude_files(root):
        beside = _codex_beside(root)
        if beside:
            raise WrongAgent(
                f"{root} holds Codex sessions ({beside}) beside Claude Code transcripts: read"
                " as Claude Code's, their lines would all be skipped; give each its own"
                f" --source, such as --source {beside} for Codex's"
            )
    elif found is None:
        codex_folders, claude_folders = _folders_below(root)
        if codex_folders and claude_folders:
            raise WrongAgent(
                f"{root} holds Codex sessions ({codex_folders[0]}) and Claude Code projects"
                f" ({claude_folders[0]}): give each its own --source, such as"
                f" --source {codex_folders[0]} --source {claude_folders[0]}"
            )
        if codex_folders:
            found = "codex"
        elif Path(root, "projects") in claude_folders and agent != "codex":
            # ~/.claude given for ~/.claude/projects: read as projects, its transcripts
            # (a level further down) would be missed without a word
            raise WrongAgent(
                f"{root} is Claude Code's folder, not its projects: pass --source"
                f" {Path(root, 'projects')}"
            )
    if found is None and agent == "codex" and _has_claude_files(root):
        found = "claude"
    if agent and found and found != agent:
        raise WrongAgent(f"{root} holds {found} transcripts, not {agent}'s")
    return found or agent or "claude"


# How deep below a source folder agent_of looks for Codex's folders (~/.codex/sessions is one
# level down, a backup's home/.codex/sessions three), and how many folders it lists at most:
# a mistaken --source ~ must not walk a whole home folder before the build starts.
BELOW_DEPTH = 3
BELOW_FOLDERS = 300


def _folders_below(root: Path) -> tuple[list[Path], list[Path]]:
    """The Codex sessions folders and the Claude Code projects folders below `root`, nearest
    first, in a bounded walk (BELOW_DEPTH, BELOW_FOLDERS)."""
    codex_folders: list[Path] = []
    claude_folders: list[Path] = []
    level, listed = [Path(root)], 0
    for _ in range(BELOW_DEPTH):
        below: list[Path] = []
        for folder in level:
            for child in _subfolders(folder):
                listed += 1
                if listed > BELOW_FOLDERS:
                    return codex_folders, claude_folders
                if codex.is_sessions_folder(child):
                    codex_folders.append(child)
                elif _has_claude_files(child):
                    claude_folders.append(child)
                else:
                    below.append(child)
        level = below
    return codex_folders, claude_folders


def _codex_beside(root: Path) -> Path | None:
    """A Codex sessions folder among the folders of a Claude Code source, or in their
    `sessions` folder (a copy of ~/.codex), if any.

    Claude Code's project folders are named after a path (`-home-u-app`) and never hold
    one: they are not listed, so ~/.claude/projects costs one listing (0.5 ms for 14
    folders when each is looked into).
    """
    for child in _subfolders(root):
        if child.name.startswith("-"):
            continue
        for folder in (child, child / "sessions"):
            if codex.is_sessions_folder(folder):
                return folder
    return None


def _subfolders(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as listing:
            return sorted(Path(e.path) for e in listing if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def _has_claude_files(root: Path) -> bool:
    """Whether a project folder under `root` holds a .jsonl file that is neither a Codex
    rollout (~/.codex/archived_sessions holds rollouts directly) nor either agent's prompt
    history (~/.codex/history.jsonl, ~/.claude/history.jsonl)."""
    return any(
        not p.name.startswith("rollout-") and p.name != "history.jsonl"
        for p in root.glob("*/*.jsonl")
    )
