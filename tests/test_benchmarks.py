"""Smoke test of the benchmark harness: a --quick run prints every row (no timing is checked)."""

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

RUN = Path(__file__).parent.parent / "benchmarks" / "run.py"


def harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("benchmarks_run", RUN)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def harness_labels() -> list[str]:
    return harness().LABELS


def test_an_instruction_count_is_the_summary_of_callgrinds_output():
    run = harness()
    text = "version: 1\ncmd: python x.py\nevents: Ir\nfl=x.c\n1 7\nsummary: 123456789\n"
    assert run.callgrind_total(text) == 123_456_789
    with pytest.raises(ValueError, match="no summary line"):
        run.callgrind_total("events: Ir\nfl=x.c\n1 7\n")  # cut short: no total to trust


def test_the_build_split_is_of_one_process_and_names_its_python_phases(tmp_path, monkeypatch):
    # A build of two forks a helper whose phases the split's clock never saw: its table put
    # 46% of a build in "rest", the builder's redaction and fix rules and its wait for the
    # helper among it.
    run = harness()
    import synthetic

    import pastfix.build
    import pastfix.shard

    corpus = tmp_path / "corpus"
    synthetic.generate_corpus(corpus, sessions=4)
    monkeypatch.setattr(pastfix.build, "PARALLEL_MIN_BYTES", 0)  # two processes, unless raised

    def no_helper(*args, **kwargs):
        raise AssertionError("the split's build forked a helper")

    monkeypatch.setattr(pastfix.shard.Shard, "start", no_helper)
    phases = dict(run.measure_build_split(corpus, tmp_path))
    assert phases["redaction and signatures (prepare.prepare)"] > 0
    assert phases["fix rules (db.refresh_fixes, with their SQL)"] > 0
    assert phases["parse (transcripts.parse_lines)"] > 0
    assert pastfix.build.PARALLEL_MIN_BYTES == 0  # put back
    parts = sum(v for k, v in phases.items() if not k.startswith("total"))
    assert parts == pytest.approx(phases["total (in-process, no interpreter start)"])


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_instructions_count_a_forked_process_once(tmp_path):
    # The build forks a helper: its work must be in the count, and what its parent ran
    # before the fork only once (a forked cachegrind counted that again).
    run = harness()
    work = "sum(range(3_000_000))"
    alone, processes = run.instructions([sys.executable, "-c", work], tmp_path / "alone")
    assert processes == 1
    forked, processes = run.instructions(
        [
            sys.executable,
            "-c",
            f"import os\n{work}\nif os.fork() == 0:\n    {work}\n    os._exit(0)\nos.wait()",
        ],
        tmp_path / "forked",
    )
    assert processes == 2
    assert 1.5 * alone < forked < 2.5 * alone


@pytest.mark.slow
def test_quick_run_prints_every_row(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nProse that --write keeps.\n")
    result = subprocess.run(
        [sys.executable, str(RUN), "--quick", "--work-dir", str(tmp_path), "--write", str(doc)],
        capture_output=True,
        text=True,
        # a guard against a hang, no timing: ~40 s alone, over 120 s on a loaded machine
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rows = [line for line in result.stdout.splitlines() if line.startswith("| ")]
    for label in harness_labels():
        matching = [row for row in rows if row.startswith(f"| {label} |")]
        assert matching, f"no row {label!r} in:\n{result.stdout}"
    assert "searchable: yes" in result.stdout
    written = doc.read_text()
    assert written.startswith("# Benchmarks\n\nProse that --write keeps.")
    assert all(f"| {label} |" in written for label in harness_labels())


@pytest.mark.slow
def test_tokenizers_run_prints_a_row_per_tokenizer(tmp_path):
    script = RUN.parent / "tokenizers.py"
    result = subprocess.run(
        [sys.executable, str(script), "--mb", "1", "--runs", "1", "--samples", "3"]
        + ["--work-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,  # a guard against a hang (see above)
    )
    assert result.returncode == 0, result.stderr[-3000:]
    for name in ("unicode61", "porter", "ascii", "trigram"):
        assert f"\n| {name} | " in result.stdout
    assert "(files read: 0)" in result.stdout
