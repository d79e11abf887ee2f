"""What every transcript reader shares: finding its files, splitting lines, telling bad ones.

A reader (see pastfix.records.Reader and pastfix.agents) parses its own format; the
walk over a source folder, the loop over the complete lines of a chunk, and the
reasons a line cannot be indexed are the same for all of them, and live here.
"""

from __future__ import annotations

import codecs
import errno
import os
from collections.abc import Callable
from stat import S_ISREG
from typing import BinaryIO

import msgspec

from pastfix.patterns import lazy
from pastfix.records import (
    Batch,
    Problem,
    line_head,
    replace_lone_surrogates,
)

BOM = b"\xef\xbb\xbf"
# A file read whole (read_whole: a JSON document an agent rewrites, Gemini's chat files and
# logs.json, Copilot's legacy session files and workspace.yaml, opencode's JSON tree, and
# the small files beside them a reader takes from) is held in memory and parsed as one,
# as a JSONL line is: one larger than this is not read, and its problem says so (a sparse
# 4 GB chat file took 20 s and 4.2 GB before it was found malformed, an 8 GB one stopped
# the build with MemoryError). The same bound as a line's (build.MAX_LINE_BYTES), far
# above what these agents write: the largest real file of ../shared/corpus/real/
# other-agents is a 0.6 MB Gemini chat, and a heavy Gemini user's 59 sessions of 2.3 GB
# (google-gemini/gemini-cli#27027) are 40 MB each on average; a 240 MB Gemini chat (that
# 0.6 MB one's turns repeated) builds in 9.3 s and 0.8 GB of memory on this 2-core machine,
# so the bound keeps one file's read under about 1 GB. opencode's database is not read
# so (SourceFile.database).
MAX_WHOLE_BYTES = 256 * 1024 * 1024
# Node cuts a string mid-emoji into a lone UTF-16 surrogate escape, which msgspec
# rejects as "truncated", an "unexpected end of hex escape" or an "invalid utf-16
# surrogate pair", depending on what follows it.
_SURROGATE_ERROR = lazy("surrogate|truncated|hex escape")


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """Open a file to read, refusing anything but a regular file (OSError): a FIFO
    would block the build for good, /dev/zero never end. For every file a build reads,
    a transcript or one beside it (a checkpoint, a part file, a database's -wal)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not S_ISREG(os.fstat(fd).st_mode):
            raise OSError(0, "not a regular file", str(path))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file (see open_regular), at most MAX_WHOLE_BYTES (read_whole)."""
    with open_regular(path) as f:
        return read_whole(f)


def read_whole(f: BinaryIO) -> bytes:
    """The rest of `f`, a file read whole; OSError (EFBIG) when it holds more than
    MAX_WHOLE_BYTES, found by its size before anything is read (or by a read one byte
    longer, if it grew meanwhile): the build records it as a file it cannot read, whose
    rows are kept."""
    if os.fstat(f.fileno()).st_size - f.tell() <= MAX_WHOLE_BYTES:
        data = f.read(MAX_WHOLE_BYTES + 1)
        if len(data) <= MAX_WHOLE_BYTES:
            return data
    size = os.fstat(f.fileno()).st_size
    limit = MAX_WHOLE_BYTES >> 20
    raise OSError(
        errno.EFBIG, f"{size:,} bytes, more than the {limit} MB a file read whole may hold"
    )


class BadLine(Exception):
    """A line (or record) that cannot be indexed; the reason goes to `problems`."""


def excerpt(line: bytes | memoryview) -> str:
    """What a problem keeps of its line: cut to EXCERPT_CHARS after redaction (pastfix.prepare)."""
    return line_head(bytes(line))


# Folders of the kernel's, never transcripts: a symlink into one is not followed (/proc
# leads back to / through every process's root).
_SYSTEM_FOLDERS = ("/proc", "/sys", "/dev")


def find_files(top: str, found: list[tuple[str, str | None]], match: Callable[[str], bool]) -> None:
    """Append (path, None) for each file under `top` whose name `match`es to `found`, and
    (folder, reason) for each folder that could not be read.

    Unlike os.walk, this asks the directory entries rather than lstat() whether
    each one is a directory: a refresh walks ~500 directories every time.
    Symlinked folders are followed once each, so a loop ends; the walk keeps
    its own stack, so no tree is too deep for it. A symlink to a folder that holds `top`
    (`/`, the home folder) or to the kernel's (/proc) is not followed: a link to `/` made
    every build walk the whole disk, /proc's links to each process's root included, without
    end (a security tester's finding, session 28).
    """
    root = os.path.realpath(top)
    followed = [root]
    stack = [(top, False)]
    while stack:
        folder, linked = stack.pop()
        if linked:
            real = os.path.realpath(folder)
            if any(real == seen or real.startswith(seen + os.sep) for seen in followed):
                found.append((folder, f"symlink to a folder read already: {real}"))
                continue
            if root.startswith(real.rstrip(os.sep) + os.sep):  # (root itself: read already)
                found.append((folder, f"symlink to a folder that holds this one: {real}"))
                continue
            if any(
                real == system or real.startswith(system + os.sep) for system in _SYSTEM_FOLDERS
            ):
                found.append((folder, f"symlink to a system folder: {real}"))
                continue
            followed.append(real)
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError as e:
            found.append((folder, f"cannot list: {e.strerror or e}"))
            continue
        folders = []
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                folders.append((entry.path, False))
            elif entry.is_symlink() and os.path.isdir(entry.path):
                folders.append((entry.path, True))
            elif match(entry.name):
                found.append((entry.path, None))
        # Popped in name order: of two links to one folder, the first in path order is read.
        stack.extend(sorted(folders, reverse=True))


# The first bytes of a file that tell a text file from another (not_text).
TEXT_HEAD = 4096


def not_text(head: bytes) -> str | None:
    """Why a file starting with `head` is no JSONL file (an image, an archive, UTF-16 text
    named *.jsonl), else None: it does not start with `{`, as a transcript's first line
    does, and holds a NUL byte or bytes that are not UTF-8. Each of its lines was a problem
    of its own (`malformed JSON: invalid character (byte 0)`, 14 of a small PNG); a
    transcript's bad lines, a damaged one's zeros or a stray byte, are each still told."""
    start = head.removeprefix(BOM).lstrip()
    if not start or start[:1] == b"{":
        return None
    if b"\0" in head:
        return "not a JSONL file (it holds NUL bytes, as binary files do)"
    try:
        # A character the head cuts in two is no fault (final=False).
        codecs.getincrementaldecoder("utf-8")().decode(head)
    except UnicodeDecodeError:
        return "not a JSONL file (not UTF-8 text)"
    return None


def is_jsonl(name: str) -> bool:
    return name.endswith(".jsonl")


def parse_lines(
    data: bytes,
    first_line_no: int,
    parse: Callable[[memoryview, int], Problem | None],
    batch: Batch | None = None,
) -> Batch:
    """Run `parse(line, line_no)` over each non-blank line of `data` (complete lines: it
    ends with a newline or is empty), keeping the Problems it returns.

    Lines are memoryview slices, so no copy of the text is made; the byte-order mark
    some editors write before the first line is not part of its JSON.
    """
    batch = batch if batch is not None else Batch()
    line_no = first_line_no - 1
    view = memoryview(data)
    size = len(data)
    start = len(BOM) if first_line_no == 1 and data.startswith(BOM) else 0
    while start < size:
        end = data.find(b"\n", start)
        if end < 0:
            end = size
        line_no += 1
        # JSON lines start with "{": only a line that starts with a space can be blank.
        if end > start and (data[start] > 32 or data[start:end].strip()):
            problem = parse(view[start:end], line_no)
            if problem is not None:
                batch.problems.append(problem)
        start = end + 1
    batch.lines = line_no - first_line_no + 1
    return batch


def bad_json(error: msgspec.DecodeError, raw: bytes | memoryview) -> str:
    """Why a line is not JSON, in a problem's words."""
    reason = str(error).removeprefix("JSON is malformed: ")
    if "UTF-8" in reason:
        return "invalid UTF-8"
    if bytes(raw[:64]).lstrip().startswith((b"//", b"#")):
        return "comment line, not JSON"
    return f"malformed JSON: {reason}"


def repaired(error: msgspec.DecodeError, raw: bytes | memoryview) -> bytes | None:
    """`raw` with its lone surrogate escapes made \\uFFFD, when that is what `error` was
    about and there were any; else None."""
    raw = bytes(raw)
    if b"\\u" not in raw or not _SURROGATE_ERROR.search(str(error)):
        return None
    fixed = replace_lone_surrogates(raw)
    return fixed if fixed != raw else None
