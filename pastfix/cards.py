"""How a past failure and what fixed it read: the card of a find_past_fix row.

`pastfix find` prints format_hit(); the hook, the MCP tool and the find page show
the same parts (remedy_steps, edit_lines or edit_diff, in_project), so that a fix
reads alike wherever it is met. The rows come from pastfix.queries.
"""

from __future__ import annotations

import difflib
import html
import os
import shlex
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pastfix import agents, fixes
from pastfix.patterns import lazy
from pastfix.queries import (
    COMMAND_TOOL,
    COMMON_WORDS,
    DIFF_SHOWN,
    EXIT_STATUS,
    FIX_STEPS_SHOWN,
    FIX_TEXT_CHARS,
    OTHER_FILE,
    OTHER_GOAL,
    OTHER_NAMES,
    SNIPPET_CLOSE,
    SNIPPET_OPEN,
    STOPPED,
    its_file_is_the_error,
    known_time,
    mark_words,
    missing_kind,
    one_line,
    same_program,
    seen_before,
)

# A Windows project folder (Gemini CLI and Copilot CLI on Windows): `C:\Users\me\app`.
_WINDOWS_ROOT = lazy(r"^[A-Za-z]:[\\/]")


def in_project(path: str | None, project: str | None) -> str:
    r"""`path` relative to `project` when it is inside it, else as it is.

    Under a Windows folder either separator ends the folder and case does not count, as
    Windows reads them (`c:\users\me\app\src/x.jsx` is in `C:\Users\me\app`).
    """
    path = path or ""
    if not project:
        return path
    root = project.rstrip("/\\")
    if not _WINDOWS_ROOT.match(root):
        return path.removeprefix(root + "/")
    head, rest = path[: len(root)], path[len(root) : len(root) + 1]
    same = head.lower().replace("/", "\\") == root.lower().replace("/", "\\")
    return path[len(root) + 1 :] if same and rest in ("\\", "/") else path


def diff_lines(
    old: str, new: str, limit: int | None = None, context: int = 1
) -> list[tuple[str, str]]:
    """The lines an edit changed, with `context` lines around: ("-"|"+"|" "|"…", line).

    At most `limit` lines (all by default); "…" stands for what is left out.
    """
    a, b = old.splitlines(), new.splitlines()
    shown: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        if shown:
            shown.append(("…", ""))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                shown += [(" ", line) for line in a[i1:i2]]
                continue
            shown += [("-", line) for line in a[i1:i2]]
            shown += [("+", line) for line in b[j1:j2]]
    if limit is not None and len(shown) > limit:
        left = len(shown) - limit
        shown = [*shown[:limit], ("…", f"{left} more line{'s' if left > 1 else ''}")]
    return shown


def whole_lines(text: str) -> str:
    """A fix_edits text without the line that FIX_TEXT_CHARS cut in two: its end would
    differ from the other side's only where the two were cut."""
    if len(text) < FIX_TEXT_CHARS or "\n" not in text:
        return text
    return text[: text.rindex("\n")]


def edit_lines(edit: dict[str, Any]) -> list[tuple[str, str]]:
    """The lines a fix_edits entry takes out ("-") and puts in ("+"): those that differ,
    not the whole old and new text, whose shared lines would hide the change once cut
    to one short line each."""
    if edit["tool"] == "apply_patch":
        return [(sign, line) for sign, line in patch_lines(edit["new"]) if sign in "-+"]
    changed = [(sign, line) for sign, line in edit_diff(edit, context=0) if sign in "-+"]
    return [(sign, line) for sign, line in changed if line.strip()] or changed


def edit_diff(
    edit: dict[str, Any], limit: int | None = None, context: int = 1
) -> list[tuple[str, str]]:
    """diff_lines of a fix_edits entry (not apply_patch's): without the line FIX_TEXT_CHARS
    cut in two (whole_lines), unless what changed starts in it (a long line added after
    the one the edit kept: the card showed an empty diff); then that line is shown cut."""
    old, new = edit["old"] or "", edit["new"] or ""
    shown = diff_lines(whole_lines(old), whole_lines(new), limit, context)
    if not any(sign in "-+" for sign, _ in shown):
        shown = diff_lines(old, new, limit, context)
    return shown


def confirming_step(steps: list[dict[str, Any]], shown: int) -> dict[str, Any]:
    """Of a row's remedy_steps, whether the call that confirmed the fix is one of the first
    `shown` (a card says "that call succeeded" then: said of a step a card had cut, it named
    a command still running, a new user's try, session 27), and its tool when it is a step."""
    last = steps[-1] if steps and steps[-1]["confirms"] else None
    return {"shown": last is not None and len(steps) <= shown, "tool": last and last["tool"]}


def next_steps(row: dict[str, Any]) -> list[dict[str, Any]]:
    """A find_past_fix row's next_calls as a card lists them after `fixed: no`, each as
    {"text", "tool_use_id"}: an edit as `edit <file>`, another call as `<tool> <target>`,
    paths inside the project relative to it (what was done next, which may be the way
    round it that no rule saw)."""
    project = row["project"]
    return [
        {
            "text": f"edit {in_project(call['file_path'], project)}"
            if call["tool"] in fixes.EDIT_TOOLS and call["file_path"]
            else f"{call['tool']} {in_project(call['target'], project)}",
            "tool_use_id": call.get("tool_use_id"),
        }
        for call in row.get("next_calls") or []
    ]


def files_edited(row: dict[str, Any]) -> list[str]:
    """A row's files_edited_after that no step of next_steps names, relative to the project."""
    named = {call["file_path"] for call in row.get("next_calls") or []}
    return [
        in_project(path, row["project"])
        for path in row.get("files_edited_after") or []
        if path not in named
    ]


def fold_calls(calls: Iterable[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
    """A row's fix_calls, a call made several times in a row once, with how many times (six
    Reads of one file were six `before:` lines: a new user's try, session 27)."""
    folded: list[tuple[dict[str, Any], int]] = []
    for call in calls:
        key = (call["tool"], call["target"], call["ok"])
        if folded and (folded[-1][0]["tool"], folded[-1][0]["target"], folded[-1][0]["ok"]) == key:
            folded[-1] = (folded[-1][0], folded[-1][1] + 1)
        else:
            folded.append((call, 1))
    return folded


# Why a find_past_fix row claims no fix, by its outcome. ("soon after": the rules read a
# failure's window, up to its second prompt, not the whole session: a fix four prompts
# later was not "nothing that followed", a new user's try, session 27. "seen to": the
# rules know many ways past an error, not every one: "nothing ... succeeded at it" was
# false of a `git ls-files` that listed what an `rg --files` Windows would not start
# could not, a new user's try, session 30.)
NOT_FIXED_WHY = {
    # (or stopped asking: the flag that demanded what was missing taken out, `--require-tasks`,
    # fixes._asks_less; a new user's try, nu41)
    "papered over": "a later call only hid the error (|| true, 2>/dev/null || echo ...)"
    " or stopped asking for what failed (without --require-..., --strict)",
    "not fixed": "nothing soon after it in that session was seen to get past it",
    "already done": "an earlier edit had already written what it was to write",
    "stopped": "the agent stopped that command itself (Ctrl-C, or a pkill -f that matched"
    " its own shell): its exit was the stop",
    "answered": "it only looked (a search that found nothing, a program or a path not"
    " there), and that was its answer: the session went on from it",
    "already so": "what it was to bring about already held (a file to remove gone, a process"
    " to stop not running, a folder or branch to make there already, an edit's text in its"
    " file already), and the session went on without redoing it",
    # (Claude Code records "clear context and implement" as a rejection: fixes.approved_plan)
    "approved": "the user approved the plan, clearing the context: a new session implemented it",
    # (a rejection: the call never ran; what came next is what the user chose; or a look the
    # user stopped or denied: fixes._declined)
    "declined": "the user rejected that call, so it never ran (or stopped or denied a look),"
    " and nothing soon after made it again",
    # (a look Claude Code cancelled with a failed sibling: fixes._cancelled_look)
    "cancelled": "a call sent beside it failed, so that look was cancelled before it ran,"
    " and nothing soon after ran it again: the session went on without it",
}

# The outcomes that claim no fix because there was nothing to fix, as a card heads them:
# "fixed: no" of a search that found nothing read as a dead end to a user (a new user's
# try, nu40 finding 6).
NOTHING_TO_FIX = {
    "already done": "already done",
    "stopped": "stopped on purpose",
    "answered": "it only looked",
    "already so": "it was already so",
    "approved": "the plan was approved",
    "declined": "the user said no",
    "cancelled": "it was cancelled as a call beside it failed",
}


# How outcomes_line names the outcomes whose name alone is unclear.
OUTCOME_GLOSS = {
    "declined": "declined (the user said no)",
    "approved": "approved (the user approved the plan)",
    "cancelled": "cancelled (a call beside it failed)",
}


def outcome_said(row: dict[str, Any]) -> str:
    """A row's outcome as outcomes_line counts it: its `outcome` (`not fixed` when it has
    none), glossed (OUTCOME_GLOSS); a fix of a row that went_on is what came next."""
    outcome = row.get("outcome") or "not fixed"
    if went_on(row) and row.get("fixed_at"):
        return f"{went_on_outcome(row).removesuffix(' it')} by what came next there"
    return OUTCOME_GLOSS.get(outcome, outcome)


def outcomes_line(rows: list[dict[str, Any]]) -> str:
    """One line of how all the failures found ended, most common first (`pastfix find` of a
    paste that names no error, whose few cards are of any error): the first 3 of a
    rejection's 20 were each "what came next there fixed it", while 14 of them the user had
    said no to and 1 was an approved plan (a new user's try, nu46 finding 6)."""
    return f"How these {len(rows)} ended: {_outcomes_said(rows)}."


def _outcomes_said(rows: list[dict[str, Any]]) -> str:
    """How rows ended, counted (outcome_said), most common first: `66 fixed, 37 answered`."""
    counts = Counter(outcome_said(row) for row in rows)
    return ", ".join(f"{n} {outcome}" for outcome, n in counts.most_common())


def same_program_line(rows: list[dict[str, Any]], command: str | None) -> str | None:
    """For a paste that names no error with the command that ended so (`Exit code 1` of
    `lsof -i :3001`): how the failures of that command's program ended (queries.same_program),
    and, when some only looked (`answered`), that the program's exit status said it found
    nothing, which was no error (nu48 finding 4: its 127 cards were of any program)."""
    if not command:
        return None
    same = [row for row in rows if same_program(row, command)]
    if not same:
        return None
    program = fixes.goal(COMMAND_TOOL, command)
    name = ", ".join(sorted(program.programs)) if program else "it"
    looked = sum(row.get("outcome") == fixes.ANSWERED for row in same)
    line = f"{len(same)} of them ran {name} too: {_outcomes_said(same)}."
    if looked:
        line += (
            f" {looked} of those only looked: {name} ended so when it found nothing, which"
            " was the answer, no error to fix."
        )
    return line


def varied(rows: list[dict[str, Any]], shown: int) -> list[dict[str, Any]]:
    """`shown` of `rows`, in proportion to how they ended (outcome_said): the best of each
    way first, the most common way first, then the next of the way with the most left. Of a
    paste that names no error the rows rank no fix above another, and the first few of a
    rejection were all of a way 5 of its 20 ended, while 14 ended another."""
    left: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        left.setdefault(outcome_said(row), []).append(row)
    picked: list[dict[str, Any]] = []
    taken: Counter[str] = Counter()
    while len(picked) < shown and any(left.values()):
        # (max keeps the first of equals: the way whose best row ranks higher)
        way = max(
            (way for way in left if left[way]), key=lambda way: (not taken[way], len(left[way]))
        )
        picked.append(left[way].pop(0))
        taken[way] += 1
    return picked


def not_fixed_words(row: dict[str, Any]) -> dict[str, str]:
    """What a card says of a row that claims no fix: the terminal's `fixed:` word (`no`,
    or `nothing to fix` when there was nothing to: NOTHING_TO_FIX), the find page's
    heading, and why."""
    outcome = row.get("outcome") or ""
    why = NOT_FIXED_WHY.get(outcome, NOT_FIXED_WHY["not fixed"])
    if outcome in NOTHING_TO_FIX:
        return {
            "fixed": "nothing to fix",
            "heading": f"Nothing to fix: {NOTHING_TO_FIX[outcome]}",
            "why": why,
        }
    return {"fixed": "no", "heading": "Not fixed in this session", "why": why}


def outcome_heading(outcome: str | None) -> str:
    """A failure's outcome as a short heading (the session page's list of failures): `Fixed`,
    `Worked around`, else not_fixed_words' heading (`Nothing to fix: the plan was approved`,
    `Not fixed in this session`). The page marked an approved plan's ExitPlanMode `failed`
    and `confirmed the fix` of the rejections before it, and said "Approved in this
    session" only under its long input (a new user's try, nu46 finding 6)."""
    if outcome in fixes.CLAIMS_FIX:
        return str(outcome).capitalize()
    return not_fixed_words({"outcome": outcome})["heading"]


def left_unsolved(row: dict[str, Any]) -> str | None:
    """What a card of a fixed row says of its session's failures of the same error that
    nothing fixed (find_past_fix's `left_unsolved`): the fixed one stands for them, and hid
    that the same error was also left unsolved there (a new user's try, nu40 finding 8)."""
    count = row.get("left_unsolved") or 0
    if not count:
        return None
    times = "once" if count == 1 else f"{count} times"
    return f"the same error was also left unsolved {times} there"


def went_on(row: dict[str, Any]) -> bool:
    """Whether what a row's session did after its failure is no fix of the paste's: the paste
    names a stop, a call the user rejected or interrupted or its tool did not run
    (queries.STOPPED), which reads the same whatever the call did. Its steps and the call
    that succeeded are what came next there (`then:`), not a fix (`fix:`), which a card
    printed under a notice that said no fix was the user's (a new user's try, nu40
    finding 9)."""
    return row.get("matched") == STOPPED


def fix_words(row: dict[str, Any]) -> dict[str, str]:
    """The words a card puts before a row's remedy: `step` before each step (the terminal's
    card), `confirmed` before the call that confirmed it when no step shown is that call,
    `said` before "that call ..." when one is, and the find page's `heading` over them,
    its `look` (`fixed`: a green tick; `unfixed`: grey, none) and the `label` of their list.
    Of a row that went_on: what came next, in the same words everywhere, headed in grey: a
    green tick over "Done next there" said "fixed" (a new user's try, nu40 finding 9)."""
    if went_on(row):
        return {
            "step": "then:",
            "confirmed": "then:",
            "said": "and",
            "heading": f"Done next there, which {went_on_outcome(row)}",
            "look": "unfixed",
            "label": "What came next (no fix of yours: the paste names no error)",
        }
    worked_around = row.get("outcome") == "worked around"
    return {
        "step": "fix:",
        "confirmed": "worked around:" if worked_around else "confirmed:",
        "said": "worked around:" if worked_around else "and",
        "heading": "Worked around" if worked_around else "Fixed",
        "look": "fixed",
        "label": "What made the difference",
    }


def went_on_outcome(row: dict[str, Any]) -> str:
    """A claimed fix of a row that went_on, in outcome words: `fixed it`, `worked around it`.
    Its card listed only `then:` lines while `--json` said `fixed` (rejected plans, edited
    and submitted again: a new user's try, nu44 finding 11)."""
    return f"{'worked around' if row.get('outcome') == 'worked around' else 'fixed'} it"


def went_on_steps(row: dict[str, Any]) -> list[str]:
    """A row's remedy and the call that confirmed it as what came next, one line each, for
    a row that went_on (MCP's `next_calls`): an edit as `edit <file>`, another call as
    `<tool> <target>` with its change, the last `... succeeded`. Paths inside the project
    are relative to it."""
    project = row.get("project")
    lines = []
    steps = remedy_steps(row)
    for step in steps:
        if step["edits"]:
            lines.append(f"edit {in_project(step['path'], project) or 'a patch'}")
        else:
            change = f" (changed: {step['change']})" if step["change"] else ""
            lines.append(f"{step['tool']} {in_project(step['target'], project)}{change}")
    if steps and steps[-1]["confirms"]:
        lines[-1] += f", which {succeeded(row)}"
    elif row.get("fix_target") is not None:
        target = in_project(row["fix_target"], project)
        lines.append(f"{row.get('tool')} {target}, which {succeeded(row)}")
    return lines


def _moved_to(step: dict[str, Any], failed_target: str | None) -> bool:
    """Whether a step's change is the path change (fixes._path_change, `old → new` from
    their common folder) from the failed call's file to the step's."""
    old, arrow, new = (step.get("change") or "").partition(" → ")
    return bool(
        arrow
        and old
        and new
        and (failed_target or "").endswith(old)
        and (step.get("target") or "").endswith(new)
    )


def remedy_steps(row: dict[str, Any]) -> list[dict[str, Any]]:
    """A find_past_fix row's remedy as it is shown: one entry per step, its edits with it.

    Edits of one file in a row are one entry (`count` says how many). `confirms` marks
    the changed retry that is also the confirmation. The hook, `pastfix find` and the
    find page all show these.

    The failed edit made again at another path (its `change` that path change) is shown by
    that change, without its lines: they are the failed edit's too, and what made the
    difference is the path (a Codex patch whose file it could not read, the same patch
    with `vesselos-dev-research/` put in front of its path: its card showed eleven lines of
    the patch's imports; a new user's try, set 36).
    """
    edits_of: dict[str, list[dict[str, Any]]] = {}
    for edit in row.get("fix_edits") or []:
        edits_of.setdefault(edit.get("tool_use_id") or "", []).append(edit)
    shown: list[dict[str, Any]] = []
    for step in row.get("remedy") or []:
        edits = edits_of.get(step["tool_use_id"], [])
        if edits and step["tool"] == row.get("tool") and _moved_to(step, row.get("target")):
            edits = []
        path = edits[0]["file_path"] if edits else step["target"]
        last = shown[-1] if shown else None
        if edits and last and last["edits"] and last["path"] == path:
            last["edits"] += edits
            last["count"] += 1
            continue
        shown.append(
            {
                "tool": step["tool"],
                "target": step["target"],
                "path": path if edits else None,
                "change": step.get("change"),
                "edits": edits,
                "count": 1,
                "tool_use_id": step["tool_use_id"],
                "confirms": step["tool_use_id"] == row.get("fix_tool_use_id"),
            }
        )
    return shown


Item = TypeVar("Item")


def group_same_fixes(
    items: Iterable[Item], key: Callable[[Item], tuple[Any, ...] | None]
) -> list[tuple[Item, list[Item]]]:
    """The items (rows or cards), each with those after it whose error was fixed the same
    way (the same `key`, see same_fix_key), which it stands for: three identical fixes in
    three sessions (or worktrees of a project) are one card and a line naming the others,
    on the find page and in `pastfix find` alike."""
    first: dict[tuple[Any, ...], list[Item]] = {}
    shown: list[tuple[Item, list[Item]]] = []
    for item in items:
        fix = key(item)
        if fix is not None and fix in first:
            first[fix].append(item)
            continue
        others: list[Item] = []
        if fix is not None:
            first[fix] = others
        shown.append((item, others))
    return shown


def same_fix_key(
    signature: str,
    outcome: str,
    fixed_at: str | None,
    project: str | None,
    steps: Iterable[tuple[str, str | None, str, str | None]],
) -> tuple[Any, ...] | None:
    """What two fixes of an error share when they are the same: its signature, the outcome,
    and remedy steps (tool, the file an edit changed, else the target as shown, and the
    retry's change) of the same tools on the same targets, in the project; a shell retry
    changed only by its words (`-python +python3`, `+--set-upstream +origin <project>`),
    by that change, whatever else its command ran and whichever agent's shell ran it:
    `python: command not found` fixed by python3 in 4 sessions of Claude Code and Codex,
    each retry a command of its own, took the hook's two blocks (a new user's trial, nu47
    finding 7). None for a failure without a fix."""
    name = (project or "").rstrip("/").rsplit("/", 1)[-1]
    same = tuple(
        ("shell", "changed", _same_words(change, name))
        if not path and tool in fixes.SHELL_TOOLS and change and _changed_words(change)
        else (tool, path or _same_target(target, name))
        for tool, path, target, change in steps
    )
    if not fixed_at or not same:
        return None
    return (signature, outcome, same)


# A part of a retry's change that is made of its words (fixes.command_change): words taken
# out and put in (`-npx +./node_modules/.bin/prisma`, `without --force`), words quoted. A
# part that names commands run besides (`first ...`, `then ...`), a change cut short (` …`)
# or one told in other words (`its code rewritten`, `with escalated permissions`) is none.
_CHANGED_WORDS = lazy(r"(?:[-+]\S+|without \S+)(?: (?:[-+]\S+|without \S+))*|quoted .+")


def _changed_words(change: str) -> bool:
    """Whether a retry's change is made only of its words (_CHANGED_WORDS)."""
    return all(_CHANGED_WORDS.fullmatch(part) for part in change.split("; "))


def _same_words(change: str, project: str) -> str:
    """A retry's change as two sessions' same fixes share it: the project folder's name
    (a worktree's, often its branch) made a placeholder, as _same_target does."""
    return change.replace(project, "<project>") if len(project) >= 3 else change


def row_fix_key(row: dict[str, Any]) -> tuple[Any, ...] | None:
    """same_fix_key of a find_past_fix row (its JSON columns decoded)."""
    if not row.get("fixed_at"):
        return None  # (as same_fix_key says, without reading its remedy)
    project = row["project"]
    steps = [
        (
            step["tool"],
            in_project(step["path"], project) if step["path"] else None,
            one_line(in_project(step["target"], project), 300),
            step.get("change"),
        )
        for step in remedy_steps(row)
    ]
    return same_fix_key(row["signature"], row["outcome"], row["fixed_at"], project, steps)


def _same_target(target: str, project: str) -> str:
    """A command as two sessions' same fixes share it: its simple commands as a retry
    compares them (fixes.segments: no redirections, `cd X &&` or output filters after a
    pipe), and the project folder's name (a worktree's, which is often its branch: git
    push --set-upstream origin spotter-dov) made a placeholder."""
    if len(project) >= 3:
        target = target.replace(project, "<project>")
    return " ; ".join(" ".join(words) for words in fixes.segments(target))


# Of a command cut on its card where the one it is shown beside reads the same, what comes
# before the first difference (the words that lead to it).
LEAD_CHARS = 40


def where_it_differs(target: str | None, ran: str | None, width: int) -> str:
    """`target` on one line in `width` characters; when it reads as `ran` past that width,
    from a little before where the two first differ (`… -G "Visual Studio 18 2026" -A x64`:
    a retry cut as the failed call was looked the same on its card, a new user's try)."""
    text, other = one_line(target, 10 * width), one_line(ran, 10 * width)
    same = len(os.path.commonprefix([text, other]))
    if text == other or same < width - LEAD_CHARS:
        return one_line(text, width)
    start = text.rfind(" ", 0, same - LEAD_CHARS) + 1 or same - LEAD_CHARS
    return "…" + one_line(text[start:], width - 1)


def same_call_again(row: dict[str, Any]) -> bool:
    """Whether a fixed row was confirmed by the failed call run again as it was (the same tool
    and input: fix_as_was), with no step and no other call of the session on the way: nothing
    the session did changed it, the user's own terminal did (Git installed and the shell
    restarted), or the time between. The find page says "The same call ... succeeded again,
    with nothing changed in between"; the card and the hook said "confirmed: PowerShell git
    init succeeded" over the agent's next words, "Git still isn't being recognized", which
    read as the fix not working (a new user's try, nu41 finding 7)."""
    return bool(
        row.get("fixed_at")
        and row.get("fix_as_was")
        and not row.get("remedy")
        and not row.get("fix_calls")
    )


def outside_the_session(row: dict[str, Any]) -> bool:
    """Whether a row's failure was worked around by no call of its session: worked around,
    with no remedy step. What it was for came about outside the session: an install sudo
    refused (`a terminal is required to read the password`), the user installed cmake in
    their own terminal, and the configure that needed it ran (fixes._install_given_up). Its
    confirmation is that later call, no step of a way round: the card said "worked around:
    Bash cd build-debug && cmake ... -DBUILD_GUI=ON" and the hook the same, which an agent
    would run against a sudo prompt (thirty-sixth held-out set, labelled worked around with
    no remedy step; a new user's try, nu44 finding 6)."""
    return bool(
        row.get("fixed_at") and row.get("outcome") == "worked around" and not row.get("remedy")
    )


# How a card and the hook say so, before the later call and how it went (outside_went).
OUTSIDE_THE_SESSION = (
    "by no call of that session: what this one was for came about outside it, and then"
)


def outside_went(row: dict[str, Any]) -> str:
    """How the later call of a row worked around outside_the_session went: it got past no
    error of its own (succeeded() says "got past this error" of a retry)."""
    error = row.get("fix_error")
    return f"ran, then failed on another error: {one_line(error, 120)}" if error else "succeeded"


# How a card and the hook say a fix's confirmation was the failed call again (same_call_again).
SAME_CALL_AGAIN = "the same call, run again as it was with nothing changed in the session between,"


def succeeded(row: dict[str, Any]) -> str:
    """How a card says the call that confirmed a fix went: `succeeded`, or, for a changed
    retry that got past this error and failed on another (`Failed to connect to bus` gone,
    then `Exit code 3` of a port in use: a new user's try, session 26), that; for a search
    run again that found nothing (`rg -c -- '- [ ]' x`, exit 1), that it did."""
    error = row.get("fix_error")
    if error and fixes.found_nothing(row.get("fix_target"), error):
        # a search that could not run, run again: its exit 1 says it found nothing
        return f"ran, and found nothing ({error}), which answered it"
    if error:
        return f"got past this error, then failed on another: {one_line(error, 120)}"
    return "succeeded"


def signature_shown(row: dict[str, Any]) -> str | None:
    """The signature a card says a failure matched by, or None when it is the error line
    the card shows already (`cat: nonexistent.txt: No such file or directory` twice: a new
    user's try, session 26)."""
    shown = (row.get("error_snippet") or "").split("\n", 1)[0]
    return (
        None if one_line(row["signature"] or "", 300) == one_line(shown, 300) else row["signature"]
    )


# What how_matched() says of a row found by a paste that names no error.
SAYS_LITTLE = {
    EXIT_STATUS: "ended the same way (the paste names no error)",
    COMMON_WORDS: "holds the same common words (the paste names no error)",
    STOPPED: "was stopped so too (the paste names no error)",
}


def asked(row: dict[str, Any]) -> str | None:
    """What the failure's turn was asked (`turn_prompt`), when it is not the session's
    first prompt nor its title: a session's title is its first task's (Claude Code keeps
    its ai-title for every later prompt), and a card of a later one's failure read as of it
    (the demo's `git push` under "Fix mypy union-attr error", nu43)."""
    prompt = row.get("turn_prompt")
    return prompt if prompt and prompt != row.get("session_title") else None


def other_file_kind(row: dict[str, Any], error: object = None) -> str:
    """What a row matched as the same error about another file (`other_file`) is about, as
    its card says it: of an error whose file is its subject (its_file_is_the_error), the
    pasted error's path as the notice above the cards names it (queries.missing_kind,
    not_seen_about: "folder" of an `ls`), else "file" (a compiler's diagnostic in another
    file). A card said "Same error as yours, about another file" under "Not seen about this
    folder" (nu45)."""
    if error and its_file_is_the_error(row.get("signature")):
        return missing_kind(error)
    return "file"


def how_matched(row: dict[str, Any], error: object = None) -> str:
    """How a find_past_fix row matched the pasted error, in the words its card uses (and the
    hook's context, the MCP row's `match` and the find page's): `same error` (its key line
    is the pasted one, once paths, numbers and ids are set aside), `same error, another
    file` (the file it names is another), `same error, other names` (every name it quotes is
    another: queries.other_names; not seen before, nor is another file run that was not
    there or a shell could not run or write: queries.its_file_is_the_error), `same error,
    another goal` (only worked around, by a call with another goal than the caller's:
    queries.another_goal, not seen before), `same error signature` (other values in
    the same signature), `same words, maybe another error` (every word of it, not its
    signature), `partial: shares ...` (some of its rarer words, not seen before), and of a
    paste that names no error (queries.says_little_matched) `ended the same way`, `holds
    the same common words` or `was stopped so too`: not "same error", which an agent
    reading only the rows took for the error itself (session 35: `Exit code 1`). `matched`
    alone, `signature`, did not tell the very same error from another file's or another
    value's (an MCP client's rows, a new user's try, session 34). With the pasted `error`,
    another file is named as its path is (other_file_kind: `same error, another folder`)."""
    if row.get("other_goal"):
        # worked around on the way to another goal (queries.another_goal): before the
        # rest, which say how its error compares, not its goal
        return OTHER_GOAL
    if row["matched"] == "signature":
        if row.get("same_text"):
            return "same error"
        if row.get("other_names") and not row.get("other_file"):
            # before another file: the same error there would name the same things
            return OTHER_NAMES
        # (another file and other names: of a file run that was not there or a shell could
        # not run or write, not seen before either, queries.its_file_is_the_error)
        if row.get("other_file"):
            # (of `error`'s path: other_file_kind)
            return OTHER_FILE.replace("file", other_file_kind(row, error))
        return "same error signature"
    if row["matched"] == "all words":
        return "same words, maybe another error"
    if row["matched"] in SAYS_LITTLE:
        return SAYS_LITTLE[row["matched"]]
    shared = row.get("shared_words") or []
    return f"partial: shares {', '.join(shared)}" if shared else "partial"


# What a card says beside a resume command whose id is not the session's (resume_note).
RESUMED_IN_FILE = "the id of the file it was resumed into"


def resume_note(row: dict[str, Any]) -> str | None:
    """Why a row's resume command names another id than its session's, None when it names
    that one: Claude Code 1.0.x wrote a resumed session's lines, under a new id, into the
    file of the session it resumed, and `claude --resume` opens a file by its name
    (agents.resume_command). A card giving `claude --resume aaaa...` under session
    `bbbb...` read as a mistake."""
    resume, session_id = row.get("resume"), row.get("session_id")
    if not resume or not session_id:  # rows of a query without the session's id
        return None
    try:
        named = shlex.split(resume)[-1]
    except ValueError:
        return None
    return RESUMED_IN_FILE if named != session_id else None


# A card's line for a row met on the way to another goal (format_hit), before its programs.
OTHER_GOAL_WAY = "way:    only worked around there, on the way to another goal; its way round"


def ways_round(rows: Iterable[dict[str, Any]]) -> list[str]:
    """The programs the ways round of rows met on the way to another goal ran
    (queries.another_goal), each once: the hook's one line and find's card name them
    instead of their steps, which were that goal's, never this call's fix (nu45 finding 2,
    nu48 finding 3). Its remedy's commands, not its edits, then the call that got past it
    (`npm install sql.js`, then `node -e ...` that used it); another tool's step by the
    tool (a Grep of a JSON file instead of jq was named by its file: nu48 finding 5)."""
    ran: dict[str, None] = {}
    for row in rows:
        steps = [step for step in remedy_steps(row) if not step["edits"]]
        calls: list[tuple[str | None, object]] = [(s["tool"], s["target"]) for s in steps]
        if row.get("fix_target") not in [step["target"] for step in steps]:
            calls.append((None, row.get("fix_target")))  # (its tool is not in the row)
        for tool, command in calls:
            if tool is not None and tool not in agents.tools(agents.SHELL):
                ran[tool] = None
            elif isinstance(command, str):
                ran.update(
                    (intent.program, None) for intent in fixes.intents(command) if intent.program
                )
    return list(ran)


def other_goal_notice(rows: list[dict[str, Any]]) -> str | None:
    """What `pastfix find --command`, the MCP tool and the find page say when the error was
    seen before (queries.seen_before) and some of its rows were met on the way to another goal
    (queries.with_goals): that those were only worked around there, and what their ways round ran
    (ways_round), no fix for this command. MCP said `seen_before: true` of
    `sudo: a password is required` for `apt-get install -y jq`, by two rows of it not fixed,
    beside a way round to sqlite3 given as that row's remedy (nu48 finding 3)."""
    around = [row for row in rows if row.get("other_goal") and row.get("fixed_at")]
    if not around or not seen_before(rows):
        return None
    ran = ways_round(around)
    one = len(around) == 1
    return (
        f"{'The failure' if one else f'The {len(around)} failures'} marked {OTHER_GOAL!r}"
        f" {'was' if one else 'were'} only worked around there, on the way to another goal"
        f"{' (its way round ran ' + ', '.join(ran[:3]) + ')' if ran else ''}:"
        " no fix for this command."
    )


def format_hit(
    number: int,
    row: dict[str, Any],
    mark: tuple[str, str] = ("[", "]"),
    error: str = "",
    substrings: bool = False,
    same: Iterable[dict[str, Any]] = (),
    words_only: bool = False,
) -> str:
    """A find_past_fix row (as find_past_fix() returns it) as a few terminal lines.

    The words of `error` are wrapped in `mark` (inside other words too with `substrings`,
    for the trigram tokenizer). `words_only`: say that an `all words` row holds the
    error's words, not its signature (when rows of the error itself came before it).
    """
    snippet = "\n           ".join(
        one_line(part, 300) for part in row["error_snippet"].splitlines()[:2]
    )
    snippet = mark_words(snippet, error, *mark, substrings=substrings)
    times = f", {row['occurrences']} times in this session" if row["occurrences"] > 1 else ""
    noise = f" ({row['kind'].replace('_', ' ')})" if row["kind"] not in (None, "error") else ""
    how = how_matched(row, error)
    weak = (
        f"  [{how}]"
        if row["matched"] in ("some words", *SAYS_LITTLE)
        or (words_only and row["matched"] == "all words")
        or row.get("other_goal")
        else ""
    )
    badge = agents.badge(row.get("agent"))
    agent = f" ({badge})" if badge else ""
    where = f" in {row['project']}" if row["project"] else ""
    lines = [
        f"{number}. {row['tool'] or '?'}{agent} failed{noise} {_when(row['failed_at'])}"
        f"{where}{times}{weak}",
    ]
    if row["session_title"]:
        lines.append(f"   session: {one_line(row['session_title'], 100)}")
    if question := asked(row):
        lines.append(f"   asked:   {one_line(question, 100)}")
    # A shell call ran its command; a Read or Glob did not "run" a path (`ran: /home/u/app/src`).
    ran = row["tool"] in agents.tools(agents.SHELL)
    target = row["target"] if ran else in_project(row["target"], row["project"])
    lines += [
        f"   {'ran:' if ran else 'on: '}    {one_line(target, 200)}",
        f"   error:  {snippet}",
    ]
    # Why a failure whose text is not the pasted one matched; the same text needs no reason.
    if row["matched"] == "signature" and not row.get("same_text"):
        signature = signature_shown(row)
        lines.append(f"   {how}" + (f": {one_line(signature, 200)}" if signature else ""))
    if row["fixed_at"] and row.get("other_goal"):
        # its steps were that goal's: named by their programs, as the hook's one line
        programs = ways_round([row])
        lines.append(
            f"   {OTHER_GOAL_WAY}{' ran ' + ', '.join(programs[:3]) if programs else ''}:"
            " no fix for this command"
        )
    elif row["fixed_at"]:
        words = fix_words(row)
        for step in remedy_steps(row)[:FIX_STEPS_SHOWN]:
            if step["edits"]:
                count = f" ({step['count']} edits)" if step["count"] > 1 else ""
                path = in_project(step["path"], row["project"]) or "a patch"
                # what the edit made again changed, beside its lines (a longer old_string)
                change = f"  (changed: {step['change']})" if step["change"] else ""
                lines.append(f"   {words['step']:<7} edit {path}{count}{change}")
                diff = [line for edit in step["edits"] for line in edit_lines(edit)]
                lines += [
                    f"             {sign} {one_line(text, 150)}" for sign, text in diff[:DIFF_SHOWN]
                ]
                if len(diff) > DIFF_SHOWN:
                    left = len(diff) - DIFF_SHOWN
                    lines.append(f"             … {left} more line{'s' * (left > 1)}")
            else:
                change = f"  (changed: {step['change']})" if step["change"] else ""
                target = in_project(step["target"], row["project"])
                lines.append(
                    f"   {words['step']:<7} {step['tool']} {one_line(target, 200)}{change}"
                )
        steps = remedy_steps(row)
        confirm = confirming_step(steps, FIX_STEPS_SHOWN)
        if confirm["shown"]:
            # (worked around: another way to the same end, not the failed call made to work)
            lines.append(f"   {words['said']} that call {succeeded(row)}")
        elif same_call_again(row) and not went_on(row):
            # (what came next after a stop is listed as it was: `then: Bash rm -rf dist`)
            lines.append(f"   {words['confirmed']:<7} {SAME_CALL_AGAIN} {succeeded(row)}")
        elif outside_the_session(row) and not went_on(row):
            target = in_project(row["fix_target"], row["project"])
            lines.append(
                f"   {words['confirmed']:<7} {OUTSIDE_THE_SESSION} {row['tool']}"
                f" {one_line(target, 200)} {outside_went(row)}"
            )
        else:
            target = in_project(row["fix_target"], row["project"])
            failed_target = in_project(row.get("target"), row["project"])
            tool = confirm["tool"] or row["tool"]
            lines.append(
                f"   {words['confirmed']:<7} {tool} {where_it_differs(target, failed_target, 200)}"
                f" {succeeded(row)}"
            )
        if went_on(row):
            lines.append(
                f"   outcome: what came next there {went_on_outcome(row)}"
                " (no fix of yours: the paste names no error)"
            )
        for call, made in fold_calls(row["fix_calls"]):
            state = "" if call["ok"] else " (failed)"
            target = in_project(call["target"], row["project"])
            again = f" ({made} times)" if made > 1 else ""
            lines.append(f"   before: {call['tool']} {one_line(target, 150)}{state}{again}")
        if unsolved := left_unsolved(row):
            lines.append(f"   also:   {unsolved}")
    else:
        said = not_fixed_words(row)
        lines.append(f"   fixed:  {said['fixed']}, {said['why']}")
        for n, step in enumerate(next_steps(row)):
            lines.append(f"   {'then:' if n == 0 else '':<7} {one_line(step['text'], 200)}")
        if files := files_edited(row):
            lines.append(f"   edited: {', '.join(files)}")
    if row["next_text"]:
        lines.append(f"   next:   {one_line(row['next_text'], 300)}")
    gone = row.get("transcript_deleted_at")
    # `claude --resume` needs the transcript: the index is all that is left of it
    kept = f" (transcript deleted on {gone[:10]}; kept in the index)" if gone else ""
    if row["resume"]:
        note = f" ({note})" if (note := resume_note(row)) else ""
        lines.append(f"   resume: {row['resume']}{note}{kept}")
    elif kept:
        lines.append(f"   {kept.strip(' ()')}")
    others = [
        f"{one_line(other['session_title'] or other['session_id'], 60)} ({day(other['failed_at'])})"
        for other in same
    ]
    if others:
        lines.append(f"   same fix in {len(others) + 1} sessions; also: {', '.join(others)}")
    return "\n".join(lines)


# A search_messages snippet's marks of the words matched (queries.snippet_html).
_MARK = lazy(r"<(/?)mark>")


def format_message(number: int, row: dict[str, Any], mark: tuple[str, str] = ("[", "]")) -> str:
    """A search_messages row as a few terminal lines (`pastfix search`): who said it,
    when and where, the text around the words (wrapped in `mark`), and how to resume."""
    if row["is_meta"]:
        # hook output, a reminder, AGENTS.md: the agent's, in every turn it was injected
        copies = f", {row['copies']} copies" if row["copies"] > 1 else ""
        who = f"text the agent injected{copies}"
    else:
        kind = {"text": "reply", "tool_use": "tool call"}.get(row["kind"], row["kind"] or "")
        who = f"{row['role']} {kind.replace('_', ' ')}".strip()
    if row["is_sidechain"]:
        who += " (subagent)"
    where = f" in {row['project']}" if row["project"] else ""
    weak = "  [some words]" if row["matched"] == "some words" else ""
    # (marked after the cut, which may fall inside a mark: a bold left open ran on)
    text = _MARK.sub(lambda m: SNIPPET_CLOSE if m.group(1) else SNIPPET_OPEN, row["snippet"] or "")
    text = one_line(html.unescape(text), 400)
    text += SNIPPET_CLOSE * (text.rfind(SNIPPET_OPEN) > text.rfind(SNIPPET_CLOSE))
    text = text.replace(SNIPPET_OPEN, mark[0]).replace(SNIPPET_CLOSE, mark[1])
    lines = [f"{number}. {who} {_when(row['timestamp'])}{where}{weak}", f"   {text}"]
    if row["session_title"]:
        lines.append(f"   session: {one_line(row['session_title'], 100)}")
    lines.append(f"   resume: {row['resume'] or row['session_id']}")
    return "\n".join(lines)


def patch_lines(patch: str | None) -> list[tuple[str, str]]:
    """The lines of an apply_patch patch as ("-"|"+"|" "|"…", line), its headers left out."""
    shown: list[tuple[str, str]] = []
    for line in (patch or "").splitlines():
        if line.startswith("***"):
            continue
        if line.startswith("@@"):
            if shown:
                shown.append(("…", ""))
        elif line[:1] in ("-", "+", " "):
            shown.append((line[0], line[1:]))
    return shown


# What a card or page says of a time it cannot take as one (known_time).
UNKNOWN_TIME = "at an unknown time"


def day(timestamp: str | None) -> str:
    """A row's timestamp as its date (`2026-02-12`, UTC), `unknown date` when it is no time."""
    moment = known_time(timestamp)
    return moment.strftime("%Y-%m-%d") if moment else "unknown date"


def _when(timestamp: str | None) -> str:
    """A row's timestamp as `2026-02-12 21:03 UTC`, or UNKNOWN_TIME (known_time).

    Agents write UTC (`...Z`). One with another offset (`+05:30`) is said in UTC too,
    where its clock time was shown as UTC.
    """
    moment = known_time(timestamp)
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else UNKNOWN_TIME
