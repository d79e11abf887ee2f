"""pastfix benchmarks (issue 4): one command, every measurement, one markdown table.

    python benchmarks/run.py [--mb 500] [--runs 3] [--write docs/benchmarks.md] [--quick]

Measures, in this order and in one run:

1. full build of a generated corpus (fresh DB, `pastfix build` as a process): wall, MB/s,
   peak RSS, DB size; interleaved with
2. the naive baseline (benchmarks/naive.py) and the floor pipeline (benchmarks/floor.py) on
   the same corpus, as processes, each run in turn (the order rotating from run to run);
   then an in-process split of one full build (parse, inserts, FTS, sessions, commit);
3. no-change refresh over a corpus of ~1,000 files (`--sessions`), process wall;
4. 1 MB of real lines, with new ids, appended to one live session, then `pastfix build`;
   the appended text is checked to be searchable;
5. wholesale refresh of tool_errors_fts at >= 10,000 failed results (in-process);
6. the canned queries over HTTP against `datasette serve`, and an unscoped LIKE in-process.

Corpora come from benchmarks/synthetic.py and are cached under --work-dir, keyed by size and seed,
so reruns do not regenerate them. Each figure is the median of --runs runs (queries: p50/p95
over every request), with min and max. Timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import math
import os
import platform
import random
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pastfix.build
import pastfix.db
import pastfix.signatures
import pastfix.transcripts

# The corpus generator sits beside this file, however this file is loaded.
sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
NAIVE = HERE / "naive.py"
FLOOR = HERE / "floor.py"

# The original TypeScript indexer, for comparison (2.5 GB, 380k messages, 127k tool results).
REFERENCE_MB = 2500
REFERENCE_TOOL_OUTPUT_MB = 209
ERRORS_TARGET_ROWS = 10_000
APPEND_BYTES = 1_000_000

# The rows of the table, in order (the smoke test checks that each is printed).
FULL_BUILD = "Full build, fresh DB"
THROUGHPUT = "Full build throughput"
PROJECTED = "Full build projected to 2.5 GB"
NAIVE_BUILD = "Naive baseline build"
SPEEDUP = "Speed-up over naive"
FLOOR_BUILD = "Floor pipeline build"
FLOOR_RATIO = "Full build / floor pipeline"
FLOOR_CPU_RATIO = "Full build / floor pipeline, CPU time"
FLOOR_LEAST = "Full build / floor pipeline, the least its CPU time allows"
PLAIN_FLOOR_BUILD = "Untuned floor pipeline build"
PLAIN_FLOOR_RATIO = "Full build / untuned floor pipeline"
FLOOR_INSTRUCTIONS = "Full build / floor pipeline, instructions"
FLOOR_LEAST_INSTRUCTIONS = "Full build / floor pipeline, the least its instructions allow"
PEAK_RSS = "Peak RSS of the build"
DB_RATIO = "DB size / transcripts"
NO_CHANGE = "No-change refresh"
APPEND = "1 MB append + refresh, searchable"
ERRORS_FTS = "tool_errors_fts refresh at 10k failed results"
FIND_P50 = "find_past_fix p50 (HTTP)"


def measure_pasted_log(db: Path, seed: int, runs: int) -> Row:
    """`pastfix find -` given a whole build log, a failed result of the index at its end.

    A paste over a stored text's length is read as its head and tail (queries.pasted):
    before, a 1 MB log took 1.7 s on ../shared/corpus/real's index and 9 MB ran past the
    5 s limit.
    """
    rng = random.Random(seed)
    with sqlite3.connect(db) as conn:
        failed = [
            content
            for (content,) in conn.execute(
                "SELECT content FROM tool_results WHERE is_error = 1 AND length(content) < 2000"
            )
        ]
    errors = rng.sample(failed, min(5, len(failed)))
    log = "".join(f"[{i:07d}] compiling module {i} of the bundle\n" for i in range(24_000))
    walls = []
    for _ in range(runs):
        for error in errors:
            started = time.perf_counter()
            subprocess.run(
                [*pastfix_cmd(), "find", "-", "--db", str(db)],
                input=(log + error).encode(),
                capture_output=True,
            )
            walls.append(time.perf_counter() - started)
    mb = len(log) / 1e6
    note = f"{mb:.1f} MB of build output, then one of {len(errors)} failed results × {runs} runs"
    return Row(PASTED_LOG, walls, "s", 2, "≤ 1 s", lambda v: v <= 1, note=note)


FIND_P95 = "find_past_fix p95 (HTTP)"
FIND_EVERY_P50 = "/-/pastfix/find over two indexes p50 (HTTP)"
RECURRING = "recurring_errors p50 (HTTP)"
FILE_HISTORY = "file_history p50 (HTTP)"
SIGNATURES = "Signatures and kinds, share of a full build"
REDACTION = "Redaction, added to a full build"
ADVERSARIAL_REDACTION = "Redaction of adversarial text, growth at 4× the text"
HOOK_P50 = "pastfix hook p50 (whole process)"
HOOK_P95 = "pastfix hook p95 (whole process)"
PASTED_LOG = "pastfix find of a pasted 1 MB log p50 (whole process)"
SESSION_OUTPUT = "session_tool_output p50 (HTTP, scoped LIKE)"
SEARCH_MESSAGES = "search_messages p50 (HTTP)"
SEARCH_OUTPUT = "search_tool_output p50 (HTTP, unscoped LIKE)"
SEARCH_OUTPUT_PROJECTED = "search_tool_output p50 projected to 209 MB"
SEARCH_OUTPUT_P95_PROJECTED = "search_tool_output p95 projected to 209 MB"
PLAIN_LIKE_PROJECTED = "Plain unscoped LIKE (no anchor) projected to 209 MB"
LABELS = [
    FULL_BUILD,
    REDACTION,
    THROUGHPUT,
    PROJECTED,
    NAIVE_BUILD,
    SPEEDUP,
    FLOOR_BUILD,
    FLOOR_RATIO,
    FLOOR_CPU_RATIO,
    FLOOR_LEAST,
    PEAK_RSS,
    DB_RATIO,
    NO_CHANGE,
    APPEND,
    ERRORS_FTS,
    FIND_P50,
    FIND_P95,
    FIND_EVERY_P50,
    RECURRING,
    FILE_HISTORY,
    SIGNATURES,
    ADVERSARIAL_REDACTION,
    HOOK_P50,
    HOOK_P95,
    PASTED_LOG,
    SESSION_OUTPUT,
    SEARCH_MESSAGES,
    SEARCH_OUTPUT,
    SEARCH_OUTPUT_PROJECTED,
    SEARCH_OUTPUT_P95_PROJECTED,
    PLAIN_LIKE_PROJECTED,
]

BEGIN_MARK = "<!-- benchmark results: begin (written by benchmarks/run.py --write) -->"
END_MARK = "<!-- benchmark results: end -->"


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# -- results ------------------------------------------------------------------


@dataclass
class Row:
    """One line of the table: samples (or why there are none) and the target they meet."""

    label: str
    samples: list[float] | None
    unit: str
    digits: int = 2
    target: str = "—"
    meets: Callable[[float], bool] | None = None
    original: str = "—"
    note: str = ""
    stat: str = "median"  # or "p95"

    def value(self) -> float | None:
        if not self.samples:
            return None
        if self.stat == "p95":
            return percentile(self.samples, 95)
        return statistics.median(self.samples)

    def cells(self) -> list[str]:
        value = self.value()
        if value is None or not self.samples:
            na = self.note or "n/a"
            return [self.label, "n/a", "", self.target, "n/a", self.original, na]
        shown = self.fmt(value)
        spread = f"{self.fmt(min(self.samples))} – {self.fmt(max(self.samples))}"
        met = "n/a" if self.meets is None else ("yes" if self.meets(value) else "**no**")
        return [self.label, shown, spread, self.target, met, self.original, self.note]

    def fmt(self, x: float) -> str:
        gap = "" if self.unit in ("", "×") else " "
        return f"{x:,.{self.digits}f}{gap}{self.unit}"


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    k = (len(ordered) - 1) * pct / 100
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def render_table(rows: list[Row]) -> str:
    header = ["Measurement", "Median", "Min – max", "Target", "Met?", "Original (TS)", "Notes"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in rows]
    return "\n".join(lines)


# -- machine facts ------------------------------------------------------------


def machine_facts() -> dict[str, str]:
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = "?"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                ram = f"{int(line.split()[1]) / 1024**2:.1f} GiB"
                break
    except OSError:
        pass
    commit = git("rev-parse", "--short", "HEAD")
    if git("status", "--porcelain", "--untracked-files=no"):
        commit += " (+ uncommitted changes)"
    from importlib.metadata import version

    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "RAM": ram,
        "OS": platform.platform(),
        "Python": platform.python_version(),
        "SQLite": sqlite3.sqlite_version,
        "pastfix": version("pastfix"),
        "datasette": version("datasette"),
        "sqlite-utils": version("sqlite-utils"),
        "git commit": commit,
        "load average at start": "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg()),
    }


def cpu_probe() -> str:
    """Milliseconds for a fixed piece of work (FTS5-index 4,000 short texts in memory).

    The VM's speed drifts by up to 1.5x from one minute to the next with nothing else
    running (no CPU steal is reported); this probe, run at the start and the end, shows
    which phase the measurements met.
    """
    texts = [
        (i, f"Error: ENOENT {i} no such file or directory, open '/tmp/x{i}.js'")
        for i in range(4000)
    ]
    timings = []
    for _ in range(5):
        conn = sqlite3.connect(":memory:")
        conn.execute("CREATE VIRTUAL TABLE probe USING fts5(content)")
        started = time.perf_counter()
        conn.executemany("INSERT INTO probe(rowid, content) VALUES (?, ?)", texts)
        conn.commit()
        timings.append((time.perf_counter() - started) * 1000)
        conn.close()
    return f"{statistics.median(timings):.1f} ms"


def git(*args: str) -> str:
    try:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10)
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


# -- corpora ------------------------------------------------------------------


def generator_hash() -> str:
    return hashlib.blake2b(Path(synthetic.__file__).read_bytes(), digest_size=6).hexdigest()


def cached_corpus(work: Path, name: str, **kwargs: Any) -> Path:
    """A generated corpus under work/name, generated once per generator version."""
    out = work / name
    marker = work / f"{name}.json"
    want = generator_hash()
    if out.is_dir() and marker.is_file() and json.loads(marker.read_text())["generator"] == want:
        return out
    log(f"generating {name} ...")
    tmp = work / f"{name}.tmp"
    for stale in (tmp, out):
        shutil.rmtree(stale, ignore_errors=True)
    started = time.perf_counter()
    stats = synthetic.generate_corpus(tmp, **kwargs)
    tmp.rename(out)
    marker.write_text(json.dumps({"generator": want, "files": stats.files, "bytes": stats.bytes}))
    secs = time.perf_counter() - started
    log(f"  {stats.files:,} files, {stats.bytes / 1e6:,.1f} MB in {secs:.1f}s")
    return out


def jsonl_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.jsonl"))


def corpus_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in jsonl_files(root))


def remove_db(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def db_bytes(path: Path) -> int:
    return sum(
        Path(f"{path}{s}").stat().st_size for s in ("", "-wal") if Path(f"{path}{s}").exists()
    )


# -- processes ----------------------------------------------------------------


@dataclass
class Proc:
    wall: float  # seconds
    peak_rss_mb: float
    stdout: str
    # user + system seconds of the process and of the children it waited for (the
    # build's forked helper)
    cpu: float = 0.0


def settle() -> None:
    """Write back what earlier runs left in the page cache, before a timed run.

    A build leaves its database for the kernel to write back; the next run, started at
    once, would share the 2 cores with that writeback (a 500 MB build: 3.2 s after a
    sync, 4.0 s right after the naive build).
    """
    os.sync()


def pastfix_cmd(python: str = sys.executable) -> list[str]:
    script = Path(python).parent / "pastfix"
    return [str(script)] if script.exists() else [python, "-m", "pastfix"]


def run_process(cmd: list[str]) -> Proc:
    """Run cmd; its wall time and its own peak RSS (os.wait4 gives that child's rusage)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if proc.returncode:
        raise RuntimeError(f"{' '.join(cmd)} exited with {proc.returncode}:\n{stderr[-3000:]}")
    return Proc(wall, usage.ru_maxrss * 1024 / 1e6, stdout, usage.ru_utime + usage.ru_stime)


def pastfix_build(
    db: Path, source: Path, *options: str, python: str = sys.executable
) -> tuple[Proc, dict]:
    proc = run_process([*build_cmd(db, source, python), *options])
    return proc, json.loads(proc.stdout)


def build_cmd(db: Path, source: Path, python: str = sys.executable) -> list[str]:
    """`pastfix build` of `source` into `db`, quiet, its summary as JSON on stdout."""
    return [*pastfix_cmd(python), "build", str(db), "--source", str(source), "-s", "--json"]


def floor_cmd(db: Path, source: Path, *options: str) -> list[str]:
    return [sys.executable, str(FLOOR), str(db), "--source", str(source), *options]


def floor_build(db: Path, source: Path, *options: str) -> Proc:
    """benchmarks/floor.py into a new `db`, as a process (its wall includes startup)."""
    return run_process(floor_cmd(db, source, *options))


def shared_by(processes: int) -> str:
    return f"shared evenly by its {processes} process{'es' if processes > 1 else ''}"


def in_turn(steps: list[Callable[[], None]], i: int) -> None:
    """Run every step, starting with the (i mod n)-th: over n runs each goes first once.

    On this shared 2-core machine, load from elsewhere comes and goes; taking turns
    spreads it over every contender alike, and a paired ratio compares runs made
    seconds apart.
    """
    k = i % len(steps)
    for step in steps[k:] + steps[:k]:
        step()


# -- 1 + 2: full build and the naive baseline ---------------------------------


def throughput_row(name: str, mb: float, walls: list[float], note: str) -> Row:
    return Row(
        name, [mb / w for w in walls], "MB/s", 0, "≥ 100 MB/s", lambda v: v >= 100, "22 MB/s", note
    )


def measure_full_build(corpus: Path, work: Path, runs: int) -> tuple[list[Row], Path]:
    mb = corpus_bytes(corpus) / 1e6
    # The index kept for the measurements that follow is the redacted build's.
    db, naive_db, plain_db = work / "full.db", work / "naive.db", work / "plain.db"
    builds: list[Proc] = []
    plain: list[Proc] = []
    naives: list[Proc] = []
    floors: list[Proc] = []
    stats: dict = {}
    naive_counts: dict = {}

    def unredacted() -> None:
        remove_db(plain_db)
        settle()
        proc, _ = pastfix_build(plain_db, corpus, "--no-redact")
        plain.append(proc)
        log(f"full build without redaction {len(plain)}/{runs}: {proc.wall:.2f}s")

    def full() -> None:
        remove_db(db)
        settle()
        proc, stats_ = pastfix_build(db, corpus)
        stats.update(stats_)
        builds.append(proc)
        log(f"full build {len(builds)}/{runs}: {proc.wall:.2f}s, {proc.peak_rss_mb:.0f} MB RSS")

    def naive() -> None:
        remove_db(naive_db)
        settle()
        proc = run_process([sys.executable, str(NAIVE), str(naive_db), "--source", str(corpus)])
        naive_counts.update(json.loads(proc.stdout))
        naives.append(proc)
        log(f"naive build {len(naives)}/{runs}: {proc.wall:.2f}s, {proc.peak_rss_mb:.0f} MB RSS")

    def floor() -> None:
        floors.append(timed_floor(work, corpus))
        log(f"floor pipeline {len(floors)}/{runs}: {floors[-1].wall:.2f}s")

    for i in range(runs):
        in_turn([unredacted, full, floor, naive], i)
    remove_db(plain_db)
    walls = [p.wall for p in builds]
    naive_walls = [p.wall for p in naives]
    size = db_bytes(db)
    corpus_note = (
        f"{mb:,.0f} MB, {stats['files_seen']:,} files: {stats['messages']:,} messages,"
        f" {stats['tool_results']:,} tool results ({stats['failed_tool_results']:,} failed)"
    )
    rows = [
        Row(FULL_BUILD, walls, "s", original="113 s (2.5 GB)", note=corpus_note),
        redaction_row(builds, plain, f"{stats.get('redactions', 0):,} secrets redacted"),
        throughput_row(THROUGHPUT, mb, walls, "whole `pastfix build` process, warm page cache"),
        Row(
            PROJECTED,
            [REFERENCE_MB / (mb / w) for w in walls],
            "s",
            1,
            "≤ 25 s",
            lambda v: v <= 25,
            "113 s",
            "linear from the MB/s above",
        ),
        Row(
            NAIVE_BUILD,
            naive_walls,
            "s",
            note=f"{mb / statistics.median(naive_walls):,.0f} MB/s,"
            f" peak RSS {statistics.median(p.peak_rss_mb for p in naives):,.0f} MB,"
            f" {naive_counts.get('messages', 0):,} messages,"
            f" {naive_counts.get('tool_results', 0):,} tool results",
        ),
        Row(
            SPEEDUP,
            [n / b for n, b in zip(naive_walls, walls, strict=True)],
            "×",
            1,
            "≥ 4×",
            lambda v: v >= 4,
            note="naive wall / pastfix wall, paired runs",
        ),
        *floor_rows(builds, floors, mb, stats.get("processes", 1)),
        Row(
            PEAK_RSS,
            [p.peak_rss_mb for p in builds],
            "MB",
            0,
            "≤ 300 MB",
            lambda v: v <= 300,
            note="max RSS of the build process (wait4)",
        ),
        Row(
            DB_RATIO,
            [size / (mb * 1e6)],
            "×",
            3,
            "≤ 0.45×",
            lambda v: v <= 0.45,
            "0.38× (950 MB)",
            f"{size / 1e6:,.0f} MB DB for {mb:,.0f} MB of transcripts",
        ),
    ]
    return rows, db


def redaction_row(builds: list[Proc], plain: list[Proc], note: str) -> Row:
    """What redaction adds to a full build's wall time, run by run (--no-redact's against)."""
    return Row(
        REDACTION,
        [100 * (a.wall / b.wall - 1) for a, b in zip(builds, plain, strict=True)],
        "%",
        0,
        "≤ 15 %",
        lambda v: v <= 15,
        note=f"a full build's wall time against one with --no-redact, paired runs; {note}",
    )


def timed_floor(work: Path, corpus: Path, *options: str) -> Proc:
    floor_db = work / "floor.db"
    remove_db(floor_db)
    settle()
    proc = floor_build(floor_db, corpus, *options)
    remove_db(floor_db)
    return proc


def floor_rows(
    builds: list[Proc], floors: list[Proc], mb: float, processes: int, who: str = ""
) -> list[Row]:
    """The floor's time and the full build's against it, run by run (issue 19);
    `processes`: how many the build ran in (its --json `processes`)."""
    counts = json.loads(floors[-1].stdout)
    floor_walls = [p.wall for p in floors]
    label = f" ({who})" if who else ""
    return [
        Row(
            FLOOR_BUILD,
            floor_walls,
            "s",
            note=f"{mb / statistics.median(floor_walls):,.0f} MB/s: benchmarks/floor.py,"
            f" msgspec + executemany of {counts['messages']:,} messages and"
            f" {counts['tool_results']:,} tool results + one FTS5 rebuild, one process",
        ),
        Row(
            FLOOR_RATIO + label,
            [b.wall / f.wall for b, f in zip(builds, floors, strict=True)],
            "×",
            2,
            "≤ 1.3×",
            lambda v: v <= 1.3,
            note="full build's wall (redaction and signatures on) / the floor's, paired runs",
        ),
        Row(
            FLOOR_CPU_RATIO + label,
            [b.cpu / f.cpu for b, f in zip(builds, floors, strict=True)],
            "×",
            2,
            note="user + system seconds, the build's forked helper included, paired runs",
        ),
        Row(
            FLOOR_LEAST + label,
            [b.cpu / processes / f.wall for b, f in zip(builds, floors, strict=True)],
            "×",
            2,
            note=f"the build's CPU time {shared_by(processes)}, with nothing left in series,"
            " / the floor's wall: no better split or overlap can bring the ratio below this,"
            " only less work",
        ),
    ]


def plain_floor_rows(builds: list[Proc], plains: list[Proc], mb: float) -> list[Row]:
    """The untuned floor (benchmarks/floor.py --plain) and the full build against it."""
    walls = [p.wall for p in plains]
    return [
        Row(
            PLAIN_FLOOR_BUILD,
            walls,
            "s",
            note=f"{mb / statistics.median(walls):,.0f} MB/s: benchmarks/floor.py --plain, the"
            " same rows from lines decoded into dicts, SQLite at its defaults, gc on",
        ),
        Row(
            PLAIN_FLOOR_RATIO,
            [b.wall / f.wall for b, f in zip(builds, plains, strict=True)],
            "×",
            2,
            note="full build's wall / the untuned floor's, paired runs (the yardstick is the"
            " floor above)",
        ),
    ]


def measure_floor(
    corpus: Path,
    work: Path,
    runs: int,
    against: list[str],
    unredacted: bool = False,
    untuned: bool = False,
) -> list[Row]:
    """`--floor`: only the full build and the floor, in turn; `against` adds the full
    builds of other pastfix installs (their Pythons), so that two versions are compared
    with the floor and with each other in one run; `unredacted` (`--redaction`) adds this
    install's build with --no-redact, for the redaction row; `untuned` (`--plain-floor`)
    the untuned floor (floor.py --plain)."""
    mb = corpus_bytes(corpus) / 1e6
    pythons = [sys.executable, *against]
    builds: dict[str, list[Proc]] = {python: [] for python in pythons}
    processes: dict[str, int] = {}
    floors: list[Proc] = []
    plain: list[Proc] = []

    def without_redaction() -> None:
        db = work / "floor-plain.db"
        remove_db(db)
        settle()
        proc, _ = pastfix_build(db, corpus, "--no-redact")
        remove_db(db)
        plain.append(proc)
        log(f"full build without redaction: {proc.wall:.2f}s, {proc.cpu:.2f}s CPU")

    def full(python: str) -> Callable[[], None]:
        def step() -> None:
            db = work / "floor-full.db"
            remove_db(db)
            settle()
            proc, stats = pastfix_build(db, corpus, python=python)
            remove_db(db)
            builds[python].append(proc)
            processes[python] = stats.get("processes", 1)
            log(f"full build ({python}): {proc.wall:.2f}s, {proc.cpu:.2f}s CPU")

        return step

    def floor() -> None:
        floors.append(timed_floor(work, corpus))
        proc = floors[-1]
        log(f"floor pipeline {len(floors)}/{runs}: {proc.wall:.2f}s, {proc.cpu:.2f}s CPU")

    plains: list[Proc] = []

    def plain_floor() -> None:
        plains.append(timed_floor(work, corpus, "--plain"))
        proc = plains[-1]
        log(f"untuned floor {len(plains)}/{runs}: {proc.wall:.2f}s, {proc.cpu:.2f}s CPU")

    extra = [without_redaction] if unredacted else []
    if untuned:
        extra.append(plain_floor)
    for i in range(runs):
        in_turn([floor, *(full(python) for python in pythons), *extra], i)
    rows = []
    for python in pythons:
        who = "" if python == sys.executable else python
        walls = [p.wall for p in builds[python]]
        rows.append(
            Row(FULL_BUILD + (f" ({who})" if who else ""), walls, "s", note=f"{mb:,.0f} MB")
        )
        rows += [
            r
            for r in floor_rows(builds[python], floors, mb, processes[python], who)
            if who == "" or r.label != FLOOR_BUILD
        ]
    if unredacted:
        rows.append(redaction_row(builds[sys.executable], plain, "timed in turn with the floor"))
    if untuned:
        rows += plain_floor_rows(builds[sys.executable], plains, mb)
    for python in against:
        rows.append(
            Row(
                f"Full build, this / {python}",
                [
                    a.wall / b.wall
                    for a, b in zip(builds[sys.executable], builds[python], strict=True)
                ],
                "×",
                3,
                note="paired runs",
            )
        )
    return rows


def instructions(cmd: list[str], out_dir: Path) -> tuple[int, int]:
    """The instructions `cmd` runs, its forked and started processes included, and how many
    processes ran: valgrind's callgrind, the same count from run to run however loaded the
    machine is (walls on this VM move by up to 1.6× between identical runs).

    A forked child's output holds what its parent ran before the fork as well: counted so
    (cachegrind, before session 19), a two-process build counted its start-up twice, 0.53G
    of 14.1G at 200 MB. Callgrind writes the parent's count apart at each fork and starts
    the child from nothing (`--dump-before=_Fork`: glibc's fork, which os.fork calls)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("callgrind.*"):
        old.unlink()
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--trace-children=yes",
            "--dump-before=_Fork",
            f"--callgrind-out-file={out_dir}/callgrind.%p",
            *cmd,
        ],
        check=True,
        capture_output=True,
    )
    parts = list(out_dir.glob("callgrind.*"))  # callgrind.<pid>, and .<pid>.<n> per fork
    processes = len({path.name.split(".")[1] for path in parts})
    return sum(callgrind_total(path.read_text()) for path in parts), processes


def callgrind_total(text: str) -> int:
    """The instruction count of one callgrind output file (its `summary:` line)."""
    for line in text.splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise ValueError("no summary line: not a complete callgrind output")


def measure_instructions(corpus: Path, work: Path) -> list[Row]:
    """`--instructions`: the build and the floor counted in instructions, once each."""
    log("floor pipeline under callgrind ...")
    db = work / "floor.db"
    remove_db(db)
    floor, _ = instructions(floor_cmd(db, corpus), work / "cg-floor")
    remove_db(db)
    log("full build under callgrind ...")
    db = work / "floor-full.db"
    remove_db(db)
    build, processes = instructions(build_cmd(db, corpus), work / "cg-build")
    remove_db(db)
    note = (
        f"valgrind --tool=callgrind: {build / 1e9:.2f}G / {floor / 1e9:.2f}G,"
        f" every process of each ({processes} of the build), none counted twice"
    )
    return [
        Row(FLOOR_INSTRUCTIONS, [build / floor], "×", 2, note=note),
        Row(
            FLOOR_LEAST_INSTRUCTIONS,
            [build / processes / floor],
            "×",
            2,
            note=f"the build's instructions {shared_by(processes)}, over the floor's",
        ),
    ]


# -- where the build time goes (in-process) ------------------------------------


class _Clock:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.within: str | None = None  # the Python phase running: its SQL is its own

    def add(self, phase: str, secs: float) -> None:
        self.seconds[phase] = self.seconds.get(phase, 0.0) + secs

    def timed(self, phase: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function`, its calls' time added to `phase` (the SQL it runs with it)."""

        def timed_function(*args: Any, **kwargs: Any) -> Any:
            if self.within is not None:
                return function(*args, **kwargs)
            self.within = phase
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.within = None
                self.add(phase, time.perf_counter() - started)

        return timed_function


# The Python phases of a build the split times, each a name the build module calls.
_PYTHON_PHASES = {
    "parse_lines": ("parse (transcripts.parse_lines)", pastfix.transcripts),
    "prepare": ("redaction and signatures (prepare.prepare)", pastfix.build),
    "refresh_fixes": ("fix rules (db.refresh_fixes, with their SQL)", pastfix.build),
}


def _sql_phase(sql: str) -> str:
    head = " ".join(sql.split())[:80].upper()
    if "'REBUILD'" in head:
        return "messages_fts rebuild"
    if "TOOL_ERRORS_FTS" in head:
        return "tool_errors_fts refresh"
    if head.startswith("INSERT OR REPLACE INTO SESSIONS"):
        return "sessions refresh"
    if head.startswith(("COMMIT", "RELEASE")):
        return "commit"
    return "other SQL: " + " ".join(head.split()[:4]).lower()


def measure_build_split(corpus: Path, work: Path) -> list[tuple[str, float]]:
    """One in-process full build, its time split by phase (parse, inserts, FTS, commit...).

    One process (PARALLEL_MIN_BYTES raised): the helper of a build of two is a forked
    process, whose phases this clock never saw, and the builder's wait for it fell in
    "rest" with its redaction and fix rules (46% of session 39's table).
    """
    clock = _Clock()

    class TimedConnection(sqlite3.Connection):
        def execute(self, sql, parameters=(), /):
            if clock.within is not None:
                return super().execute(sql, parameters)
            started = time.perf_counter()
            try:
                return super().execute(sql, parameters)
            finally:
                clock.add(_sql_phase(sql), time.perf_counter() - started)

        def executemany(self, sql, parameters, /):
            if clock.within is not None:
                return super().executemany(sql, parameters)
            started = time.perf_counter()
            try:
                return super().executemany(sql, parameters)
            finally:
                table = re.search(r"INTO\s+(\w+)", sql, re.IGNORECASE)
                name = table.group(1) if table else "?"
                clock.add(f"row inserts: {name} (executemany)", time.perf_counter() - started)

    real_connect = sqlite3.connect
    real = {name: getattr(module, name) for name, (_, module) in _PYTHON_PHASES.items()}
    real_min_bytes = pastfix.build.PARALLEL_MIN_BYTES

    db = work / "split.db"
    remove_db(db)
    sqlite3.connect = lambda *a, **k: real_connect(*a, **{**k, "factory": TimedConnection})
    for name, (phase, module) in _PYTHON_PHASES.items():
        setattr(module, name, clock.timed(phase, real[name]))
    pastfix.build.PARALLEL_MIN_BYTES = 1 << 62
    try:
        started = time.perf_counter()
        pastfix.build.build(db, [corpus])
        total = time.perf_counter() - started
    finally:
        sqlite3.connect = real_connect
        for name, (_, module) in _PYTHON_PHASES.items():
            setattr(module, name, real[name])
        pastfix.build.PARALLEL_MIN_BYTES = real_min_bytes
        remove_db(db)
    # Statements below 2% of the build are lumped together.
    small = {
        k
        for k, v in clock.seconds.items()
        if k.startswith(("other", "row inserts")) and v < 0.02 * total
    }
    seconds = {k: v for k, v in clock.seconds.items() if k not in small}
    seconds["other SQL (each under 2%)"] = sum(clock.seconds[k] for k in small)
    phases = sorted(seconds.items(), key=lambda kv: -kv[1])
    phases.append(("rest: reading files, Python glue, schema", total - sum(clock.seconds.values())))
    phases.append(("total (in-process, no interpreter start)", total))
    return phases


def render_split(phases: list[tuple[str, float]], mb: float) -> str:
    total = phases[-1][1]
    lines = ["| Phase of one full build | s | share | MB/s if alone |", "|---|---|---|---|"]
    for name, secs in phases:
        rate = f"{mb / secs:,.0f}" if secs > 0 else "—"
        lines.append(f"| {name} | {secs:.2f} | {100 * secs / total:.0f}% | {rate} |")
    return "\n".join(lines)


# -- 3 + 4: incremental refresh ---------------------------------------------------


TIMESTAMP = re.compile(rb'"timestamp":"[^"]*"')
UUID_OR_TOOL_ID = re.compile(
    rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|toolu_[0-9A-Za-z]+"
)


def main_session_files(root: Path) -> list[Path]:
    """Session files (not subagent files), largest first."""
    files = [p for p in root.glob("*/*.jsonl") if not p.name.startswith("agent-")]
    return sorted(files, key=lambda p: (-p.stat().st_size, str(p)))


def new_lines(
    donors: list[Path], session_id: str, salt: str, marker: str, clock: datetime
) -> tuple[bytes, datetime]:
    """~1 MB of real lines from other sessions, with new ids, moved into `session_id`.

    A live session grows at its end, so the lines are timed after `clock` (later than
    every line already there), 10 ms apart; the time of the last one is returned.

    The first assistant text gets `marker` as its first word; the first tool result is made
    a failure whose output starts with `marker + "err"`, so both FTS tables can be checked.
    """
    donor_sessions = {p.stem.encode() for p in donors}
    mapped: dict[bytes, bytes] = {}

    def new_id(m: re.Match[bytes]) -> bytes:
        old = m.group(0)
        if old in donor_sessions:
            return session_id.encode()
        if old not in mapped:
            h = hashlib.blake2b(salt.encode() + old, digest_size=16).hexdigest()
            if old.startswith(b"toolu_"):
                mapped[old] = f"toolu_{h[:24]}".encode()
            else:
                mapped[old] = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}".encode()
        return mapped[old]

    def new_time(m: re.Match[bytes]) -> bytes:
        nonlocal clock
        clock += timedelta(milliseconds=10)
        return b'"timestamp":"' + clock.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3].encode() + b'Z"'

    out: list[bytes] = []
    size = 0
    text_marked = error_marked = False
    for donor in donors:
        with open(donor, "rb") as f:
            for line in f:
                line = UUID_OR_TOOL_ID.sub(new_id, line.rstrip(b"\n"))
                line = TIMESTAMP.sub(new_time, line)
                if not text_marked and b'"text"' in line:
                    line, text_marked = mark_text(line, marker)
                if not error_marked and b'"tool_result"' in line:
                    line, error_marked = mark_error(line, marker + "err")
                out.append(line + b"\n")
                size += len(line) + 1
                if size >= APPEND_BYTES and text_marked and error_marked:
                    return b"".join(out), clock
    return b"".join(out), clock


def _dump(obj: dict) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def mark_text(line: bytes, marker: str) -> tuple[bytes, bool]:
    obj = json.loads(line)
    if obj.get("type") != "assistant":
        return line, False
    for block in obj.get("message", {}).get("content") or []:
        if isinstance(block, dict) and block.get("type") == "text":
            block["text"] = f"{marker} {block['text']}"
            return _dump(obj), True
    return line, False


def mark_error(line: bytes, marker: str) -> tuple[bytes, bool]:
    obj = json.loads(line)
    if obj.get("type") != "user":
        return line, False
    for block in obj.get("message", {}).get("content") or []:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            block["is_error"] = True
            content = block.get("content")
            if isinstance(content, list):
                block["content"] = [{"type": "text", "text": marker}, *content]
            else:
                block["content"] = f"{marker} {content or ''}"
            return _dump(obj), True
    return line, False


def fts_hits(db: Path, table: str, word: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            f"SELECT count(*) FROM {table} WHERE {table} MATCH ?", [word]
        ).fetchone()[0]


def measure_refresh(corpus: Path, work: Path, runs: int) -> list[Row]:
    """No-change refresh and 1 MB appends, on a hard-linked copy of the corpus."""
    live, db = work / "live", work / "live.db"
    shutil.rmtree(live, ignore_errors=True)
    shutil.copytree(corpus, live, copy_function=os.link)
    sessions = main_session_files(live)
    target, donors = sessions[0], sessions[1:]
    target.unlink()  # the file that grows gets its own copy, the cached corpus stays intact
    shutil.copyfile(corpus / target.relative_to(live), target)
    remove_db(db)
    log(f"building the refresh DB ({corpus_bytes(live) / 1e6:,.0f} MB) ...")
    pastfix_build(db, live)
    # The fresh build leaves ~240 MB unsynced (synchronous=OFF); without this, the first
    # append's checkpoint would pay the fsync for all of it (~0.2 s here).
    settle()
    pastfix_build(db, live)  # warm-up

    walls = []
    files = 0
    for _ in range(runs):
        proc, stats = pastfix_build(db, live)
        assert stats["files_read"] == 0, stats
        files = stats["files_seen"]
        walls.append(proc.wall)
    log(f"no-change refresh over {files:,} files: {statistics.median(walls) * 1000:.0f} ms")

    append_walls = []
    clock = datetime.now(UTC)  # later than every timestamp of the synthetic corpus
    checks = []
    for i in range(runs):
        marker = f"pfbench{i}x{random.Random(i).randrange(10**9)}"
        chunk, clock = new_lines(donors, target.stem, f"append-{i}-", marker, clock)
        with open(target, "ab") as f:
            f.write(chunk)
        proc, stats = pastfix_build(db, live)
        append_walls.append(proc.wall)
        found = (
            fts_hits(db, "messages_fts", marker),
            fts_hits(db, "tool_errors_fts", marker + "err"),
        )
        checks.append(found[0] >= 1 and found[1] >= 1)
        log(
            f"append {i + 1}/{runs}: {len(chunk) / 1e6:.2f} MB, {stats['new_lines']:,} lines,"
            f" {proc.wall * 1000:.0f} ms, found in messages_fts/tool_errors_fts: {found}"
        )
    searchable = "yes" if all(checks) else "**NO**"
    with sqlite3.connect(db) as conn:
        linked = conn.execute("SELECT count(DISTINCT file_id) FROM _duplicate_links").fetchone()[0]
    repair = (
        f"; {linked:,} files share ids with another and are re-indexed with it when it changes"
        if linked
        else ""
    )
    return [
        Row(
            NO_CHANGE,
            [w * 1000 for w in walls],
            "ms",
            0,
            "≤ 150 ms",
            lambda v: v <= 150,
            note=f"whole `pastfix build` process, {files:,} files unchanged",
        ),
        Row(
            APPEND,
            [w * 1000 for w in append_walls],
            "ms",
            0,
            "≤ 200 ms",
            lambda v: v <= 200,
            note=f"whole process; {len(chunk) / 1e6:.2f} MB, {stats['new_lines']:,} lines"
            f" into a {target.stat().st_size / 1e6:.0f} MB session; searchable: {searchable}"
            + repair,
        ),
    ]


# -- 5: wholesale refresh of tool_errors_fts -----------------------------------------


def measure_errors_fts(full_db: Path, work: Path, runs: int) -> Row:
    db = work / "errors.db"
    remove_db(db)
    shutil.copyfile(full_db, db)
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        failed = conn.execute("SELECT count(*) FROM tool_results WHERE is_error = 1").fetchone()[0]
        copies = math.ceil(ERRORS_TARGET_ROWS / failed) - 1 if failed else 0
        if copies > 0:
            columns = [r[1] for r in conn.execute("PRAGMA table_info(tool_results)")]
            columns = [c for c in columns if c != "id"]
            select = ", ".join(
                "tr.tool_use_id || '-copy' || k.n" if c == "tool_use_id" else f"tr.{c}"
                for c in columns
            )
            conn.execute(
                f"WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?)"
                f" INSERT INTO tool_results ({', '.join(columns)})"
                f" SELECT {select} FROM tool_results tr, k WHERE tr.is_error = 1",
                [copies],
            )
        # Exactly the target's count: the newest copies beyond it become successes.
        conn.execute(
            "UPDATE tool_results SET is_error = 0 WHERE id IN (SELECT id FROM tool_results"
            " WHERE is_error = 1 ORDER BY id DESC LIMIT max(0, (SELECT count(*) FROM"
            " tool_results WHERE is_error = 1) - ?))",
            [ERRORS_TARGET_ROWS],
        )
        rows = conn.execute("SELECT count(*) FROM tool_results WHERE is_error = 1").fetchone()[0]
        conn.execute("PRAGMA synchronous=NORMAL")
        timings, commits = [], []
        for _ in range(runs + 1):  # the first run warms the cache and is dropped
            conn.execute("BEGIN")
            started = time.perf_counter()
            pastfix.db.refresh_tool_errors_fts(conn)
            refreshed = time.perf_counter()
            conn.execute("COMMIT")
            timings.append((refreshed - started) * 1000)
            commits.append((time.perf_counter() - refreshed) * 1000)
    finally:
        conn.close()
        remove_db(db)
    log(f"tool_errors_fts refresh at {rows:,} rows: {statistics.median(timings[1:]):.1f} ms")
    return Row(
        ERRORS_FTS,
        timings[1:],
        "ms",
        1,
        "≤ 50 ms",
        lambda v: v <= 50,
        "~500 ms",
        f"{rows:,} failed results ({failed:,} real, duplicated); refresh_tool_errors_fts() in a"
        f" transaction, in-process; COMMIT adds {statistics.median(commits[1:]):.0f} ms",
    )


def measure_adversarial_redaction() -> Row:
    """How redaction time grows with adversarial text (benchmarks/redaction.py, issue 19)."""
    import redaction

    timings = redaction.adversarial_timings()
    ratios = [row[-1][1] / max(row[0][1], 1e-6) for _, row in timings]
    name, worst = max(timings, key=lambda t: t[1][-1][1])
    return Row(
        ADVERSARIAL_REDACTION,
        ratios,
        "×",
        1,
        "≤ 5× (linear: 4×)",
        lambda v: v <= 5,
        note=f"redact() CPU time at 4× the text (45–50 → 180–200 KB), {len(timings)} kinds of"
        f" adversarial text; slowest {worst[-1][1]:.2f} s at {worst[-1][0]} KB ({name});"
        " 42 s for 180 KB of `password=` before",
    )


def measure_signatures(db: Path, build_seconds: float | None, runs: int) -> Row:
    """What computing signatures and kinds adds to a full build, as a share of its time.

    Both are computed once per failed result as it is parsed (pastfix.prepare), so
    their cost is that of calling them on every failed result's text, in one process.
    """
    with sqlite3.connect(db) as conn:
        failed = conn.execute("SELECT content FROM tool_results WHERE is_error = 1")
        texts = [r[0] or "" for r in failed]
    shares = []
    for _ in range(runs):
        started = time.perf_counter()
        for text in texts:
            pastfix.signatures.signature(text)
            pastfix.signatures.classify(text)
        seconds = time.perf_counter() - started
        if build_seconds:
            shares.append(100 * seconds / build_seconds)
    return Row(
        SIGNATURES,
        shares or None,
        "%",
        1,
        "≤ 10 %",
        lambda v: v <= 10,
        note=(
            f"signature() + classify() over the {len(texts):,} failed results, in one process,"
            " against the median full build"
        ),
    )


# -- 6: queries -------------------------------------------------------------------

IDENTIFIER = re.compile(
    r"\b(?:(?!ERROR\b)E[A-Z]{3,}|TS\d{4}|[A-Z][A-Za-z]*(?:Error|Exception)|Exit code \d+)\b"
)


def sample_inputs(db: Path, n: int, seed: int) -> dict[str, list[dict[str, str]]]:
    """Parameters for each canned query, sampled from the index itself."""
    rng = random.Random(seed)
    with sqlite3.connect(db) as conn:
        failed = [r[0] for r in conn.execute("SELECT id FROM tool_results WHERE is_error = 1")]
        errors = []
        for rid in rng.sample(failed, min(n, len(failed))):
            (content,) = conn.execute(
                "SELECT content FROM tool_results WHERE id = ?", [rid]
            ).fetchone()
            found = IDENTIFIER.search(content or "")
            if found:
                errors.append(found.group(0))
            else:  # no identifier: the first words of the error, as a user would paste them
                words = re.sub(r"<[^>]+>", " ", content or "").split()[:5]
                errors.append(" ".join(words) or "error")
        sessions = [r[0] for r in conn.execute("SELECT DISTINCT session_id FROM tool_results")]
        patterns = ["error", "TypeError", "src/", "npm"]
        scoped = [
            {"session_id": sid, "pattern": patterns[i % len(patterns)]}
            for i, sid in enumerate(rng.sample(sessions, min(n, len(sessions))))
        ]
        ids = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM messages WHERE kind IN ('text', 'prompt') AND length(text) > 40"
            )
        ]
        projects = [r[0] for r in conn.execute("SELECT DISTINCT project FROM sessions") if r[0]]
        recurring = [{"project": "", "noise": ""}, {"project": "", "noise": "hide"}] + [
            {"project": p.rsplit("/", 1)[-1], "noise": ""}
            for p in rng.sample(projects, min(8, len(projects)))
        ]
        paths = [
            r[0]
            for r in conn.execute("SELECT DISTINCT file_path FROM tool_calls WHERE name = 'Edit'")
        ]
        # the end of a path, as a person types it: src/app.py
        tails = [
            {"path": "/".join(p.rsplit("/", 2)[-2:])} for p in rng.sample(paths, min(n, len(paths)))
        ]
        searches = []
        for mid in rng.sample(ids, min(n, len(ids))):
            (text,) = conn.execute("SELECT text FROM messages WHERE id = ?", [mid]).fetchone()
            words = [w for w in re.findall(r"[A-Za-z]{5,}", text)]
            searches.append({"q": " ".join(rng.sample(words, min(2, len(words)))) or "error"})
    return {
        "find_past_fix": [{"error": e} for e in errors],
        "session_tool_output": scoped,
        "search_messages": searches,
        "recurring_errors": recurring,
        "file_history": tails,
        # each distinct error once: every request reads all tool output
        "search_tool_output": [{"pattern": e, "project": ""} for e in dict.fromkeys(errors)],
    }


def measure_hook(db: Path, n: int, seed: int, runs: int) -> list[Row]:
    """`pastfix hook` as Claude Code runs it: a new process per failed call, event on stdin.

    The events are whole failed results sampled from the index, each from its own
    session (which the hook leaves out), so both answers and silences are timed.
    """
    rng = random.Random(seed)
    with sqlite3.connect(db) as conn:
        failed = conn.execute(
            "SELECT session_id, content FROM tool_results WHERE is_error = 1"
        ).fetchall()
    events = [
        json.dumps(
            {
                "hook_event_name": "PostToolUseFailure",
                "session_id": session,
                "tool_name": "Bash",
                "error": content or "",
                "is_interrupt": False,
            }
        )
        for session, content in rng.sample(failed, min(n, len(failed)))
    ]
    walls, answered = [], 0
    for _ in range(runs):
        for stdin in events:
            started = time.perf_counter()
            done = subprocess.run(
                [*pastfix_cmd(), "hook", "--db", str(db)], input=stdin.encode(), capture_output=True
            )
            walls.append(time.perf_counter() - started)
            answered += bool(done.stdout)
    ms = [w * 1000 for w in walls]
    note = (
        f"{len(events)} failed results sampled from the index × {runs} runs, each from its"
        f" own session; {answered} of {len(walls)} answered"
    )
    return [
        Row(HOOK_P50, ms, "ms", 0, "≤ 150 ms", lambda v: v <= 150, note=note),
        Row(HOOK_P95, ms, "ms", 0, "≤ 300 ms", lambda v: v <= 300, note=note, stat="p95"),
    ]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def datasette_server(dbs: list[Path], work: Path) -> Iterator[int | None]:
    """`datasette serve dbs` on a free port; yields the port (None if it would not start)."""
    port = free_port()
    logfile = open(work / "datasette.log", "wb")  # noqa: SIM115 - closed below
    cmd = [sys.executable, "-m", "datasette", "serve", *map(str, dbs)]
    cmd += ["-h", "127.0.0.1", "-p", str(port)]
    proc = subprocess.Popen(cmd, stdout=logfile, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        ready = False
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/-/versions.json")
                ready = conn.getresponse().status == 200
                conn.close()
                if ready:
                    break
            except OSError:
                time.sleep(0.1)
        yield port if ready else None
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        logfile.close()


def time_query(port: int, page: str, inputs: list[dict[str, str]], runs: int) -> list[float] | str:
    """Milliseconds per request of `page`.json over every input and run, or why there are none."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def get(params: dict[str, str]) -> tuple[int, float]:
        path = f"{page}.json?" + urllib.parse.urlencode({**params, "_shape": "array"})
        started = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status, (time.perf_counter() - started) * 1000

    try:
        if not inputs:
            return "n/a (nothing to sample)"
        status, _ = get(inputs[0])
        if status == 404:
            return "n/a (query missing)"
        if status != 200:
            return f"n/a (HTTP {status})"
        for params in inputs:  # warm-up
            get(params)
        timings, failures = [], 0
        for _ in range(runs):
            for params in inputs:
                status, ms = get(params)
                failures += status != 200
                timings.append(ms)
        if failures:
            return f"n/a ({failures} requests failed)"
        return timings
    finally:
        conn.close()


def measure_queries(
    db: Path, work: Path, runs: int, inputs: dict[str, list[dict[str, str]]], mb: float
) -> list[Row]:
    """The canned queries over HTTP; `mb` is the index's MB of tool output."""
    results: dict[str, list[float] | str] = {}
    not_started = "n/a (datasette did not start, see datasette.log)"
    with datasette_server([db], work) as port:
        for query, params in inputs.items():
            if port is None:
                results[query] = not_started
                continue
            got = results[query] = time_query(port, f"/{db.stem}/{query}", params, runs)
            log(f"{query}: p50 {percentile(got, 50):.1f} ms" if isinstance(got, list) else got)
    # A team of two: the same index under a second name, both searched by the one page.
    second = db.with_name(db.stem + "-copy.db")
    shutil.copyfile(db, second)
    try:
        with datasette_server([db, second], work) as port:
            every = inputs["find_past_fix"]
            got = time_query(port, "/-/pastfix/find", every, runs) if port else not_started
            results["every_index"] = got
            log(
                f"/-/pastfix/find: p50 {percentile(got, 50):.1f} ms"
                if isinstance(got, list)
                else got
            )
    finally:
        second.unlink(missing_ok=True)

    def row(label: str, query: str, target: float, stat: str, note: str) -> Row:
        got = results[query]
        samples_ = got if isinstance(got, list) else None
        return Row(
            label,
            samples_,
            "ms",
            1,
            f"≤ {target:g} ms",
            lambda v: v <= target,
            "~1 ms" if query == "session_tool_output" else "—",
            note if samples_ else str(got),
            stat,
        )

    distinct = len({p["error"] for p in inputs["find_past_fix"]})
    n = len(inputs["find_past_fix"])
    find_note = f"{n} errors sampled from failed results ({distinct} distinct) × {runs} runs"
    scans = results["search_tool_output"]
    projected = (
        [ms / 1000 * REFERENCE_TOOL_OUTPUT_MB / mb for ms in scans]
        if isinstance(scans, list)
        else None
    )
    return [
        row(FIND_P50, "find_past_fix", 25, "median", find_note),
        row(FIND_P95, "find_past_fix", 60, "p95", find_note),
        row(
            FIND_EVERY_P50,
            "every_index",
            50,
            "median",
            "the same errors; the index and a copy of it served together, rows merged",
        ),
        row(
            RECURRING,
            "recurring_errors",
            200,
            "median",
            f"all projects, noise hidden, and {len(inputs['recurring_errors']) - 2} projects",
        ),
        row(
            FILE_HISTORY,
            "file_history",
            200,
            "median",
            f"{len(inputs['file_history'])} path ends (dir/file) of edited files",
        ),
        row(
            SESSION_OUTPUT,
            "session_tool_output",
            5,
            "median",
            f"{len(inputs['session_tool_output'])} sessions × patterns error/TypeError/src//npm",
        ),
        row(
            SEARCH_MESSAGES,
            "search_messages",
            25,
            "median",
            f"{len(inputs['search_messages'])} two-word queries from message text",
        ),
        Row(
            SEARCH_OUTPUT,
            scans if isinstance(scans, list) else None,
            "ms",
            0,
            note=(
                f"{mb:,.0f} MB of tool output; the {distinct} distinct errors above × {runs} runs,"
                " 100 newest matches"
                if isinstance(scans, list)
                else str(scans)
            ),
        ),
        Row(
            SEARCH_OUTPUT_PROJECTED,
            projected,
            "s",
            3,
            "≤ 0.4 s",
            lambda v: v <= 0.4,
            "1.7–3.2 s",
            "linear in MB of tool output, from the row above",
        ),
        Row(
            SEARCH_OUTPUT_P95_PROJECTED,
            projected,
            "s",
            3,
            original="1.7–3.2 s",
            note="the slowest 5% of the requests above",
            stat="p95",
        ),
    ]


def tool_output_mb(db: Path) -> float:
    """UTF-8 megabytes of tool output in the index."""
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        sql = "SELECT sum(length(CAST(content AS BLOB))) FROM tool_results"
        return conn.execute(sql).fetchone()[0] / 1e6
    finally:
        conn.close()


def measure_like(db: Path, runs: int, patterns: list[str], mb: float) -> list[Row]:
    """The same scans as search_tool_output, as a plain LIKE (no anchor), in-process."""
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    sql = "SELECT count(*) FROM tool_results WHERE content LIKE '%' || ? || '%'"
    try:
        conn.execute(sql, ["x"]).fetchone()  # warm-up
        timings = []
        for _ in range(runs):
            for pattern in patterns:
                started = time.perf_counter()
                conn.execute(sql, [pattern]).fetchone()
                timings.append(time.perf_counter() - started)
    finally:
        conn.close()
    log(f"plain unscoped LIKE: median {statistics.median(timings):.3f}s over {mb:.0f} MB")
    return [
        Row(
            PLAIN_LIKE_PROJECTED,
            [t * REFERENCE_TOOL_OUTPUT_MB / mb for t in timings],
            "s",
            3,
            original="1.7–3.2 s",
            note=f"`content LIKE '%<error>%'`, count(*), in-process sqlite3, same {len(patterns)}"
            " errors: what like_anchor() saves",
        ),
    ]


# -- the run ------------------------------------------------------------------------


def report(facts: dict[str, str], rows: list[Row], split: str, command: str) -> str:
    facts_line = "; ".join(f"**{k}** {v}" for k, v in facts.items())
    return "\n".join(
        [
            f"Command: `{command}`",
            "",
            facts_line,
            "",
            render_table(rows),
            "",
            split,
        ]
    )


def write_doc(path: Path, text: str) -> None:
    block = f"{BEGIN_MARK}\n{text}\n{END_MARK}"
    if path.exists():
        doc = path.read_text()
        if BEGIN_MARK in doc and END_MARK in doc:
            head, rest = doc.split(BEGIN_MARK, 1)
            tail = rest.split(END_MARK, 1)[1]
            path.write_text(head + block + tail)
            return
        path.write_text(doc.rstrip() + "\n\n" + block + "\n")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# pastfix benchmarks\n\n{block}\n")


REAL_PROJECTS = ROOT.parent / "shared" / "corpus" / "real" / "projects"
REAL_MIX = "Full build throughput, real-transcript mix"
_UUID = re.compile(rb"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)[0-9a-f]{4}")
_TOOLU = re.compile(rb"(toolu_[0-9A-Za-z]{6})[0-9A-Za-z]{4}")


def real_mix_corpus(work: Path, target_mb: float) -> Path | None:
    """Copies of the real corpus with fresh ids, so every copy indexes as new sessions."""
    if not REAL_PROJECTS.is_dir():
        return None
    files = jsonl_files(REAL_PROJECTS)
    copies = max(1, round(target_mb * 1e6 / sum(p.stat().st_size for p in files)))
    root = work / f"real-mix-x{copies}"
    if root.is_dir():
        return root
    log(f"writing {copies} copies of the real corpus with fresh ids ...")
    tmp = root.with_name(root.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    for k in range(copies):
        tag = f"{k:04x}".encode()
        swap = rb"\g<1>" + tag
        for path in files:
            rel = _UUID.sub(swap, str(path.relative_to(REAL_PROJECTS)).encode())
            out = tmp / rel.replace(b"agent-a", b"agent-" + tag + b"a").decode()
            out.parent.mkdir(parents=True, exist_ok=True)
            data = _UUID.sub(swap, path.read_bytes())
            out.write_bytes(_TOOLU.sub(swap, data))
    tmp.rename(root)
    return root


def measure_real_mix(work: Path, target_mb: float, runs: int) -> list[Row]:
    corpus = real_mix_corpus(work, target_mb)
    if corpus is None:
        log(f"no real corpus at {REAL_PROJECTS}: skipping the real-mix build")
        return []
    mb = corpus_bytes(corpus) / 1e6
    db = work / "real-mix.db"
    walls, stats = [], {}
    for i in range(runs):
        remove_db(db)
        settle()
        proc, stats = pastfix_build(db, corpus)
        walls.append(proc.wall)
        log(f"real-mix build {i + 1}/{runs}: {proc.wall:.2f}s")
    note = (
        f"{mb:,.0f} MB: the real corpus copied with fresh ids, {stats['messages'] / mb:,.0f}"
        f" messages and {stats['tool_results'] / mb:,.0f} tool results per MB"
        " (reference: 152 and 51)"
    )
    return [throughput_row(REAL_MIX, mb, walls, note)]


OTHER_AGENTS = REAL_PROJECTS.parent / "other-agents"
OTHER_BUILD = "Full build, the other agents' real sample"
OTHER_REFRESH = "No-change refresh, the other agents' real sample"


def measure_other_agents(work: Path, runs: int) -> list[Row]:
    """Gemini CLI's, Copilot CLI's and opencode's stores (../shared/corpus/real/other-agents):
    their whole-file formats (JSON documents, message units, a database read in place with its
    WAL) read fresh, then found unchanged."""
    if not OTHER_AGENTS.is_dir():
        log(f"no corpus at {OTHER_AGENTS}: skipping the other agents' rows")
        return []
    size = sum(p.stat().st_size for p in OTHER_AGENTS.rglob("*") if p.is_file())
    db = work / "other-agents.db"
    builds, refreshes, stats = [], [], {}
    for i in range(runs):
        remove_db(db)
        settle()
        proc, stats = pastfix_build(db, OTHER_AGENTS)
        builds.append(proc.wall)
        settle()
        refreshes.append(pastfix_build(db, OTHER_AGENTS)[0].wall * 1000)
        log(f"other agents' build {i + 1}/{runs}: {builds[-1]:.2f}s, {refreshes[-1]:.0f} ms")
    note = (
        f"{size / 1e6:,.1f} MB, {stats['files_seen']:,} files of Gemini CLI, Copilot CLI and"
        f" opencode: {stats['messages']:,} messages, {stats['tool_results']:,} tool results"
    )
    return [
        Row(OTHER_BUILD, builds, "s", note=f"whole `pastfix build` process; {note}"),
        Row(
            OTHER_REFRESH,
            refreshes,
            "ms",
            0,
            "≤ 150 ms",
            lambda v: v <= 150,
            note=f"whole process, {stats['files_seen']:,} files unchanged",
        ),
    ]


# The bytecode of the pastfix that a Python imports, written where it is, and its
# patterns' compiled form where there is that (pastfix.patterns.save_every).
COMPILE_PASTFIX = """
import compileall, os, pastfix
compileall.compile_dir(os.path.dirname(pastfix.__file__), quiet=1)
try:
    from pastfix.patterns import save_every
except ImportError:  # (a tree older than the kept patterns)
    pass
else:
    save_every()
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run pastfix's benchmarks and print the table.")
    parser.add_argument("--mb", type=float, help="size of the full-build corpus (default 500)")
    parser.add_argument("--runs", type=int, help="runs per measurement (default 3)")
    parser.add_argument(
        "--sessions", type=int, help="sessions of the refresh corpus (default 450, ~1,000 files)"
    )
    parser.add_argument("--samples", type=int, help="inputs per canned query (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="corpus and sampling seed")
    parser.add_argument("--work-dir", type=Path, default=HERE / ".work", help="corpora and DBs")
    parser.add_argument("--write", type=Path, help="also write the results into this markdown file")
    parser.add_argument("--quick", action="store_true", help="a ~5 MB smoke run, one run each")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="only the full build against the floor pipeline (benchmarks/floor.py), in turn",
    )
    parser.add_argument(
        "--against",
        action="append",
        default=[],
        metavar="PYTHON",
        help="with --floor: also time the build of the pastfix installed for this Python",
    )
    parser.add_argument(
        "--source",
        type=Path,
        help="with --floor: this folder of transcripts instead of a generated corpus",
    )
    parser.add_argument(
        "--redaction",
        action="store_true",
        help="with --floor: also time this build with --no-redact (the redaction row)",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="with --floor: also count the build's and the floor's instructions (valgrind)",
    )
    parser.add_argument(
        "--plain-floor",
        action="store_true",
        help="with --floor: also time the untuned floor (benchmarks/floor.py --plain)",
    )
    args = parser.parse_args(argv)
    quick = {"mb": 5, "runs": 1, "sessions": 10, "samples": 10}
    full = {"mb": 500, "runs": 3, "sessions": 450, "samples": 50}
    for key, value in (quick if args.quick else full).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    work = args.work_dir.resolve()
    work.mkdir(parents=True, exist_ok=True)
    command = "python benchmarks/run.py " + " ".join(argv if argv is not None else sys.argv[1:])

    # pip compiles an installed package's bytecode; an editable checkout run with
    # PYTHONDONTWRITEBYTECODE=1 would recompile pastfix at every start (~25 ms).
    subprocess.run([sys.executable, "-c", COMPILE_PASTFIX], check=True, cwd=ROOT)
    for python in args.against:
        # So is another install's, such as a `git archive` of an older commit (none has its
        # bytecode): each of its builds compiled all of pastfix, ~0.1 s, 0.48G instructions.
        subprocess.run([python, "-c", COMPILE_PASTFIX], check=True)
    facts = machine_facts()
    probe_start = cpu_probe()
    if args.floor and args.source:
        corpus = args.source.resolve()
    else:
        corpus = cached_corpus(
            work,
            f"corpus-{args.mb:g}mb-seed{args.seed}",
            seed=args.seed,
            target_bytes=int(args.mb * 1e6),
        )
    if args.floor:
        rows = measure_floor(
            corpus, work, args.runs, args.against, args.redaction, args.plain_floor
        )
        if args.instructions:
            rows += measure_instructions(corpus, work)
        facts["load average at end"] = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
        facts["CPU probe at start / end"] = f"{probe_start} / {cpu_probe()}"
        print(report(facts, rows, "", command.strip()))
        return 0
    refresh_corpus = cached_corpus(
        work,
        f"sessions-{args.sessions}-seed{args.seed + 1}",
        seed=args.seed + 1,
        sessions=args.sessions,
    )

    rows, full_db = measure_full_build(corpus, work, args.runs)
    build_seconds = next((r.value() for r in rows if r.label == FULL_BUILD), None)
    rows += measure_real_mix(work, args.mb, args.runs)
    log("in-process build split ...")
    split = render_split(measure_build_split(corpus, work), corpus_bytes(corpus) / 1e6)
    rows += measure_refresh(refresh_corpus, work, args.runs)
    rows += measure_other_agents(work, args.runs)
    rows.append(measure_errors_fts(full_db, work, args.runs))
    inputs = sample_inputs(full_db, args.samples, args.seed)
    tool_mb = tool_output_mb(full_db)  # a full read of tool output: once
    rows += measure_queries(full_db, work, args.runs, inputs, tool_mb)
    rows.append(measure_signatures(full_db, build_seconds, args.runs))
    rows.append(measure_adversarial_redaction())
    log("pastfix hook ...")
    rows += measure_hook(full_db, args.samples, args.seed, args.runs)
    rows.append(measure_pasted_log(full_db, args.seed, args.runs))
    patterns = [p["pattern"] for p in inputs["search_tool_output"]]
    rows += measure_like(full_db, args.runs, patterns, tool_mb)
    facts["load average at end"] = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    facts["CPU probe at start / end"] = f"{probe_start} / {cpu_probe()}"

    text = report(facts, rows, split, command.strip())
    print(text)
    if args.write:
        write_doc(args.write, text)
        log(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
