import errno
import functools
import os
import re
import shlex
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import click
import msgspec

from pastfix import agents, count, entry, paths, patterns, transcripts
from pastfix import build as pbuild
from pastfix import db as pdb
from pastfix.patterns import lazy

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def _db_alias(command: Callable[..., None]) -> Callable[..., None]:
    """`--db PATH` for a command whose index is its DB_PATH argument, as hook and mcp
    take it: one way of naming the index works for every command."""

    @click.option(
        "db_alias",
        "--db",
        type=click.Path(path_type=Path),
        metavar="PATH",
        help="The index, as DB_PATH names it (hook and mcp take --db)",
    )
    @functools.wraps(command)
    def with_alias(*args: Any, db_alias: Path | None, **kwargs: Any) -> None:
        if db_alias is not None:
            ctx = click.get_current_context()
            if ctx.get_parameter_source("db_path") == click.core.ParameterSource.COMMANDLINE:
                raise click.UsageError("give DB_PATH or --db, not both")
            if kwargs.get("default_db"):
                raise click.UsageError("give --db or --default-db, not both")
            kwargs["db_path"] = db_alias
        command(*args, **kwargs)

    return with_alias


class _Misused(click.ClickException):
    exit_code = 2  # as click's usage errors


class _Group(click.Group):
    """Ctrl-C in a command is what it is before click runs it (pastfix.entry): one line and
    exit 130, where click said 'Aborted!' and exited 1, as a failed build does. What the
    build had committed is kept (each file's rows with its offset), and the next one reads
    on; a prompt's Ctrl-C (forget's) is still its no. An error's message, which click
    prints itself, is shown as echo() shows text: it may name a folder of someone else's
    backup, whose name holds a terminal's escapes (a security test, session 31: an OSC 52
    that writes the clipboard, in `Error: ... holds Codex sessions (...)`)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            echo(entry.INTERRUPTED, err=True)
            raise SystemExit(entry.INTERRUPTED_STATUS) from None
        except paths.NoHome as e:  # whichever command looked for a folder in it
            raise click.ClickException(shown(str(e))) from None
        except click.ClickException as e:
            if entry.interrupted() and e.exit_code == 1:  # Ctrl-C's, said as another error
                echo(entry.INTERRUPTED, err=True)
                raise SystemExit(entry.INTERRUPTED_STATUS) from None
            if shown(e.message) == e.message:
                raise
            # (a usage error's usage line is left out then: its message is what matters)
            kind = click.ClickException if e.exit_code == 1 else _Misused
            raise kind(shown(e.message)) from None

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            # Browsing is Datasette's: a new user's `pastfix serve` learnt only that there
            # is no such command.
            if args and args[0] == "serve":
                raise click.UsageError(
                    "No such command 'serve': browse the index with Datasette, `datasette"
                    " serve index.db` (installed with pastfix)",
                    ctx,
                ) from None
            raise


@click.group(cls=_Group, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="pastfix")
def cli() -> None:
    """Search your coding agents' history for how you fixed an error last time.

    \b
    Example:
        pastfix build                      # every agent's folder -> index.db
        pastfix find "EISDIR: illegal operation on a directory"
        datasette serve index.db           # browse, with the find_past_fix query
    """


# The errors of a write to standard output that are the output's place's, not pastfix's.
_OUTPUT_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


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
    except OSError as e:
        # Output written to a full disk (`find --json > out.json`) or a failing device: a
        # traceback from click.echo. click says nothing of a closed pipe (EPIPE) itself.
        # A path the system refuses before any command's own check can tell what it is (a
        # name longer than it allows, `File name too long` from a stat()): a traceback too.
        if e.filename is not None:
            echo(f"Error: {e.filename}: {e.strerror}", err=True)
        elif e.errno in _OUTPUT_ERRORS:
            echo(f"Error: cannot write the output: {e.strerror}", err=True)
        else:
            raise
        code = 1
    if code is None:
        code = 0
    elif not isinstance(code, int):
        echo(str(code), err=True)
        code = 1
    patterns.save()  # (the patterns this process compiled, for the next: see pastfix.patterns)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a closed pipe: what Python itself exits with then
        code = 120
    os._exit(code)


def _terminated(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


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
    help="Directory of an agent's sessions: Claude Code projects, Codex sessions, ..."
    " (repeatable; which agent's is told from its files). Default: every agent's folder"
    " that exists, such as ~/.claude/projects ($CLAUDE_CONFIG_DIR/projects) and"
    " ~/.codex/sessions",
)
@click.option(
    "--agent",
    type=click.Choice(agents.NAMES),
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
@click.option(
    "--missing-ok",
    is_flag=True,
    help="A source folder that is not there is skipped, not an error: with none there (an"
    " agent that wrote no session yet) exit 0, leaving the index as it was, silent but for a"
    " line at a terminal; without"
    " --source, no agent's folder reads no demo. The hooks' builds use it",
)
@click.option("-s", "--silent", is_flag=True, help="Don't show a progress bar")
@click.option("json_", "--json", is_flag=True, help="Print the summary as JSON on stdout")
@click.pass_context
@_db_alias
def build(
    ctx: click.Context,
    db_path: Path,
    sources: tuple[Path, ...],
    agent: str | None,
    force: bool,
    no_redact: bool,
    tokenizer: str | None,
    default_db: bool,
    missing_ok: bool,
    silent: bool,
    json_: bool,
) -> None:
    """Build or refresh DB_PATH (default index.db) from coding agents' transcripts.

    Only files that changed since the last build are read. Without --source,
    every agent's folder that exists is indexed: ~/.claude/projects (under
    $CLAUDE_CONFIG_DIR when set), ~/.codex/sessions ($CODEX_HOME/sessions) and
    the others the README lists; when none exists, the folders an index of
    other transcripts was built from, else the bundled demo sessions. Which
    agent's sessions a folder holds is told from its files.

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
        try:  # (~/.local/share made by `sudo`, a HOME that is a file: it was a traceback)
            db_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise click.ClickException(
                f"cannot create {db_path.parent}, the index's folder: {e.strerror or e}"
            ) from e
    # SIGTERM (`timeout`, a service stopping, a closing terminal's session) ends the build
    # as Ctrl-C does, through its handlers: the transaction in progress rolls back and the
    # helper's side files are deleted, where the default action left them for the next build.
    signal.signal(signal.SIGTERM, _terminated)
    try:  # before the demo's notice, which a folder of transcripts given as DB_PATH got
        pbuild.check_not_transcripts(db_path)
    except pdb.BuildError as e:
        raise click.ClickException(str(e)) from e
    if folder := paths.folder_not_index(db_path):  # (any folder: `pastfix build ~`)
        raise click.ClickException(folder)
    if not sources:
        sources = tuple(agents.default_sources(agent))
        if sources[0] == transcripts.DEMO_PROJECTS:
            looked = [
                str(folder)
                for name in ([agent] if agent else agents.NAMES)
                for folder in agents.reader(name).default_folders()
            ]
            missing = ", ".join(looked[:-1]) + " or " + looked[-1] if len(looked) > 1 else looked[0]
            own = pbuild.own_sources(db_path, agent)
            if own is None and missing_ok:
                # the demo stands in for a user to try pastfix, never in a hook's build
                return read_nothing(db_path, looked)
            if own is None:
                echo(f"No {missing} here: indexing the bundled demo sessions", err=True)
            else:
                # An index of other transcripts never gets the demo (README): it reads the
                # folders its builds read, those still here.
                sources = tuple(p for p in own if p.is_dir())
                gone = [str(p) for p in own if not p.is_dir()]
                if not sources and missing_ok:
                    return read_nothing(db_path, gone)
                if not sources:
                    said = f": {_listed(gone)}" if gone else ""
                    raise click.ClickException(
                        f"No {missing} here, and none of the folders {db_path} was built"
                        f" from is{said}: give them with --source"
                    )
                echo(
                    f"No {missing} here: reading the folders {db_path} was built from,"
                    f" {_listed([str(p) for p in sources])}"
                    + (f" (not here: {_listed(gone)})" if gone else ""),
                    err=True,
                )
    if missing_ok:
        # A hook's build, run when a session ends, before the agent may have made its
        # folder (Codex's sessions, before its first session): it failed with `source
        # directory not found`, exit 1, hidden by its nohup (a new user's try, nu43).
        there = tuple(source for source in sources if source.exists())
        if not there:
            return read_nothing(db_path, [str(source) for source in sources])
        sources = there
    with ExitStack() as stack:
        bars: list[Any] = []

        def on_plan(files: int, total: int) -> None:
            bars.append(
                stack.enter_context(progressbar(silent, f"Indexing {count(files, 'file')}", total))
            )

        try:
            stats = pbuild.build(
                db_path,
                list(sources),
                force=force,
                redact=not no_redact,
                on_plan=on_plan,
                progress=lambda n: bars[0].update(n),
                agent=agent,
                tokenizer=tokenizer,
                on_wait=lambda: echo(
                    f"waiting for another build of {db_path} to finish...", err=True
                ),
                on_locked=lambda: echo(
                    f"waiting for another program's transaction on {db_path} to end"
                    f" (a sqlite3 shell, a long query; up to {pbuild.BUSY_TIMEOUT:.0f} s)...",
                    err=True,
                ),
            )
        except pdb.BuildError as e:
            raise click.ClickException(str(e)) from e
    if json_:
        echo(to_json(stats.to_dict()))
    if stats.redact_changed:
        now = "on" if stats.redact else "off (--no-redact)"
        kept = ""
        if not stats.redact and stats.sessions_without_transcript:
            # their text cannot be restored without the transcripts
            kept = f"; the {_sessions(stats.sessions_without_transcript)} kept without a"
            kept += " transcript " + ("keeps" if stats.sessions_without_transcript == 1 else "keep")
            kept += (
                " its redacted text"
                if stats.sessions_without_transcript == 1
                else " their redacted text"
            )
        echo(f"Redaction turned {now}: every file was re-indexed{kept}", err=True)
    if stats.reredacted_rows:
        echo(
            f"Redaction rules changed: {count(stats.reredacted_rows, 'stored row')} redacted again",
            err=True,
        )
    if stats.tokenizer_changed:
        echo(f"Tokenizer set to {stats.tokenizer}: full-text indexes rebuilt", err=True)
    if stats.problem_examples:
        # Most are lines skipped; a persisted output that could not be read leaves its
        # line indexed with the preview it holds, and says so.
        echo("Skipped, or read in part:", err=True)
    for problem in stats.problem_examples:
        echo(f"  {problem}", err=True)
    if stats.problems > len(stats.problem_examples):
        echo(f"... and {stats.problems - len(stats.problem_examples):,} more", err=True)
    if not stats.files_seen:  # a mistyped or wrong folder, which no reader's files are in
        folders = ", ".join(str(s) for s in sources)
        echo(
            f"No transcripts in {folders}: no session was recorded there yet, or it is"
            " no agent's folder (such as ~/.claude/projects or ~/.codex/sessions) nor holds one",
            err=True,
        )
    echo(summary_line(stats), err=True)


def read_nothing(db_path: Path, missing: list[str]) -> None:
    """`build --missing-ok` with no source there: exit 0, silent for the hooks' builds (no
    terminal on stderr), and one line at a terminal, where a typed build said nothing and
    made no index (a new user's try, nu46 finding 12)."""
    if stderr_at_terminal():
        made = "is as it was" if db_path.exists() else "was not made"
        echo(
            f"Nothing to read: no {_listed(missing)} here (--missing-ok); {db_path} {made}",
            err=True,
        )


def stderr_at_terminal() -> bool:
    return sys.stderr.isatty()


def _listed(folders: list[str], shown: int = 3) -> str:
    """Folders in one line: the first `shown`, then how many more."""
    more = len(folders) - shown
    return ", ".join(folders[:shown]) + (f" and {more} more" if more > 0 else "")


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
    except queries.sqlite3.DatabaseError as e:  # a damaged file, found by the query
        raise click.ClickException(queries.open_error(db_path, e)) from e
    finally:
        conn.close()


def index_path(db_path: Path | None) -> Path:
    """The index a reading command uses: DB_PATH, else the first of paths.find_db() that
    exists, passing over a ./index.db of the demo sessions only when the default index exists.

    When none does, a one-line error names every place looked in, so an agent running the
    skill's command from a project folder learns where to build one.
    """
    if db_path is not None:
        return not_a_folder(db_path)
    found = found_index()
    if found:
        return found
    places = paths.find_db()
    for place in places:  # $PASTFIX_DB naming the folder the index is in, say
        not_a_folder(place)
    looked = ", ".join(
        f"{place} (in {Path.cwd()})" if not place.is_absolute() else str(place) for place in places
    )
    raise click.ClickException(
        f"no index found: looked in {looked}; build one with `pastfix build --default-db`"
    )


def found_index() -> Path | None:
    """The first of paths.find_db() that exists, passing over a ./index.db of the demo
    sessions only when the default index exists; None when neither does."""
    found = [place for place in paths.find_db() if place.is_file()]
    if len(found) > 1 and pbuild.holds_only_demo(found[0]):
        # The quick start's demo ./index.db hid the index built next with --default-db,
        # which README's next step implies `find` reads: "Not seen before" of an error
        # that index holds fixed (a new user's try, nu43 finding 5). The demo is only
        # there to try pastfix before any transcript is indexed.
        found = found[1:]
    return found[0] if found else None


def other_index(db_path: Path | None, chosen: Path, done: str = "Read") -> str | None:
    """The line a reading command says on stderr when, given no DB_PATH, it read ./index.db
    while the default index ($PASTFIX_DB, or ~/.local/share/pastfix/index.db: the hook's)
    exists too: the quick start builds a demo ./index.db, `--default-db` the other, and
    `pastfix find` run from the demo's folder answered from it without saying so ("Not seen
    before" of errors the other holds: a new user's try, nu40 finding 2)."""
    if db_path is not None or chosen != paths.LOCAL_DB:
        return None
    default = paths.default_db()
    try:
        if not default.is_file() or chosen.samefile(default):
            return None
    except OSError:
        return None
    return f"{done} ./index.db (in {Path.cwd()}), not the default index {default}: --db names it"


def not_a_folder(db_path: Path) -> Path:
    """`db_path`, or a one-line error when it is a folder (`--db ~/indexes`)."""
    folder = paths.folder_not_index(db_path)
    if folder:
        raise click.ClickException(folder)
    return db_path


# Characters a terminal acts on rather than shows: C0 and C1 controls (an OSC 52 sequence
# writes the clipboard, backspaces hide what a command ran), DEL, and the marks that reorder
# text (a right-to-left override makes `exe.txt` read `txt.exe`). What `find`, `status` and
# a build print comes from transcripts, text that tool output and fetched pages wrote: each
# such character is printed as its escape, `\u001b`, which a JSON string reads as it (a
# security test, session 29). Only bold and its end (SGR `ESC [ 1 m`, `ESC [ 0 m`), with
# which `find` marks the words matched, are kept: click drops them when the output is no
# terminal. Any other SGR may hide text that a copy with the mouse keeps (`ESC [ 8 m`
# conceals, a colour on itself), and is escaped too (session 30).
_UNSHOWN = lazy(
    "(\x1b\\[[01]?m)|[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def _shown(found: re.Match[str]) -> str:
    return found.group(1) or f"\\u{ord(found.group()):04x}"


def shown(message: str) -> str:
    """Text to show: Windows line ends as plain ones, the characters a terminal would act
    on (_UNSHOWN) as their escapes."""
    return _UNSHOWN.sub(_shown, message.replace("\r\n", "\n"))


def echo(message: str, err: bool = False) -> None:
    """click.echo of text to show (see shown)."""
    click.echo(shown(message), err=err)


def to_json(value: Any) -> str:
    return msgspec.json.format(msgspec.json.encode(value), indent=2).decode()


# Lines of unknown types a build skips quietly, as a share of the lines it read, above which
# its summary says so: a newer Claude Code adds a few (2 of 13,790 on ../shared/corpus/real),
# while a folder read as the wrong agent's skips them all (480 of 480).


def summary_line(stats: pbuild.BuildStats) -> str:
    skipped = "".join(
        f", {source['skipped_lines']:,} of {source['lines']:,} lines of {source['source']}"
        " skipped as of no type pastfix reads (is it a Claude Code projects or Codex sessions"
        " folder?)"
        for source in stats.skipped_sources
    )
    return (
        f"{stats.mode.capitalize()} build: read {stats.files_read:,} of"
        f" {count(stats.files_seen, 'file')}"
        f" ({stats.bytes_read / 1e6:,.1f} MB, {count(stats.new_lines, 'new line')}):"
        f" {count(stats.messages, 'message')}, {count(stats.tool_results, 'tool result')}"
        f" ({stats.failed_tool_results:,} failed), {count(stats.problems, 'problem')}"
        + (f", {count(stats.redactions, 'secret')} redacted" if stats.redactions else "")
        + skipped
        + (
            f", {count(stats.rows_kept, 'row')} that files no longer hold kept"
            if stats.rows_kept
            else ""
        )
        + (
            f", {_sessions(stats.sessions_without_transcript)} kept without a transcript"
            if stats.sessions_without_transcript
            else ""
        )
        + f" in {stats.seconds:.2f}s"
        + (
            f", after waiting {stats.waited_seconds:.1f}s for another build"
            if stats.waited_seconds >= pbuild.WAIT_NOTICE_SECONDS  # as its notice said
            else ""
        )
    )


def _sessions(n: int) -> str:
    return count(n, "session")


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
        except click.UsageError as e:
            if "unexpected extra argument" not in e.format_message():
                raise
            raise click.UsageError(e.format_message().rstrip(".") + f". {QUOTE_HINT}", ctx) from e


# An error of several words pasted without quotes is several arguments, its second taken
# for DB_PATH: said with the error that follows from it.
QUOTE_HINT = (
    "Quote an error of several words (pastfix find 'EISDIR: illegal operation on a"
    " directory') or pipe it in (... | pastfix find -)"
)


@cli.command(cls=_FindCommand)
@click.argument("error")
@click.argument("db_path", required=False, type=click.Path(path_type=Path))
@click.option("json_", "--json", is_flag=True, help="Print the rows as a JSON array")
@click.option(
    "-n",
    "--limit",
    default=lambda: find_limit(),
    show_default="20",
    type=click.IntRange(1, 200),
    help="Most rows to show (one per session and error signature)",
)
@click.option(
    "--command",
    metavar="COMMAND",
    help="The command that failed with ERROR: a past failure only worked around, on the way"
    " to another goal, is then not this error seen before (`same error, another goal`)."
    " Default: a command ERROR shows above its exit status (`lsof -i :3001`, then `Exit code 1`)",
)
@_db_alias
def find(error: str, db_path: Path | None, json_: bool, limit: int, command: str | None) -> None:
    """Find past failures matching ERROR and what happened next, in DB_PATH.

    A past failed tool call matches when it has ERROR's error signature (its key line
    with paths, numbers and ids left out) or holds every word of ERROR (stop words
    aside). Best first, one per session and signature, each card shows what fixed it
    (the edits and calls up to the first retry that worked) and how to resume its
    session.

    A card of the same error about other names (another script, property or column)
    says `same error, other names` when its fix was about those names, or nothing fixed
    it: not yours.

    When none matches, ERROR was not seen before: stderr says so, and at most 3 partial
    matches follow, failures that share a rare name of it (another error).

    ERROR - reads the error from standard input, so a pasted error needs no quoting.
    Start ERROR with raw: to write an FTS5 query, and put -- before an ERROR that
    starts with -.

    Without DB_PATH: ./index.db, else $PASTFIX_DB, else ~/.local/share/pastfix/index.db
    (the index of the hook and the MCP server). stderr names the one searched when
    ERROR was not seen, and when ./index.db was read while that other index exists too.

    It exits 0 whether or not ERROR was seen. With --json, a row's `matched` tells:
    `signature` or `all words`, seen; `some words`, or no row at all, not seen (a `some
    words` row is another error, whose `outcome` is that error's); `exit status`,
    `common words` or `stopped`, ERROR names no error, only how a command ended, common
    words or an agent's word of a stopped call, and the rows ended so, hold them or
    were stopped so.

    With --command, each row has `other_goal`: true when its session only worked around
    the error on the way to another goal than COMMAND's (installing other packages,
    running other programs), which is not this error seen before.

    \b
    Example:
        pastfix find "EISDIR: illegal operation on a directory"
        pastfix find "error TS2307" index.db --json --limit 5
        pbpaste | pastfix find -
        pastfix find -- "-bash: npm: command not found"
        pastfix find "sudo: a password is required" --command "sudo apt-get install -y jq"
    """
    from pastfix import cards, queries  # imported here: `build` starts faster without them

    piped = error == "-"
    try:
        error = queries.pasted(queries.read_pasted(sys.stdin.buffer.read()) if piped else error)
    except queries.NotText as e:
        raise click.ClickException(str(e)) from e
    if not error.strip():  # an empty clipboard, say: not an error new to the index
        raise click.ClickException(
            "no error text on standard input"
            if piped
            else "ERROR is empty: give the error's text, or - to read it from standard input"
        )
    given = click.get_current_context().get_parameter_source("db_path")
    if (
        db_path is not None
        and given == click.core.ParameterSource.COMMANDLINE
        and not db_path.suffix
        and not db_path.exists()
    ):
        # `pastfix find EISDIR: illegal`: "illegal not found: build it with ..." alone misled
        raise click.ClickException(f"{db_path} not found: no index has that name. {QUOTE_HINT}")
    conn_path = index_path(db_path)
    if elsewhere := other_index(db_path, conn_path, "Searched"):
        echo(elsewhere, err=True)
    # (a command pasted above its exit status is the command, as if given)
    command = queries.command_of(error, command)
    with open_index(conn_path) as conn:
        try:
            rows = queries.with_goals(queries.find_past_fix(conn, error, limit), command)
        except queries.QueryError as e:
            raise click.ClickException(str(e)) from e
        substrings = queries.is_trigram(queries.tokenizer(conn))
        unbuilt = None if queries.seen_before(rows) else queries.unbuilt(conn, conn_path)
        seen = unbuilt is None and queries.seen_before(rows)
        # (which line of the paste the cards are of: another error line's, or a second one)
        said = None
        if not unbuilt:
            rows, said = queries.by_which_line(conn, error, rows, limit, command)
        counted = rows  # a paste naming no error: how all its failures ended (outcomes_line)
        if seen and not json_ and queries.says_little(error) and len(rows) >= limit:
            counted = queries.with_goals(
                queries.find_past_fix(conn, error, queries.FIND_MAX), command
            )
    if unbuilt:
        raise click.ClickException(unbuilt)
    if raw := queries.raw_problem(error):
        echo(raw, err=True)
    if db_path is None and not elsewhere and not seen:
        # which index said "not seen", when none was named (an index given is known)
        echo(f"Searched {conn_path.absolute()}", err=True)
    if english := queries.english_notice(error, rows):
        # (cards of English errors for a paste in another language: what it was read as)
        echo(english + ("\n" * (not json_)), err=True)
    head = None  # a line above the cards on stdout (says_little_head)
    # which line of the paste the cards are of (by_which_line), first; what the cards are
    # is said of them too: that notice alone hid "Seen only about other files" and the
    # says_little notice of the same cards (as MCP's notice and the find page)
    notices = [said] if said else []
    if not queries.seen_before(rows):
        if not said:  # (of another line's cards seen about other paths, `said` alone)
            notices.append(_not_seen(error, rows))
    elif elsewhere_only := queries.seen_about_other_files(rows, error):
        notices.append(elsewhere_only)
    elif around := cards.other_goal_notice(rows):
        notices.append(around)
    elif queries.says_little(error):
        notice = queries.says_little_notice(error)
        # stdout too, above the cards: one who reads or pipes stdout alone took the first
        # card's "fix: ... and that call succeeded" for the answer (nu45 finding 4)
        head = f"{queries.says_little_head(error)}\n{cards.outcomes_line(counted)}"
        if same := cards.same_program_line(counted, command):
            head += f"\n{same}"
        given = click.get_current_context().get_parameter_source("limit")
        if not json_ and given == click.core.ParameterSource.DEFAULT and len(rows) > FEW_CARDS:
            # cards of any error: a few, not a screenful that buries the notice, and of each
            # way they ended, as the line above counts them
            notice += (
                f" {FEW_CARDS} of {len(counted)}, the most common ways they ended first"
                f" (-n {len(counted)} shows them all):"
            )
            # (with the command, its program's failures first: queries.with_goals)
            mine = [r for r in counted if command and queries.same_program(r, command)]
            mine = cards.varied(mine, FEW_CARDS)
            rest = [r for r in counted if not any(r is m for m in mine)]
            rows = mine + cards.varied(rest, FEW_CARDS - len(mine))
        elif command:
            # (the first `limit` of all, its program's first: the query's first `limit`
            # were of any program)
            rows = counted[: len(rows)]
        notices.append(notice)
    if notices:
        echo(" ".join(notices) + ("\n" * (bool(rows) and not json_)), err=True)
    if json_:
        echo(to_json(rows))
    elif rows:
        if head:
            echo(head + "\n")
        bold = (click.style("", bold=True, reset=False), click.style("", reset=True))
        # the same fix in several sessions: one card, naming the others (as the find page)
        shown = cards.group_same_fixes(rows, cards.row_fix_key)
        # failures holding the error's words, after its own: maybe other errors that say them
        seen = any(row["matched"] == "signature" for row in rows)
        echo(
            "\n\n".join(
                cards.format_hit(i, row, bold, error, substrings, same=others, words_only=seen)
                for i, (row, others) in enumerate(shown, 1)
            )
        )


def _not_seen(error: str, rows: list[dict[str, Any]]) -> str:
    """What `pastfix find` says of an error not seen before (queries.not_seen_notice)."""
    from pastfix import queries  # (as find's: `build` starts faster without it)

    notice = queries.not_seen_notice(error, rows)
    if queries.no_error_notice(error) and len(error.strip()) <= 80 and "\n" not in error.strip():
        # words of a question or a statement: what was said of them is in the messages
        # (`find "sandbox escalated permissions"` searched nothing: a new user's try)
        words = shlex.quote(" ".join(error.split()))
        notice += f" To search what the sessions said of it: pastfix search {words}"
    return notice


# How many cards `find` shows of an exit status alone, unless -n says otherwise.
FEW_CARDS = 3


@cli.command()
@click.argument("words", nargs=-1, required=True)
@click.option(
    "db_path",
    "--db",
    type=click.Path(path_type=Path),
    metavar="PATH",
    help="The index. Default: ./index.db, else $PASTFIX_DB, else ~/.local/share/pastfix/index.db",
)
@click.option("--project", help="Only the sessions whose project path contains this text")
@click.option(
    "-n",
    "--limit",
    default=20,
    show_default=True,
    type=click.IntRange(1, 100),  # queries.SEARCH_ROWS, the most the query gives
    help="Most messages to show",
)
@click.option(
    "json_",
    "--json",
    is_flag=True,
    help="Print the rows as a JSON array: the search_messages query's (`matched` is"
    " `all words` or `some words`; `snippet` is HTML, the words in <mark>)",
)
def search(
    words: tuple[str, ...], db_path: Path | None, project: str | None, limit: int, json_: bool
) -> None:
    """Search what was said in the sessions: prompts, replies, thinking, summaries.

    Runs the search_messages query of the Datasette plugin (the MCP server's tool of
    that name): the messages that hold every word of WORDS, best first, then the text
    the agent injected (hook output, reminders), each text once. When fewer than 3
    messages hold every word, those holding some of them follow, marked [some words],
    and stderr says so. Start with raw: for an FTS5 query. For an error a tool printed,
    `pastfix find` searches the failures and what fixed them. Without --db:
    ./index.db, else $PASTFIX_DB, else ~/.local/share/pastfix/index.db.

    \b
    Example:
        pastfix search sandbox escalated permissions
        pastfix search "connection pool" --project ~/work/api --limit 5
        pastfix search websocket reconnect --json
    """
    from pastfix import cards, queries

    q = " ".join(words)
    if not q.strip():
        raise click.UsageError("WORDS are empty: give words to search the messages for")
    conn_path = index_path(db_path)
    if elsewhere := other_index(db_path, conn_path, "Searched"):
        echo(elsewhere, err=True)
    with open_index(conn_path) as conn:
        try:
            rows = queries.run(conn, "search_messages", q=q, project=project or "")
        except queries.QueryError as e:
            raise click.ClickException(str(e)) from e
        unbuilt = None if rows else queries.unbuilt(conn, conn_path)
        hint = queries.search_hint(q, rows, queries.tokenizer(conn))
    if unbuilt:
        raise click.ClickException(unbuilt)
    notices = [queries.search_said(q, rows)]
    if not rows:
        where = f" of the projects matching {project!r}" if project else ""
        notices += [f"No message{where} holds any of these words.", hint]
    elif len(rows) > limit:
        more = len(rows) >= queries.SEARCH_ROWS  # the query's most: there may be more
        all_ = f"-n {queries.SEARCH_ROWS} for more" if more else f"-n {len(rows)} shows them all"
        notices.append(f"The first {limit} of {len(rows)}{' or more' * more} ({all_}).")
        rows = rows[:limit]
    if rows:
        notices.append(hint)
    said = " ".join(n for n in notices if n)
    if said:
        echo(said + ("\n" * (bool(rows) and not json_)), err=True)
    if json_:
        echo(to_json(rows))
    elif rows:
        bold = (click.style("", bold=True, reset=False), click.style("", reset=True))
        echo("\n\n".join(cards.format_message(i, row, bold) for i, row in enumerate(rows, 1)))


def find_limit() -> int:
    from pastfix import queries

    return queries.FIND_LIMIT


@cli.command()
@click.argument("db_path", required=False, type=click.Path(path_type=Path))
@click.option(
    "--sample",
    default=200,
    show_default=True,
    type=click.IntRange(1),
    help="Most (identifier, session) pairs and key lines to try",
)
@click.option("--seed", default=0, show_default=True, help="Seed of the random sample")
@click.option("json_", "--json", is_flag=True, help="Print the shares as JSON")
@_db_alias
def probe(db_path: Path | None, sample: int, seed: int, json_: bool) -> None:
    """Measure how well each search path finds past failures in DB_PATH.

    Samples error identifiers (ENOENT, TypeError, error TS2339, Exit code 127, "File
    does not exist", ...) from failed tool results and asks messages_fts,
    tool_errors_fts and find_past_fix whether their first page shows the session that
    had each one. Then pastes failures' key lines, as recorded and with other paths and
    numbers, and counts how often their own session comes first. Without DB_PATH:
    ./index.db, else $PASTFIX_DB, else ~/.local/share/pastfix/index.db.

    \b
    Example:
        pastfix probe
        pastfix probe index.db --sample 500 --seed 1 --json
    """
    from pastfix import probe as probing

    path = index_path(db_path)
    if elsewhere := other_index(db_path, path):
        echo(elsewhere, err=True)
    with open_index(path) as conn:
        result = probing.probe(conn, sample, seed)
    if not json_ and not (result["pairs"] or result["first"]["failures"]):
        # a table of 0.0% would read as every search failing
        echo(f"{path} holds no failed tool call: nothing to measure", err=True)
        return
    echo(to_json(result) if json_ else probing.format_table(result))


def _db_option(help_text: str) -> Any:
    """--db; a folder given is said by the command (paths.folder_not_index), as for DB_PATH."""
    return click.option(
        "db_path",
        "--db",
        type=click.Path(path_type=Path),
        metavar="FILE",
        help=help_text + " Default: $PASTFIX_DB, or ~/.local/share/pastfix/index.db",
    )


@cli.group(invoke_without_command=True)
@_db_option("The index to look failures up in.")
@click.option("--refresh", is_flag=True, help="Bring the index up to date first (incremental)")
@click.option(
    "--agent",
    type=click.Choice([a.name for a in agents.AGENTS.values() if a.hook]),
    help="The agent whose event this is, for those whose hooks `hook install --agent` writes"
    " with it; Claude Code's and Codex's events are told apart without it",
)
@click.pass_context
def hook(ctx: click.Context, db_path: Path | None, refresh: bool, agent: str | None) -> None:
    """The agents' hook: recall how a failed tool call was fixed before.

    Reads one PostToolUseFailure event as JSON on standard input (or Codex's
    PostToolUse event, answered when its call failed). When an earlier
    failure in another session has the same error signature or every word of its key
    line, prints {"hookSpecificOutput": {"hookEventName": "PostToolUseFailure",
    "additionalContext": ...}}: where it was seen and what fixed it. Prints nothing
    on an interrupt, Claude Code's own noise (rejections, cancelled siblings, files
    not read), no good match, or any problem, which goes to stderr; always exits 0.
    With --agent copilot it reads GitHub Copilot CLI's postToolUseFailure event and
    prints {"additionalContext": ...}; with --agent gemini, Gemini CLI's AfterTool
    event; with --agent opencode, the call pastfix's opencode plugin passes it.

    \b
    Example:
        pastfix hook install               # add it to ~/.claude/settings.json
        pastfix hook install --agent codex # add it to ~/.codex/hooks.json
        pastfix hook install --agent copilot # to ~/.copilot/hooks/pastfix.json
        pastfix hook --db index.db < event.json

    \b
    An event, as Claude Code sends it (the fields the hook reads):
        {"hook_event_name": "PostToolUseFailure", "session_id": "...",
         "tool_name": "Bash", "tool_input": {"command": "git push"},
         "error": "fatal: The current branch main has no upstream branch."}
    """
    if ctx.invoked_subcommand is not None:
        return
    from pastfix import hook as recall

    answer = recall.run(sys.stdin.read(), db_path or paths.default_db(), refresh, agent)
    if answer:
        echo(answer)


def installed(done: str, what: str, where: Any, added: str) -> str:
    """What hook, mcp and skill install say once done (pastfix.install's ADDED, UPDATED or
    UNCHANGED): `added` the first time; installing again replaces, or finds it as is."""
    from pastfix import install

    if done == install.UNCHANGED:
        return f"Already installed: {what} in {where}; nothing changed"
    if done == install.UPDATED:
        return f"Updated {what} in {where}"
    return added


def _agent_option(what: str, names: tuple[str, ...]) -> Any:
    labels = [agents.label(name) for name in names]
    return click.option(
        "--agent",
        type=click.Choice(names),
        default="claude",
        show_default=True,
        help=f"The agent {what}: {', '.join(labels[:-1])} or {labels[-1]}.",
    )


# The agents whose hooks `hook install` writes (opencode's is a plugin): pastfix.install.HOOKS.
HOOK_AGENTS = tuple(agents.NAMES)
_SETTINGS_HELP = (
    "Claude Code settings file, Codex or Copilot CLI hooks file, or Gemini CLI settings"
    " file. Default: $CLAUDE_CONFIG_DIR/settings.json (~/.claude/settings.json),"
    " $CODEX_HOME/hooks.json (~/.codex/hooks.json),"
    " $COPILOT_HOME/hooks/pastfix.json (~/.copilot/hooks/pastfix.json), or"
    " $GEMINI_CLI_HOME/.gemini/settings.json (~/.gemini/settings.json)"
)


@hook.command(name="install")
@click.option(
    "settings",
    "--settings",
    type=click.Path(dir_okay=False, path_type=Path),
    help=_SETTINGS_HELP,
)
@_db_option("The index the hooks read and refresh.")
@_agent_option("to install the hooks into", HOOK_AGENTS)
def hook_install(settings: Path | None, db_path: Path | None, agent: str) -> None:
    """Add pastfix's hooks to a Claude Code settings file (again: replace them).

    A PostToolUseFailure hook runs `pastfix hook` after every failed tool call; a
    SessionEnd hook refreshes the index in the background. Paths are absolute; every
    other setting and hook is kept.

    With --agent codex, the hooks go into Codex's hooks.json: a PostToolUse hook
    (Codex runs it after every call; pastfix answers failures only) and a SessionEnd
    hook. Codex runs them once you trust them: start `codex` and open /hooks.
    With --agent copilot, into ~/.copilot/hooks/pastfix.json: a postToolUseFailure
    hook (GitHub Copilot CLI 1.0.15 and later) and a sessionEnd hook.
    With --agent opencode, a plugin goes into ~/.config/opencode/plugins/pastfix.js
    (or --settings FILE): after a bash call that exited non-zero it adds the past fix
    to the output the model reads.

    With --agent gemini, they go into Gemini CLI's settings.json: an AfterTool hook
    (after every call; pastfix answers failures only) and a SessionEnd hook.

    \b
    Example:
        pastfix hook install
        pastfix hook install --settings .claude/settings.local.json --db ~/index.db
        pastfix hook install --agent codex
        pastfix hook install --agent copilot
        pastfix hook install --agent gemini
        pastfix hook install --agent opencode
    """
    from pastfix import install

    db_path = not_a_folder(db_path or paths.default_db())
    how = install.HOOKS[agent]
    settings = settings or how.where()
    try:
        done = how.install(settings, db_path)
    except install.InstallError as e:
        raise click.ClickException(str(e)) from e
    echo(installed(done, how.what, settings, f"Added {how.what} to {settings}"), err=True)
    after = how.after(settings) if done != install.UNCHANGED else None
    if after:
        echo(after, err=True)
    if not db_path.exists():
        echo(f"Build the index they read: pastfix build {db_path}", err=True)


@hook.command(name="uninstall")
@click.option(
    "settings",
    "--settings",
    type=click.Path(dir_okay=False, path_type=Path),
    help=_SETTINGS_HELP,
)
@_agent_option("to remove the hooks from", HOOK_AGENTS)
def hook_uninstall(settings: Path | None, agent: str) -> None:
    """Remove pastfix's hooks from a Claude Code settings file, and nothing else.

    \b
    Example:
        pastfix hook uninstall
        pastfix hook uninstall --settings .claude/settings.local.json
        pastfix hook uninstall --agent codex
        pastfix hook uninstall --agent copilot
        pastfix hook uninstall --agent gemini
        pastfix hook uninstall --agent opencode
    """
    from pastfix import install

    how = install.HOOKS[agent]
    settings = settings or how.where()
    try:
        removed = how.uninstall(settings)
    except install.InstallError as e:
        raise click.ClickException(str(e)) from e
    done = "Removed pastfix's hooks from" if removed else "No pastfix hook in"
    echo(f"{done} {settings}", err=True)


@cli.group(invoke_without_command=True)
@_db_option("The index to answer from.")
@click.pass_context
def mcp(ctx: click.Context, db_path: Path | None) -> None:
    """Serve the index to agents as an MCP server over stdio.

    Tools: find_past_fix, session_errors, session_tool_output, search_messages,
    recurring_errors and file_history, each returning the rows of the canned query of
    that name, cut to what an agent acts on, as structured content and as compact text.

    \b
    Example:
        pastfix mcp install                # Claude Code, every folder (user scope)
        pastfix mcp install --agent gemini # or codex, copilot, opencode
        pastfix mcp --db ~/index.db        # what the agent then starts
    """
    if ctx.invoked_subcommand is not None:
        return
    from pastfix import mcp as server

    db_path = not_a_folder(db_path or paths.default_db())
    try:
        with open_index(db_path):
            pass
    except click.ClickException as e:
        if at_terminal():  # typed by hand: a missing or outdated index is a one-line error
            raise
        # Started by an agent, it serves a missing or outdated index too: refused, the
        # server failed to connect and the model never saw why; now each tool call says
        # what to run, and answers once the index is built, without a restart.
        echo(f"pastfix mcp: {e.message}; each tool call says so until then", err=True)
    if at_terminal():  # started by hand, it would wait for a client in silence
        echo(
            f"pastfix mcp: serving {db_path} to an MCP client on standard input and output;"
            " an agent starts it (pastfix mcp install). Ctrl-D ends it.",
            err=True,
        )
    try:
        server.serve(db_path)
    except server.NotJsonRpc as e:
        raise click.ClickException(str(e)) from e


def at_terminal() -> bool:
    """Whether standard input is a terminal: someone typed the command an agent runs."""
    return sys.stdin.isatty()


class NotOffered(click.ClickException):
    """What an agent's client cannot take (a skill where it loads none): one line, exit 2,
    as a usage error."""

    exit_code = 2


# Every agent has an MCP server entry and a skills folder: pastfix.install.MCP_SERVERS and
# SKILLS (tests/test_mcp_install.py checks they name the same agents).
MCP_AGENTS = SKILL_AGENTS = tuple(agents.NAMES)


@mcp.command(name="install")
@_agent_option("to add the server to", MCP_AGENTS)
@_db_option("The index the server answers from.")
def mcp_install(agent: str, db_path: Path | None) -> None:
    """Add pastfix's MCP server to an agent for every folder (again: replace it).

    User scope, with the absolute paths of this pastfix and of the index, so it starts
    from any folder without pastfix on the PATH. Claude Code: through `claude mcp add
    --scope user` when the claude CLI is on the PATH, else in ~/.claude.json
    ($CLAUDE_CONFIG_DIR/.claude.json when that is set). Codex: [mcp_servers.pastfix] in
    ~/.codex/config.toml ($CODEX_HOME). Gemini CLI: mcpServers in ~/.gemini/settings.json
    ($GEMINI_CLI_HOME/.gemini). Copilot CLI: mcpServers in ~/.copilot/mcp-config.json
    ($COPILOT_HOME). opencode: mcp in ~/.config/opencode/opencode.json
    ($XDG_CONFIG_HOME/opencode). Every other setting and server is kept.

    \b
    Example:
        pastfix mcp install
        pastfix mcp install --db ~/index.db
        claude mcp list                    # pastfix: ... - Connected
        pastfix mcp install --agent codex
        pastfix mcp install --agent copilot
        pastfix mcp install --agent gemini
        pastfix mcp install --agent opencode
    """
    from pastfix import install

    db_path = not_a_folder(db_path or paths.default_db())
    how = install.MCP_SERVERS[agent]
    try:
        where, done = how.install(how.where(), db_path)
    except install.InstallError as e:
        raise click.ClickException(str(e)) from e
    what = "the pastfix MCP server"
    echo(installed(done, what, where, f"Added {what} to {where}"), err=True)
    if not db_path.exists():
        echo(f"Build the index it reads: pastfix build {db_path}", err=True)


@mcp.command(name="uninstall")
@_agent_option("to remove the server from", MCP_AGENTS)
def mcp_uninstall(agent: str) -> None:
    """Remove pastfix's MCP server from an agent's user scope, and nothing else.

    \b
    Example:
        pastfix mcp uninstall
        pastfix mcp uninstall --agent codex
        pastfix mcp uninstall --agent copilot
        pastfix mcp uninstall --agent gemini
        pastfix mcp uninstall --agent opencode
    """
    from pastfix import install

    how = install.MCP_SERVERS[agent]
    try:
        removed = how.uninstall(how.where())
    except install.InstallError as e:
        raise click.ClickException(str(e)) from e
    name = agents.label(agent)
    echo(
        f"Removed the pastfix MCP server from {name}"
        if removed
        else f"No pastfix MCP server in {name}'s user scope",
        err=True,
    )


@cli.group()
def skill() -> None:
    """The pastfix skill: when and how an agent searches its history.

    \b
    Example:
        pastfix skill install              # -> ~/.claude/skills/pastfix
        pastfix skill install --agent gemini
    """


@skill.command(name="install")
@click.option(
    "--dest",
    type=click.Path(file_okay=False, path_type=Path),
    help="Skills folder to copy it into. Default: the agent's user skills folder:"
    " $CLAUDE_CONFIG_DIR/skills, else ~/.claude/skills; for Codex ~/.agents/skills;"
    " ~/.copilot/skills ($COPILOT_HOME/skills); ~/.gemini/skills ($GEMINI_CLI_HOME/.gemini);"
    " ~/.config/opencode/skills ($XDG_CONFIG_HOME/opencode)",
)
@_agent_option("that reads the skill", SKILL_AGENTS)
def skill_install(dest: Path | None, agent: str) -> None:
    """Copy the skill (SKILL.md and references/) to DEST/pastfix, replacing an older copy.

    \b
    Example:
        pastfix skill install
        pastfix skill install --dest .claude/skills
        pastfix skill install --agent codex     # -> ~/.agents/skills/pastfix
        pastfix skill install --agent copilot   # -> ~/.copilot/skills/pastfix
        pastfix skill install --agent gemini    # -> ~/.gemini/skills/pastfix
        pastfix skill install --agent opencode  # -> ~/.config/opencode/skills/pastfix
    """
    from pastfix import install

    if dest is None:
        folder = install.SKILLS.get(agent)
        if folder is None:
            raise NotOffered(f"{agents.label(agent)} loads no skills from a folder")
        dest = folder()
    try:
        target, done = install.install_skill(dest)
    except install.InstallError as e:
        raise click.ClickException(str(e)) from e
    what = "the pastfix skill"
    echo(installed(done, what, target, f"Installed {what} in {target}"), err=True)


# A session's id, or its start, as the agents write them: a UUID (Claude Code, Codex, Gemini
# CLI, Copilot), to its first 8 characters at least, or opencode's `ses_` and its letters.
_SESSION_ID = lazy(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{0,4}){0,3}(?:-[0-9a-fA-F]{0,12})?|ses_\w+")


def _not_a_session(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """Forget's DB_PATH, refused in one line when it is no file but a session's id (or its
    start): `pastfix forget 4d5611e5` is a user's first guess, and the id read as the index
    said `give DB_PATH or --db, not both` with --db, or to say what to forget without it (a
    new user's try, nu47 finding 5). Checked as the argument is read, before either."""
    if value is None or value.exists() or not _SESSION_ID.fullmatch(str(value)):
        return value
    raise _Misused(
        f"{value} is no index but reads as a session's id: to forget that session,"
        f" `pastfix forget --session {value}`"
    )


@cli.command(name="forget")
@click.argument("db_path", required=False, type=click.Path(path_type=Path), callback=_not_a_session)
@click.option(
    "session_ids",
    "--session",
    multiple=True,
    metavar="ID",
    help="This session, or the first 8 characters or more of its id (repeatable)",
)
@click.option("--project", help="Sessions started in this folder or one inside it")
@click.option(
    "--before",
    callback=lambda ctx, param, value: _before(value),
    metavar="DATE",
    help="Sessions last active before DATE (2026-01-31, or 2026-01-31T18:00; UTC unless it says)",
)
@click.option("--missing", is_flag=True, help="Sessions whose transcripts are gone")
@click.option(
    "--dry-run",
    is_flag=True,
    help="List what would go, and change nothing: it only reads the index (no lock, no write)",
)
@click.option("--yes", "-y", is_flag=True, help="Do not ask first (it asks only on a terminal)")
@_db_alias
def forget_(
    db_path: Path | None,
    session_ids: tuple[str, ...],
    project: str | None,
    before: str | None,
    missing: bool,
    dry_run: bool,
    yes: bool,
) -> None:
    """Remove sessions from DB_PATH, with their bytes.

    The index keeps the sessions whose transcripts Claude Code deleted; only this
    removes them: their rows, their full-text entries, and their text from the file
    and its WAL. A session goes when it matches every option given. The sessions are
    listed on stdout; on a terminal it asks before removing them (--yes does not).
    An unknown --session ID is an error (exit 1) and removes nothing; no option at
    all is a usage error (exit 2). A session whose transcript is still on disk is
    indexed again by a forced build: delete the file as well. Without DB_PATH:
    ./index.db, else $PASTFIX_DB, else ~/.local/share/pastfix/index.db, as status
    and find read.

    \b
    Example:
        pastfix forget --missing --dry-run
        pastfix forget index.db --session 0b2c7d1e-... --session 5f6a...
        pastfix forget --project ~/work/client-x --before 2026-01-01
    """
    from pastfix import forget as forgetting

    if not (session_ids or project or before or missing):
        raise click.UsageError("say what to forget: --session, --project, --before or --missing")
    chosen = index_path(db_path)
    if elsewhere := other_index(db_path, chosen):
        echo(elsewhere, err=True)
    db_path = chosen
    ask = not (dry_run or yes) and interactive()

    def waiting() -> None:
        echo(f"waiting for a build of {db_path} to finish...", err=True)

    try:
        done = forgetting.forget(
            db_path, session_ids, project, before, missing, dry_run or ask, on_wait=waiting
        )
    except forgetting.ForgetError as e:
        raise click.ClickException(str(e)) from e
    _list_forgotten(done)
    if ask and done.sessions:
        # A session whose transcript is gone cannot be indexed again: ask before it goes.
        gone = sum(s["transcript_deleted_at"] is not None for s in done.sessions)
        question = f"Forget {_sessions(len(done.sessions))} from {db_path} for good"
        if gone:
            question += f" ({gone:,} of them kept without a transcript, in no other place)"
        if not click.confirm(question + "?", err=True):
            echo("Nothing forgotten", err=True)
            raise SystemExit(1)
        # Only the sessions listed: a build that ended meanwhile may have found more.
        shown = {s["session_id"] for s in done.sessions}
        try:
            done = forgetting.forget(
                db_path, session_ids, project, before, missing, only=shown, on_wait=waiting
            )
        except forgetting.ForgetError as e:
            raise click.ClickException(str(e)) from e
    echo(forget_summary(done), err=True)


def interactive() -> bool:
    """Whether someone at a terminal can answer a question (forget asks one)."""
    return at_terminal() and sys.stderr.isatty()


def _list_forgotten(done: Any) -> None:
    """The sessions forget removes, or would, one line each on stdout."""
    for s in done.sessions:
        where = (
            f"transcript deleted on {s['transcript_deleted_at'][:10]}"
            if s["transcript_deleted_at"]
            else "transcript on disk"
        )
        when, title = (s["last_ts"] or "")[:10], short_title(s["title"])
        echo(f"{s['session_id']}  {when}  {s['project'] or ''}  {title}  ({where})")


def _before(value: str | None) -> str | None:
    from pastfix import forget as forgetting

    try:
        return None if value is None else forgetting.parse_before(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from e


def short_title(title: str | None) -> str:
    text = " ".join((title or "").split())
    return text[:60] + ("..." if len(text) > 60 else "")


def forget_summary(done: Any) -> str:
    n = len(done.sessions)
    if not n:
        return "No session matches: nothing forgotten"
    counts = (
        f"{_sessions(n)} ({count(sum(s['message_count'] for s in done.sessions), 'message')},"
        f" {count(sum(s['tool_call_count'] for s in done.sessions), 'tool call')},"
        f" {sum(s['tool_error_count'] for s in done.sessions):,} failed)"
    )
    if done.dry_run:
        return f"Would forget {counts}; nothing changed (--dry-run)"
    line = f"Forgot {counts}"
    if done.on_disk:
        has = "still has its" if done.on_disk == 1 else "still have their"
        line += (
            f"; {done.on_disk:,} of them {has} transcript on disk: a forced build indexes"
            f" {'it' if done.on_disk == 1 else 'them'} again unless the file is deleted"
        )
    if not done.wal_cleared:
        line += (
            "; a reader holds the index open, so its WAL still holds the old pages until it closes"
        )
    return line


@cli.command(name="status")
@click.argument("db_path", required=False, type=click.Path(path_type=Path))
@click.option("json_", "--json", is_flag=True, help="Print it as JSON on stdout")
@_db_alias
def status_(db_path: Path | None, json_: bool) -> None:
    """Say where the index is, what it holds, and what keeps it up to date.

    DB_PATH defaults to ./index.db when it exists (not when it holds only the demo
    sessions and the other does), else the index of the hook and the MCP server
    ($PASTFIX_DB, or ~/.local/share/pastfix/index.db). Shows its size; its
    sessions, messages and failures, and how many sessions it keeps whose transcripts
    are gone; the last build and what it read, and whether a build is running now;
    the sources; whether the hook (and
    each other agent's, where that agent is used), the MCP server and the skill are
    installed, and where; and Claude Code's cleanupPeriodDays
    (null in JSON when unset, which means 30 days). When transcripts are being deleted
    and no hook indexes them first, it says what to do.

    \b
    Example:
        pastfix status
        pastfix status ~/index.db --json
    """
    from pastfix import queries
    from pastfix import status as state

    given = db_path
    if db_path is None:
        db_path = found_index() or paths.default_db()
    not_a_folder(db_path)
    if elsewhere := other_index(given, db_path):
        echo(elsewhere, err=True)
    try:
        found = state.status(db_path)
    except queries.NotAnIndex as e:
        raise click.ClickException(str(e)) from e
    except pdb.sqlite3.DatabaseError as e:
        raise click.ClickException(queries.open_error(db_path, e)) from e
    except (OSError, pdb.sqlite3.Error) as e:
        raise click.ClickException(f"{db_path}: {e}") from e
    echo(to_json(found) if json_ else state.format_text(found))
