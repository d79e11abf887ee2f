"""The schema of index.db, as numbered sqlite-utils migrations.

Never renumber, rename or edit a migration that has shipped: add a new one.
"""

from sqlite_utils import Database, Migrations
from sqlite_utils.db import Table

migrations = Migrations("pastfix")


def _table(db: Database, name: str) -> Table:
    return db.table(name)


@migrations()
def m001_create_tables(db: Database) -> None:
    _table(db, "source_files").create(
        {
            "id": int,
            "path": str,
            "session_id": str,
            "project_dir": str,
            "size": int,
            "mtime_ns": int,
            "inode": int,
            "offset": int,
            "lines": int,
            "head_hash": str,
            "session_ids": str,
            "skipped_lines": int,
            "indexed_at": str,
        },
        pk="id",
        not_null={"path", "size", "mtime_ns", "offset", "lines"},
    )
    _table(db, "source_files").create_index(["path"], unique=True)

    # Pairs of files that hold copies of the same uuid or tool_use_id (resumed
    # sessions); the build re-indexes such groups together when one changes.
    _table(db, "_duplicate_links").create(
        {"file_id": int, "other_id": int}, pk=("file_id", "other_id")
    )

    # Set by every write transaction of an incremental build, cleared by the
    # final one that refreshes tool_errors_fts: a build interrupted in between
    # leaves it set, so the next build refreshes even if it finds no change.
    _table(db, "_build_state").create({"name": str, "value": str}, pk="name")

    _table(db, "sessions").create(
        {
            "session_id": str,
            "project": str,
            "title": str,
            "first_ts": str,
            "last_ts": str,
            "git_branch": str,
            "version": str,
            "message_count": int,
            "tool_call_count": int,
            "tool_error_count": int,
            "source_paths": str,
        },
        pk="session_id",
    )

    _table(db, "messages").create(
        {
            "id": int,
            "uuid": str,
            "session_id": str,
            "file_id": int,
            "line_no": int,
            "parent_uuid": str,
            "type": str,
            "kind": str,
            "timestamp": str,
            "text": str,
            "is_sidechain": int,
            "is_meta": int,
            "is_compact_summary": int,
            "agent_id": str,
            "model": str,
            "cwd": str,
            "git_branch": str,
            "version": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "session_id"), ("file_id", "source_files", "id")],
        not_null={"uuid", "session_id", "type"},
    )
    _table(db, "messages").create_index(["uuid"], unique=True)
    _table(db, "messages").create_index(
        ["session_id", "timestamp"], index_name="idx_messages_session"
    )

    _table(db, "tool_calls").create(
        {
            "tool_use_id": str,
            "session_id": str,
            "file_id": int,
            "line_no": int,
            "message_uuid": str,
            "timestamp": str,
            "name": str,
            "command": str,
            "file_path": str,
            "description": str,
            "input": str,
            "agent_id": str,
            "is_sidechain": int,
        },
        pk="tool_use_id",
        foreign_keys=[("session_id", "sessions", "session_id"), ("file_id", "source_files", "id")],
        not_null={"session_id", "name"},
    )
    _table(db, "tool_calls").create_index(["session_id", "timestamp"], index_name="idx_tc_session")

    _table(db, "tool_results").create(
        {
            "id": int,
            "tool_use_id": str,
            "session_id": str,
            "file_id": int,
            "line_no": int,
            "message_uuid": str,
            "timestamp": str,
            "is_error": int,
            "content": str,
            "content_length": int,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "session_id"), ("file_id", "source_files", "id")],
        not_null={"tool_use_id", "session_id", "is_error"},
    )
    _table(db, "tool_results").create_index(["tool_use_id"], unique=True)
    _table(db, "tool_results").create_index(["session_id"], index_name="idx_tr_session")
    # Partial indexes over the ~1% of failed rows. idx_tr_errors yields them in
    # rowid order, the order FTS5 inserts fastest, for the refresh of
    # tool_errors_fts; the other two serve recent failures and per-session lists.
    db.execute("CREATE INDEX idx_tr_errors ON tool_results(is_error) WHERE is_error = 1")
    db.execute("CREATE INDEX idx_tr_errors_time ON tool_results(timestamp) WHERE is_error = 1")
    db.execute(
        "CREATE INDEX idx_tr_session_errors ON tool_results(session_id, timestamp)"
        " WHERE is_error = 1"
    )

    _table(db, "session_meta").create(
        {
            "session_id": str,
            "file_id": int,
            "line_no": int,
            "key": str,
            "value": str,
            "leaf_uuid": str,
        },
        foreign_keys=[("session_id", "sessions", "session_id"), ("file_id", "source_files", "id")],
        not_null={"session_id", "key"},
    )
    _table(db, "session_meta").create_index(["session_id"], index_name="idx_meta_session")
    _table(db, "session_meta").create_index(["leaf_uuid"], index_name="idx_meta_leaf")

    _table(db, "problems").create(
        {
            "id": int,
            "path": str,
            "file_id": int,
            "line_no": int,
            "reason": str,
            "excerpt": str,
        },
        pk="id",
        not_null={"path", "reason"},
    )
    _table(db, "problems").create_index(["file_id"], index_name="idx_problems_file")


@migrations()
def m002_full_text(db: Database) -> None:
    # External content, no triggers: the build feeds messages_fts in bulk
    # ('rebuild' after a fresh load, INSERT ... SELECT for appended rows).
    _table(db, "messages").enable_fts(["text"], create_triggers=False)
    # content="tool_results" must be double-quoted: Datasette and
    # datasette-search-all only detect the external-content table that way.
    # Only is_error = 1 rows are ever inserted; see db.refresh_tool_errors_fts().
    db.execute(
        "CREATE VIRTUAL TABLE tool_errors_fts USING fts5("
        'content, content="tool_results", content_rowid="id")'
    )


@migrations()
def m003_covering_indexes(db: Database) -> None:
    # A session's refresh lists the files it came from through
    # idx_messages_session alone, instead of visiting every one of its messages.
    db.execute("DROP INDEX idx_messages_session")
    db.execute("CREATE INDEX idx_messages_session ON messages(session_id, timestamp, file_id)")
    # The wholesale refresh of tool_errors_fts reads the failed results from
    # idx_tr_errors alone, in rowid order, instead of seeking each row in the
    # table. The failures are ~1% of tool output, so the copy is small.
    db.execute("DROP INDEX idx_tr_errors")
    db.execute(
        "CREATE INDEX idx_tr_errors ON tool_results(is_error, id, content) WHERE is_error = 1"
    )


@migrations()
def m004_project_is_first_cwd(db: Database) -> None:
    # A session's project is now the directory it was started in, its first
    # recorded cwd, rather than its most frequent one (see db.REFRESH_SESSIONS_SQL):
    # sessions indexed before are brought in line without waiting for a change.
    db.execute(
        """
        UPDATE sessions SET project = (
            SELECT cwd FROM messages
            WHERE session_id = sessions.session_id AND cwd > ''
            ORDER BY timestamp, line_no LIMIT 1)
        WHERE EXISTS (
            SELECT 1 FROM messages WHERE session_id = sessions.session_id AND cwd > '')
        """
    )


@migrations()
def m005_error_signatures(db: Database) -> None:
    # Every failed result's signature (its key line, normalised) and kind (a real
    # error or Claude Code's own noise): see pastfix.signatures. They are filled
    # in by the build, for rows indexed before too (db.refresh_signatures).
    db.execute("ALTER TABLE tool_results ADD COLUMN signature TEXT")
    db.execute("ALTER TABLE tool_results ADD COLUMN kind TEXT")
    # Grouping by signature and finding a pasted error's signature read this
    # index alone.
    db.execute(
        "CREATE INDEX idx_tr_signature ON tool_results(signature, session_id, kind)"
        " WHERE is_error = 1"
    )


@migrations()
def m006_tail_hash(db: Database) -> None:
    # A hash of the bytes just before the offset a build stopped at: a file
    # rewritten in place (same inode and head, not shorter) differs there, and
    # is re-indexed instead of being read on from that offset as an append.
    # Files indexed before have none, so their next change re-indexes them.
    db.execute("ALTER TABLE source_files ADD COLUMN tail_hash TEXT")


@migrations()
def m007_redactions(db: Database) -> None:
    # What the build redacted (see pastfix.redact): one row per kind of secret
    # found in one column of one row, named by the row's natural key (ids are
    # only given on insert). Never the secret itself. Retracted with the
    # file's other rows. Whether redaction is on is in _build_state ('redact').
    _table(db, "redactions").create(
        {
            "id": int,
            "file_id": int,
            "table_name": str,
            "row_key": str,
            "line_no": int,
            "column_name": str,
            "kind": str,
            "count": int,
        },
        pk="id",
        foreign_keys=[("file_id", "source_files", "id")],
        not_null={"table_name", "column_name", "kind", "count"},
    )
    _table(db, "redactions").create_index(["file_id"], index_name="idx_redactions_file")


@migrations()
def m008_session_agent(db: Database) -> None:
    # Which agent wrote a session (claude or codex; see pastfix.agents), and
    # which reader a file needs, so that a re-read of a stored file (a rewrite,
    # a group of duplicates) uses the same one. Everything indexed before
    # Codex was read came from Claude Code.
    db.execute("ALTER TABLE source_files ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude'")
    db.execute("ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude'")


@migrations()
def m009_prefix_crc(db: Database) -> None:
    # The CRC-32 of every byte before the offset a build stopped at (zlib.crc32,
    # which a build extends as it reads on): a file rewritten in the middle, at
    # the same length, then appended to, has the same head and tail and is told
    # from an append by this alone. Files indexed before have none, so their
    # next change re-indexes them.
    db.execute("ALTER TABLE source_files ADD COLUMN prefix_crc INTEGER")


@migrations()
def m010_fixes(db: Database) -> None:
    # What followed each failed tool call (see pastfix.fixes): derived from the
    # stored calls of its session, recomputed when the session changes or the
    # rules do (db.FIX_VERSION). `remedy` is a JSON array of steps
    # ({tool_use_id, tool, target, change}); `others` the ids of the other calls
    # of the window, up to the confirmation.
    _table(db, "fixes").create(
        {
            "tool_use_id": str,
            "session_id": str,
            "outcome": str,
            "confirmed_by": str,
            "confirmed_at": str,
            "remedy": str,
            "others": str,
            "window_end": str,
        },
        pk="tool_use_id",
        not_null={"session_id", "outcome"},
    )
    _table(db, "fixes").create_index(["session_id"], index_name="idx_fixes_session")


@migrations()
def m011_persisted_outputs(db: Database) -> None:
    # The files beside a Claude Code transcript whose text replaced a tool result's
    # <persisted-output> marker (see pastfix.records.PersistedOutput), one row per
    # marker, retracted with the transcript's other rows. A build compares each
    # file's size and times with these and re-reads the transcript when one
    # appeared or changed; a file that is gone changes nothing indexed.
    _table(db, "_persisted_outputs").create(
        {
            "file_id": int,
            "session_id": str,
            "tool_use_id": str,
            "path": str,
            "size": int,
            "mtime_ns": int,
            "ctime_ns": int,
            "problem": str,
        },
        pk=("file_id", "tool_use_id"),
        foreign_keys=[("file_id", "source_files", "id")],
        not_null={"session_id", "path"},
    )
    # Transcripts indexed before hold markers in place of text now read: their
    # next build re-reads them whole (no tail hash: not an append).
    db.execute(
        "UPDATE source_files SET size = -1, tail_hash = NULL WHERE id IN (SELECT file_id"
        " FROM tool_results WHERE substr(content, 1, 18) = '<persisted-output>')"
    )


@migrations()
def m012_archive(db: Database) -> None:
    # The index outlives the transcripts (Claude Code deletes those older than
    # its cleanupPeriodDays): a file a build no longer finds keeps its rows and
    # gets the time it was found gone; a session none of whose files is left
    # gets the latest of those times (db.REFRESH_SESSIONS_SQL). Both NULL while
    # the transcript is on disk. `pastfix forget` removes what a user wants gone.
    db.execute("ALTER TABLE source_files ADD COLUMN missing_since TEXT")
    db.execute("ALTER TABLE sessions ADD COLUMN transcript_deleted_at TEXT")
    # Counting the sessions kept without a transcript (every build, `status`) reads
    # this index alone.
    db.execute(
        "CREATE INDEX idx_sessions_deleted ON sessions(transcript_deleted_at)"
        " WHERE transcript_deleted_at IS NOT NULL"
    )


def _read_again(db: Database, where: str) -> None:
    """Make the next build read again, from its start, every file still on disk that the
    SQL condition `where` picks (size -1: changed; no tail hash: not an append). A file
    that is gone keeps its rows as they are."""
    db.execute(
        "UPDATE source_files SET size = -1, tail_hash = NULL"
        f" WHERE {where} AND missing_since IS NULL"
    )


@migrations()
def m013_codex_reread(db: Database) -> None:
    # Session 8 found Codex 0.171 failures the reader stored as successes (an MCP tool's
    # error, exec_command failed, view_image of a missing file; pastfix.codex): the
    # next build reads every Codex rollout again, as m011 did for persisted outputs. A
    # rollout that is gone keeps its rows as they are.
    _read_again(db, "agent = 'codex'")


@migrations()
def m014_codex_reread_0118(db: Database) -> None:
    # Session 9's held-out transcripts: Codex 0.118 names the command that could not start
    # (`exec_command failed for `cmd`: CreateProcess ...`, a sandbox denial), which the
    # reader stored as a success (pastfix.codex FAILED_CALL_PREFIXES). Read every Codex
    # rollout again, as m013 did.
    _read_again(db, "agent = 'codex'")


@migrations()
def m015_codex_agent_messages(db: Database) -> None:
    # Session 9: the Codex reader skipped messages between agents (agent_message items,
    # inter_agent_communication lines) and stored their older JSON form as a prompt or
    # a reply, and skipped tool searches, web searches and image generations (pastfix.codex).
    # Read every Codex rollout again, as m013 did. (m014 is main's m014_codex_reread_0118.)
    _read_again(db, "agent = 'codex'")


@migrations()
def m016_codex_running(db: Database) -> None:
    # Session 9's third held-out set: a Codex exec_command still running when its output
    # was taken (`Process running with session ID N`) was stored as a success, and the
    # fix rules took it for a retry that passed before its own poll failed (2 people's
    # rollouts). Its result now has the kind `running` (pastfix.codex), which the fix rules
    # read as no result yet. Read every Codex rollout again, as m013 did; this also reads
    # the rollouts of Codex before its {timestamp, type, payload} lines (mid-2025), whose
    # every line was skipped (pastfix.codex._legacy_line), which came in the same session.
    _read_again(db, "agent = 'codex'")
    # And a session titled with the marker Claude Code writes after a rejected call
    # (`[Request interrupted by user for tool use]`, no prompt typed: pastfix.db
    # NOT_INTERRUPTED_SQL) takes its first typed prompt, as a build now gives it.
    first_prompt = (
        "(SELECT CASE WHEN length(text) > 200 THEN rtrim(substr(text, 1, 199)) || '…'"
        " ELSE text END FROM messages m WHERE m.session_id = sessions.session_id"
        " AND kind = 'prompt' AND is_meta = 0 AND {} text > '' AND substr(text, 1, 1) != '<'"
        " AND text NOT LIKE '[Request interrupted by user%' ORDER BY timestamp, line_no LIMIT 1)"
    )
    db.execute(
        f"UPDATE sessions SET title = coalesce({first_prompt.format('is_sidechain = 0 AND')},"
        f" {first_prompt.format('')}) WHERE title LIKE '[Request interrupted by user%'"
    )


@migrations()
def m017_typed_titles(db: Database) -> None:
    # Session 10: a session begun by a spec-kit command (`## User Input` ```text ...```
    # `You **MUST** consider ...`) or from Codex's IDE extension (`# Context from my IDE
    # setup:` ... `## My request for Codex:`) was titled with that boilerplate, and one of
    # slash commands only, or begun in Claude Code's IDE (`<ide_opened_file>...`), had no
    # title; a build now takes what the user typed of it (agents.prompt_title). Retitle
    # those of an older index.
    from pastfix import agents
    from pastfix import db as pastfix_db

    db.conn.create_function("prompt_title", 2, agents.prompt_title, deterministic=True)
    db.conn.create_function("typed_title", 2, agents.typed_title, deterministic=True)
    main_thread = pastfix_db.FIRST_PROMPT_TITLE_SQL.format(
        session="sessions.session_id", sidechain="AND is_sidechain = 0"
    )
    any_thread = pastfix_db.FIRST_PROMPT_TITLE_SQL.format(
        session="sessions.session_id", sidechain=""
    )
    commands = pastfix_db.SLASH_TITLE_SQL.format(session="sessions.session_id", sidechain="")
    db.execute(
        f"UPDATE sessions SET title = coalesce({main_thread}, {any_thread}, {commands}, title)"
        " WHERE ltrim(title, char(10, 13, 32)) LIKE '## User Input%'"
        " OR title LIKE '# Context from my IDE setup:%' OR title IS NULL"
    )


@migrations()
def m018_codex_sandbox_failures(db: Database) -> None:
    # Session 10's seventh held-out set: Codex 0.4x's `failed in sandbox: ...` (codex-rs's
    # sandbox_failure_message: a command killed by a signal, or denied, in the sandbox)
    # was stored as a success (pastfix.codex FAILED_CALL_PREFIXES). Read every Codex
    # rollout again, as m013 did.
    _read_again(db, "agent = 'codex'")


@migrations()
def m019_codex_aborted(db: Database) -> None:
    # Session 21's sixteenth held-out set: Codex's `aborted by user after 31.2s` (a call the
    # user stopped) was stored as a success (pastfix.codex FAILED_CALL_PREFIXES). Read
    # every Codex rollout again, as m013 did.
    _read_again(db, "agent = 'codex'")


@migrations()
def m020_skipped_reread(db: Database) -> None:
    # Session 22's new user: an index an older pastfix built lacked the results of the
    # tools the API runs itself (advisor_tool_result and its kin, pastfix.transcripts
    # SERVER_TOOL_RESULTS), whose lines that reader skipped and counted as skipped, while a
    # fresh build stores them. Read again every file still on disk with a skipped line, of
    # any agent: what a reader has learned since is stored, the rest is skipped again.
    _read_again(db, "skipped_lines > 0")


@migrations()
def m021_codex_patch_errors(db: Database) -> None:
    # Session 23's eighteenth held-out set: Codex 0.3x's `error: Failed to find expected
    # lines in ...` (an apply_patch run by the shell whose patch did not verify) was stored
    # as a success (pastfix.codex FAILED_CALL_PREFIXES). Read every Codex rollout again,
    # as m013 did.
    _read_again(db, "agent = 'codex'")


@migrations()
def m022_codex_aborted_after_wall_time(db: Database) -> None:
    # Session 26's twenty-first held-out set: Codex 0.66's `Wall time: 16.5 seconds` then
    # `aborted by user` (a call the user stopped; its header first) was stored as a success
    # (pastfix.codex _own_words). Read every Codex rollout again, as m013 did.
    _read_again(db, "agent = 'codex'")


@migrations()
def m023_command_titles(db: Database) -> None:
    # Session 27 (a new user's try): a session begun by a slash command given arguments
    # (`/orchestrator @CLAUDE.md ...`) was titled by a prompt typed later, or, in Claude
    # Code 1.0.x, whose subagents' turns sit in the session's file, by its first subagent's
    # task. A build now takes the command as typed; retitle an older index's sessions as
    # a build titles them (pastfix.db.title_sql), all of them: the rows hold every input.
    from pastfix import agents
    from pastfix import db as pastfix_db

    db.conn.create_function("prompt_title", 2, agents.prompt_title, deterministic=True)
    db.conn.create_function("typed_title", 2, agents.typed_title, deterministic=True)
    db.execute(f"UPDATE sessions SET title = {pastfix_db.title_sql('sessions.session_id')}")


@migrations()
def m024_codex_bare_aborted(db: Database) -> None:
    # Session 28's twenty-fifth held-out set: Codex 0.50's bare `aborted` (a call whose turn
    # the user aborted while it ran) was stored as a success, and confirmed the fixes of the
    # failures before it (pastfix.codex ABORTED). Read every Codex rollout again, as m013 did.
    _read_again(db, "agent = 'codex'")


@migrations()
def m025_codex_code_mode(db: Database) -> None:
    # Session 29's twenty-sixth held-out set: Codex 0.146's code mode runs every command
    # inside a JavaScript cell of its `exec` tool, whose output says its status and the
    # exit code the command returned; each was stored as a successful `exec` call without
    # a command (pastfix.codex CODE_MODE). Read every Codex rollout again, as m013 did.
    _read_again(db, "agent = 'codex'")


@migrations()
def m026_nul_text(db: Database) -> None:
    # Session 30: a tool's UTF-16 output read as UTF-8 (cmd.exe's banner, `M\0i\0c\0...`)
    # was stored with a NUL after each character: no word of it could be found, and a
    # cmd.exe that ran nothing passed for a fix. Texts are stored without NULs now
    # (pastfix.records.clean_text): read again every file with a text that holds one.
    _read_again(
        db,
        "id IN (SELECT file_id FROM tool_results WHERE instr(CAST(content AS BLOB), X'00')"
        " UNION SELECT file_id FROM messages WHERE instr(CAST(text AS BLOB), X'00'))",
    )


@migrations()
def m027_codex_cell_refused(db: Database) -> None:
    # Session 33: a code-mode cell that completed printing only its web tool's refusal
    # (`URL ... is not safe to open (non-retryable error)`) was stored as a success
    # (pastfix.codex _CELL_REFUSED): read again every Codex rollout that stored one so.
    _read_again(
        db,
        "agent = 'codex' AND id IN (SELECT file_id FROM tool_results"
        " WHERE is_error = 0 AND (content LIKE '%not safe to open%'"
        " OR content LIKE '%(non-retryable error)%'))",
    )


@migrations()
def m028_deleted_main_transcript(db: Database) -> None:
    # A new user's try (nu36): a session whose transcript was deleted while its subagents'
    # files stayed (Claude Code 2.0's `agent-*.jsonl` beside it) was not marked deleted,
    # and find printed a `claude --resume` that cannot work. A build now marks it
    # (pastfix.db.deleted_sql); mark an older index's sessions of a file found gone.
    from pastfix import db as pastfix_db

    db.execute(
        "UPDATE sessions SET transcript_deleted_at ="
        f" {pastfix_db.deleted_sql('sessions.session_id')}"
        " WHERE session_id IN (SELECT m.session_id FROM messages m"
        " JOIN source_files f ON f.id = m.file_id WHERE f.missing_since IS NOT NULL)"
    )


@migrations()
def m029_forgotten_by_no_name(db: Database) -> None:
    # A new user's find (nu41): `pastfix forget` kept the row of a forgotten transcript
    # still on disk with its path (`-Users-<user>-Desktop-<project>/<session>.jsonl`), its
    # session_id and project_dir, and session_ids '[]'. It keeps it under a hash of the path
    # now (records.FORGOTTEN, build.forgotten_key): give an older index's such rows that
    # name, with what else they hold (size, times, inode, line count, hashes), so that a
    # build finds them as forget leaves them. Not a row a build stored of a file whose lines
    # hold no session: an empty file (no line), one of bad lines (its problems, which forget
    # deleted with its file's); one of lines of no session (Claude Code's file of only
    # `file-history-snapshot` lines) cannot be told from a forgotten one and is named so too:
    # a build reads it as it did, not again unless it changes, and then by its path. Deleted
    # bytes are zeroed (secure_delete, as forget's): the paths are not left in free pages.
    from pastfix import build as pastfix_build
    from pastfix.records import FORGOTTEN

    forgotten = db.execute(
        "SELECT id, path FROM source_files WHERE session_ids = '[]' AND lines > 0"
        " AND substr(path, 1, ?) != ?"
        " AND id NOT IN (SELECT file_id FROM problems WHERE file_id IS NOT NULL)",
        [len(FORGOTTEN), FORGOTTEN],
    ).fetchall()
    if not forgotten:
        return
    secure = db.execute("PRAGMA secure_delete").fetchone()[0]
    db.execute("PRAGMA secure_delete=ON")
    for file_id, path in forgotten:
        key = pastfix_build.forgotten_key(path)
        db.execute("DELETE FROM source_files WHERE path = ?", [key])
        db.execute(
            "UPDATE source_files SET path = ?, session_id = NULL, project_dir = NULL WHERE id = ?",
            [key, file_id],
        )
    db.execute(f"PRAGMA secure_delete={int(secure)}")


@migrations()
def m030_claude_rejection_words(db: Database) -> None:
    # A new user's try (nu49 findings 1 and 9): Claude Code 2.0.x returned the words the user
    # typed on rejecting a call alone, stored as the call's failure, and its warm-up
    # subagents' calls refused with `Warmup` were stored as failures too. The reader stores
    # the first as a rejection with what the user said, the second as no failure
    # (pastfix.transcripts REJECTED_SAID, WARMUP): read again every Claude Code file that
    # stored one so.
    from pastfix import signatures

    db.conn.create_function("user_words", 1, signatures.user_words, deterministic=True)
    _read_again(
        db,
        "agent = 'claude' AND id IN (SELECT file_id FROM tool_results WHERE is_error = 1"
        " AND (content = 'Warmup' OR (length(content) <= 600 AND user_words(content))))",
    )


def schema_script(applying: Migrations = migrations) -> str:
    """The SQL that gives an empty file what these migrations give it (pastfix/schema.sql).

    A new index is made from that script (pastfix.db.connect) instead of by the
    migrations: importing sqlite-utils and running them through it is ~75 ms of
    every fresh build, the script 2 ms. The script holds every statement of the
    migrated schema (no FTS shadow table: its virtual table makes it) and marks
    each migration applied; tests/test_migrations.py checks that it is current.
    `applying`: another set of migrations (a test's older one).
    """
    db = Database(memory=True)
    applying.apply(db)
    shadow = {r[0] for r in db.execute("SELECT name FROM pragma_table_list WHERE type = 'shadow'")}
    statements = [
        sql
        for name, sql in db.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"
        )
        if name not in shadow
    ]
    statements += [
        "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
        f" VALUES ('{applying.name}', '{m.name}', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'))"
        for m in applying._migrations
    ]
    header = (
        "-- The schema of a new index.db, as pastfix.migrations leave an empty file.\n"
        "-- Generated: python -m pastfix.migrations > pastfix/schema.sql (never edit it).\n"
    )
    return header + "".join(f"{sql};\n" for sql in statements)


if __name__ == "__main__":
    print(schema_script(), end="")
