"""The pages over every index (pastfix.plugin.team): /-/pastfix/find, search and recurring,
with two indexes under other names than index, beside a database pastfix did not build."""

import html
import re
import shutil
import sqlite3
from urllib.parse import urlencode

import pytest
from conftest import build_index
from corpus import ENOENT, HOSTILE, write_corpus
from datasette.app import Datasette
from datasette.database import QueryInterrupted

from pastfix import LATEST_MIGRATION, queries, signatures

PAGES = {
    "find": ["error", "limit"],
    "search": ["q"],
    "recurring": ["project", "noise"],
    "all": ["q"],
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """alice.db (the app project's session), bob.db (the lib project's), notes.db (not ours),
    old.db (alice's index from an older pastfix) and broken.db (alice's, missing an index
    find_past_fix names)."""
    root = tmp_path_factory.mktemp("team")
    projects = write_corpus(root)
    build_index(root / "alice.db", projects / "-home-u-app")
    build_index(root / "bob.db", projects / "-home-u-lib")
    with sqlite3.connect(root / "notes.db") as notes:
        notes.execute("create table sessions (session_id text primary key, title text)")
        notes.execute("insert into sessions values ('s1', 'not pastfix')")
    shutil.copy(root / "alice.db", root / "old.db")
    shutil.copy(root / "alice.db", root / "broken.db")
    with sqlite3.connect(root / "old.db") as old:
        old.execute("delete from _sqlite_migrations where name = ?", [LATEST_MIGRATION])
    with sqlite3.connect(root / "broken.db") as broken:
        broken.execute("drop index idx_tr_signature")
    return {path.stem: str(path) for path in root.glob("*.db")}


@pytest.fixture
def ds(files):
    return Datasette([files[name] for name in ("alice", "bob", "notes")])


async def get_json(ds, path, **params):
    response = await ds.client.get(path, params=params)
    assert response.status_code == 200, response.text[:500]
    return response.json()


def expected_find(files, name, error, **params):
    """find_past_fix's rows in one index, as the page labels them."""
    conn = queries.connect(files[name])
    try:
        rows = queries.find_past_fix(conn, error, **params)
    finally:
        conn.close()
    find_url = f"/{name}/find_past_fix?" + urlencode({"error": error, "limit": ""})
    return [{"database": name, "find_url": find_url, **row} for row in rows]


@pytest.mark.asyncio
async def test_find_merges_every_index(ds, files):
    data = await get_json(ds, "/-/pastfix/find.json", error="ENOENT dist/index.js")
    assert list(data) == ["ok", "query", "params", "databases", "skipped", "rows", "notice"]
    assert data["ok"] is True and data["notice"] is None and data["query"] == "find_past_fix"
    assert data["params"] == {"error": "ENOENT dist/index.js", "limit": ""}
    # notes.db is not an index: left out without a word.
    assert data["databases"] == ["alice", "bob"] and data["skipped"] == []
    # Both rank first in their index, with every word: the most recent comes first.
    alice = expected_find(files, "alice", "ENOENT dist/index.js")
    bob = expected_find(files, "bob", "ENOENT dist/index.js")
    assert data["rows"] == [*bob, *alice]
    assert [(r["database"], r["session_id"], r["tool_use_id"]) for r in data["rows"]] == [
        ("bob", "s2", "u1"),
        ("alice", "s1", "t1"),
    ]
    assert data["rows"][1]["session_url"] == "/alice/-/session/s1?call=t1#call-t1"
    assert data["rows"][0]["fix_edits"][0]["tool"] == "Write"  # JSON columns decoded


@pytest.mark.asyncio
async def test_find_limit_is_over_every_index(ds):
    for limit, count in [("1", 1), ("", 2), ("abc", 2), ("-3", 1), ("99999999999999999999", 2)]:
        data = await get_json(ds, "/-/pastfix/find.json", error="ENOENT", limit=limit)
        assert len(data["rows"]) == count, limit
    assert [queries.find_limit(v) for v in ["", None, "0", "5", " 7 ", "x", "100000", "-1"]] == [
        20,
        20,
        20,
        5,
        7,
        20,
        queries.FIND_MAX,
        1,
    ]


def test_merge_keeps_one_index_in_its_own_order(files):
    conn = queries.connect(files["alice"])
    try:
        for error in ["ENOENT", "EISDIR zzzunknown", "Exit code 1", "npm run build", "a"]:
            rows = queries.find_past_fix(conn, error)
            assert queries.merge_find_rows([rows]) == rows, error
    finally:
        conn.close()


def test_merge_by_class_then_rank_in_its_index():
    def row(name, n, matched, kind="error", score=-1.0, at="2026-01-01", **more):
        return {
            "id": f"{name}{n}",
            "matched": matched,
            "kind": kind,
            "score": score,
            "failed_at": at,
            "same_text": 0,
            "text_distance": 3,
            "other_folder": 0,
            "other_file": 0,
            "other_names": 0,
            "fixed_at": None,
            "shared_words": [],
            **more,
        }

    a = [row("a", 1, "all words", score=-9.0), row("a", 2, "all words", score=-8.0)]
    b = [
        row("b", 1, "signature", score=None),
        row("b", 2, "all words", score=-0.5, at="2026-02-01"),
        row("b", 3, "all words", kind="rejected", score=-20.0),
    ]
    c = [row("c", 1, "some words", score=-30.0)]
    merged = [r["id"] for r in queries.merge_find_rows([a, b, c])]
    # bm25 is not compared across indexes: b2 (-0.5) ranks first of its class in b, beside a1.
    # c1, a near match, goes: the other indexes saw the error.
    assert merged == ["b1", "b2", "a1", "a2", "b3"]
    # The pasted text itself first, then the closest text, then a fixed failure.
    d = [
        row("d", 1, "signature", text_distance=1, fixed_at="2026-01-02"),
        row("d", 2, "signature", text_distance=1),
    ]
    e = [row("e", 1, "signature", same_text=1, text_distance=0), row("e", 2, "signature")]
    assert [r["id"] for r in queries.merge_find_rows([d, e])] == ["e1", "d1", "d2", "e2"]
    # No index saw it: NEAR_LIMIT near matches at most.
    near = [[row(x, n, "some words") for n in range(3)] for x in "fg"]
    assert [r["id"] for r in queries.merge_find_rows(near)] == ["f0", "g0", "f1"]


@pytest.mark.asyncio
async def test_search_takes_the_best_of_each_index_first(ds):
    data = await get_json(ds, "/-/pastfix/search.json", q="missing")
    assert data["query"] == "search_messages"
    assert data["params"] == {"q": "missing", "project": ""}
    assert [(r["database"], r["uuid"], r["session_url"]) for r in data["rows"]] == [
        ("bob", "s2-main-4", "/bob/-/session/s2?msg=s2-main-4#msg-s2-main-4"),
        ("alice", "s1-main-5", "/alice/-/session/s1?msg=s1-main-5#msg-s1-main-5"),
    ]
    assert data["rows"][0]["snippet"] == "Creating the <mark>missing</mark> dist/index.js."


@pytest.mark.asyncio
async def test_recurring_adds_up_a_signature_over_every_index(ds):
    data = await get_json(ds, "/-/pastfix/recurring.json", project="", noise="")
    enoent = signature_row(data, "Error: ENOENT")
    assert enoent["failures"] == 2 and enoent["sessions"] == 2 and enoent["projects"] == 2
    assert [(s["database"], s["failures"]) for s in enoent["databases"]] == [
        ("alice", 1),
        ("bob", 1),
    ]
    assert enoent["databases"][1]["find_url"].startswith("/bob/find_past_fix?error=")
    assert enoent["first_seen"] < enoent["last_seen"] and enoent["agents"] == "claude"
    # Real errors first, the most failures first.
    assert data["rows"][0] is not None and data["rows"][0]["signature"] == enoent["signature"]
    kinds = [r["kind"] for r in data["rows"]]
    assert kinds == sorted(kinds, key=lambda kind: kind != "error")
    # noise=hide leaves Claude Code's own noise out, in every index; project narrows.
    hidden = await get_json(ds, "/-/pastfix/recurring.json", noise="hide")
    assert {r["kind"] for r in hidden["rows"]} == {"error"}
    lib = await get_json(ds, "/-/pastfix/recurring.json", project="u/lib")
    assert {s["database"] for r in lib["rows"] for s in r["databases"]} == {"bob"}


def signature_row(data, text):
    return next(r for r in data["rows"] if text in r["signature"])


@pytest.mark.asyncio
async def test_find_page_labels_every_card_with_its_index(ds):
    response = await ds.client.get("/-/pastfix/find", params={"error": "ENOENT dist/index.js"})
    assert response.status_code == 200
    page = response.text
    assert '<link rel="stylesheet" href="/-/pastfix.css">' in page
    assert page.count('<article class="pf-card') == 2
    first, second = page.index('id="hit-1"'), page.index('id="hit-2"')
    assert first < page.index('href="/bob/-/session/s2?call=u1#call-u1"') < second
    assert second < page.index('href="/alice/-/session/s1?call=t1#call-t1"')
    badge = '<a class="pf-badge pf-db" href="/alice/find_past_fix?error=ENOENT+dist%2Findex.js'
    assert badge + '&amp;limit="' in page
    assert "2 past failures in 2 sessions" in " ".join(page.split())
    assert '<a href="/-/pastfix/find.json?error=ENOENT+dist%2Findex.js&amp;limit=">JSON</a>' in page
    none = (await ds.client.get("/-/pastfix/find", params={"error": "zzz nothing"})).text
    assert "<strong>Not seen before</strong> in any index." in none
    assert 'href="/-/pastfix/search?q=zzz+nothing"' in none


@pytest.mark.asyncio
async def test_find_page_says_which_line_of_the_paste_its_cards_are_of(ds):
    """Two errors pasted, each seen before: the cards are the key line's, and the page over
    every index names the other line, as the find page of one index, `pastfix find` and MCP
    do (queries.by_which_line); a paste whose key line no index saw: the cards are those of
    another error line of it, in every index that saw that line, and the page says so."""
    enoent = signatures.key_line(ENOENT)
    paste = f"EISDIR: illegal operation on a directory, read\n{enoent}"
    page = (await ds.client.get("/-/pastfix/find", params={"error": paste})).text
    notice = " ".join(page.split('<div class="pf-notice pf-unseen">')[1].split("</p>")[0].split())
    assert html.unescape(notice) == (
        "<p>The failures below are of its key line, 'EISDIR: illegal operation on a"
        " directory, read'; another error line of it was seen before too, \"Error: ENOENT: no"
        " such file or directory, open '/home/u/app/dist/index.js'\": paste that line alone to"
        " find its failures."
    )
    assert set(re.findall(r'<a href="/(\w+)/-/session/(\w+)\?call=', page)) == {("alice", "s1")}
    data = await get_json(ds, "/-/pastfix/find.json", error=paste)
    assert data["notice"] == html.unescape(notice)[3:]
    log = f"[2026-04-01 10:22:03] ERROR: step 'build' failed in /home/me/zzzproj\n{enoent}"
    page = (await ds.client.get("/-/pastfix/find", params={"error": log})).text
    assert "was not seen before; another error line of it was" in " ".join(page.split())
    assert "<strong>Not seen before</strong>" not in page
    sessions = set(re.findall(r'<a href="/(\w+)/-/session/(\w+)\?call=', page))
    assert sessions == {("alice", "s1"), ("bob", "s2")}
    data = await get_json(ds, "/-/pastfix/find.json", error=log)
    assert {(r["database"], r["matched"]) for r in data["rows"]} == {
        ("alice", "signature"),
        ("bob", "signature"),
    }


@pytest.mark.asyncio
async def test_search_and_recurring_pages(ds):
    search = (await ds.client.get("/-/pastfix/search", params={"q": "missing"})).text
    assert search.index("/bob/-/session/s2?msg=") < search.index("/alice/-/session/s1?msg=")
    assert "Creating the <mark>missing</mark> dist/index.js." in search
    recurring = (await ds.client.get("/-/pastfix/recurring")).text
    assert ">alice: 1</a>" in recurring and ">bob: 1</a>" in recurring
    assert 'href="/-/pastfix/find?error=' in recurring


@pytest.mark.asyncio
async def test_search_everything_leads_to_the_session_at_each_hit(ds):
    data = await get_json(ds, "/-/pastfix/all.json", q="ENOENT")
    assert list(data) == ["ok", "params", "databases", "skipped", "failures", "messages", "outputs"]
    assert [(r["database"], r["session_url"]) for r in data["failures"]] == [
        ("bob", "/bob/-/session/s2?call=u1#call-u1"),
        ("alice", "/alice/-/session/s1?call=t1#call-t1"),
    ]
    assert "<mark>ENOENT</mark>" in data["failures"][0]["error_snippet_html"]
    # Each failure leads to the find page for its own error, over every index.
    assert data["failures"][0]["find_url"].startswith("/-/pastfix/find?error=Error%3A+ENOENT")
    missing = await get_json(ds, "/-/pastfix/all.json", q="missing")
    assert [r["session_url"] for r in missing["messages"]] == [
        "/bob/-/session/s2?msg=s2-main-4#msg-s2-main-4",
        "/alice/-/session/s1?msg=s1-main-5#msg-s1-main-5",
    ]
    # The menu's "Search all tables" (/-/search) is this page while an index is served.
    page = (await ds.client.get("/-/search", params={"q": "ENOENT"})).text
    assert '<h1 class="pf-find-title">Search everything</h1>' in page
    assert 'href="/bob/-/session/s2?call=u1#call-u1"' in page
    assert 'href="/-/pastfix/find?error=Error%3A+ENOENT' in page
    assert "<mark>ENOENT</mark>" in page


@pytest.mark.asyncio
async def test_search_everything_says_each_failures_outcome(ds):
    """A failure worked around (t4: a folder read as a file, then listed) was badged
    'fixed', and one not fixed (t6) linked to 'how it was fixed'."""
    page = (await ds.client.get("/-/search", params={"q": "EISDIR"})).text
    assert 'how it was fixed</a> <span class="pf-badge">worked around</span>' in page
    assert '<span class="pf-badge">fixed</span>' not in page
    page = (await ds.client.get("/-/search", params={"q": "not a match"})).text
    assert "find_past_fix: what came after</a></p>" in page
    assert "how it was fixed" not in page and 'pf-badge">fixed' not in page


@pytest.mark.asyncio
async def test_search_all_tables_is_left_to_search_all_without_an_index(files):
    ds = Datasette([files["notes"]])
    page = (await ds.client.get("/-/search", params={"q": "pastfix"})).text
    assert "Search everything" not in page and "Search all tables" in page
    home = (await ds.client.get("/")).text
    assert "<h1>Datasette</h1>" in home and "/-/pastfix/find" not in home


@pytest.mark.asyncio
async def test_the_home_page_and_the_menu_lead_to_the_pages_over_every_index(files):
    """Without -m metadata.yml the home page said only "Datasette"."""
    ds = Datasette([files["alice"], files["notes"]])
    await ds.invoke_startup()
    home = (await ds.client.get("/")).text
    assert "<h1>pastfix</h1>" in home
    assert '<a href="/-/pastfix/find">Find past fix</a> (paste an error)' in home
    assert '<a href="/-/search">search everything</a>' in home
    menu = (await ds.client.get("/alice/sessions")).text.split("nav-menu")[-1]
    assert '<a href="/-/pastfix/find">Find past fix</a>' in menu
    # A metadata file's own title and description win.
    ds = Datasette([files["alice"]], metadata={"title": "Team", "description_html": "<b>Ours</b>"})
    await ds.invoke_startup()
    home = (await ds.client.get("/")).text
    assert "<h1>Team</h1>" in home and "<b>Ours</b>" in home and "how did I fix" not in home


@pytest.mark.asyncio
@pytest.mark.parametrize("text", HOSTILE)
async def test_hostile_input(ds, text):
    for name, params in PAGES.items():
        for fmt in ("", ".json"):
            response = await ds.client.get(
                f"/-/pastfix/{name}{fmt}", params={p: text for p in params}
            )
            assert response.status_code == 200, (name, fmt, response.text[:300])
            if fmt:
                assert response.json()["ok"] is True and response.json()["skipped"] == []
            else:
                assert "<script>alert(1)</script>" not in response.text


@pytest.mark.asyncio
async def test_bare_pages_and_bad_bytes(ds):
    for name in PAGES:
        for path in (f"/-/pastfix/{name}", f"/-/pastfix/{name}.json"):
            assert (await ds.client.get(path)).status_code == 200, path
        response = await ds.client.get(f"/-/pastfix/{name}?error=%ff%fe&q=%ff&project=%c3")
        assert response.status_code == 200
    assert (await ds.client.get("/-/pastfix/other")).status_code == 404
    assert (await ds.client.get("/-/pastfix/find.csv")).status_code == 404


@pytest.mark.asyncio
async def test_an_old_or_failing_index_is_named_and_left_out(files):
    ds = Datasette([files[name] for name in ("alice", "old", "broken", "notes")])
    data = await get_json(ds, "/-/pastfix/find.json", error="ENOENT")
    assert data["databases"] == ["alice", "broken"]
    assert data["skipped"] == [
        {
            "database": "old",
            "reason": (
                "built by an older pastfix: run `pastfix build` on it to bring it up to date"
            ),
        },
        {"database": "broken", "reason": "could not be read: no such index: idx_tr_signature"},
    ]
    assert {r["database"] for r in data["rows"]} == {"alice"}
    page = (await ds.client.get("/-/pastfix/find", params={"error": "ENOENT"})).text
    assert "<strong>old left out:</strong> built by an older pastfix" in page
    assert "<strong>broken left out:</strong> could not be read: no such index" in page


@pytest.mark.asyncio
async def test_one_index_and_none(files):
    one = Datasette([files["alice"]])
    data = await get_json(one, "/-/pastfix/find.json", error="ENOENT")
    assert data["databases"] == ["alice"]
    assert data["rows"] == expected_find(files, "alice", "ENOENT")
    none = Datasette([files["notes"]])
    assert (await get_json(none, "/-/pastfix/search.json", q="x"))["databases"] == []
    page = (await none.client.get("/-/pastfix/find", params={"error": "x"})).text
    assert "In 0 indexes" in page


@pytest.mark.asyncio
async def test_immutable_copies_are_read_and_left_unchanged(files, tmp_path):
    copies = [shutil.copy(files[name], tmp_path / f"{name}.db") for name in ("alice", "bob")]
    before = [open(path, "rb").read() for path in copies]
    ds = Datasette([], immutables=[str(path) for path in copies])
    data = await get_json(ds, "/-/pastfix/find.json", error="ENOENT")
    assert [r["database"] for r in data["rows"]] == ["bob", "alice"]
    assert (await ds.client.get("/alice/-/session/s1")).status_code == 200
    assert [open(path, "rb").read() for path in copies] == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice.db", "bob.db"]


@pytest.mark.asyncio
async def test_an_index_the_actor_may_not_see_is_left_out(files):
    metadata = {"databases": {"bob": {"allow": {"id": "nobody"}}}}
    ds = Datasette([files["alice"], files["bob"]], metadata=metadata)
    data = await get_json(ds, "/-/pastfix/find.json", error="ENOENT")
    assert data["databases"] == ["alice"] and data["skipped"] == []
    assert {r["database"] for r in data["rows"]} == {"alice"}


@pytest.mark.asyncio
async def test_an_index_slower_than_the_time_limit_is_named_and_left_out(files, monkeypatch):
    ds = Datasette([files["alice"], files["bob"]])
    await get_json(ds, "/-/pastfix/find.json", error="x")  # both known as indexes
    bob = ds.get_database("bob")

    async def interrupted(sql, params=None, **kwargs):
        raise QueryInterrupted(sqlite3.OperationalError("interrupted"), sql, params)

    monkeypatch.setattr(bob, "execute", interrupted)
    data = await get_json(ds, "/-/pastfix/search.json", q="missing")
    assert data["skipped"] == [
        {
            "database": "bob",
            "reason": "the query took longer than the time limit (sql_time_limit_ms)",
        }
    ]
    assert [r["database"] for r in data["rows"]] == ["alice"]


@pytest.mark.asyncio
async def test_a_tool_output_hit_shows_the_lines_that_hold_the_text(tmp_path):
    """A hit's excerpt starts 200 characters before the text: in a quarto render's log of
    short YAML lines (the fifth held-out set) those were ten lines, all the hit's box of
    12em showed, and the text was below them, out of sight. It starts 2 lines above now."""
    from jsonl import prompt, result, tool_use, write_jsonl

    log = "".join(f"  option-{i}: true\n" for i in range(15)) + "  bibliography: references.bib\n"
    sid = "5e551011-0000-4000-8000-0000000000aa"
    rows = [
        prompt("u1", sid, "render it", "2026-01-01T00:00:00Z"),
        tool_use("a1", sid, "t1", "Bash", {"command": "quarto render"}, "2026-01-01T00:00:01Z"),
        result("r1", sid, "t1", log + "Output created: index.html\n", "2026-01-01T00:00:02Z"),
    ]
    write_jsonl(tmp_path / "projects" / "-w-site" / f"{sid}.jsonl", rows)
    build_index(tmp_path / "index.db", tmp_path / "projects")
    data = await get_json(
        Datasette([str(tmp_path / "index.db")]), "/-/pastfix/all.json", q="references.bib"
    )
    [hit] = data["outputs"]
    assert hit["snippet"].startswith(
        "…  option-13: true\n  option-14: true\n  bibliography: <mark>references.bib</mark>"
    )


@pytest.mark.asyncio
async def test_search_everything_finds_failures_by_some_of_the_words_typed(tmp_path):
    """`ssh key github` said "Failures 0" of `git@github.com: Permission denied (publickey)`:
    find_past_fix reads the words as prose, and the failure holds github alone of them
    (publickey is one word). Failures holding some of the words follow those holding every
    word when fewer than SEARCH_FEW do, as messages do, marked so."""
    from jsonl import prompt, result, tool_use, write_jsonl

    denied = "Exit code 128\ngit@github.com: Permission denied (publickey).\nfatal: Could not read"
    lines = [prompt("p1", "k1", "push my branch", "2026-01-01T00:00:00Z")]
    for i, (command, output) in enumerate(
        [("git push", denied), ("make", "make: *** No rule to make target 'github'.  Stop.")]
    ):
        ts = f"2026-01-01T00:0{i}:"
        lines.append(tool_use(f"a{i}", "k1", f"t{i}", "Bash", {"command": command}, ts + "01Z"))
        lines.append(result(f"r{i}", "k1", f"t{i}", output, ts + "02Z", is_error=True))
    write_jsonl(tmp_path / "projects" / "-w-app" / "k1.jsonl", lines)
    build_index(tmp_path / "index.db", tmp_path / "projects")
    ds = Datasette([str(tmp_path / "index.db")])
    data = await get_json(ds, "/-/pastfix/all.json", q="ssh key github")
    hits = {r["tool_use_id"]: r for r in data["failures"]}
    assert sorted((t, r["matched"]) for t, r in hits.items()) == [
        ("t0", "some words"),
        ("t1", "some words"),
    ]
    assert "<mark>github</mark>.com: Permission denied" in hits["t0"]["error_snippet_html"]
    assert hits["t0"]["session_url"] == "/index/-/session/k1?call=t0#call-t0"
    page = (await ds.client.get("/-/search", params={"q": "ssh key github"})).text
    assert page.count('<span class="pf-badge pf-badge-weak" title="fewer than 3 hold') == 2
    # fewer than SEARCH_FEW failures hold every word: those first, then some words
    data = await get_json(ds, "/-/pastfix/all.json", q="github denied")
    assert [(r["tool_use_id"], r["matched"]) for r in data["failures"]] == [
        ("t0", "all words"),
        ("t1", "some words"),
    ]
