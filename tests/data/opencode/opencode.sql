-- An opencode 1.2+ store (opencode.db), hand-written from its schema: the tables pastfix
-- reads, as `sqlite3 opencode.db .schema` prints them for opencode 1.2.25 and 1.4.0
-- (../shared/corpus/real/other-agents/opencode), and one session whose `data` columns
-- hold MessageV2 JSON without the ids (session.sql.ts InfoData / PartData).
CREATE TABLE `project` (
	`id` text PRIMARY KEY,
	`worktree` text NOT NULL,
	`vcs` text,
	`name` text,
	`icon_url` text,
	`icon_color` text,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`time_initialized` integer,
	`sandboxes` text NOT NULL
, `commands` text);
CREATE TABLE `session` (
	`id` text PRIMARY KEY,
	`project_id` text NOT NULL,
	`parent_id` text,
	`slug` text NOT NULL,
	`directory` text NOT NULL,
	`title` text NOT NULL,
	`version` text NOT NULL,
	`share_url` text,
	`summary_additions` integer,
	`summary_deletions` integer,
	`summary_files` integer,
	`summary_diffs` text,
	`revert` text,
	`permission` text,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`time_compacting` integer,
	`time_archived` integer, `workspace_id` text,
	CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
);
CREATE TABLE `message` (
	`id` text PRIMARY KEY,
	`session_id` text NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`data` text NOT NULL,
	CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE TABLE `part` (
	`id` text PRIMARY KEY,
	`message_id` text NOT NULL,
	`session_id` text NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`data` text NOT NULL,
	CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE
);
INSERT INTO project VALUES ('2e0dbeef00000000000000000000000000000002', '/home/dev/api', 'git', NULL, NULL, NULL,
  1775000000000, 1775000000000, NULL, '[]', NULL);
INSERT INTO session VALUES ('ses_3f2e1d0c9ffeZyXwVuTsRqPoNm', '2e0dbeef00000000000000000000000000000002', NULL,
  'brave-otter', '/home/dev/api', 'Install the dependencies', '1.2.25', NULL, 0, 0, 0, NULL, NULL, NULL,
  1775000000000, 1775000090000, NULL, NULL, NULL);
INSERT INTO message VALUES ('msg_c0d1000010001AAAAAAAAAAAAA', 'ses_3f2e1d0c9ffeZyXwVuTsRqPoNm', 1775000001000, 1775000001000,
  '{"role":"user","time":{"created":1775000001000},"agent":"build","model":{"providerID":"openai","modelID":"gpt-5"}}');
INSERT INTO part VALUES ('prt_c0d1000010002aaaaaaaaaaaaa', 'msg_c0d1000010001AAAAAAAAAAAAA', 'ses_3f2e1d0c9ffeZyXwVuTsRqPoNm',
  1775000001000, 1775000001000, '{"type":"text","text":"install the dependencies and run the tests"}');
INSERT INTO message VALUES ('msg_c0d1000020001BBBBBBBBBBBBB', 'ses_3f2e1d0c9ffeZyXwVuTsRqPoNm', 1775000002000, 1775000009000,
  '{"role":"assistant","parentID":"msg_c0d1000010001AAAAAAAAAAAAA","modelID":"gpt-5","providerID":"openai","mode":"build","agent":"build","path":{"cwd":"/home/dev/api","root":"/home/dev/api"},"cost":0,"tokens":{"input":5,"output":9,"reasoning":0,"cache":{"read":0,"write":0}},"time":{"created":1775000002000,"completed":1775000009000},"finish":"tool-calls"}');
INSERT INTO part VALUES ('prt_c0d1000020002bbbbbbbbbbbb1', 'msg_c0d1000020001BBBBBBBBBBBBB', 'ses_3f2e1d0c9ffeZyXwVuTsRqPoNm',
  1775000002100, 1775000004000, '{"type":"tool","callID":"call_fixture0001","tool":"bash","state":{"status":"completed","input":{"command":"pnpm install","description":"Install dependencies"},"output":"bash: line 1: pnpm: command not found\n","title":"pnpm install","metadata":{"exit":127,"output":"bash: line 1: pnpm: command not found\n","description":"Install dependencies"},"time":{"start":1775000002100,"end":1775000004000}}}');
INSERT INTO part VALUES ('prt_c0d1000020003bbbbbbbbbbbb2', 'msg_c0d1000020001BBBBBBBBBBBBB', 'ses_3f2e1d0c9ffeZyXwVuTsRqPoNm',
  1775000004100, 1775000004200, '{"type":"tool","callID":"call_fixture0002","tool":"glob","state":{"status":"error","input":{"pattern":"**/*.zebra","path":"/home/dev/api/vendored"},"error":"Error: ENOENT: no such file or directory, scandir ''/home/dev/api/vendored''","time":{"start":1775000004100,"end":1775000004200}}}');
INSERT INTO part VALUES ('prt_c0d1000020004bbbbbbbbbbbb3', 'msg_c0d1000020001BBBBBBBBBBBBB', 'ses_3f2e1d0c9ffeZyXwVuTsRqPoNm',
  1775000004300, 1775000008000, '{"type":"tool","callID":"call_fixture0003","tool":"bash","state":{"status":"completed","input":{"command":"npm install","description":"Install with npm"},"output":"added 12 packages in 3s\n","title":"npm install","metadata":{"exit":0},"time":{"start":1775000004300,"end":1775000008000}}}');
INSERT INTO message VALUES ('msg_c0d1000030001CCCCCCCCCCCCC', 'ses_3f2e1d0c9ffeZyXwVuTsRqPoNm', 1775000010000, 1775000011000,
  '{"role":"assistant","parentID":"msg_c0d1000010001AAAAAAAAAAAAA","modelID":"gpt-5","providerID":"openai","mode":"build","agent":"build","path":{"cwd":"/home/dev/api","root":"/home/dev/api"},"cost":0,"tokens":{"input":0,"output":0,"reasoning":0,"cache":{"read":0,"write":0}},"time":{"created":1775000010000,"completed":1775000011000},"error":{"name":"MessageOutputLengthError","data":{}}}');
