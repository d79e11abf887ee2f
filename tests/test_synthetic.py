"""Tests for benchmarks/synthetic.py, the corpus generator: shapes, layouts, determinism and
the shipped demo corpus."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import ROOT
from synthetic import CorpusStats, generate_corpus, main, write_demo

DEMO_DIR = ROOT / "pastfix" / "demo" / "projects"

ENVELOPE = {
    "parentUuid",
    "isSidechain",
    "userType",
    "cwd",
    "sessionId",
    "version",
    "gitBranch",
    "uuid",
    "timestamp",
}
CONVERSATION = {"user", "assistant", "system", "attachment", "progress"}
METADATA = {"file-history-snapshot", "summary", "ai-title", "last-prompt", "queue-operation"}


def _vt(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split("."))


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _check_file(path: Path, counts: Counter[str]) -> None:
    """Assert every line of one file has the documented shape; tally what was seen."""
    name = path.name
    is_agent = name.startswith("agent-")
    uuids: set[str] = set()
    tool_uses: dict[str, str] = {}
    last_ts = ""
    for no, raw in enumerate(path.read_bytes().splitlines(), 1):
        where = f"{path}:{no}"
        d = json.loads(raw)
        assert isinstance(d, dict), where
        kind = d["type"]
        assert kind in CONVERSATION | METADATA, where
        counts["line:" + kind] += 1
        if kind in METADATA:
            assert "uuid" not in d, where
            continue
        missing = ENVELOPE - d.keys()
        assert not missing, (where, missing)
        assert d["timestamp"].endswith("Z") and d["timestamp"] >= last_ts, where
        last_ts = d["timestamp"]
        assert d["uuid"] not in uuids, where
        parent = d["parentUuid"]
        # Compaction helpers continue the parent session's chain, which lives in another file.
        assert parent is None or parent in uuids or "acompact" in name, where
        uuids.add(d["uuid"])
        vt = _vt(d["version"])
        if is_agent:
            assert d["isSidechain"] is True and d["agentId"] in name, where
        if d["isSidechain"] and not is_agent:
            counts["inline-sidechain"] += 1
            assert vt < (2, 0, 0) and "agentId" not in d, where
        if kind == "progress":
            assert (2, 1, 14) <= vt < (2, 1, 100), where
            assert {"toolUseID", "parentToolUseID"} <= d.keys(), where
        if kind == "attachment":
            assert vt >= (2, 1, 100), where
        if kind == "assistant":
            msg = d["message"]
            assert len(msg["content"]) == 1, where
            block = msg["content"][0]
            assert {"id", "model", "usage"} <= msg.keys() and d["requestId"], where
            assert block["type"] in ("text", "thinking", "tool_use"), where
            if block["type"] == "thinking":
                assert block["signature"], where
            if block["type"] == "tool_use":
                assert set(block) - {"caller"} == {"type", "id", "name", "input"}, where
                tool_uses[block["id"]] = block["name"]
        if kind == "system" and d["subtype"] == "compact_boundary":
            counts["compactions"] += 1
            assert parent is None and d["compactMetadata"]["preTokens"] > 0, where
        if kind != "user":
            continue
        content = d["message"]["content"]
        if isinstance(content, str):
            continue
        assert len(content) == 1, where
        block = content[0]
        if block["type"] != "tool_result":
            assert block["type"] == "text", where
            continue
        tool = tool_uses.pop(block["tool_use_id"])
        assert isinstance(block["content"], str | list), where
        counts["results"] += 1
        counts["shape:" + type(block["content"]).__name__] += 1
        if vt >= (2, 1, 14):
            assert d["sourceToolAssistantUUID"] == parent, where
        tur = d.get("toolUseResult")
        if block.get("is_error") is True:
            counts["errors"] += 1
            counts["errors:" + tool] += 1
            assert isinstance(tur, str), where
        else:
            # is_error:false only on Bash; on every other success the key is absent.
            assert block.get("is_error", False) is False and (tool == "Bash") == (
                "is_error" in block
            ), where
            assert tur is None or not isinstance(tur, str), where
            # 2.1.x subagent files drop the sidecar on successes.
            assert (tur is None) == (is_agent and "subagents" in path.parts), where
        if isinstance(block["content"], list):
            for part in block["content"]:
                counts["part:" + part["type"]] += 1
                if part["type"] == "image":
                    assert (
                        part["source"]["type"] == "base64"
                        and part["source"]["media_type"] == "image/png"
                    )
    assert not tool_uses, f"{path}: tool_use without result: {tool_uses}"


def _check_corpus(root: Path) -> Counter[str]:
    counts: Counter[str] = Counter()
    for path in sorted(root.rglob("*.jsonl")):
        counts["files"] += 1
        counts["bytes"] += path.stat().st_size
        rel = path.relative_to(root).parts
        if rel[-1].startswith("agent-acompact-"):
            counts["layout:acompact"] += 1
        elif len(rel) == 4 and rel[2] == "subagents":
            counts["layout:nested"] += 1
        elif len(rel) == 2 and rel[1].startswith("agent-"):
            counts["layout:flat"] += 1
        else:
            assert len(rel) == 2 and rel[0].startswith("-"), rel
            counts["sessions"] += 1
        _check_file(path, counts)
    return counts


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[CorpusStats, Counter[str]]:
    root = tmp_path_factory.mktemp("corpus")
    stats = generate_corpus(root, seed=7, sessions=30)
    return stats, _check_corpus(root)


def test_every_line_has_documented_shape(corpus: tuple[CorpusStats, Counter[str]]) -> None:
    stats, counts = corpus
    assert counts["files"] == stats.files
    assert counts["bytes"] == stats.bytes
    assert counts["sessions"] == stats.sessions
    assert counts["results"] == stats.tool_results
    assert counts["errors"] == stats.failed_tool_results
    assert sum(v for k, v in counts.items() if k.startswith("line:")) == stats.lines


def test_layouts_and_line_types_present(corpus: tuple[CorpusStats, Counter[str]]) -> None:
    counts = corpus[1]
    for key in (
        "layout:flat",
        "layout:nested",
        "layout:acompact",
        "inline-sidechain",
        "compactions",
    ):
        assert counts[key] > 0, key
    for kind in CONVERSATION | METADATA:
        assert counts["line:" + kind] > 0, kind
    assert counts["shape:str"] > 0 and counts["shape:list"] > 0


def test_failed_fraction_is_plausible(corpus: tuple[CorpusStats, Counter[str]]) -> None:
    counts = corpus[1]
    fraction = counts["errors"] / counts["results"]
    assert 0.02 <= fraction <= 0.045, fraction
    # Failures are spread over tools, not just Bash.
    assert {"Bash", "Read", "Edit"} <= {
        k.split(":", 1)[1] for k in counts if k.startswith("errors:")
    }


def test_same_seed_is_byte_identical_and_other_seed_differs(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    generate_corpus(a, seed=3, sessions=6)
    generate_corpus(b, seed=3, sessions=6)
    generate_corpus(c, seed=4, sessions=6)
    tree_a = _tree(a)
    assert tree_a and tree_a == _tree(b)
    assert tree_a != _tree(c)


@pytest.mark.parametrize("target", [1_000_000, 4_000_000])
def test_target_bytes_is_respected(tmp_path: Path, target: int) -> None:
    stats = generate_corpus(tmp_path, seed=1, target_bytes=target)
    on_disk = sum(p.stat().st_size for p in tmp_path.rglob("*.jsonl"))
    assert on_disk == stats.bytes
    assert target <= on_disk <= target * 1.1


def test_sessions_limit(tmp_path: Path) -> None:
    stats = generate_corpus(tmp_path, seed=2, sessions=5, projects=2)
    assert stats.sessions == 5 and stats.projects == 2
    assert len({p.parent for p in tmp_path.glob("*/*.jsonl")}) <= 2


def test_shipped_demo_matches_write_demo(tmp_path: Path) -> None:
    stats = write_demo(tmp_path)
    assert _tree(tmp_path) == _tree(DEMO_DIR), (
        "regenerate with: python benchmarks/synthetic.py pastfix/demo/projects --demo"
    )
    assert stats.bytes < 1_000_000


def test_demo_covers_layouts_and_errors() -> None:
    counts = _check_corpus(DEMO_DIR)
    assert 6 <= counts["sessions"] <= 10
    assert len(list(DEMO_DIR.iterdir())) == 3
    for key in (
        "layout:flat",
        "layout:nested",
        "layout:acompact",
        "inline-sidechain",
        "compactions",
    ):
        assert counts[key] > 0, key
    for tool in ("Bash", "Read", "Edit"):
        assert counts["errors:" + tool] > 0, tool
    text = b"".join(p.read_bytes() for p in DEMO_DIR.rglob("*.jsonl"))
    for needle in (
        b"error TS2339",
        b"ModuleNotFoundError",
        b"Exit code 127",
        b"EISDIR",
        b"File does not exist",
    ):
        assert needle in text, needle


def test_main_writes_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path), "--sessions", "2", "--seed", "5"]) == 0
    assert len(list(tmp_path.glob("*/*.jsonl"))) == 2
    assert "MB/s" in capsys.readouterr().err
