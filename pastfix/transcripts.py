"""Read Claude Code transcripts into plain records.

Everything that knows Claude Code's on-disk format lives here: where the files
are (`iter_source_files`) and what a line means (`parse_lines`). The database
code only sees the records of pastfix.records, which pastfix.codex produces
from Codex CLI's rollouts too.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from stat import S_ISREG
from typing import Any

import msgspec

from pastfix import lines, paths, records
from pastfix.lines import BadLine
from pastfix.patterns import lazy
from pastfix.records import (
    EXCERPT_CHARS,
    MAX_TEXT,
    TEXT_HEAD,
    TEXT_TAIL,
    Batch,
    Message,
    PersistedOutput,
    Problem,
    Reader,
    Redaction,
    SessionMeta,
    SourceFile,
    ToolCall,
    ToolResult,
    cap_text,
    clean_text,
    plain_id,
)

# Re-exported: the records were defined here before pastfix.records held them.
__all__ = [
    "EXCERPT_CHARS",
    "MAX_TEXT",
    "Batch",
    "Message",
    "Problem",
    "Reader",
    "Redaction",
    "SessionMeta",
    "SourceFile",
    "ToolCall",
    "ToolResult",
    "cap_text",
    "clean_text",
    "iter_source_files",
    "parse_lines",
]

DEMO_PROJECTS = Path(__file__).parent / "demo" / "projects"

# Line types that carry nothing pastfix indexes; skipped without a problem.
IGNORED_TYPES = frozenset(
    {
        "progress",
        "file-history-snapshot",
        "file-history-delta",
        "last-prompt",
        "mode",
        "permission-mode",
        "agent-name",
        "queue-operation",
        # Claude Code 2.1.3xx's bookkeeping, every type but the four of the transcript
        # (user, assistant, system, attachment) and the titles (META_TYPES) in the table
        # of entry types the 2.1.332 binary holds: the API requests it sent (their
        # messages repeat the transcript's), costs, tools used, data-flow records, links
        # to a pull request, a fork or another file, agent and session settings, and the
        # three its writer adds to that table (host-row, hybrid-organization, repl-mode).
        # A 5-turn session of 2.1.332 has 18 such lines in 47.
        "agent-color",
        "agent-setting",
        "api-request",
        "api-request-blob",
        "api-request-resumed",
        "api-request-shape",
        "artifact-autoreact-ledger",
        "artifact-comment-monitor",
        "atis-latch",
        "attribution-snapshot",
        "bridge-session",
        # {"type": "content-replacement", "sessionId", "agentId"?, "replacements": [{"kind":
        # "tool-result", "toolUseId", "replacement"}]}: the per-message budget of tool
        # results (200,000 characters, 2.1.332) wrote the largest results of one message
        # to tool-results/ and sent the model a <persisted-output> preview in their place;
        # the line records which, so that a resumed session sends the same. It replaces
        # nothing in the transcript: the tool_result line keeps the full text, which is
        # what is indexed (the replacement is a 2 KB preview of it), and the file is the
        # same text again. Nothing a person looks for is in it.
        "content-replacement",
        "continued-in",
        "cost-state",
        "data-flow-incomplete",
        "data-flow-records",
        "derived-from",
        "dev-mods",
        "ended-by-model",
        "fork-context-ref",
        "frame-link",
        "history-suppression",
        # A REPL script's own row ({"ranByToolUseId", "rowUuid", "block"} or "withheld"),
        # which Claude Code itself leaves out when it loads a session (its table of entry
        # types names it "ignored"); the calls a script made are the transcript's own
        # tool_use / tool_result rows.
        "host-row",
        # The organizations a session was marked for ({"organizationUuid"}).
        "hybrid-organization",
        "isolation-latch",
        "line-withheld",
        "memory-mode",
        "observer-ref",
        "pr-link",
        "relocated",
        # Whether the session runs in REPL (code) mode ({"replMode": true, "typedEvents"?}).
        "repl-mode",
        "resume-head-vouch",
        "session-owner",
        "tag",
        "tools-used",
        "worktree-state",
    }
)
# A tool result too large for the transcript (more than ~30-50 KB) is written by
# Claude Code (2.1.x) to <project>/<session>/tool-results/<name>, its tool_use_id
# or (Bash) its shell's task id, .txt, or .json for a list of text blocks; the
# transcript keeps only
#     <persisted-output>
#     Output too large (141KB). Full output saved to: /home/u/.claude/projects/-p/<session>/tool-r…
#
#     Preview (first 2KB):
#     <the head of the output>
#     ...
#     </persisted-output>
# possibly followed by Bash's stderr. Newer versions may carry markers before the
# path line, or say "... only the first 64MB were saved to: <path>".
PERSISTED_OPEN = "<persisted-output>"
PERSISTED_CLOSE = "</persisted-output>"
# What a persisted output's problem says of its line when the file is not found, and what
# it says instead when the index held the file's text from an earlier read and keeps it
# (pastfix.build.Builder._keep_side_outputs).
PREVIEW_INDEXED = "; its line is indexed with the preview it holds"
PREVIEW_KEPT = "; the text read from it before is kept"
_SAVED_TO = lazy(r"(?:Full output saved to|were saved to): ([^\n]+)")
TOOL_RESULTS_DIR = "tool-results"

# The results of the tools the API runs itself (server_tool_use and mcp_tool_use calls),
# which Claude Code keeps in the assistant's content beside their calls (its list of
# content block types, 2.1.332): `tool_use_id` names the call, `content` is text blocks,
# a dict (advisor_result {text}, advisor_redacted_result, encrypted) or a list of results
# (web_search_result {title, url, encrypted_content}), and a failure a `*_error` dict
# with an `error_code` (or, for mcp_tool_result, `is_error`).
SERVER_TOOL_RESULTS = frozenset(
    {
        "advisor_tool_result",
        "bash_code_execution_tool_result",
        "code_execution_tool_result",
        "mcp_tool_result",
        "text_editor_code_execution_tool_result",
        "tool_search_tool_result",
        "web_fetch_tool_result",
        "web_search_tool_result",
    }
)
# Content blocks with no text to index: thinking the API sent encrypted, a file handed to
# the code execution container (its id), the tools an MCP server listed.
SILENT_BLOCKS = frozenset({"redacted_thinking", "container_upload", "mcp_tool_listing"})

# What Claude Code answers every call of a subagent it only warms up: at start, 2.0.x and
# 2.1.x send the built-in agents (Explore, Plan) the prompt `Warmup`, to fill the API's
# cache, and refuse their calls with that word (`agent-<id>.jsonl`, `{"content": "Warmup",
# "is_error": true}`, toolUseResult `Error: Warmup`). No call of the user's work was
# refused: its result is kept, but not as a failure (nu49 finding 9: 2 "not fixed"
# failures a session, counted by status).
WARMUP = "Warmup"
# How Claude Code (2.1.x) says a call the user rejected and told the agent what to do
# instead; 2.0.x returned their words alone (signatures.user_words), which are stored after
# it, as the newer versions have them, and so read as a rejection (signatures' `rejected`)
# with what the user said (fixes.USER_SAID).
REJECTED_SAID = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if"
    " it was a file edit, the new_string was NOT written to the file). To tell you how to"
    " proceed, the user said:\n"
)
# The longest text signatures.user_words takes for the user's words (its USER_WORDS_CHARS:
# that module is compiled only once a batch needs it).
USER_WORDS_CHARS = 600
# The start of an MCP tool's name (`mcp__<server>__<tool>`).
MCP_PREFIX = "mcp__"

# Metadata lines that name a session: line type -> (key stored, field read).
META_TYPES = {
    "ai-title": ("ai_title", "aiTitle"),
    "summary": ("summary", "summary"),
    "custom-title": ("custom_title", "customTitle"),
}


def _a(noun: str) -> str:
    """`noun` with its article, as a bad line's reason says it: `an int`, `a list`."""
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


def iter_source_files(root: Path) -> Iterator[SourceFile]:
    """Every transcript under a projects directory, in path order.

    Layouts: `<project>/<session>.jsonl` (all versions, 1.0.x sidechains
    inline), `<project>/agent-<id>.jsonl` (2.0.x) and
    `<project>/<session>/subagents/agent-*.jsonl` (2.1.x).
    """
    root = Path(root)
    found: list[tuple[str, str | None]] = []
    lines.find_files(str(root), found, _may_be_transcript)
    skip = len(os.path.join(str(root), ""))
    for path, problem in sorted(found):
        rel = path[skip:].split(os.sep)
        if problem:
            yield SourceFile(path, None, rel[0], problem)
            continue
        project_dir = rel[0] if len(rel) > 1 else root.name
        name = rel[-1][: -len(".jsonl")]
        if len(rel) >= 3 and rel[-2] == "subagents":
            session_id: str | None = rel[-3]
        elif name.startswith("agent-"):
            session_id = None
        else:
            session_id = name
        yield SourceFile(path, session_id, project_dir)


def _may_be_transcript(name: str) -> bool:
    """Whether a file's name may be a Claude Code transcript's (`<session>.jsonl`,
    `agent-<id>.jsonl`): not the prompt history of ~/.claude, nor the `ses_<id>.jsonl` that
    oh-my-opencode writes into ~/.claude/transcripts for opencode's sessions (read from
    opencode's own store). Read as transcripts, a ~/.claude given as --source had 5,559 of
    its history's lines "skipped" and every line of those files a problem."""
    return (
        name.endswith(".jsonl")
        and not name.endswith("history.jsonl")
        and not name.startswith("ses_")
    )


def default_folders() -> list[Path]:
    """~/.claude/projects ($CLAUDE_CONFIG_DIR/projects when that is set)."""
    return [paths.claude_projects()]


def holds(root: Path) -> bool:
    """Whether `root`, or a project folder under it, holds a .jsonl file that is neither a
    Codex rollout (~/.codex/archived_sessions holds rollouts directly) nor an agent's
    prompt history (~/.codex/history.jsonl, ~/.claude/history.jsonl, opencode's
    ~/.local/state/opencode/prompt-history.jsonl, which made a home folder's .local/state
    look like a Claude Code store) nor another tool's (see _may_be_transcript):
    ~/.claude/projects, or one project folder of it."""
    return any(
        not p.name.startswith("rollout-") and _may_be_transcript(p.name) and not _of_no_agent(p)
        for pattern in ("*.jsonl", "*/*.jsonl")
        for p in Path(root).glob(pattern)
    )


# How much of a .jsonl file holds() reads for its first line.
_FIRST_LINE_BYTES = 65536


def _of_no_agent(path: Path) -> bool:
    """Whether a .jsonl file's first line is a JSON object without a `type`, as no line of
    Claude Code's is: another tool's notes (labels, metrics) lying beside a home folder's
    backup made that folder look like a Claude Code store, and the stores below it (a
    .codex/sessions) were read as Claude Code's, every line skipped. An empty, unreadable
    or broken file is not told apart here: read as a transcript, it gives its problem."""
    try:
        with lines.open_regular(path) as file:
            head = file.read(_FIRST_LINE_BYTES)
    except OSError:
        return False
    line, newline, _ = head.partition(b"\n")
    if not newline and len(head) == _FIRST_LINE_BYTES:
        return False
    try:
        first = json.loads(line)
    except ValueError:
        return False
    return isinstance(first, dict) and "type" not in first


def parse_file(source: SourceFile, data: bytes) -> Batch:
    """A whole transcript, as its lines (Claude Code's files are append-only)."""
    return parse_lines(data, first_line_no=1, default_session_id=source.session_id)


def default_source() -> Path:
    """~/.claude/projects, or the bundled demo sessions when it does not exist."""
    projects = paths.claude_projects()
    return projects if projects.is_dir() else DEMO_PROJECTS


def project_of_dir(name: str) -> str:
    """Best guess at the cwd behind an encoded project directory name.

    Claude Code replaces every non-alphanumeric character with '-', so this is
    lossy; it is only used when no line records a cwd.
    """
    return "/" + name[1:].replace("-", "/") if name.startswith("-") else name


# A slash command as Claude Code records it: `<command-name>/model</command-name>` (`init`,
# without the slash, in 1.0.21) and `<command-args>sonnet</command-args>`, with the
# expanded prompt and other tags around them.
_COMMAND_NAME = lazy(r"<command-name>/?([^<]*)</command-name>")
_COMMAND_ARGS = lazy(r"<command-args>(.*?)</command-args>", re.DOTALL)


# Claude Code's own commands, which set it up rather than ask for work (`/model sonnet`,
# `/add-dir ../api`): a custom command given arguments asks for work (`/orchestrator
# create a TODO app`), as a typed prompt does (see asks).
BUILTIN_COMMANDS = frozenset(
    """add-dir agents bashes bug clear compact config context cost doctor exit export help
    hooks ide init install-github-app login logout mcp memory migrate-installer model
    output-style permissions plugin pr-comments privacy-settings release-notes resume
    review rewind sandbox security-review status statusline terminal-setup todos upgrade
    usage vim""".split()
)


def asks(text: str) -> bool:
    """Whether a prompt recorded as a slash command asks for work as a typed prompt does: a
    command of the user's own given arguments (agents.typed_title)."""
    name = _COMMAND_NAME.search(text)
    args = _COMMAND_ARGS.search(text)
    return bool(
        name
        and name.group(1).strip()
        and name.group(1).strip() not in BUILTIN_COMMANDS
        and args
        and args.group(1).strip()
    )


# What Claude Code in an IDE puts before a prompt: the file open in the editor, or the
# lines selected in it (`<ide_opened_file>The user opened the file ... </ide_opened_file>`).
_IDE_CONTEXT = lazy(r"(?:\s*<(ide_[a-z_]+)>.*?</\1>)+\s*", re.DOTALL)


def prompt_request(text: str) -> str:
    """What a prompt asks, for a session's title (pastfix.agents.prompt_title): the prompt
    without the IDE's note of the file open before it (REFRESH_SESSIONS_SQL lets such a
    prompt through: 2 sessions of one person in the first held-out set were untitled, one
    titled by its third prompt), and a slash command as typed, `/model sonnet`, for a
    session of commands only (a 1.0.21 file of the fifth held-out set holds one of `/init`)."""
    ide = _IDE_CONTEXT.match(text) if text.startswith("<ide_") else None
    if ide is not None:
        return text[ide.end() :] or text
    name = _COMMAND_NAME.search(text) if text.startswith("<command-") else None
    if name is None or not name.group(1).strip():
        return text
    args = _COMMAND_ARGS.search(text)
    return " ".join(f"/{name.group(1).strip()} {args.group(1) if args else ''}".split())


def _placeholder(block: dict[str, Any]) -> str:
    source = block.get("source")
    media = "binary"
    size = 0
    if isinstance(source, dict):
        media = str(source.get("media_type") or block.get("type") or "binary")
        data = source.get("data")
        if isinstance(data, str):
            size = len(data) * 3 // 4
    else:
        media = str(block.get("type"))
    if size >= 1024 * 1024:
        return f"[{media} {size / (1024 * 1024):.1f} MB]"
    return f"[{media} {max(1, round(size / 1024))} KB]"


def flatten_content(content: Any) -> str:
    """Tool result content as text: strings and text blocks, images as placeholders."""
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                kind = block.get("type")
                if kind == "text":
                    text = block.get("text")
                    if not isinstance(text, str):
                        raise BadLine("tool_result text block without a text string")
                    parts.append(text)
                elif kind in ("image", "document"):
                    parts.append(_placeholder(block))
                elif kind == "tool_reference":
                    parts.append(f"[tool_reference {block.get('tool_name', '')}]")
                else:
                    parts.append(msgspec.json.encode(block).decode())
            else:
                raise BadLine(f"tool_result content holds {_a(type(block).__name__)}")
        return "\n".join(parts)
    if isinstance(content, dict):
        return msgspec.json.encode(content).decode()
    raise BadLine(f"tool_result content is {_a(type(content).__name__)}")


def persisted_name(content: str) -> tuple[str, str, int] | None:
    """What a <persisted-output> marker says: (the path line, the file's name, where
    the marker ends); None when `content` is not one.

    Only a result that starts with the marker is one: the text of a transcript
    read by a tool holds markers too.
    """
    if not content.startswith(PERSISTED_OPEN):
        return None
    end = content.rfind(PERSISTED_CLOSE)
    found = _SAVED_TO.search(content, 0, end) if end > 0 else None
    if found is None:
        return None
    # The path is where the file was on the machine that wrote it, maybe Windows.
    name = re.split(r"[/\\]", found.group(1).strip())[-1]
    if name in ("", ".", "..") or "\0" in name:
        return None
    return found.group(0), name, end + len(PERSISTED_CLOSE)


def side_folder(source: SourceFile, session_id: str) -> str:
    """<project>/<session>/tool-results for a session's transcript or a subagent's."""
    folder = os.path.dirname(source.path)
    if os.path.basename(folder) == "subagents":  # <project>/<session>/subagents/agent-x.jsonl
        folder = os.path.dirname(os.path.dirname(folder))
    return os.path.join(folder, session_id, TOOL_RESULTS_DIR)


def read_persisted_outputs(
    batch: Batch, source: SourceFile, spend: Callable[[int], None] | None = None
) -> list[PersistedOutput]:
    """Replace each <persisted-output> marker of `batch` by the file it names, found
    beside the transcript (the path in the marker is another machine's).

    A file that cannot be read keeps the marker, its preview being all there is,
    and adds a problem. What was read, or looked for, is returned for the build
    to record (see pastfix.records.PersistedOutput). `spend`, when given, is told the
    bytes of each file before they are read, and may raise to stop (a time budget).
    """
    found: list[PersistedOutput] = []
    results = batch.tool_results
    for i, result in enumerate(results):
        marker = persisted_name(result.content)
        if marker is None:
            continue
        line, name, end = marker
        # Named from the project folder the problem's path names: the whole path repeated it.
        shown = f"{result.session_id}/{TOOL_RESULTS_DIR}/{name}"
        if plain_id(result.session_id):
            path = os.path.join(side_folder(source, result.session_id), name)
            text, st, problem = _read_side_file(path, shown, spend)
        else:
            # a transcript names its own session: `/home/x` or `../..` would be a folder
            # elsewhere, not its own (a security test, session 30)
            path = ""  # (nothing to look at again)
            text, st, problem = None, None, f"persisted output of no session's folder: {shown}"
        if text is not None:
            rest = result.content[end:]
            results[i] = result._replace(
                content=clean_text(text) + rest, content_length=len(text) + len(rest)
            )
        else:
            # Not skipped, unlike a bad line's problem: the reason says so.
            reason = f"{problem}{PREVIEW_INDEXED}"
            batch.problems.append(Problem(result.line_no, reason, line))
        found.append(
            PersistedOutput(
                result.session_id,
                result.tool_use_id,
                path,
                st.st_size if st else None,
                st.st_mtime_ns if st else None,
                st.st_ctime_ns if st else None,
                problem,
            )
        )
    return found


# How much of a persisted output is read: a text is stored as its head and tail
# (records.cap_text), so of a larger file only as many bytes as those characters may take,
# and a margin, so that the seam between the two parts read is in the middle a stored text
# leaves out (a file of gigabytes was read whole: a security test, session 31).
_SIDE_HEAD = 4 * TEXT_HEAD + 65_536
_SIDE_TAIL = 4 * TEXT_TAIL + 65_536


def _read_side_file(
    path: str, shown: str, spend: Callable[[int], None] | None = None
) -> tuple[str | None, os.stat_result | None, str | None]:
    """The text of a persisted output, its stat, and why it could not be used (naming it
    `shown`). No link is followed, of the file or of the folders `<session>/tool-results` it
    is in: Claude Code writes them itself, and a link in a folder of someone else's
    transcripts could name any file the user can read (security tests, sessions 30 and 31).
    A file larger than a stored text can hold is read as its head and tail (_SIDE_HEAD)."""
    folder, name = os.path.split(path)
    session, tool_results = os.path.split(folder)
    flags = os.O_RDONLY | os.O_NOFOLLOW
    opened: list[int] = []
    try:
        opened.append(os.open(session, flags | os.O_DIRECTORY))
        opened.append(os.open(tool_results, flags | os.O_DIRECTORY, dir_fd=opened[-1]))
        fd = os.open(name, flags | os.O_NONBLOCK, dir_fd=opened[-1])
    except FileNotFoundError:
        return None, None, f"persisted output not found beside the transcript: {shown}"
    except OSError as e:
        if any(os.path.islink(p) for p in (session, folder, path)):
            # (its stat as the refresh looks at it, so that it is not read again each
            # build: see build._side_files_changed)
            try:
                st_link: os.stat_result | None = os.lstat(path)
            except OSError:
                st_link = None
            return None, st_link, f"persisted output is behind a link, not read: {shown}"
        try:
            st: os.stat_result | None = os.stat(path)
        except OSError:
            st = None
        return None, st, f"cannot read persisted output {shown}: {e.strerror or e}"
    finally:
        for opened_fd in opened:
            os.close(opened_fd)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not S_ISREG(st.st_mode):
            return None, st, f"persisted output is not a regular file: {shown}"
        if spend is not None:
            spend(min(st.st_size, _SIDE_HEAD + _SIDE_TAIL))
        try:
            if st.st_size <= _SIDE_HEAD + _SIDE_TAIL:
                data = f.read()
            else:
                head = f.read(_SIDE_HEAD)
                f.seek(st.st_size - _SIDE_TAIL)
                omitted = st.st_size - _SIDE_HEAD - _SIDE_TAIL
                data = head + f"\n[... {omitted:,} bytes not read ...]\n".encode() + f.read()
        except OSError as e:
            return None, st, f"cannot read persisted output {shown}: {e.strerror or e}"
    text = data.decode("utf-8", "replace")
    if path.endswith(".json"):
        # A list of text blocks, written as JSON (indented): the text they hold. A lone
        # surrogate escape in it (half an emoji) is made U+FFFD, as in a transcript's line:
        # decoded as it is, it stopped the whole transcript (a security test, session 33).
        try:
            json_text = records.without_lone_surrogates(data).decode("utf-8", "replace")
            text = flatten_content(json.loads(json_text))
        except (ValueError, BadLine, RecursionError):
            pass
    return text, st, None


def _str_or_none(value: Any, key: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise BadLine(f"{key} is {_a(type(value).__name__)}, not a string")


class _Line(msgspec.Struct):
    """The fields pastfix reads from a line; msgspec skips the rest in C.

    String fields are validated by msgspec (a wrong type fails the line with a
    precise reason); the rest are checked by hand. `message` stays raw until
    the line turns out to be a user or assistant line: the bulky `toolUseResult`
    sidecar is never materialised. (_TypedLine is the faster first try.)
    """

    type: Any = None
    uuid: str | None = None
    sessionId: str | None = None
    timestamp: str | None = None
    parentUuid: str | None = None
    isSidechain: Any = None
    isMeta: Any = None
    isCompactSummary: Any = None
    agentId: str | None = None
    cwd: str | None = None
    gitBranch: str | None = None
    version: str | None = None
    subtype: str | None = None
    content: Any = None
    cause: Any = None
    aiTitle: Any = None
    summary: Any = None
    customTitle: Any = None
    leafUuid: Any = None
    message: msgspec.Raw = msgspec.Raw()
    attachment: msgspec.Raw = msgspec.Raw()


class _Block(msgspec.Struct):
    """A content block; `input` stays raw JSON, stored as-is and read field by field."""

    type: Any = None
    text: Any = None
    thinking: Any = None
    id: Any = None
    name: Any = None
    input: msgspec.Raw = msgspec.Raw()
    tool_use_id: Any = None
    content: Any = None
    is_error: Any = None
    source: Any = None


class _Message(msgspec.Struct):
    model: Any = None
    content: str | list[_Block] | None = None


class _TypedLine(_Line):
    """A line with its message decoded in the same pass, tried first (see _parse_line).

    Only a line that decodes this way is read from it; any other (a message that is
    null or not an object, a wrong type anywhere) is decoded again as a _Line, whose
    errors name the problem. Decoding `message` at once saves skipping its bytes
    once and reading them again: 0.24 -> 0.20 s of CPU for the 200 MB benchmark
    corpus's 75,000 lines (the lines alone: 0.12 s).
    """

    # A narrower type than _Line's Raw, read only through _message_of.
    message: _Message | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]


class _Attachment(msgspec.Struct):
    type: Any = None
    prompt: msgspec.Raw = msgspec.Raw()


class _ToolInput(msgspec.Struct):
    command: Any = None
    file_path: Any = None
    notebook_path: Any = None
    path: Any = None
    description: Any = None


# A line's records made in C, every field given: a NamedTuple's own __new__ is a Python
# function, 0.27 µs against 0.11 for a message's 16 fields (93,000 records of the 200 MB
# corpus).
_record = tuple.__new__
_decode_line = msgspec.json.Decoder(_Line).decode
_decode_typed_line = msgspec.json.Decoder(_TypedLine).decode
_decode_message = msgspec.json.Decoder(_Message).decode
_decode_input = msgspec.json.Decoder(_ToolInput).decode
_decode_attachment = msgspec.json.Decoder(_Attachment).decode
_decode_prompt = msgspec.json.Decoder(str | list[_Block]).decode
_GOT_AT = lazy(r"got `(\w+)`(?: - at `\$(.*)`)?")


def parse_lines(data: bytes, *, first_line_no: int, default_session_id: str | None) -> Batch:
    """Parse complete JSONL lines (``data`` ends with a newline or is empty)."""
    batch = Batch()
    return lines.parse_lines(
        data, first_line_no, lambda line, n: _parse_line(line, n, default_session_id, batch), batch
    )


def _parse_line(
    line: memoryview | bytes,
    line_no: int,
    default_session_id: str | None,
    batch: Batch,
    repaired: bool = False,
) -> Problem | None:
    """Add one line's records to `batch`, or say why it cannot be indexed."""
    obj: _Line | None
    try:
        obj = _decode_typed_line(line)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        obj = None  # decoded again below, which says what is wrong in its own words
    try:
        if obj is None:
            obj = _decode_line(line)
        _parse_object(obj, line_no, default_session_id, batch)
    except msgspec.ValidationError as e:
        got, at = _got_at(str(e))
        reason = (
            f"{at.lstrip('.')} is {_a(got)}, not a string" if at else f"JSON {got}, not an object"
        )
        return Problem(line_no, reason, lines.excerpt(line))
    except msgspec.DecodeError as e:
        fixed = None if repaired else lines.repaired(e, line)
        if fixed is not None:
            return _parse_line(fixed, line_no, default_session_id, batch, repaired=True)
        return Problem(line_no, lines.bad_json(e, line), lines.excerpt(line))
    except BadLine as e:
        return Problem(line_no, str(e), lines.excerpt(line))
    except RecursionError:
        # msgspec refuses nesting deeper than Python's recursion limit, even in
        # a field it would skip.
        return Problem(line_no, "JSON nested too deeply", lines.excerpt(line))
    return None


def _parse_object(obj: _Line, line_no: int, default_session_id: str | None, batch: Batch) -> None:
    kind = obj.type
    if not isinstance(kind, str):  # a list or object would not even hash
        raise BadLine("line has no string 'type'")
    if kind == "user" or kind == "assistant" or kind == "system":
        _parse_message(obj, kind, line_no, default_session_id, batch)
    elif kind in IGNORED_TYPES:
        return
    elif kind == "attachment":
        _parse_attachment(obj, line_no, default_session_id, batch)
    elif kind in META_TYPES:
        key, field_name = META_TYPES[kind]
        value = getattr(obj, field_name)
        session_id = obj.sessionId or default_session_id
        if isinstance(value, str) and value and session_id:
            leaf = obj.leafUuid if isinstance(obj.leafUuid, str) else None
            batch.meta.append(SessionMeta(session_id, line_no, key, value, leaf))
    else:
        # A line type from a newer Claude Code: not an error, just counted.
        batch.skipped += 1


def _parse_message(
    obj: _Line,
    kind: str,
    line_no: int,
    default_session_id: str | None,
    batch: Batch,
) -> None:
    uuid = obj.uuid
    if not uuid:
        raise BadLine(f"{kind} line without a uuid")
    session_id = obj.sessionId or default_session_id
    if not session_id:
        raise BadLine(f"{kind} line without a sessionId")
    timestamp = obj.timestamp
    agent_id = obj.agentId
    is_sidechain = 1 if obj.isSidechain is True else 0
    texts: list[str] = []
    calls: list[ToolCall] = []
    results: list[ToolResult] = []
    model = None
    block_kind: str | None = None
    if kind == "system":
        block_kind = obj.subtype
        content = obj.content
        if isinstance(content, str):
            texts.append(content)
        cause = obj.cause
        if block_kind == "api_error" and isinstance(cause, dict):
            texts.append(f"API error: {cause.get('code', '')} {cause.get('path', '')}".strip())
    else:
        message = _message_of(obj, kind)
        model = _str_or_none(message.model, "model")
        content = message.content
        if isinstance(content, str):
            texts.append(content)
            block_kind = "prompt" if kind == "user" else "text"
        elif content is not None:
            for block in content:
                btype = block.type
                if btype is not None and not isinstance(btype, str):
                    # a list or object would not even hash (`"type": {}`)
                    raise BadLine("a content block's 'type' is not a string")
                if block_kind is None and isinstance(btype, str):
                    block_kind = btype
                if btype == "text":
                    text = block.text
                    if not isinstance(text, str):
                        raise BadLine("text block without a text string")
                    texts.append(text)
                elif btype == "thinking":
                    text = block.thinking
                    if isinstance(text, str):
                        texts.append(text)
                elif btype == "tool_result":
                    results.append(_tool_result(block, session_id, line_no, uuid, timestamp, batch))
                elif btype in SERVER_TOOL_RESULTS:
                    results.append(_server_tool_result(block, session_id, line_no, uuid, timestamp))
                elif btype in ("tool_use", "server_tool_use", "mcp_tool_use"):
                    calls.append(
                        _tool_call(
                            block, session_id, line_no, uuid, timestamp, agent_id, is_sidechain
                        )
                    )
                elif btype in ("image", "document"):
                    texts.append(_placeholder({"type": btype, "source": block.source}))
                elif btype == "compaction":
                    # the summary the API compacted the conversation into
                    if isinstance(block.content, str):
                        texts.append(block.content)
                elif btype not in SILENT_BLOCKS:
                    batch.skipped += 1
        if kind == "user" and block_kind != "prompt":
            block_kind = "tool_result" if results else "prompt"
    is_compact = 1 if obj.isCompactSummary is True else 0
    if is_compact:
        block_kind = "compact_summary"
    text = clean_text("\n\n".join(texts)) if texts else ""
    batch.messages.append(
        _message(obj, uuid, session_id, line_no, kind, block_kind, text, model, is_compact)
    )
    batch.tool_calls.extend(calls)
    batch.tool_results.extend(results)


def _message_of(obj: _Line, kind: str) -> _Message:
    """The decoded `message` of a user or assistant line (see _TypedLine)."""
    if isinstance(obj.message, _Message):
        return obj.message
    raw = bytes(obj.message) if obj.message is not msgspec.UNSET else b""
    if not raw:
        raise BadLine(f"{kind} line without a message")
    try:
        return _decode_message(raw)
    except msgspec.ValidationError as e:
        raise BadLine(_message_problem(kind, str(e))) from None


def _parse_attachment(
    obj: _Line, line_no: int, default_session_id: str | None, batch: Batch
) -> None:
    """A prompt typed while the agent was busy (queued_command) becomes a message.

    Other attachments (hook output, reminders, IDE state, diagnostics) are skipped.
    """
    raw = bytes(obj.attachment)
    if not raw:
        return
    try:
        attachment = _decode_attachment(raw)
    except msgspec.ValidationError as e:
        raise BadLine(f"attachment is {_a(_got_at(str(e))[0])}") from None
    if attachment.type != "queued_command":
        return
    try:
        prompt = _decode_prompt(bytes(attachment.prompt)) if attachment.prompt else ""
    except msgspec.ValidationError as e:
        got, at = _got_at(str(e))
        raise BadLine(f"queued_command prompt{at} is {_a(got)}") from None
    uuid = obj.uuid
    session_id = obj.sessionId or default_session_id
    if not uuid or not session_id:
        raise BadLine("queued_command attachment without a uuid or sessionId")
    if isinstance(prompt, str):
        texts = [prompt]
    else:
        texts = [b.text for b in prompt if b.type == "text" and isinstance(b.text, str)]
        texts += [
            _placeholder({"type": b.type, "source": b.source})
            for b in prompt
            if b.type in ("image", "document")
        ]
    text = clean_text("\n\n".join(texts))
    batch.messages.append(_message(obj, uuid, session_id, line_no, "user", "queued_prompt", text))


def _message(
    obj: _Line,
    uuid: str,
    session_id: str,
    line_no: int,
    kind: str,
    block_kind: str | None,
    text: str,
    model: str | None = None,
    is_compact: int = 0,
) -> Message:
    """The message row of a line, its envelope read from `obj`."""
    return _record(
        Message,
        (
            uuid,
            session_id,
            line_no,
            obj.parentUuid,
            kind,
            block_kind,
            obj.timestamp,
            text,
            1 if obj.isSidechain is True else 0,
            1 if obj.isMeta is True else 0,
            is_compact,
            obj.agentId,
            model,
            obj.cwd,
            obj.gitBranch or None,
            obj.version,
        ),
    )


def _got_at(error: str) -> tuple[str, str]:
    """The JSON type found and where (``".cwd"``, or ``""`` for the whole value)."""
    found = _GOT_AT.search(error)
    return (found.group(1), found.group(2) or "") if found else ("value", "")


def _message_problem(kind: str, error: str) -> str:
    """A problem reason from msgspec's validation error for `message`."""
    got, at = _got_at(error)
    if not at:
        return f"{kind} line whose message is {_a(got)}"
    if at == ".content":
        return f"message content is {_a(got)}"
    if re.fullmatch(r"\.content\[\d+\]", at):
        return f"content block is {_a(got)}"
    return f"{at.lstrip('.')} is {_a(got)}"


def _tool_result(
    block: _Block,
    session_id: str,
    line_no: int,
    uuid: str,
    timestamp: str | None,
    batch: Batch,
) -> ToolResult:
    is_error = block.is_error
    if is_error is None:
        is_error = False
    if not isinstance(is_error, bool):
        raise BadLine(f"tool_result is_error is {_a(type(is_error).__name__)}, not a boolean")
    text = flatten_content(block.content)
    if is_error:
        if text == WARMUP:
            # (kept as the call's result, but no failure: see WARMUP)
            is_error = False
        elif len(text) <= USER_WORDS_CHARS and _user_words(text, block.tool_use_id, batch):
            text = REJECTED_SAID + text
    return _result(block, session_id, line_no, uuid, timestamp, is_error, text)


def _user_words(text: str, tool_use_id: Any, batch: Batch) -> bool:
    """Whether a failed call's text is the user's words on rejecting it (REJECTED_SAID):
    not an MCP tool's error, which is its server's words, whatever they are."""
    from pastfix import signatures  # (compiled on first use: see prepare.prepare)

    if not signatures.user_words(text):
        return False
    for call in reversed(batch.tool_calls):
        if call.tool_use_id == tool_use_id:
            return not call.name.startswith(MCP_PREFIX)
    return True


def _result(
    block: _Block,
    session_id: str,
    line_no: int,
    uuid: str,
    timestamp: str | None,
    failed: bool,
    text: str,
) -> ToolResult:
    """The row of a result block (a tool_result, a server tool's), of the call it names."""
    tool_use_id = block.tool_use_id
    if not isinstance(tool_use_id, str) or not tool_use_id:
        raise BadLine(f"{block.type} without a tool_use_id")
    return _record(
        ToolResult,
        (
            tool_use_id,
            session_id,
            line_no,
            uuid,
            timestamp,
            1 if failed else 0,
            clean_text(text),
            len(text),
            None,  # signature and kind: prepare() gives a failure's
            None,
        ),
    )


def _server_tool_result(
    block: _Block,
    session_id: str,
    line_no: int,
    uuid: str,
    timestamp: str | None,
) -> ToolResult:
    """The result of a tool the API ran (SERVER_TOOL_RESULTS): its text, and whether it
    failed (an error dict's `error_code`, the text stored, or `is_error`)."""
    content = block.content
    failed = block.is_error is True
    items = content if isinstance(content, list) else [content]
    parts = []
    for item in items:
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, dict):
            kind = item.get("type")
            if isinstance(kind, str) and kind.endswith("_error"):
                failed = True
                parts.append(f"{kind}: {item.get('error_code', '')}".rstrip(": "))
            elif isinstance(item.get("text"), str):
                parts.append(item["text"])
            elif isinstance(item.get("url"), str):
                title = item.get("title")
                parts.append(f"{title}\n{item['url']}" if isinstance(title, str) else item["url"])
    return _result(block, session_id, line_no, uuid, timestamp, failed, "\n".join(parts))


def _tool_call(
    block: _Block,
    session_id: str,
    line_no: int,
    uuid: str,
    timestamp: str | None,
    agent_id: str | None,
    is_sidechain: int,
) -> ToolCall:
    tool_use_id = block.id
    name = block.name
    if not isinstance(tool_use_id, str) or not tool_use_id:
        raise BadLine("tool_use without an id")
    if not isinstance(name, str):
        raise BadLine("tool_use without a name")
    raw = bytes(block.input)
    try:
        input_json = raw.decode() if raw else "null"
        fields = _decode_input(raw) if raw[:1] == b"{" else _ToolInput()
    except (UnicodeDecodeError, msgspec.DecodeError):
        raise BadLine("invalid UTF-8") from None
    command = fields.command
    file_path = fields.file_path or fields.notebook_path
    if file_path is None and name in ("Grep", "Glob"):
        file_path = fields.path
    description = fields.description
    return _record(
        ToolCall,
        (
            tool_use_id,
            session_id,
            line_no,
            uuid,
            timestamp,
            name,
            command if isinstance(command, str) else None,
            file_path if isinstance(file_path, str) else None,
            description if isinstance(description, str) else None,
            input_json,
            agent_id,
            is_sidechain,
        ),
    )
