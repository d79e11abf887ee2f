"""Where each agent keeps its transcripts, and which reader a source folder needs."""

from __future__ import annotations

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
    """A source folder that holds another agent's transcripts than the one asked for."""


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

    A folder with Codex rollouts (rollout-*.jsonl, in YYYY/MM/DD folders or not)
    is Codex's, any other Claude Code's; an empty one is `agent`'s. WrongAgent
    when `agent` is given and the files say otherwise.
    """
    found = "codex" if codex.is_sessions_folder(root) else None
    if found is None and agent == "codex" and _has_claude_files(root):
        found = "claude"
    if agent and found and found != agent:
        raise WrongAgent(f"{root} holds {found} transcripts, not {agent}'s")
    return found or agent or "claude"


def _has_claude_files(root: Path) -> bool:
    """Whether a project folder under `root` holds a .jsonl file."""
    return any(root.glob("*/*.jsonl"))
