import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import click
import msgspec

from pastfix import db as pdb
from pastfix import paths, transcripts
from pastfix import sources as agents

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="pastfix")
def cli() -> None:
    """Search your Claude Code history for how you fixed an error last time.

    \b
    Example:
        pastfix build                      # ~/.claude/projects -> index.db
        pastfix find "EISDIR: illegal operation on a directory"
        datasette serve index.db           # browse, with the find_past_fix query
    """


def main() -> None:
    """The `pastfix` command: run the CLI, then exit without tearing the interpreter down.

    Everything pastfix opened is closed by then, so only the standard streams
    need flushing. Skipping the teardown of ~300 imported modules saves ~20 ms,
    a tenth of a typical refresh.
    """
    try:
        cli.main(prog_name="pastfix")
        code: Any = 0
    except SystemExit as e:
        code = e.code
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a closed pipe: what Python itself exits with then
        code = 120
    os._exit(code)


@contextmanager
def progressbar(silent: bool, label: str, length: int) -> Iterator[Any]:
    """click.progressbar on a TTY, a no-op otherwise."""
    if silent or not sys.stderr.isatty() or length == 0:

        class _Null:
            def update(self, n: int) -> None:
                pass

        yield _Null()
        return
    with click.progressbar(length=length, label=label, file=sys.stderr) as bar:
        yield bar


@cli.command()
@click.argument(
    "db_path",
    default="index.db",
    type=click.Path(dir_okay=True, path_type=Path),
)
@click.option(
    "sources",
    "--source",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Directory of Claude Code projects or of Codex sessions (repeatable)."
    " Default: ~/.claude/projects and ~/.codex/sessions",
)
@click.option(
    "--agent",
    type=click.Choice(agents.AGENTS),
    help="Read only this agent's transcripts (its default folder without --source)",
)
@click.option("--force", is_flag=True, help="Rebuild everything instead of refreshing")
@click.option(
    "--no-redact",
    is_flag=True,
    help="Keep secrets (API keys, tokens, passwords) instead of replacing them by"
    " [REDACTED:kind]. Changing this re-indexes every file.",
)
@click.option(
    "--tokenizer",
    callback=lambda ctx, param, value: _tokenizer(value),
    help="FTS5 tokenizer of the full-text indexes: unicode61 (the default), porter, ascii"
    " or trigram (every language, substrings; several times larger), with options such as"
    " 'unicode61 remove_diacritics 2' or 'trigram case_sensitive 0'. Recorded in the index;"
    " changing it rebuilds the full-text indexes from the stored rows.",
)
@click.option(
    "--default-db",
    is_flag=True,
    help="Write the index where the hook and the MCP server look for it: $PASTFIX_DB, or"
    " ~/.local/share/pastfix/index.db",
)
@click.option("-s", "--silent", is_flag=True, help="Don't show a progress bar")
@click.option("json_", "--json", is_flag=True, help="Print the summary as JSON on stdout")
@click.pass_context
def build(
    ctx: click.Context,
    db_path: Path,
    sources: tuple[Path, ...],
    agent: str | None,
    force: bool,
    no_redact: bool,
    tokenizer: str | None,
    default_db: bool,
    silent: bool,
    json_: bool,
) -> None:
    """Build or refresh DB_PATH (default index.db) from Claude Code and Codex transcripts.

    Only files that changed since the last build are read. Without --source,
    ~/.claude/projects and ~/.codex/sessions are indexed, or the bundled demo
    sessions when neither exists. Whether a folder holds Codex rollouts or
    Claude Code projects is told from its files.

    \b
    Example:
        pastfix build
        pastfix build index.db --source ~/.claude/projects --json
        pastfix build --default-db         # the index of the hook and the MCP server
        pastfix build --agent codex
        pastfix build --tokenizer trigram  # Chinese, Japanese, Korean words
    """
    if default_db:
        if ctx.get_parameter_source("db_path") != click.core.ParameterSource.DEFAULT:
            raise click.UsageError("give DB_PATH or --default-db, not both")
        db_path = paths.default_db()
        db_path.parent.mkdir(parents=True, exist_ok=True)
    if not sources:
        sources = tuple(agents.default_sources(agent))
        if sources[0] == transcripts.DEMO_PROJECTS:
            missing = "~/.claude/projects" if agent else "~/.claude/projects or ~/.codex/sessions"
            click.echo(f"No {missing} here: indexing the bundled demo sessions", err=True)
    with ExitStack() as stack:
        bars: list[Any] = []

        def on_plan(files: int, total: int) -> None:
            bars.append(
                stack.enter_context(progressbar(silent, f"Indexing {files:,} files", total))
            )

        try:
            stats = pdb.build(
                db_path,
                list(sources),
                force=force,
                redact=not no_redact,
                on_plan=on_plan,
                progress=lambda n: bars[0].update(n),
                agent=agent,
                tokenizer=tokenizer,
                on_wait=lambda: click.echo(
                    f"waiting for another build of {db_path} to finish...", err=True
                ),
            )
        except pdb.BuildError as e:
            raise click.ClickException(str(e)) from e
    if json_:
        click.echo(to_json(stats.to_dict()))
    if stats.redact_changed:
        now = "on" if stats.redact else "off (--no-redact)"
        click.echo(f"Redaction turned {now}: every file was re-indexed", err=True)
    if stats.reredacted_rows:
        click.echo(
            f"Redaction rules changed: {stats.reredacted_rows:,} stored rows redacted again",
            err=True,
        )
    if stats.tokenizer_changed:
        click.echo(f"Tokenizer set to {stats.tokenizer}: full-text indexes rebuilt", err=True)
    for problem in stats.problem_examples:
        click.echo(f"Skipped {problem}", err=True)
    if stats.problems > len(stats.problem_examples):
        click.echo(f"... and {stats.problems - len(stats.problem_examples):,} more", err=True)
    click.echo(summary_line(stats), err=True)


def _tokenizer(value: str | None) -> str | None:
    try:
        return None if value is None else pdb.parse_tokenizer(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from e


@contextmanager
def open_index(db_path: Path) -> Iterator[Any]:
    """A read-only connection to the index, or a one-line error when there is none."""
    from pastfix import queries  # imported here: `build` starts faster without it

    try:
        conn = queries.connect(db_path)
    except queries.NotAnIndex as e:
        raise click.ClickException(str(e)) from e
    try:
        yield conn
    finally:
        conn.close()


def to_json(value: Any) -> str:
    return msgspec.json.format(msgspec.json.encode(value), indent=2).decode()


# Lines of unknown types a build skips quietly, as a share of the lines it read, above which
# its summary says so: a newer Claude Code adds a few (2 of 10,289 on ../shared/corpus/real),
# while a folder read as the wrong agent's skips them all (480 of 480).
SKIPPED_SHARE = 0.1
SKIPPED_MIN = 10


def summary_line(stats: pdb.BuildStats) -> str:
    skipped = stats.skipped_lines >= max(SKIPPED_MIN, SKIPPED_SHARE * stats.new_lines)
    return (
        f"{stats.mode.capitalize()} build: read {stats.files_read:,} of {stats.files_seen:,} files"
        f" ({stats.bytes_read / 1e6:,.1f} MB, {stats.new_lines:,} new lines):"
        f" {stats.messages:,} messages, {stats.tool_results:,} tool results"
        f" ({stats.failed_tool_results:,} failed), {stats.problems:,} problems"
        + (f", {stats.redactions:,} secrets redacted" if stats.redactions else "")
        + (
            f", {stats.skipped_lines:,} of {stats.new_lines:,} lines skipped as of no type"
            " pastfix reads (is each --source a Claude Code projects or Codex sessions folder?)"
            if skipped
            else ""
        )
        + f" in {stats.seconds:.2f}s"
    )


class _FindCommand(click.Command):
    """`find`, whose unknown-option error says how to search for text starting with '-'."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as e:
            raise click.UsageError(
                e.format_message().rstrip(".") + ". To search for an error that starts with '-',"
                " put -- before it (pastfix find -- '-bash: npm: command not found')"
                " or pipe it in (... | pastfix find -)",
                ctx,
            ) from e


@cli.command(cls=_FindCommand)
@click.argument("error")
@click.argument("db_path", default="index.db", type=click.Path(dir_okay=False, path_type=Path))
@click.option("json_", "--json", is_flag=True, help="Print the rows as a JSON array")
@click.option(
    "-n",
    "--limit",
    default=lambda: find_limit(),
    show_default="20",
    type=click.IntRange(1, 200),
    help="Most rows to show (one per session and error signature)",
)
def find(error: str, db_path: Path, json_: bool, limit: int) -> None:
    """Find past failures matching ERROR and what happened next, in DB_PATH (default index.db).

    Runs the find_past_fix query of the Datasette plugin: failed tool calls with the
    same error signature as ERROR (its key line with paths, numbers and ids left out) or
    whose output contains every word of ERROR (stop words aside), best first, one per
    session and signature, each with what fixed it: the edits and calls up to the first
    successful retry. When there is none, ERROR was not seen before: that is said on
    stderr, and at most 3 partial matches follow, failures that share a rare name of it.
    ERROR - reads the error from standard input, so a pasted error needs no quoting.
    Start ERROR with raw: to write an FTS5 query, and put -- before an ERROR that starts
    with -.

    \b
    Example:
        pastfix find "EISDIR: illegal operation on a directory"
        pastfix find "error TS2307" index.db --json --limit 5
        pbpaste | pastfix find -
        pastfix find -- "-bash: npm: command not found"
    """
    from pastfix import queries  # imported here: `build` starts faster without it

    if error == "-":
        error = sys.stdin.read()
    with open_index(db_path) as conn:
        try:
            rows = queries.find_past_fix(conn, error, limit)
        except queries.QueryError as e:
            raise click.ClickException(str(e)) from e
        substrings = queries.is_trigram(queries.tokenizer(conn))
    if not queries.seen_before(rows):
        click.echo(
            queries.not_seen_notice(error, rows) + ("\n" * (bool(rows) and not json_)), err=True
        )
    if json_:
        click.echo(to_json(rows))
    elif rows:
        bold = (click.style("", bold=True, reset=False), click.style("", reset=True))
        click.echo(
            "\n\n".join(
                queries.format_hit(i, row, bold, error, substrings) for i, row in enumerate(rows, 1)
            )
        )


def find_limit() -> int:
    from pastfix import queries

    return queries.FIND_LIMIT


@cli.command()
@click.argument("db_path", default="index.db", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--sample",
    default=200,
    show_default=True,
    type=click.IntRange(1),
    help="Most (identifier, session) pairs and key lines to try",
)
@click.option("--seed", default=0, show_default=True, help="Seed of the random sample")
@click.option("json_", "--json", is_flag=True, help="Print the shares as JSON")
def probe(db_path: Path, sample: int, seed: int, json_: bool) -> None:
    """Measure how well each search path finds past failures in DB_PATH (default index.db).

    Samples error identifiers (ENOENT, TypeError, error TS2339, Exit code 127, "File
    does not exist", ...) from failed tool results and asks messages_fts,
    tool_errors_fts and find_past_fix whether their first page shows the session that
    had each one. Then pastes failures' key lines, as recorded and with other paths and
    numbers, and counts how often their own session comes first.

    \b
    Example:
        pastfix probe
        pastfix probe index.db --sample 500 --seed 1 --json
    """
    from pastfix import probe as probing

    with open_index(db_path) as conn:
        result = probing.probe(conn, sample, seed)
    click.echo(to_json(result) if json_ else probing.format_table(result))


def _db_option(help_text: str) -> Any:
    return click.option(
        "db_path",
        "--db",
        type=click.Path(dir_okay=False, path_type=Path),
        help=help_text + " Default: $PASTFIX_DB, or ~/.local/share/pastfix/index.db",
    )


@cli.group(invoke_without_command=True)
@_db_option("The index to look failures up in.")
@click.option("--refresh", is_flag=True, help="Bring the index up to date first (incremental)")
@click.pass_context
def hook(ctx: click.Context, db_path: Path | None, refresh: bool) -> None:
    """Claude Code hook: recall how a failed tool call was fixed before.

    Reads one PostToolUseFailure event as JSON on standard input. When an earlier
    failure in another session has the same error signature or every word of its key
    line, prints {"hookSpecificOutput": {"hookEventName": "PostToolUseFailure",
    "additionalContext": ...}}: where it was seen and what fixed it. Prints nothing
    on an interrupt, Claude Code's own noise (rejections, cancelled siblings, files
    not read), no good match, or any problem, which goes to stderr; always exits 0.

    \b
    Example:
        pastfix hook install               # add it to ~/.claude/settings.json
        pastfix hook --db index.db < event.json
    """
    if ctx.invoked_subcommand is not None:
        return
    from pastfix import hook as recall

    answer = recall.run(sys.stdin.read(), db_path or paths.default_db(), refresh)
    if answer:
        click.echo(answer)


@hook.command(name="install")
@click.option(
    "settings",
    "--settings",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Claude Code settings file. Default: ~/.claude/settings.json",
)
@_db_option("The index the hooks read and refresh.")
def hook_install(settings: Path | None, db_path: Path | None) -> None:
    """Add pastfix's hooks to a Claude Code settings file (again: replace them).

    A PostToolUseFailure hook runs `pastfix hook` after every failed tool call; a
    SessionEnd hook refreshes the index in the background. Paths are absolute; every
    other setting and hook is kept.

    \b
    Example:
        pastfix hook install
        pastfix hook install --settings .claude/settings.local.json --db ~/index.db
    """
    from pastfix import install

    settings = settings or install.default_settings()
    db_path = db_path or paths.default_db()
    try:
        install.install_hooks(settings, db_path)
    except install.InstallError as e:
        raise click.ClickException(str(e)) from e
    click.echo(f"Added pastfix's PostToolUseFailure and SessionEnd hooks to {settings}", err=True)
    if not db_path.exists():
        click.echo(f"Build the index they read: pastfix build {db_path}", err=True)


@hook.command(name="uninstall")
@click.option(
    "settings",
    "--settings",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Claude Code settings file. Default: ~/.claude/settings.json",
)
def hook_uninstall(settings: Path | None) -> None:
    """Remove pastfix's hooks from a Claude Code settings file, and nothing else.

    \b
    Example:
        pastfix hook uninstall
        pastfix hook uninstall --settings .claude/settings.local.json
    """
    from pastfix import install

    settings = settings or install.default_settings()
    try:
        removed = install.uninstall_hooks(settings)
    except install.InstallError as e:
        raise click.ClickException(str(e)) from e
    done = "Removed pastfix's hooks from" if removed else "No pastfix hook in"
    click.echo(f"{done} {settings}", err=True)


@cli.command()
@_db_option("The index to answer from.")
def mcp(db_path: Path | None) -> None:
    """Serve the index to agents as an MCP server over stdio.

    Tools: find_past_fix, session_errors, session_tool_output, search_messages,
    recurring_errors and file_history, each returning the rows of the canned query of
    that name, as structured content and as compact text.

    \b
    Example:
        claude mcp add pastfix -- pastfix mcp
        claude mcp add pastfix -- pastfix mcp --db ~/index.db
    """
    from pastfix import mcp as server

    db_path = db_path or paths.default_db()
    with open_index(db_path):  # a missing or outdated index is a one-line error first
        pass
    server.serve(db_path)


@cli.group()
def skill() -> None:
    """The pastfix skill for Claude Code: when and how an agent searches its history.

    \b
    Example:
        pastfix skill install              # -> ~/.claude/skills/pastfix
    """


@skill.command(name="install")
@click.option(
    "--dest",
    type=click.Path(file_okay=False, path_type=Path),
    help="Skills folder to copy it into. Default: ~/.claude/skills",
)
def skill_install(dest: Path | None) -> None:
    """Copy the skill (SKILL.md and references/) to DEST/pastfix, replacing an older copy.

    \b
    Example:
        pastfix skill install
        pastfix skill install --dest .claude/skills
    """
    from pastfix import install

    try:
        target = install.install_skill(dest or install.default_skills())
    except install.InstallError as e:
        raise click.ClickException(str(e)) from e
    click.echo(f"Installed the pastfix skill in {target}", err=True)
