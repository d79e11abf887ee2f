"""Read Codex CLI rollouts into pastfix's records.

Codex keeps each session as `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`,
one `{timestamp, type, payload}` object a line:

- `session_meta` (line 1): the session's id, cwd, cli_version, originator and
  git info, stored as session_meta rows (`cwd`, `cli_version`, `git_branch`,
  `git_commit`, `originator`) from which the sessions row takes its project,
  version and branch. They are not copied onto the messages: the sessions row
  reads them from the rows the build that read line 1 stored.
- `turn_context` (cwd, model, sandbox of the next turn) and the other bookkeeping
  lines of IGNORED_TYPES: not indexed.
- `response_item`: what the model saw and said, read as the messages:
  `message` (role user, assistant or developer), `reasoning` (its summary and
  any reasoning text), `function_call` / `custom_tool_call` /
  `local_shell_call` (a tool call), their `*_output` (a tool result),
  `tool_search_call` / `tool_search_output` (a search of the tools Codex loads on
  demand, and the names of those it loaded), `web_search_call` and
  `image_generation_call` (calls the API ran itself, without a result), and
  `agent_message` (a message from another agent: kind agent_message). The other
  item types carry no readable text (IGNORED_ITEMS).
- `inter_agent_communication`: older Codex's record of a message from another
  agent, read as 0.171.0's agent_message item (each message is one line or the
  other, never both); older still wrote it as JSON in a message's text, read so too.
- `event_msg`: the UI's copy of the same conversation (user_message,
  agent_message, agent_reasoning repeat response items word for word) and
  bookkeeping (token_count, task_started...): never indexed, so nothing is
  stored twice. Only an MCP call's end is read, for whether it failed (below).
- `compacted`: the summary that replaced the history, a compact_summary message.

Until about August 2025 (0.2x) Codex wrote no such envelope: a first line
`{id, timestamp, instructions, git}`, `{"record_type": "state"}` lines, and each
response item as a line of its own, without a time. Those are read too (_legacy_line).

Ids. A session is its rollout's uuid (the one in the file name, which
`codex resume <id>` takes); a message, which Codex does not name, is
`<session uuid>:<line>`, which no Claude Code uuid can be; a tool call keeps
Codex's `call_id` (`call_...`, where Claude Code's are `toolu_...`). A call
and its result each get a message row (kind `tool_use` / `tool_result`,
empty text), as Claude Code's do, so the session page shows them in order.

Failures. Codex records no is_error flag. A tool result is a failure when:

1. it records an exit code other than 0: the JSON form
   `{"output": ..., "metadata": {"exit_code": N}}`, a first line `Exit code: N`
   (shell), or a header line `Process exited with code N` (exec_command and
   write_stdin), which newer Codex versions put after a first `Command: ...`
   line naming the command (shell-quoted, so it may span lines); or
2. it reports that the call itself failed: an MCP result with `"isError": true`,
   `{"success": false}`, or an output that starts with one of Codex's own
   failure messages (FAILED_CALL_PREFIXES: `err: `, `failed to parse function
   arguments`, `unsupported call`, `apply_patch verification failed`,
   `write_stdin failed`, `unable to locate image at`, ...); or
3. it is an MCP call whose end event says it failed. Codex 0.171.0 writes an MCP
   result as its text alone (`[{"type": "input_text", "text": "Wall time: ...
   Output:"}, {... the tool's text}]`), its isError only in the `item_completed`
   event (an McpToolCall item with `"status": "failed"`) written just before it;
   versions that persist `mcp_tool_call_end` write `{"Err": ...}` or
   `{"Ok": {..., "isError": true}}` there. An event before its output marks it
   however the two lines are read (see Reads below); one after it, only within one
   read: a build that read the output and reads on from between the two lines (they
   are written a millisecond apart) keeps the output stored as a success.

Reads. A line leans on earlier ones: a poll names the command an earlier call
started, a result is marked failed by an earlier MCP event, a legacy rollout's lines
take their time from its first. What one read carries from line to line is a _Context,
kept across the runs a build reads a long rollout in; a build that reads on from a
stored offset first fills it from the lines before the offset (reads_on, _recall), so
an append stores the rows a fresh build of the whole file stores (a poll whose command
an earlier build read was stored without it; a legacy rollout's new lines without a
time, its title and fixes taken from them: benchmarks/append_check.py, 10 of 154 cut
points of the held-out sets 31, 33 and 36).

Shell output is stored the way Claude Code stores Bash output, so that error
signatures and kinds read it alike: the header lines (`Command`, `Wall time`,
`Chunk ID`, `Original token count`, `Output:`) go, and a failure starts with
`Exit code N`.

Commands. A shell call's argv list is stored as the shell command text: the
script of `bash -lc <script>` (or sh, zsh, ... -c), else the argv joined with
shell quoting; `exec_command`'s `cmd` and `shell_command`'s `command` strings
as they are. A `write_stdin` call, which polls (or types into) a command that
exec_command left running (`Process running with session ID N`), gets that
command: its output is the command's, a failure when it exits non-zero, so
a long test run that fails is matched to the run that passes after the fix. A
result that says the command is still running is a success of kind `running`:
it ended later, as its poll says (pastfix.fixes takes it for no result).
An MCP tool that Codex offers in a
namespace (`{"name": "query", "namespace": "mcp__db"}`) is named as older Codex
flattened it, `mcp__db__query`. A call that runs `apply_patch` (the tool, or
the shell running it) is named `apply_patch`, as Codex itself treats it, and its
file_path is the first file the patch touches: it is an edit for find_past_fix.
A cell of code mode (the `exec` tool running the model's JavaScript) is named as
the tool it calls, with the commands or patch its code names (see CODE_MODE).
"""

from __future__ import annotations

import os
import re
import shlex
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from pastfix import lines, paths, records
from pastfix.lines import BadLine
from pastfix.patterns import lazy
from pastfix.records import (
    Batch,
    Message,
    Problem,
    SessionMeta,
    SourceFile,
    ToolCall,
    ToolResult,
    clean_text,
)

AGENT = "codex"
# Where Codex CLI keeps its rollouts (CODEX_HOME, when set, moves ~/.codex).
SESSIONS_DIR = Path("sessions")

_ROLLOUT = lazy(
    r"^rollout-.*?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$",
    re.IGNORECASE,
)
# User messages Codex writes itself at the start of a session or turn (the
# environment, AGENTS.md): not prompts typed by a person. Codex tells them apart
# from prompts by the same prefixes.
_CONTEXT_PREFIXES = ("<", "# AGENTS.md instructions")
# What Codex's IDE extension puts before a prompt typed in the editor: the active file and
# open tabs, then the request under a heading. The prompt is the person's, kept whole (the
# files are words to search for); a session's title is its request (prompt_request).
_IDE_CONTEXT = "# Context from my IDE setup:"
_IDE_REQUEST = "\n## My request for Codex:"
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish"})
# Codex's words for a call the user refused: failures, of kind `rejected` (signatures'
# rules say the same), on which the hook stays silent as it does on Claude Code's.
REJECTED_PREFIXES = ("exec command rejected by user", "patch rejected by user")
# Codex's own words for a call that failed before or instead of running.
FAILED_CALL_PREFIXES = (
    "err: ",
    "failed to parse function arguments",
    "unsupported call",
    "unsupported custom tool call",
    "apply_patch verification failed",
    "execution error:",
    *REJECTED_PREFIXES,
    "sandbox error",
    # unified exec: a command that could not start, a session that is gone; 0.118 names
    # the command (`exec_command failed for `/bin/zsh -lc 'ps'`: CreateProcess { ...
    # Sandbox(Denied ...`), codex-rs's FunctionCallError::RespondToModel
    "exec_command failed:",
    "exec_command failed for `",
    "write_stdin failed:",
    # view_image of a missing, unreadable or non-file path
    "unable to locate image at `",
    "unable to read image at `",
    "image path `",
    # an MCP server's JSON-RPC error (Codex 0.171.0)
    "tool call error:",
    "MCP tool returned an error:",
    # a policy's refusal (not the user's), and older Codex's sandbox failures and timeout
    # (codex-rs/core/src/codex.rs of 2025, handle_sandbox_error)
    "exec command rejected:",
    "patch rejected:",
    "write_stdin rejected:",
    "failed in sandbox ",
    # 0.4x-0.5x: an error of the sandbox itself, the command killed by a signal or timed out
    # (codex-rs sandbox_failure_message: `failed in sandbox: {the SandboxErr's message}`,
    # `sandbox error: command was killed by a signal`: 2 pytest runs of the seventh held-out
    # set were stored as successes)
    "failed in sandbox: ",
    "command timed out after ",
    "retry failed:",
    # a call the user stopped (Esc) while it ran (0.12x: `aborted by user after 31.2s`;
    # 0.66: `Wall time: 16.5 seconds` then `aborted by user`), kind `interrupted`: stored
    # as a success, it was no failure at all (sixteenth and twenty-first held-out sets)
    "aborted by user",
    # 0.3x: an apply_patch the shell ran whose patch did not parse or verify, returned
    # to the model as `error: {e:#}` (codex-rs handle_container_exec_with_params:
    # `error: Failed to find expected lines in a.py: ...`, `error: invalid hunk at line
    # 4, ...`); no exit code, no metadata (eighteenth held-out set, 9 calls of one rollout)
    "error: ",
)
_EXIT_FIRST = lazy(r"Exit code: (-?\d+)\n")
_EXITED = lazy(r"Process exited with code (-?\d+)$")
_RUNNING = lazy(r"^Process running with session ID (\d+)$", re.MULTILINE)
# The kind of a result whose command was still running (a success's only kind).
RUNNING = "running"
# Header lines of exec output before its `Output:` line.
_HEADER = lazy(
    r"(?:Exit code: -?\d+|Wall time: .*|Total output lines: \d+|Chunk ID: .*"
    r"|Process exited with code -?\d+|Process running with session ID .*"
    r"|Original token count: \d+)$"
)
# Rollout line types that carry nothing to index (RolloutItemWire in
# codex-rs/history/src/rollout_payload.rs; 0.171.0's binary names the same set, with
# dynamic_tools_updated): token usage per response, a snapshot of the model's context
# (world_state: AGENTS.md, skills, environment, which the developer and user context
# messages beside it repeat), risk scores, realtime presentation facts, the answers
# retained for authorization (retained_context, whose questions the call's output holds),
# tool lists and flags. A 3-call `codex exec` session of 0.171.0 has 4 such lines in 25.
IGNORED_TYPES = frozenset(
    {
        "turn_context",
        "token_usage_record",
        "world_state",
        "security_risk_score",
        "realtime_item",
        "dynamic_tools_updated",
        "inter_agent_communication_metadata",
        "retained_context",
    }
)
_CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})
_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})
# Response item types with no text a person wrote or read (ResponseItem in
# codex-rs/protocol/src/models.rs; Codex 0.171.0's binary names the same variants): the
# tool definitions offered to the model (additional_tools), a history compacted by the
# API (compaction, which older Codex called compaction_summary, and context_compaction:
# encrypted_content only; the `compacted` line beside them holds any readable summary),
# the request controls compaction_trigger and configuration_update (a reasoning effort),
# older Codex's undo snapshots (ghost_snapshot, a git commit id) and `other`, what Codex
# writes for an item type of the API it does not know. Each is read as known, not skipped.
IGNORED_ITEMS = frozenset(
    {
        "additional_tools",
        "compaction",
        "compaction_summary",
        "context_compaction",
        "compaction_trigger",
        "configuration_update",
        "ghost_snapshot",
        "other",
    }
)
# The fields of an inter-agent message (InterAgentCommunication in
# codex-rs/protocol/src/protocol.rs), as older Codex also wrote it into a message's text.
_ENVELOPE_KEYS = frozenset({"author", "recipient", "content", "trigger_turn"})
# The header Codex 0.171.0 puts before an agent message's payload (to_model_input_item):
# `Message Type: NEW_TASK|MESSAGE|FINAL_ANSWER`, the task name, the sender, `Payload:`.
# The payload follows as text, or as encrypted_content when the model wrote it encrypted
# (spawn_agent's and send_message's `message` are "encrypted": true in their schemas).
_AGENT_HEADER = lazy(r"Message Type: (\S+)\nTask name: [^\n]*\nSender: [^\n]*\nPayload:\n?")


class _Line(msgspec.Struct):
    timestamp: str | None = None
    type: Any = None
    payload: msgspec.Raw = msgspec.Raw()


class _Payload(msgspec.Struct):
    """The payload fields read, of every line type; msgspec skips the rest (instructions)."""

    type: Any = None
    id: Any = None
    cwd: Any = None
    cli_version: Any = None
    originator: Any = None
    git: Any = None
    model: Any = None
    role: Any = None
    content: Any = None
    summary: Any = None
    name: Any = None
    arguments: Any = None
    input: Any = None
    call_id: Any = None
    action: Any = None
    output: Any = None
    message: Any = None
    namespace: Any = None
    item: Any = None
    result: Any = None
    author: Any = None
    recipient: Any = None
    tools: Any = None
    status: Any = None
    revised_prompt: Any = None


class _Arguments(msgspec.Struct):
    command: Any = None
    cmd: Any = None
    workdir: Any = None
    path: Any = None
    file_path: Any = None
    input: Any = None
    patch: Any = None
    session_id: Any = None
    cell_id: Any = None


class _LegacyHead(msgspec.Struct):
    """The first line of a rollout before Codex's {timestamp, type, payload} lines, and its
    `{"record_type": "state"}` lines (see _legacy_line)."""

    id: Any = None
    timestamp: Any = None
    record_type: Any = None


# The response item types a rollout of those versions writes as lines of their own.
_LEGACY_ITEMS = frozenset({"message", "reasoning", *_CALLS, *_OUTPUTS})

_decode_legacy_head = msgspec.json.Decoder(_LegacyHead).decode
_decode_line = msgspec.json.Decoder(_Line).decode
_decode_payload = msgspec.json.Decoder(_Payload).decode
_decode_arguments = msgspec.json.Decoder(_Arguments).decode
# parse_lines bound to one read's context (reads_on)
LineParser = Callable[..., Batch]


class _Context:
    """What one read carries from line to line.

    The session the lines belong to (the file name's, else its session_meta's);
    the MCP calls whose end event said they failed; each result's place in the
    batch (an event after its output marks it there); and the command each
    exec_command call ran, each running process's (for write_stdin) and each
    code-mode cell's left running (for wait).
    """

    def __init__(self, session_id: str | None) -> None:
        self.session_id = session_id
        self.failed_calls: set[str] = set()
        self.results: dict[str, int] = {}
        self.commands: dict[str, str] = {}
        self.processes: dict[int, str] = {}
        # the command each code-mode cell left running ran, by cell id (for wait)
        self.cells: dict[str, str] = {}
        # A rollout of Codex before its {timestamp, type, payload} lines (mid-2025): the
        # start its first line gives, from which each line gets its time (_legacy_line).
        self.legacy_start: datetime | None = None


def iter_source_files(root: Path) -> Iterator[SourceFile]:
    """Every rollout-*.jsonl under a Codex sessions folder, in path order."""
    found: list[tuple[str, str | None]] = []
    lines.find_files(str(root), found, lines.is_jsonl)
    for path, problem in sorted(found):
        if problem:
            yield SourceFile(path, None, "", problem, AGENT)
            continue
        named = _ROLLOUT.match(os.path.basename(path))
        if named:
            yield SourceFile(path, named.group(1).lower(), "", None, AGENT)


def default_folders() -> list[Path]:
    """~/.codex/sessions, or $CODEX_HOME/sessions when Codex is told to live elsewhere."""
    return [paths.codex_home() / "sessions"]


def holds(root: Path) -> bool:
    return is_sessions_folder(root)


def positional_ids(path: str) -> bool:
    """A message is `<session uuid>:<line>` (see Ids above): its id names a line."""
    return True


def parse_file(source: SourceFile, data: bytes) -> Batch:
    """A whole rollout, as its lines (rollouts are append-only)."""
    return parse_lines(data, first_line_no=1, default_session_id=source.session_id)


def is_sessions_folder(root: Path) -> bool:
    """Whether `root` holds Codex rollouts: rollout-*.jsonl in it or in its date folders."""
    level = [Path(root)]
    for _ in range(4):
        below: list[Path] = []
        for folder in level:
            try:
                with os.scandir(folder) as listing:
                    entries = sorted(listing, key=lambda e: e.name, reverse=True)
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith("rollout-") and entry.name.endswith(".jsonl"):
                    return True
                # YYYY, MM and DD folders; a Claude projects folder has none.
                if entry.name.isdigit() and entry.is_dir():
                    below.append(Path(entry.path))
        level = below[:3]
    return False


def parse_lines(data: bytes, *, first_line_no: int, default_session_id: str | None) -> Batch:
    """Parse complete rollout lines (``data`` ends with a newline or is empty)."""
    return _parse_lines(data, first_line_no, _Context(default_session_id))


def reads_on(f: BinaryIO, offset: int, session_id: str | None) -> LineParser:
    """parse_lines for one read of `f` from `offset` on, in as many runs as the build reads
    it in: each run's lines see what the lines before them leave (_Context), those of the
    earlier runs and of the file before `offset` alike, so that an append and a rollout
    of more than one run store what a fresh read of it in one run would.

    What the lines before `offset` leave is read again from them (_recall); the build
    seeks `f` to `offset` after this.
    """
    context = _Context(session_id)
    if offset:
        _recall(f, offset, context)

    def parse(data: bytes, *, first_line_no: int, default_session_id: str | None) -> Batch:
        return _parse_lines(data, first_line_no, context)

    return parse


def _parse_lines(data: bytes, first_line_no: int, context: _Context) -> Batch:
    batch = Batch()
    context.results.clear()  # places in an earlier batch
    return lines.parse_lines(
        data, first_line_no, lambda line, n: _parse_line(bytes(line), n, context, batch), batch
    )


# What a line must hold to leave anything in the _Context a later line reads: the first line
# (the session's meta, a legacy rollout's start), a call (its command), an output that says
# its command or cell is still running (the process a write_stdin polls, the cell a wait
# waits on), an MCP call's end event (a failure). Each is a JSON key or value as Codex
# writes it, or text an output holds as written; a line that holds one by chance is only
# read for nothing.
_LEAVES_CONTEXT = (
    b'"session_meta"',
    b'_call"',
    b"Process running with session ID",
    b"Script running with cell ID",
    b'"mcp_tool_call_end"',
    b'"item_completed"',
)
# The bytes of a rollout _recall holds at once.
_RECALL_BYTES = 16 * 1024 * 1024


def _recall(f: BinaryIO, offset: int, context: _Context) -> None:
    """Fill `context` with what the lines of `f` before `offset` (where a line ends) leave:
    those lines (_LEAVES_CONTEXT, found in the bytes, not line by line) are parsed again,
    their rows thrown away.

    A 3.9 MB rollout's calls, polls and events are recalled in ~5 ms (parsing it whole
    takes ~30 ms). An MCP event after its output (older Codex writes the event first) that
    an append reads while the output was read before does not mark the stored result.
    """
    f.seek(0)
    batch = Batch()
    line_no = 1  # the number of the first line of `data`
    rest = b""  # the start of a line the last chunk did not end
    left = offset
    while left > 0:
        chunk = f.read(min(_RECALL_BYTES, left))
        if not chunk:
            break
        left -= len(chunk)
        data = rest + chunk if rest else chunk
        end = data.rfind(b"\n") + 1 if left else len(data)
        data, rest = data[:end], data[end:]
        starts = {0} if line_no == 1 else set()
        for mark in _LEAVES_CONTEXT:
            at = data.find(mark)
            while at >= 0:
                starts.add(data.rfind(b"\n", 0, at) + 1)
                stop = data.find(b"\n", at)
                at = data.find(mark, stop) if stop >= 0 else -1
        number, counted = line_no, 0
        for start in sorted(starts):
            number += data.count(b"\n", counted, start)
            counted = start
            stop = data.find(b"\n", start)
            raw = data[start : len(data) if stop < 0 else stop]
            if number == 1:
                raw = raw.removeprefix(lines.BOM)
            if raw.strip():
                _parse_line(raw, number, context, batch)
        line_no += data.count(b"\n")


def _parse_line(
    raw: bytes, line_no: int, context: _Context, batch: Batch, repaired: bool = False
) -> Problem | None:
    try:
        line = _decode_line(raw)
        if not isinstance(line.type, str | None):  # a list or object would not even hash
            raise BadLine("line's 'type' is not a string")
        if not line.payload and (line.type is None or line.type in _LEGACY_ITEMS):
            _legacy_line(raw, line, line_no, context, batch)
            return None
        payload = _decode_payload(bytes(line.payload)) if line.payload else _Payload()
        if not isinstance(payload.type, str | None):
            raise BadLine("payload's 'type' is not a string")
        _parse_object(line, payload, line_no, context, batch)
    except msgspec.ValidationError as e:
        reason = str(e).replace("Expected `object`, got", "JSON").replace("`", "")
        return Problem(line_no, f"{reason}, not an object", lines.excerpt(raw))
    except msgspec.DecodeError as e:
        fixed = None if repaired else lines.repaired(e, raw)
        if fixed is not None:
            return _parse_line(fixed, line_no, context, batch, repaired=True)
        return Problem(line_no, lines.bad_json(e, raw), lines.excerpt(raw))
    except BadLine as e:
        return Problem(line_no, str(e), lines.excerpt(raw))
    except RecursionError:
        return Problem(line_no, "JSON nested too deeply", lines.excerpt(raw))
    return None


def _parse_object(
    line: _Line, payload: _Payload, line_no: int, context: _Context, batch: Batch
) -> None:
    kind = line.type
    if kind == "session_meta":
        _session_meta(payload, line_no, context, batch)
        return
    if kind == "event_msg":
        # the UI's copies of response items, and bookkeeping: only an MCP call's end is read
        call_id = failed_mcp_call(payload.type, payload.item, payload.call_id, payload.result)
        if call_id:
            context.failed_calls.add(call_id)
            place = context.results.get(call_id)
            if place is not None:
                batch.tool_results[place] = batch.tool_results[place]._replace(is_error=1)
        return
    if kind in IGNORED_TYPES:
        return
    session_id = context.session_id
    if kind == "compacted":
        if isinstance(payload.message, str) and session_id:
            text = clean_text(payload.message)
            batch.messages.append(
                _message(context, line, line_no, "user", "compact_summary", text, compact=1)
            )
        return
    if kind not in ("response_item", "inter_agent_communication"):
        batch.skipped += 1  # a line type from a newer Codex
        return
    if not session_id:
        raise BadLine(f"{kind} before any session_meta")
    if kind == "inter_agent_communication":
        # Older Codex's only record of a message from another agent (the
        # history Codex rebuilds on resume turns it into an agent_message item, so no
        # response_item repeats it); 0.171.0 writes the agent_message response item
        # itself, after an inter_agent_communication_metadata line (IGNORED_TYPES).
        _agent_message(
            line, line_no, context, batch, payload.author, payload.recipient, payload.content
        )
        return
    item = payload.type
    if item == "message":
        _parse_message(line, payload, line_no, context, batch)
    elif item == "reasoning":
        texts = _texts(payload.summary) + _texts(payload.content)
        if texts:
            text = clean_text("\n\n".join(texts))
            batch.messages.append(_message(context, line, line_no, "assistant", "thinking", text))
    elif item in _CALLS:
        message = _message(context, line, line_no, "assistant", "tool_use", "")
        batch.messages.append(message)
        call = _tool_call(payload, message, context.processes, context.cells)
        batch.tool_calls.append(call)
        if call.command and call.name in _RUNS_ON:
            context.commands[call.tool_use_id] = call.command
    elif item in _OUTPUTS:
        call_id = payload.call_id
        if not isinstance(call_id, str) or not call_id:
            raise BadLine(f"{item} without a call_id")
        content, failed = tool_output(payload.output)
        failed = failed or call_id in context.failed_calls
        running = _RUNNING.search(payload.output) if isinstance(payload.output, str) else None
        if running and call_id in context.commands:
            context.processes[int(running.group(1))] = context.commands[call_id]
        cell = _CELL_RUNNING.match(_first_text(payload.output))
        if cell:
            running = cell
            if call_id in context.commands:
                context.cells[cell.group(1)] = context.commands[call_id]
        # a command still running when its output was taken: how it ends, a later
        # write_stdin says (pastfix.fixes takes it for no result)
        kind = RUNNING if running and not failed else None
        _add_result(line, line_no, context, batch, call_id, failed, content, kind)
    elif item == "agent_message":
        _agent_message(
            line, line_no, context, batch, payload.author, payload.recipient, payload.content
        )
    elif item == "tool_search_call":
        _tool_search_call(line, payload, line_no, context, batch)
    elif item == "tool_search_output":
        _tool_search_output(line, payload, line_no, context, batch)
    elif item in ("web_search_call", "image_generation_call"):
        _hosted_tool_call(line, payload, line_no, context, batch)
    elif item not in IGNORED_ITEMS:
        batch.skipped += 1  # an item type of a newer Codex


def _legacy_line(raw: bytes, line: _Line, line_no: int, context: _Context, batch: Batch) -> None:
    """A line of a rollout as Codex wrote them until about August 2025 (0.2x): a first
    line `{id, timestamp, instructions, git}`, `{"record_type": "state"}` lines, and the
    response items themselves, each a line of its own, without a time.

    Each item is read as a response_item line is. Its time is the session's start plus
    its line number in milliseconds: the order of the lines, which the fix rules and the
    session page go by (a card's "fixed N s later" reads 0 s). A build that reads such a
    rollout on from an offset has the start from its first line again (reads_on).
    """
    payload = _decode_payload(raw)
    if line.type is None:
        head = _decode_legacy_head(raw)
        if head.record_type is not None:
            return  # the state Codex kept between turns: nothing a person wrote or read
        if not (isinstance(head.id, str) and isinstance(head.timestamp, str)):
            batch.skipped += 1
            return
        try:
            context.legacy_start = datetime.fromisoformat(head.timestamp)
        except ValueError:
            context.legacy_start = None
        _session_meta(payload, line_no, context, batch)
        return
    stamp = None
    if context.legacy_start is not None:
        at = context.legacy_start + timedelta(milliseconds=line_no)
        stamp = at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    _parse_object(_Line(stamp, "response_item"), payload, line_no, context, batch)


def _session_meta(payload: _Payload, line_no: int, context: _Context, batch: Batch) -> None:
    if context.session_id is None:
        context.session_id = _str(payload.id)
    if context.session_id is None:
        raise BadLine("session_meta without an id")
    git = payload.git if isinstance(payload.git, dict) else {}
    for key, value in (
        ("cwd", _str(payload.cwd)),
        ("cli_version", _str(payload.cli_version)),
        ("git_branch", _str(git.get("branch"))),
        ("git_commit", _str(git.get("commit_hash"))),
        ("originator", _str(payload.originator)),
    ):
        if value:
            batch.meta.append(SessionMeta(context.session_id, line_no, key, value))


def prompt_request(text: str) -> str:
    """What a prompt asks, for a session's title (pastfix.agents.prompt_title): the request
    of one the IDE extension sent, without the open files before it (3 sessions of 2 people
    in the third and fifth held-out sets were titled `# Context from my IDE setup: ...`)."""
    if text.startswith(_IDE_CONTEXT):
        request = text.partition(_IDE_REQUEST)[2].strip()
        if request:
            return request
    return text


def _parse_message(
    line: _Line, payload: _Payload, line_no: int, context: _Context, batch: Batch
) -> None:
    role = payload.role
    envelope = _envelope(payload.content) if role in ("user", "assistant") else None
    if envelope is not None:
        # Older Codex gave the model a message between agents as the JSON of the
        # message, in a user (a new task) or assistant message (InterAgentCommunication::
        # to_response_input_item, which from_message_content reads back): one message
        # from another agent, not a prompt typed by a person nor a reply.
        _agent_message(
            line,
            line_no,
            context,
            batch,
            envelope.get("author"),
            envelope.get("recipient"),
            envelope.get("content"),
        )
        return
    text = clean_text("\n\n".join(_texts(payload.content)))
    if role == "assistant":
        batch.messages.append(_message(context, line, line_no, "assistant", "text", text))
    elif role == "user":
        meta = 1 if text.lstrip().startswith(_CONTEXT_PREFIXES) else 0
        batch.messages.append(_message(context, line, line_no, "user", "prompt", text, meta=meta))
    elif role in ("developer", "system"):
        batch.messages.append(_message(context, line, line_no, "system", role, text, meta=1))
    else:
        batch.skipped += 1


def _envelope(content: Any) -> dict[str, Any] | None:
    """The inter-agent message a message's only text holds as JSON, if it is one."""
    if not isinstance(content, list) or len(content) != 1 or not isinstance(content[0], dict):
        return None
    text = content[0].get("text")
    if not isinstance(text, str) or not text.startswith("{") or '"trigger_turn"' not in text:
        return None
    try:
        value = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return None
    if isinstance(value, dict) and _ENVELOPE_KEYS <= value.keys():
        return value
    return None


def _agent_message(
    line: _Line,
    line_no: int,
    context: _Context,
    batch: Batch,
    author: Any,
    recipient: Any,
    content: Any,
) -> None:
    """A message from another agent of the session (a task given to a subagent, a
    subagent's report to its parent): a user row of kind agent_message, its text headed
    by who wrote it to whom (Codex's agent paths, `/root/worker → /root`) and the kind of
    message Codex's header names (`FINAL_ANSWER`), then what the agent wrote.

    Its text is what the other agent wrote, not what the person typed (never a title or
    a prompt), and the input the agent worked on, as a Claude Code subagent's report is
    a tool result. Encrypted content has no text: a message whose payload is encrypted
    (a task the model wrote encrypted) is left out.
    """
    text = "\n\n".join(_texts(content)).strip()
    header = _AGENT_HEADER.match(text)
    if header:
        text = text[header.end() :].strip()
    if not text:
        return
    if isinstance(author, str) and author and isinstance(recipient, str) and recipient:
        kind = f" ({header.group(1)})" if header else ""
        text = f"{author} → {recipient}{kind}\n\n{text}"
    message = _message(context, line, line_no, "user", "agent_message", clean_text(text))
    batch.messages.append(message)


def _tool_search_call(
    line: _Line, payload: _Payload, line_no: int, context: _Context, batch: Batch
) -> None:
    """The model searching the tools Codex holds back (MCP tools loaded on demand).

    Its arguments are JSON (`{"query": ..., "limit": N}`); a search the harness runs
    itself (`execution` "server") may have no call_id, and then no result is told
    apart from another's: neither is stored.
    """
    call_id = _str(payload.call_id)
    if call_id is None:
        return
    message = _message(context, line, line_no, "assistant", "tool_use", "")
    batch.messages.append(message)
    arguments = payload.arguments
    query = arguments.get("query") if isinstance(arguments, dict) else None
    batch.tool_calls.append(
        ToolCall(
            call_id,
            message.session_id,
            line_no,
            message.uuid,
            message.timestamp,
            "tool_search",
            None,
            None,
            _str(query),
            msgspec.json.encode(arguments).decode(),
            None,
            0,
        )
    )


def _tool_search_output(
    line: _Line, payload: _Payload, line_no: int, context: _Context, batch: Batch
) -> None:
    """The tools a search loaded, stored as their names, one a line (their JSON schemas
    are what the model reads next, not text a person looks for).

    Never a failure: Codex answers a search that failed with `"status": "completed"`
    and no tools (failure_response in codex-rs/core/src/tools/parallel.rs).
    """
    call_id = _str(payload.call_id)
    if call_id is None:
        return
    names = _tool_names(payload.tools)
    _add_result(line, line_no, context, batch, call_id, False, "\n".join(names) or "no tools found")


def _add_result(
    line: _Line,
    line_no: int,
    context: _Context,
    batch: Batch,
    call_id: str,
    failed: bool,
    text: str,
    kind: str | None = None,
) -> None:
    """A call's output: its message, and its result, found by its call_id (context.results)."""
    message = _message(context, line, line_no, "user", "tool_result", "")
    batch.messages.append(message)
    context.results[call_id] = len(batch.tool_results)
    batch.tool_results.append(
        ToolResult(
            call_id,
            message.session_id,
            line_no,
            message.uuid,
            message.timestamp,
            1 if failed else 0,
            clean_text(text),
            len(text),
            kind=kind,
        )
    )


def _tool_names(tools: Any) -> list[str]:
    """The names of tool definitions, a namespace's tools named as Codex names them."""
    names: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            continue
        inner = tool.get("tools")
        if isinstance(inner, list):
            prefix = tool["name"].rstrip("_")
            names += [f"{prefix}__{name.lstrip('_')}" for name in _tool_names(inner)]
        else:
            names.append(tool["name"])
    return names


def _hosted_tool_call(
    line: _Line, payload: _Payload, line_no: int, context: _Context, batch: Batch
) -> None:
    """A tool the API runs itself: a web search or an image generation.

    Stored as a call with no result (the rollout keeps none: a search's results went
    to the model only, an image's bytes are left out), named web_search or
    image_generation, its target (the query, the page, the prompt) as its description.
    Its id is the item's (`ws_...`, `ig_...`), else `<session>:<line>`.
    """
    message = _message(context, line, line_no, "assistant", "tool_use", "")
    batch.messages.append(message)
    if payload.type == "web_search_call":
        name = "web_search"
        action = payload.action if isinstance(payload.action, dict) else {}
        queries = action.get("queries")
        target = _str(action.get("query")) or _str(action.get("url"))
        if target is None and isinstance(queries, list):
            target = "; ".join(q for q in queries if isinstance(q, str)) or None
        pattern = _str(action.get("pattern"))
        if pattern and target:
            target = f"{pattern} in {target}"
        arguments: dict[str, Any] = {"action": action, "status": payload.status}
    else:
        name = "image_generation"
        target = _str(payload.revised_prompt)
        arguments = {"revised_prompt": payload.revised_prompt, "status": payload.status}
    call_id = _str(payload.id) or message.uuid
    batch.tool_calls.append(
        ToolCall(
            call_id,
            message.session_id,
            line_no,
            message.uuid,
            message.timestamp,
            name,
            None,
            None,
            target,
            msgspec.json.encode(arguments).decode(),
            None,
            0,
        )
    )


def _message(
    context: _Context,
    line: _Line,
    line_no: int,
    kind: str,
    block_kind: str,
    text: str,
    meta: int = 0,
    compact: int = 0,
) -> Message:
    session_id = context.session_id or ""
    return Message(
        f"{session_id}:{line_no}",
        session_id,
        line_no,
        None,
        kind,
        block_kind,
        line.timestamp,
        text,
        0,
        meta,
        compact,
        None,
        None,
        None,
        None,
        None,
    )


def _tool_call(
    payload: _Payload, message: Message, processes: dict[int, str], cells: dict[str, str]
) -> ToolCall:
    item = payload.type
    call_id = payload.call_id
    if item == "local_shell_call" and not call_id:
        call_id = payload.id
    if not isinstance(call_id, str) or not call_id:
        raise BadLine(f"{item} without a call_id")
    name = payload.name if isinstance(payload.name, str) else ""
    namespace = _str(payload.namespace)
    if namespace and name:
        # Codex's canonical flat name (codex-rs/protocol/src/tool_name.rs)
        name = f"{namespace.rstrip('_')}__{name.lstrip('_')}"
    args = _Arguments()
    if item == "function_call":
        raw = payload.arguments
        input_text = raw if isinstance(raw, str) else msgspec.json.encode(raw).decode()
        if "\\u" in input_text:
            # half an emoji escaped (`\ud83d`) is U+FFFD, as in a transcript's line: the
            # arguments were stored as written and their command not read (a security
            # test, session 34)
            raw_text = input_text.encode("utf-8", "surrogatepass")
            input_text = records.without_lone_surrogates(raw_text).decode("utf-8", "replace")
        args = _arguments(input_text)
    elif item == "custom_tool_call":
        raw = payload.input
        input_text = msgspec.json.encode({"input": raw}).decode()
        args = _Arguments(input=raw)
        if name == CODE_MODE and isinstance(raw, str):
            name, args = _cell_call(raw, args)
    else:  # local_shell_call: {"action": {"type": "exec", "command": [...]}}
        name = name or "local_shell"
        action = payload.action if isinstance(payload.action, dict) else {}
        input_text = msgspec.json.encode(action).decode()
        args = _Arguments(command=action.get("command"), workdir=action.get("working_directory"))
    command = shell_command(args.command if args.command is not None else args.cmd)
    if name == "write_stdin" and isinstance(args.session_id, int):
        command = processes.get(args.session_id)
    elif name == "wait" and isinstance(args.cell_id, (str, int)):
        command = cells.get(str(args.cell_id))
    patch = args.input if isinstance(args.input, str) else args.patch
    if isinstance(args.command, list) and args.command[:1] == ["apply_patch"]:
        patch = args.command[1] if len(args.command) > 1 else None
    elif command and command.lstrip().startswith("apply_patch") and "*** Begin Patch" in command:
        patch = command
    file_path = args.file_path if isinstance(args.file_path, str) else _str(args.path)
    if name == "apply_patch" or (isinstance(patch, str) and "*** Begin Patch" in patch):
        name = "apply_patch"
        command = None
        found = records.PATCH_FILE.search(patch) if isinstance(patch, str) else None
        file_path = found.group(1) if found else None
    return ToolCall(
        call_id,
        message.session_id,
        message.line_no,
        message.uuid,
        message.timestamp,
        name or str(item),
        command,
        file_path,
        None,
        input_text,
        None,
        0,
    )


def _arguments(text: str) -> _Arguments:
    """A function call's arguments, parsed; none when they are not a JSON object."""
    if not text.lstrip().startswith("{"):
        return _Arguments()
    try:
        return _decode_arguments(text)
    except (msgspec.DecodeError, RecursionError):
        return _Arguments()


def shell_command(command: Any) -> str | None:
    """A shell call's command as the text a person would type.

    `["bash", "-lc", "npm test"]` is `npm test`; another argv list is joined with
    shell quoting; a string is itself.
    """
    if isinstance(command, str):
        return command
    if not isinstance(command, list) or not all(isinstance(a, str) for a in command):
        return None
    if (
        len(command) == 3
        and os.path.basename(command[0]) in _SHELLS
        and command[1].startswith("-")
        and "c" in command[1]
    ):
        return str(command[2])
    return shlex.join(command) if command else None


def tool_output(output: Any) -> tuple[str, bool]:
    """A tool result's text as stored, and whether it is a failure (see the module docstring)."""
    if isinstance(output, list):
        return _content_items(output)
    if isinstance(output, dict):
        text, failed = tool_output(output.get("content", ""))
        return text, failed or output.get("success") is False or output.get("isError") is True
    if not isinstance(output, str):
        return ("" if output is None else msgspec.json.encode(output).decode()), False
    cell = _cell_output(output)
    if cell is not None:
        return cell
    if output.startswith(("{", "[")):
        structured = _structured(output)
        if structured is not None:
            return structured
    code, body = _exec_text(output)
    if code:
        return with_exit_code(code, body), True
    if code == 0:
        # An MCP result of the Codex versions that write it as text: its Wall time
        # header, then its content blocks as JSON (McpToolOutput, codex-rs/core/src/tools)
        structured = _structured(body) if body.startswith("[") else None
        return structured if structured is not None else (body, False)
    return _own_words(output)


# Header lines Codex may write before its own words for a failed call, with no `Output:`
# line after them (0.66: `Wall time: 16.5 seconds` then `aborted by user`).
_HEADERS_FIRST = lazy(
    r"(?:(?:Wall time: .*|Total output lines: \d+|Chunk ID: .*|Original token count: \d+)\n)+"
)


def _own_words(text: str) -> tuple[str, bool]:
    """A text that is no exec output, as stored, and whether it is a failure: whether it
    starts with Codex's own words for a failed call (FAILED_CALL_PREFIXES), after header
    lines, which then go, as an exec output's do."""
    headers = _HEADERS_FIRST.match(text)
    body = text[headers.end() :] if headers else text
    if body.lstrip().startswith(FAILED_CALL_PREFIXES) or body.strip() == ABORTED:
        return body, True
    return text, False


# All a call's output says when its turn was aborted while it ran (0.4x-0.5x: the user
# pressed Esc during a long `pixi install`, the last line of a twenty-fifth held-out set's
# rollout): stored as a success, it confirmed the fixes of four failures before it.
ABORTED = "aborted"


# Code mode (Codex 0.14x): the model writes JavaScript, run as a cell by one custom tool,
# `exec`, whose code calls Codex's tools (`await tools.exec_command({cmd: "npm test"})`,
# `tools.shell_command`, `tools.write_stdin`, `tools.web__run`, `tools.apply_patch`) and
# prints with `text(...)`. The cell's output starts with its status (`Script completed`,
# `Script failed`, `Script running with cell ID 8`), then `Wall time 1.8 seconds` and
# `Output:` (or `Final output:`); a cell left running is waited on by the `wait` tool
# (`{"cell_id": "8"}`), whose output has the same form.
CODE_MODE = "exec"
_CELL_STATUS = lazy(
    r"(Script completed|Script failed|Script running with cell ID (\S+))[ \t]*\n"
    r"(?:Wall time [\d.]+ seconds[ \t]*(?:\n|$)(?:(?:Final )?Output:[ \t]*(?:\n|$))?"
    r"|(?:Final )?Output:[ \t]*(?:\n|$)|(?=Script error:))"
)
_CELL_RUNNING = lazy(r"Script running with cell ID (\S+)[ \t]*\n")
# What a tool a cell called answers when it refused the call, printed by the cell, which
# completed: the web tool's `URL https://... is not safe to open (non-retryable error)`
# (a page or file it would not read). Its first line, the answer being only that.
_CELL_REFUSED = lazy(
    r"(?:Error: )?[^\n]{0,500}\b(?:is )?not safe to open\b[^\n]*"
    r"|[^\n]{0,500}\(non-retryable error\)[ \t]*(?:\n|$)"
)
# A string in a cell's code: "...", '...' or `...` (read by _js_string).
_JS_STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)"""
# The tools a cell calls that run a command, with the object it passes them (whose
# command, a string in the cell's code, is read as the call's: `{cmd: "rg -n x"}`).
_CELL_TOOL = lazy(r"\btools\.(exec_command|shell_command|write_stdin)\(\s*\{")
_CELL_ARGUMENT = lazy(
    r"""["']?\b(cmd|command|session_id)["']?\s*:\s*(""" + _JS_STRING + r"""|\d+)"""
)
# A patch a cell applies, given as a string (`tools.apply_patch("*** Begin Patch\n...")`).
_CELL_PATCH = lazy(r"\btools\.apply_patch\(\s*(" + _JS_STRING + ")")
# The tools that run a command another call may poll or wait on.
_RUNS_ON = frozenset({"exec_command", "write_stdin", "shell_command"})


def _cell_call(code: str, args: _Arguments) -> tuple[str, _Arguments]:
    """A code-mode cell that runs commands, named as the tool it calls (exec_command,
    shell_command, write_stdin: what Codex runs for it), with their command: the cell's
    commands, one a line, as a script runs them. Another cell (a web search, a command
    the code builds at run time) stays `exec`; one that applies a patch written in its
    code holds that patch, as an apply_patch call does."""
    patch = _CELL_PATCH.search(code)
    if patch:
        return CODE_MODE, _Arguments(input=_js_string(patch.group(1)))
    found = list(_CELL_TOOL.finditer(code))
    commands: list[str] = []
    session_id = None
    for n, call in enumerate(found):
        end = found[n + 1].start() if n + 1 < len(found) else len(code)
        for argument in _CELL_ARGUMENT.finditer(code, call.end(), end):
            key, value = argument.groups()
            if key == "session_id" and value.isdigit():
                session_id = int(value)
            elif key in ("cmd", "command") and not value.isdigit():
                commands.append(_js_string(value))
                break
    tools = {call.group(1) for call in found}
    if commands and tools & {"exec_command", "shell_command"}:
        name = "exec_command" if "exec_command" in tools else "shell_command"
        return name, _Arguments(cmd="\n".join(commands), input=args.input)
    if tools == {"write_stdin"} and session_id is not None:
        return "write_stdin", _Arguments(session_id=session_id, input=args.input)
    return CODE_MODE, args


def _js_string(literal: str) -> str:
    """A JavaScript string literal's text: `"..."` as JSON reads it, `'...'` and `` `...` ``
    with their quotes unescaped (a template's `${...}` kept as written)."""
    quote, body = literal[0], literal[1:-1]
    if quote == '"':
        try:
            text = msgspec.json.decode(literal)
        except msgspec.DecodeError:
            return body
        return text if isinstance(text, str) else body
    body = body.replace("\\" + quote, quote)
    if quote == "'" and "\\" in body:
        try:
            text = msgspec.json.decode(('"' + body.replace('"', '\\"') + '"').encode())
        except msgspec.DecodeError:
            return body
        return text if isinstance(text, str) else body
    return body


def _cell_output(output: str) -> tuple[str, bool] | None:
    """A code-mode cell's output (see CODE_MODE) as stored, and whether it failed: its
    status line, wall time and `Output:` go, as exec output's headers do; a cell that
    failed (its code threw, or a call it made was refused: `Script error: ...`) is a
    failure, as is one that completed printing only a tool's refusal (_CELL_REFUSED);
    one that completed is what it printed: an exec_command result it
    printed whole says its exit code. None for any other output."""
    status = _CELL_STATUS.match(output)
    if status is None:
        return None
    body = output[status.end() :].removeprefix("\n")
    if status.group(1) == "Script failed" or _CELL_REFUSED.match(body.lstrip()):
        return body, True
    if body.startswith(("{", "Exit code: ")) or "\nOutput:\n" in body[:400]:
        return tool_output(body)
    return body, False


def _first_text(output: Any) -> str:
    """The start of an output, whether a string or content items (for its status)."""
    if isinstance(output, str):
        return output[:200]
    if isinstance(output, list) and output and isinstance(output[0], dict):
        text = output[0].get("text")
        return text[:200] if isinstance(text, str) else ""
    return ""


def with_exit_code(code: int, body: str) -> str:
    """A failed command's output as stored: `Exit code N` first, as Claude Code's Bash has it."""
    return f"Exit code {code}\n{body}".rstrip("\n")


def _structured(output: str) -> tuple[str, bool] | None:
    """The JSON forms: exec output with its metadata, or an MCP CallToolResult."""
    try:
        value = msgspec.json.decode(output)
    except (msgspec.DecodeError, RecursionError):
        return None
    if isinstance(value, list):
        # an MCP result's content blocks, as Codex of 2025 wrote them (a JSON string)
        blocks = all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in value)
        return _content_items(value) if value and blocks else None
    if not isinstance(value, dict):
        return None
    metadata = value.get("metadata")
    if isinstance(value.get("output"), str) and isinstance(metadata, dict):
        code = metadata.get("exit_code")
        body = value["output"]
        if isinstance(code, int) and code != 0:
            return with_exit_code(code, body), True
        return body, False
    if isinstance(value.get("output"), str) and "chunk_id" in value:
        # exec_command's result as a code-mode cell prints it whole (`text(r)`): its
        # exit_code beside its output, none while it still runs (its session_id then)
        code = value.get("exit_code")
        if isinstance(code, int) and code != 0:
            return with_exit_code(code, value["output"]), True
        return value["output"], False
    if isinstance(value.get("content"), list) and "isError" in value:
        return "\n".join(_texts(value["content"])), value["isError"] is True
    return None


def _content_items(items: list[Any]) -> tuple[str, bool]:
    """An output as a list of content items: an MCP result's (or one with images).

    Codex 0.171.0 puts a `Wall time: ... Output:` item first, which goes as the
    headers of exec output do; the tool's own error text is a failure by its words.
    """
    text = "\n".join(_texts(items))
    cell = _cell_output(text)
    if cell is not None:
        return cell
    code, body = _exec_text(text)
    if code:
        return with_exit_code(code, body), True
    return _own_words(body)


def failed_mcp_call(kind: Any, item: Any, call_id: Any, result: Any) -> str | None:
    """The call id of an MCP call that an event_msg of type `kind` says failed, if it does.

    `item_completed` (0.171.0): an McpToolCall item whose status is "failed";
    `mcp_tool_call_end`: a result of `{"Err": message}` or `{"Ok": {..., "isError": true}}`.
    """
    if kind == "item_completed" and isinstance(item, dict):
        if item.get("type") == "McpToolCall" and item.get("status") == "failed":
            return _str(item.get("id"))
    elif kind == "mcp_tool_call_end" and isinstance(result, dict):
        ok = result.get("Ok")
        if "Err" in result or (isinstance(ok, dict) and ok.get("isError") is True):
            return _str(call_id)
    return None


def _exec_text(output: str) -> tuple[int | None, str]:
    """The exit code and output of Codex's text form of exec output (None: not that form)."""
    head, sep, body = output.partition("\nOutput:\n")
    if not sep:
        if not output.endswith("\nOutput:") and not output.startswith("Exit code: "):
            return None, output
        head, body = output.removesuffix("\nOutput:"), ""
    lines = head.split("\n")
    if lines[0].startswith("Command: "):
        # Newer Codex names the command first, shell-quoted, so a script keeps its
        # newlines: the headers are the lines after the last one that is not one.
        start = len(lines)
        while start > 1 and _HEADER.match(lines[start - 1]):
            start -= 1
        lines = lines[start:]
    if not all(_HEADER.match(line) for line in lines):
        return None, output
    for line in lines:
        found = _EXIT_FIRST.match(line + "\n") or _EXITED.match(line)
        if found:
            return int(found.group(1)), body
    return 0, body


def _texts(content: Any) -> list[str]:
    """The text of a list of content or summary items (input_text, output_text, ...)."""
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    texts = []
    for item in content:
        if isinstance(item, dict):
            text = item.get("text")
            if isinstance(text, str):
                texts.append(text)
            elif item.get("type") in ("input_image", "image"):
                texts.append("[image]")
        elif isinstance(item, str):
            texts.append(item)
    return texts


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


# -- the failure hook ---------------------------------------------------------------
#
# Codex has no failure event: its PostToolUse hook runs after every call, failed or
# not, with `tool_response` as the hook's only view of the result. For a shell call
# (`tool_name` "Bash") that is the command's output alone, without its exit code
# (Codex 0.171.0: exec_command's hook response is the bare output text), so the
# exit code is read from the session's rollout, where Codex has already written
# the call's `item_completed` event (CommandExecution, with `exit_code`) when the
# hook runs: in every run of tests/test_codex_e2e.py it was there. The hook reads
# only the rollout's last ROLLOUT_TAIL bytes, and looks again ROLLOUT_TRIES times,
# ROLLOUT_PAUSE apart, before it gives up (and stays silent).
ROLLOUT_TAIL = 1 << 20
ROLLOUT_TRIES = 3
ROLLOUT_PAUSE = 0.02


def hook_failure(event: dict[str, Any]) -> str | None:
    """The error of a failed call in a Codex PostToolUse event, stored as a build stores it.

    None when the call succeeded, the user refused it, or whether it failed
    cannot be told: the hook stays silent then. A failure is what tool_output()
    calls one (an exit code header, an MCP error, Codex's own failure messages),
    or, for a shell call whose response is its bare output, a non-zero exit code
    in the rollout.
    """
    response = event.get("tool_response")
    if response is None:
        return None
    text, failed = tool_output(response)
    if failed:
        return None if text.lstrip().startswith(REJECTED_PREFIXES) else text
    if event.get("tool_name") != "Bash" or not isinstance(response, str):
        return None
    call_id, rollout = event.get("tool_use_id"), event.get("transcript_path")
    if not isinstance(call_id, str) or not call_id or not isinstance(rollout, str):
        return None
    code = rollout_exit_code(Path(rollout), call_id)
    if not code:
        return None
    return with_exit_code(code, text)


def rollout_exit_code(rollout: Path, call_id: str) -> int | None:
    """The exit code a rollout records for a shell call; None when it records none (yet)."""
    for attempt in range(ROLLOUT_TRIES):
        if attempt:
            time.sleep(ROLLOUT_PAUSE)
        found = _exit_code_in_tail(rollout, call_id)
        if found is not None:
            return found
    return None


def _exit_code_in_tail(rollout: Path, call_id: str) -> int | None:
    try:
        with lines.open_regular(rollout) as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - ROLLOUT_TAIL))
            tail = f.read()
    except OSError:
        return None
    needle = msgspec.json.encode(call_id)
    for raw in reversed(tail.split(b"\n")):
        if needle not in raw:
            continue
        try:
            line = msgspec.json.decode(raw)
        except (msgspec.DecodeError, RecursionError):
            continue
        payload = line.get("payload") if isinstance(line, dict) else None
        if isinstance(payload, dict):
            code = _exit_code_of(payload, call_id)
            if code is not None:
                return code
    return None


def _exit_code_of(payload: dict[str, Any], call_id: str) -> int | None:
    """The exit code in one rollout payload about `call_id`, of the forms Codex writes.

    `item_completed` (0.171.0: a CommandExecution item with exit_code),
    `exec_command_end` (older: call_id and exit_code), or the call's output.
    """
    kind = payload.get("type")
    if kind == "item_completed":
        item = payload.get("item")
        if isinstance(item, dict) and item.get("id") == call_id:
            code = item.get("exit_code")
            return code if isinstance(code, int) and not isinstance(code, bool) else None
    elif kind == "exec_command_end" and payload.get("call_id") == call_id:
        code = payload.get("exit_code")
        return code if isinstance(code, int) and not isinstance(code, bool) else None
    elif kind == "function_call_output" and payload.get("call_id") == call_id:
        output = payload.get("output")
        if isinstance(output, str):
            return _exec_text(output)[0]
    return None
