"""How often find_past_fix shows what really fixed a failure: measured against hand labels.

    python benchmarks/fix_quality.py [--labels tests/data/fix_labels.jsonl] [--db INDEX]
        [--source ../shared/corpus/real/projects] [--json] [--misses]

The labels (tests/data/fix_labels.jsonl, how they were judged: tests/data/README.md)
say, for failed tool calls of the real corpus, what a careful reader saw happen next:
the outcome (fixed, worked_around, abandoned, not_a_problem), the remedy steps and the
retry, by tool_use_id. This script builds an index of the corpus (or reads --db), reads
what the `fixes` table says of each labelled failure (what every card shows: the remedy
steps, then the confirming call) and reports:

- remedy shown: of the fixed and worked-around failures whose label names remedy
  steps, those whose card shows at least one of them (and, stricter, all of them);
- fix claimed: of the fixed and worked-around failures, those whose card claims a fix;
- no fix claimed for the abandoned ones (not_a_problem ones are reported apart);
- headline: the card's first step (its first remedy step, else its confirmation) is a
  labelled remedy step (or the labelled retry when the label names no remedy step);
- step precision: of the remedy steps the cards of fixed and worked-around failures show,
  those the failure's own label names;
- remedy done next: of the fixed and worked-around failures whose label names remedy
  steps and whose card claims no fix, those whose card lists one of them among the steps
  it says were done next (`then:`, fixes.next_steps); and how many of the abandoned
  failures' cards list such steps (what they show is other work).

`--misses` lists every labelled failure where the card and the label disagree.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pastfix import build as pbuild  # noqa: E402
from pastfix import fixes  # noqa: E402

LABELS = ROOT / "tests" / "data" / "fix_labels.jsonl"
SOURCE = ROOT.parent / "shared" / "corpus" / "real" / "projects"
FIXED = ("fixed", "worked_around")


def read_labels(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def cards(conn: sqlite3.Connection) -> dict[str, dict[str, Any]]:
    """What the fixes table says of every failure, as a card shows it."""
    found = {}
    for tool_use_id, outcome, confirmed_by, remedy, others in conn.execute(
        "select tool_use_id, outcome, confirmed_by, remedy, others from fixes"
    ):
        steps = [step["tool_use_id"] for step in json.loads(remedy or "[]")]
        claims = outcome in fixes.CLAIMS_FIX
        found[tool_use_id] = {
            "outcome": outcome,
            "claims": claims,
            "steps": steps if claims else [],
            "confirmed_by": confirmed_by if claims else None,
            "next": (
                json.loads(others or "[]") if outcome in (fixes.NOT_FIXED, fixes.ANSWERED) else []
            ),
        }
    return found


def measure(labels: list[dict[str, Any]], shown: dict[str, dict[str, Any]]) -> dict[str, Any]:
    def rate(hits: int, total: int) -> dict[str, Any]:
        return {"hits": hits, "total": total, "rate": round(hits / total, 3) if total else None}

    with_remedy = [lab for lab in labels if lab["outcome"] in FIXED and lab["remedy"]]
    fixed = [lab for lab in labels if lab["outcome"] in FIXED]
    abandoned = [lab for lab in labels if lab["outcome"] == "abandoned"]
    harmless = [lab for lab in labels if lab["outcome"] == "not_a_problem"]
    none = {"claims": False, "steps": [], "confirmed_by": None, "outcome": "missing", "next": []}

    def card(lab: dict[str, Any]) -> dict[str, Any]:
        return shown.get(lab["tool_use_id"], none)

    def every_step(c: dict[str, Any]) -> set[str]:
        return {*c["steps"], *([c["confirmed_by"]] if c["confirmed_by"] else [])}

    def headline(c: dict[str, Any]) -> str | None:
        return c["steps"][0] if c["steps"] else c["confirmed_by"]

    def headline_right(lab: dict[str, Any]) -> bool:
        wanted = set(lab["remedy"]) or ({lab["retry"]} if lab["retry"] else set())
        return headline(card(lab)) in wanted

    # A step is right when its own failure's label names it: a step another label names
    # (the edit that fixed a later failure, shown on an earlier one) is not this one's fix.
    shown_steps = [(s, set(lab["remedy"])) for lab in fixed for s in card(lab)["steps"]]
    unclaimed = [lab for lab in with_remedy if not card(lab)["claims"]]
    return {
        "labelled": len(labels),
        "outcomes": {
            o: sum(lab["outcome"] == o for lab in labels)
            for o in sorted({lab["outcome"] for lab in labels})
        },
        "remedy_shown": rate(
            sum(bool(set(lab["remedy"]) & every_step(card(lab))) for lab in with_remedy),
            len(with_remedy),
        ),
        "remedy_shown_whole": rate(
            sum(set(lab["remedy"]) <= every_step(card(lab)) for lab in with_remedy),
            len(with_remedy),
        ),
        "fix_claimed": rate(sum(card(lab)["claims"] for lab in fixed), len(fixed)),
        "abandoned_no_claim": rate(
            sum(not card(lab)["claims"] for lab in abandoned), len(abandoned)
        ),
        "not_a_problem_no_claim": rate(
            sum(not card(lab)["claims"] for lab in harmless), len(harmless)
        ),
        "headline_is_remedy": rate(sum(headline_right(lab) for lab in fixed), len(fixed)),
        "step_precision": rate(sum(s in own for s, own in shown_steps), len(shown_steps)),
        "remedy_done_next": rate(
            sum(bool(set(lab["remedy"]) & set(card(lab)["next"])) for lab in unclaimed),
            len(unclaimed),
        ),
        "abandoned_done_next": rate(
            sum(bool(card(lab)["next"]) for lab in abandoned), len(abandoned)
        ),
    }


def misses(labels: list[dict[str, Any]], shown: dict[str, dict[str, Any]]) -> list[str]:
    lines = []
    for lab in labels:
        c = shown.get(lab["tool_use_id"])
        if c is None:
            lines.append(f"{lab['tool_use_id']}: no fixes row")
            continue
        fixed = lab["outcome"] in FIXED
        steps = {*c["steps"], *([c["confirmed_by"]] if c["confirmed_by"] else [])}
        if fixed != c["claims"] or (fixed and lab["remedy"] and not set(lab["remedy"]) & steps):
            lines.append(
                f"{lab['tool_use_id'][-8:]} {lab['tool']:<6} label {lab['outcome']:<13}"
                f" card {c['outcome']:<13} remedy {[r[-8:] for r in lab['remedy']]}"
                f" shown {[s[-8:] for s in c['steps']]} | {lab['error'][:70]}"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--db", type=Path, help="an index of the corpus (default: build one)")
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    labels = read_labels(args.labels)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db
        if path is None:
            if not args.source.is_dir():
                sys.exit(f"{args.source} not found: pass --source or --db")
            path = Path(tmp) / "index.db"
            pbuild.build(path, [args.source])
        conn = sqlite3.connect(path)
        shown = cards(conn)
        conn.close()
    report = measure(labels, shown)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name, value in report.items():
            if isinstance(value, dict) and "rate" in value:
                pct = "n/a" if value["rate"] is None else f"{100 * value['rate']:.0f}%"
                print(f"{name:<24} {pct:>5}  ({value['hits']} of {value['total']})")
            else:
                print(f"{name:<24} {value}")
    if args.misses:
        print("\n".join(misses(labels, shown)))


if __name__ == "__main__":
    main()
