"""The `pastfix` command's entry point: `pastfix hook` answers without importing click.

The hook runs after every failed tool call, so its start-up is its latency:
click, sqlite-utils and the build modules cost ~100 ms of imports it does not
need. Any other command, and `pastfix hook` with arguments other than --db and
--refresh (install, --help), goes to the click CLI.
"""

import os
import signal
import sys
from typing import Any

# What Ctrl-C says, whenever it comes (pastfix.cli's group says it too), with the exit
# status of a shell's interrupted command.
INTERRUPTED = "\nInterrupted."
INTERRUPTED_STATUS = 130


# Whether Ctrl-C came (see _ctrl_c).
_interrupted = False


def interrupted() -> bool:
    """Whether Ctrl-C came while this process ran: an error said after it may be its work."""
    return _interrupted


def _ctrl_c(signum: int, frame: Any) -> None:
    """Python's own SIGINT handler, remembering that it ran.

    Inside an SQL function (the queries' and the build's, written in Python), the
    KeyboardInterrupt is caught by sqlite3 and turned into "user-defined function raised
    exception": `find` then said the index was damaged, to be moved aside and built again
    (losing the sessions it kept without a transcript), and a build gave that error, exit 1.
    """
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


def main() -> None:
    _utf8_mode()
    _open_closed_streams()
    # (not when SIGINT is ignored: a shell's background job keeps it so)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _ctrl_c)
    try:
        _main()
    except KeyboardInterrupt:
        # Ctrl-C before click catches it (while ~300 modules import, ~0.2 s) or in the
        # hook: one line, not a traceback, and the exit status of a shell's interrupted
        # command. Each build commits what it read in transactions: nothing is half-written.
        print(INTERRUPTED, file=sys.stderr)
        os._exit(INTERRUPTED_STATUS)


def _utf8_mode() -> None:
    """Run again in Python's UTF-8 mode when the locale's encoding is another (ASCII,
    Latin-1, EUC-JP) and UTF-8 mode is off (`PYTHONUTF8=0`, or C-locale coercion turned
    off with `PYTHONCOERCECLOCALE=0`).

    The agents write UTF-8 (JSON is UTF-8) and name their folders after the project's path:
    read through the locale's encoding, a project in `/home/dév` gave `file name is not
    UTF-8` for each transcript of it (left unread), a `UnicodeEncodeError` traceback from
    `os.stat` in the next build, and a paste in Japanese was searched for as surrogates.
    UTF-8 mode is chosen at start-up, so the process is replaced by one with it, before
    anything is read (the hook's event is still on standard input); a name of bytes that
    are not UTF-8 still round-trips (surrogateescape). Output is UTF-8 then, as the rows
    are. Windows' file system encoding is UTF-8 (PEP 529): it never gets here.
    """
    if sys.flags.utf8_mode or sys.getfilesystemencoding() == "utf-8":
        return
    try:
        os.execve(
            sys.executable, [sys.executable, *sys.orig_argv[1:]], {**os.environ, "PYTHONUTF8": "1"}
        )
    except OSError:  # (no interpreter to run again: go on in the locale's encoding)
        pass


def _open_closed_streams() -> None:
    """Give a standard stream started closed (`pastfix hook <&-`, `>&-`) /dev/null.

    Python leaves sys.stdin (or stdout, stderr) None then, and every command that reads
    the event, a paste or a JSON-RPC message, or writes its answer, stopped with an
    AttributeError traceback; read from /dev/null, it is the empty input each already
    tells, and output written there is lost as `print` to a closed stream loses it.
    Taking the descriptor also keeps a database pastfix opens next from becoming fd 1 or 2,
    where anything written to that stream would land in it.
    """
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDONLY if mode == "r" else os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, mode, closefd=False))


# sqlite3_config()'s options (sqlite3.h): each connection used by one thread at a time, and
# no count of the memory SQLite holds.
SQLITE_CONFIG_MULTITHREAD = 2
SQLITE_CONFIG_MEMSTATUS = 9


def sqlite_for_one_thread() -> bool:
    """Set SQLite up for a process whose every connection is used by one thread (`pastfix
    build`'s, and its forked helper's), before anything imports sqlite3; whether it was.

    A SQLite built thread-safe, as Linux distributions build it, locks a connection's mutex
    in each call Python's sqlite3 makes (each value bound, each column read) and a global
    one in each allocation, to count the memory it holds: 5.8 million locks in a fresh
    build of the 200 MB benchmark corpus, 3.3% of its instructions (17.58G -> 17.01G, both
    processes). In multi-thread mode a connection takes no lock, and sqlite3 already
    refuses a connection used by another thread than its own (check_same_thread); nothing
    pastfix does reads the memory counts. Python's sqlite3 has no call for either: they are
    set through the library its _sqlite3 module is linked with (its own symbols and those
    of the libraries it needs, so never another copy of SQLite), which sqlite3_config
    allows only before SQLite starts, at `import sqlite3`: after that (or without such a
    library: Windows, a Python with SQLite built in), nothing changes.
    """
    from importlib.util import find_spec

    spec = find_spec("_sqlite3")
    module = spec.origin if spec is not None else None
    if "_sqlite3" in sys.modules or module is None or not os.path.isfile(module):
        return False
    try:
        import ctypes

        config = ctypes.CDLL(module).sqlite3_config
    except (OSError, AttributeError):
        return False
    # (each 0, SQLITE_OK; 21, SQLITE_MISUSE, once SQLite has started)
    done = config(SQLITE_CONFIG_MULTITHREAD), config(SQLITE_CONFIG_MEMSTATUS, ctypes.c_int(0))
    return done == (0, 0)


def _main() -> None:
    if sys.argv[1:2] == ["hook"]:
        from pastfix import hook

        code = hook.main(sys.argv[2:])
        if code is not None:
            from pastfix import patterns

            patterns.save()  # (see pastfix.patterns)
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except OSError:  # a closed pipe: what Python itself exits with then
                code = 120
            os._exit(code)
    if sys.argv[1:2] == ["build"]:
        sqlite_for_one_thread()
    from pastfix.cli import main as cli_main

    cli_main()
