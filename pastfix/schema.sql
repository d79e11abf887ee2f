-- The schema of a new index.db, as pastfix.migrations leave an empty file.
-- Generated: python -m pastfix.migrations > pastfix/schema.sql (never edit it).
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE TABLE "source_files" (
   "id" INTEGER PRIMARY KEY,
   "path" TEXT NOT NULL,
   "session_id" TEXT,
   "project_dir" TEXT,
   "size" INTEGER NOT NULL,
   "mtime_ns" INTEGER NOT NULL,
   "inode" INTEGER,
   "offset" INTEGER NOT NULL,
   "lines" INTEGER NOT NULL,
   "head_hash" TEXT,
   "session_ids" TEXT,
   "skipped_lines" INTEGER,
   "indexed_at" TEXT
, tail_hash TEXT, agent TEXT NOT NULL DEFAULT 'claude', prefix_crc INTEGER, missing_since TEXT);
CREATE UNIQUE INDEX "idx_source_files_path"
    ON "source_files" ("path");
CREATE TABLE "_duplicate_links" (
   "file_id" INTEGER,
   "other_id" INTEGER,
   PRIMARY KEY ("file_id", "other_id")
);
CREATE TABLE "_build_state" (
   "name" TEXT PRIMARY KEY,
   "value" TEXT
);
CREATE TABLE "sessions" (
   "session_id" TEXT PRIMARY KEY,
   "project" TEXT,
   "title" TEXT,
   "first_ts" TEXT,
   "last_ts" TEXT,
   "git_branch" TEXT,
   "version" TEXT,
   "message_count" INTEGER,
   "tool_call_count" INTEGER,
   "tool_error_count" INTEGER,
   "source_paths" TEXT
, agent TEXT NOT NULL DEFAULT 'claude', transcript_deleted_at TEXT);
CREATE TABLE "messages" (
   "id" INTEGER PRIMARY KEY,
   "uuid" TEXT NOT NULL,
   "session_id" TEXT NOT NULL REFERENCES "sessions"("session_id"),
   "file_id" INTEGER REFERENCES "source_files"("id"),
   "line_no" INTEGER,
   "parent_uuid" TEXT,
   "type" TEXT NOT NULL,
   "kind" TEXT,
   "timestamp" TEXT,
   "text" TEXT,
   "is_sidechain" INTEGER,
   "is_meta" INTEGER,
   "is_compact_summary" INTEGER,
   "agent_id" TEXT,
   "model" TEXT,
   "cwd" TEXT,
   "git_branch" TEXT,
   "version" TEXT
);
CREATE UNIQUE INDEX "idx_messages_uuid"
    ON "messages" ("uuid");
CREATE TABLE "tool_calls" (
   "tool_use_id" TEXT PRIMARY KEY,
   "session_id" TEXT NOT NULL REFERENCES "sessions"("session_id"),
   "file_id" INTEGER REFERENCES "source_files"("id"),
   "line_no" INTEGER,
   "message_uuid" TEXT,
   "timestamp" TEXT,
   "name" TEXT NOT NULL,
   "command" TEXT,
   "file_path" TEXT,
   "description" TEXT,
   "input" TEXT,
   "agent_id" TEXT,
   "is_sidechain" INTEGER
);
CREATE INDEX "idx_tc_session"
    ON "tool_calls" ("session_id", "timestamp");
CREATE TABLE "tool_results" (
   "id" INTEGER PRIMARY KEY,
   "tool_use_id" TEXT NOT NULL,
   "session_id" TEXT NOT NULL REFERENCES "sessions"("session_id"),
   "file_id" INTEGER REFERENCES "source_files"("id"),
   "line_no" INTEGER,
   "message_uuid" TEXT,
   "timestamp" TEXT,
   "is_error" INTEGER NOT NULL,
   "content" TEXT,
   "content_length" INTEGER
, signature TEXT, kind TEXT);
CREATE UNIQUE INDEX "idx_tool_results_tool_use_id"
    ON "tool_results" ("tool_use_id");
CREATE INDEX "idx_tr_session"
    ON "tool_results" ("session_id");
CREATE INDEX idx_tr_errors_time ON tool_results(timestamp) WHERE is_error = 1;
CREATE INDEX idx_tr_session_errors ON tool_results(session_id, timestamp) WHERE is_error = 1;
CREATE TABLE "session_meta" (
   "session_id" TEXT NOT NULL REFERENCES "sessions"("session_id"),
   "file_id" INTEGER REFERENCES "source_files"("id"),
   "line_no" INTEGER,
   "key" TEXT NOT NULL,
   "value" TEXT,
   "leaf_uuid" TEXT
);
CREATE INDEX "idx_meta_session"
    ON "session_meta" ("session_id");
CREATE INDEX "idx_meta_leaf"
    ON "session_meta" ("leaf_uuid");
CREATE TABLE "problems" (
   "id" INTEGER PRIMARY KEY,
   "path" TEXT NOT NULL,
   "file_id" INTEGER,
   "line_no" INTEGER,
   "reason" TEXT NOT NULL,
   "excerpt" TEXT
);
CREATE INDEX "idx_problems_file"
    ON "problems" ("file_id");
CREATE VIRTUAL TABLE "messages_fts" USING FTS5 (
    "text",
    content="messages"
);
CREATE VIRTUAL TABLE tool_errors_fts USING fts5(content, content="tool_results", content_rowid="id");
CREATE INDEX idx_messages_session ON messages(session_id, timestamp, file_id);
CREATE INDEX idx_tr_errors ON tool_results(is_error, id, content) WHERE is_error = 1;
CREATE INDEX idx_tr_signature ON tool_results(signature, session_id, kind) WHERE is_error = 1;
CREATE TABLE "redactions" (
   "id" INTEGER PRIMARY KEY,
   "file_id" INTEGER REFERENCES "source_files"("id"),
   "table_name" TEXT NOT NULL,
   "row_key" TEXT,
   "line_no" INTEGER,
   "column_name" TEXT NOT NULL,
   "kind" TEXT NOT NULL,
   "count" INTEGER NOT NULL
);
CREATE INDEX "idx_redactions_file"
    ON "redactions" ("file_id");
CREATE TABLE "fixes" (
   "tool_use_id" TEXT PRIMARY KEY,
   "session_id" TEXT NOT NULL,
   "outcome" TEXT NOT NULL,
   "confirmed_by" TEXT,
   "confirmed_at" TEXT,
   "remedy" TEXT,
   "others" TEXT,
   "window_end" TEXT
);
CREATE INDEX "idx_fixes_session"
    ON "fixes" ("session_id");
CREATE TABLE "_persisted_outputs" (
   "file_id" INTEGER REFERENCES "source_files"("id"),
   "session_id" TEXT NOT NULL,
   "tool_use_id" TEXT,
   "path" TEXT NOT NULL,
   "size" INTEGER,
   "mtime_ns" INTEGER,
   "ctime_ns" INTEGER,
   "problem" TEXT,
   PRIMARY KEY ("file_id", "tool_use_id")
);
CREATE INDEX idx_sessions_deleted ON sessions(transcript_deleted_at) WHERE transcript_deleted_at IS NOT NULL;
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm001_create_tables', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm002_full_text', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm003_covering_indexes', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm004_project_is_first_cwd', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm005_error_signatures', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm006_tail_hash', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm007_redactions', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm008_session_agent', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm009_prefix_crc', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm010_fixes', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm011_persisted_outputs', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm012_archive', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm013_codex_reread', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm014_codex_reread_0118', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm015_codex_agent_messages', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm016_codex_running', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm017_typed_titles', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm018_codex_sandbox_failures', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm019_codex_aborted', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm020_skipped_reread', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm021_codex_patch_errors', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm022_codex_aborted_after_wall_time', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm023_command_titles', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm024_codex_bare_aborted', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm025_codex_code_mode', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm026_nul_text', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm027_codex_cell_refused', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm028_deleted_main_transcript', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm029_forgotten_by_no_name', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('pastfix', 'm030_claude_rejection_words', strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'));
