"""The Datasette plugin, in process: both loading modes, every canned query, hostile input,
session pages, links, /-/search and metadata."""

import html
import json
import re
import shutil
import sqlite3
import time
from urllib.parse import quote, urlencode

import pytest
import pytest_asyncio
import yaml
from conftest import ROOT, build_index
from corpus import ENOENT, FIND_COLUMNS, HOSTILE, LIB, session_page, write_corpus
from datasette.app import Datasette
from datasette.plugins import pm

import pastfix.plugin
from pastfix import LATEST_MIGRATION, queries, signatures
from pastfix.plugin import indexes, views

QUERIES = {
    "find_past_fix": ["error", "limit"],
    "recurring_errors": ["project", "noise"],
    "file_history": ["path"],
    "session_tool_output": ["session_id", "pattern"],
    "search_tool_output": ["pattern", "project"],
    "session_errors": ["session_id"],
    "search_messages": ["q", "project"],
    "recent_failures": ["project"],
}
HOOKS = [
    "asgi_wrapper",
    "canned_queries",
    "extra_body_script",
    "extra_css_urls",
    "extra_template_vars",
    "get_metadata",
    "menu_links",
    "prepare_connection",
    "register_routes",
    "render_cell",
    "startup",
]


# Datasette 1.0 stores canned queries (add_query); 0.65 asks the canned_queries hook.
DATASETTE_1 = hasattr(Datasette, "add_query")


@pytest.fixture(scope="module")
def databases(tmp_path_factory):
    """index.db and anyname.db (the same index), and other.db, which pastfix did not build."""
    root = tmp_path_factory.mktemp("dbs")
    index = root / "index.db"
    build_index(index, write_corpus(root))
    shutil.copy(index, root / "anyname.db")
    other = sqlite3.connect(root / "other.db")
    other.execute("create table sessions (session_id text primary key, title text)")
    other.execute("insert into sessions values ('s1', 'not pastfix')")
    other.execute("create table notes (session_id text, tool_use_id text, body text)")
    other.execute("insert into notes values ('s1', 't1', 'x')")
    other.commit()
    other.close()
    return [str(root / name) for name in ("index.db", "anyname.db", "other.db")]


@pytest.fixture(params=["entry point", "plugins dir"])
def loading(request):
    """Datasette arguments for each way of loading the plugin."""
    if request.param == "entry point":
        assert pm.get_plugin("pastfix") is pastfix.plugin
        yield {}
        return
    # A checkout that is not pip-installed: only the plugins/ shim registers the plugin.
    name = pm.get_name(pastfix.plugin)
    pm.unregister(pastfix.plugin)
    try:
        yield {"plugins_dir": str(ROOT / "plugins")}
    finally:
        for plugin in (pm.get_plugin("register_pastfix.py"), pastfix.plugin):
            if plugin is not None and pm.is_registered(plugin):
                pm.unregister(plugin)
        pm.register(pastfix.plugin, name=name)


@pytest_asyncio.fixture
async def ds(databases, loading):
    metadata = yaml.safe_load((ROOT / "metadata.yml").read_text())
    return Datasette(databases, metadata=metadata, template_dir=str(ROOT / "templates"), **loading)


@pytest.fixture
def conn(databases):
    conn = queries.connect(databases[0])
    yield conn
    conn.close()


async def get_json(ds, path, **params):
    response = await ds.client.get(path, params=params)
    assert response.status_code == 200, response.text[:500]
    return response.json()


async def offered_queries(ds, database):
    """The canned queries `database` offers, by name: title, params, description."""
    if not DATASETTE_1:
        return {q["name"]: q for q in (await get_json(ds, f"/{database}.json"))["queries"]}
    listed = (await get_json(ds, f"/{database}/-/queries.json"))["queries"]
    return {q["name"]: {**q, "params": q["parameters"]} for q in listed}


# -- loading, metadata, the queries on offer ----------------------------------------


@pytest.mark.asyncio
async def test_plugins_json(ds, loading):
    plugins = await get_json(ds, "/-/plugins.json")
    ours = [p for p in plugins if p["hooks"] == HOOKS]
    # pluggy remembers the distribution of the module, whoever registered it.
    assert ours == [
        {"name": "pastfix", "static": True, "templates": True, "version": "0.1.0", "hooks": HOOKS}
    ]
    names = [p["name"] for p in plugins]
    assert "datasette-search-all" in names
    if loading:
        assert pm.get_name(pastfix.plugin) == "pastfix.plugin"  # registered by the shim
        assert "register_pastfix.py" in names
    else:
        assert pm.get_name(pastfix.plugin) == "pastfix"  # the entry point
        assert "register_pastfix.py" not in names


@pytest.mark.asyncio
async def test_metadata_title_and_hidden_tables(ds):
    home = (await ds.client.get("/")).text
    assert "<h1>pastfix</h1>" in home
    assert '<a href="/-/pastfix/find">Find past fix</a>' in home
    tables = {t["name"]: t for t in (await get_json(ds, "/index.json"))["tables"]}
    assert tables["_sqlite_migrations"]["hidden"] is True
    assert not tables["sessions"]["hidden"] and not tables["tool_results"]["hidden"]
    page = (await ds.client.get("/index/tool_results")).text
    assert "Every tool_result block. Search covers the failed results only" in page


def test_metadata_tables_exist(databases):
    tables = indexes.METADATA["tables"]
    with sqlite3.connect(databases[0]) as db:
        names = {row[0] for row in db.execute("select name from sqlite_master")}
        for table, config in tables.items():
            assert table in names
            columns = {row[1] for row in db.execute(f"pragma table_info([{table}])")}
            assert set(config.get("columns", {})) <= columns, table
            named = [*config.get("facets", []), config.get("sort_desc", "id")]
            assert set(named) <= columns | {"id"}, table
        # Every internal table of the schema is hidden.
        internal = {n for n in names if n.startswith("_") and not n.startswith("_touched")}
        hidden = {t for t, c in tables.items() if c.get("hidden")}
        assert internal <= hidden


@pytest.mark.asyncio
async def test_every_index_is_described_without_a_metadata_file(databases):
    """Descriptions, facets, sort order and hidden tables come from the plugin, for any name."""
    ds = Datasette(databases)
    tables = {t["name"]: t for t in (await get_json(ds, "/anyname.json"))["tables"]}
    assert tables["_sqlite_migrations"]["hidden"] is True
    assert tables["_build_state"]["hidden"] is True
    database = (await ds.client.get("/anyname")).text
    assert "Coding agents&#39; sessions (Claude Code, Codex CLI, Gemini CLI" in database
    sessions = (await ds.client.get("/anyname/sessions")).text
    assert "One row per session of any agent" in sessions
    assert "The directory the session was started in" in sessions  # a column's description
    assert 'data-column="agent"' in sessions and "facet-info" in sessions
    rows = await get_json(ds, "/anyname/sessions.json", _shape="objects")
    last = [row["last_ts"] for row in rows["rows"]]
    assert last == sorted(last, reverse=True) and len(last) > 1
    facets = await get_json(ds, "/anyname/tool_results.json", _extra="facet_results")
    results = facets.get("facet_results", {})
    assert {"is_error", "kind"} <= set(results.get("results", results))
    # other.db has a sessions table too, and is described by nothing of pastfix's.
    other = (await ds.client.get("/other/sessions")).text
    assert "One row per session" not in other and "facet-info" not in other


@pytest.mark.asyncio
async def test_a_metadata_file_overrides_the_plugin(databases):
    tables = {"sessions": {"description": "Mine", "columns": {"project": "Where"}}}
    ds = Datasette(databases, metadata={"databases": {"index": {"tables": tables}}})
    page = (await ds.client.get("/index/sessions")).text
    assert "Mine" in page and "Where" in page
    assert "One row per session of any agent" not in page
    assert "One row per session of any agent" in (await ds.client.get("/anyname/sessions")).text


@pytest.mark.asyncio
@pytest.mark.parametrize("database", ["index", "anyname"])
async def test_queries_on_every_pastfix_database(ds, database):
    offered = await offered_queries(ds, database)
    titles = {name: queries.CANNED_QUERIES[name]["title"] for name in QUERIES}
    # 0.65 lists them in our order, 1.0 by title.
    assert list(offered) == (sorted(QUERIES, key=titles.get) if DATASETTE_1 else list(QUERIES))
    for name, params in QUERIES.items():
        assert offered[name]["title"] == titles[name]
        assert offered[name]["params"] == params
        # Each parameter is documented in the description shown on the query page.
        assert all(f"({param})" in offered[name]["description"] for param in params)


@pytest.mark.asyncio
async def test_no_queries_elsewhere(ds):
    assert (await get_json(ds, "/other.json"))["queries"] == []
    assert (await ds.client.get("/other/find_past_fix?error=x")).status_code == 404
    assert (await ds.client.get("/other/-/session/s1")).status_code == 404
    page = (await ds.client.get("/other/sessions")).text
    assert "/-/session/" not in page and "pastfix.css" not in page


# -- canned queries: whole rows ------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("database", ["index", "anyname"])
async def test_find_past_fix_json(ds, conn, database):
    path = f"/{database}/find_past_fix.json"
    # _json decodes the columns that hold JSON arrays, as queries.find_past_fix() does.
    decode = list(queries.JSON_COLUMNS)
    rows = await get_json(ds, path, error="ENOENT dist/index.js", _shape="array", _json=decode)
    expected = queries.find_past_fix(conn, "ENOENT dist/index.js")
    for row in expected:
        row["session_url"] = row["session_url"].replace("/index/", f"/{database}/", 1)
    assert rows == expected
    plain = await get_json(ds, path, error="ENOENT dist/index.js", _shape="array")
    assert [json.loads(r["fix_edits"]) for r in plain] == [r["fix_edits"] for r in rows]
    assert [(r["session_id"], r["tool_use_id"], r["next_ok_target"]) for r in rows] == [
        ("s2", "u1", "npm run build"),
        ("s1", "t1", "mkdir -p dist && npm run build"),
    ]
    error = "ENOENT dist/index.js"
    objects = await get_json(
        ds, path, error=error, _shape="objects", _extra="columns", _json=decode
    )
    assert objects["columns"] == FIND_COLUMNS
    assert objects["rows"] == rows
    assert objects["ok"] is True and objects["truncated"] is False
    # (1.0a41 fails with 500 on _shape=arrays with _json.)
    arrays = await get_json(ds, path, error=error, _shape="arrays", _extra="columns")
    assert arrays["columns"] == FIND_COLUMNS
    assert arrays["rows"] == [[row[c] for c in FIND_COLUMNS] for row in plain]
    # Without _shape, 0.65 answers with arrays, 1.0 with objects.
    default = await get_json(ds, path, error=error, _json=decode)
    assert default["rows"] == (
        rows if DATASETTE_1 else [[row[c] for c in FIND_COLUMNS] for row in rows]
    )


@pytest.mark.asyncio
async def test_other_queries_json(ds, conn):
    cases = [
        ("session_tool_output", {"session_id": "s1", "pattern": "100%"}),
        ("search_tool_output", {"pattern": "enoent", "project": ""}),
        ("search_tool_output", {"pattern": "ENOENT", "project": "u/lib"}),
        ("session_errors", {"session_id": "s3"}),
        ("search_messages", {"q": "missing", "project": ""}),
        ("search_messages", {"q": "missing", "project": "u/lib"}),
        ("recent_failures", {"project": "u/lib"}),
    ]
    for name, params in cases:
        rows = await get_json(ds, f"/index/{name}.json", _shape="array", **params)
        cursor = conn.execute(queries.CANNED_QUERIES[name]["sql"], params)
        columns = [d[0] for d in cursor.description]
        assert rows == [dict(zip(columns, row, strict=True)) for row in cursor], name
    outputs = await get_json(
        ds, "/index/session_tool_output.json", session_id="s1", pattern="100%", _shape="array"
    )
    assert [(r["tool_use_id"], r["tool"], r["is_error"]) for r in outputs] == [("t3", "Bash", 0)]
    everywhere = await get_json(
        ds, "/index/search_tool_output.json", pattern="enoent", project="", _shape="array"
    )
    assert [(r["tool_use_id"], r["session_id"]) for r in everywhere] == [
        ("u1", "s2"),
        ("t5", "s1"),
        ("t1", "s1"),
    ]
    errors = await get_json(ds, "/index/session_errors.json", session_id="s3", _shape="array")
    assert [(r["tool_use_id"], r["agent_id"], r["target"]) for r in errors] == [
        ("w1", "a1", f"{LIB}/missing.txt")
    ]
    recent = await get_json(ds, "/index/recent_failures.json", project="u/lib", _shape="array")
    assert [(r["tool_use_id"], r["error"]) for r in recent] == [
        ("w1", "<tool_use_error>File does not exist.</tool_use_error>"),
        ("u1", ENOENT),
    ]


# -- hostile input: always 200 -------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("text", HOSTILE)
async def test_hostile_input(ds, text):
    for name, params in QUERIES.items():
        for fmt in ("", ".json"):
            args = {param: text for param in params}
            response = await ds.client.get(f"/index/{name}{fmt}", params=args)
            assert response.status_code == 200, (name, fmt, response.text[:300])
            if fmt:
                assert response.json()["ok"] is True
            else:
                assert 'class="message-error"' not in response.text
    # The scoped search within a session that exists.
    rows = await get_json(
        ds, "/index/session_tool_output.json", session_id="s1", pattern=text, _shape="array"
    )
    assert all(r["session_id"] == "s1" for r in rows)


@pytest.mark.asyncio
@pytest.mark.parametrize("name", list(QUERIES))
async def test_bare_pages(ds, name):
    for path in (f"/index/{name}", f"/index/{name}.json", f"/anyname/{name}?_shape=array"):
        assert (await ds.client.get(path)).status_code == 200, path
    # Bytes that are not UTF-8 in the query string.
    assert (await ds.client.get(f"/index/{name}?{QUERIES[name][0]}=%FF%FE%00")).status_code == 200


@pytest.mark.asyncio
async def test_raw_mode(ds):
    raw = await get_json(
        ds, "/index/find_past_fix.json", error="raw: ENOENT OR EISDIR", _shape="array"
    )
    assert sorted(r["tool_use_id"] for r in raw) == ["t1", "t4", "u1"]
    broken = await get_json(
        ds, "/index/find_past_fix.json", error="raw: EISDIR AND", _shape="array"
    )
    assert [(r["tool_use_id"], r["matched"]) for r in broken] == [("t4", "some words")]


@pytest.mark.asyncio
async def test_recurring_errors_and_file_history_json(ds, conn):
    rows = await get_json(ds, "/index/recurring_errors.json", project="", noise="", _shape="array")
    assert rows == queries.run(conn, "recurring_errors", project="", noise="")
    # Two sessions failed the same build the same way: one signature, counted once each.
    assert (rows[0]["signature"], rows[0]["failures"], rows[0]["sessions"]) == (
        signatures.signature(ENOENT),
        2,
        2,
    )
    response = await ds.client.get(
        "/index/file_history.json", params={"path": "dist/index.js", "_shape": "array"}
    )
    history = response.json()
    assert [(r["session_id"], r["edits"], r["failed"]) for r in history] == [("s2", 1, 0)]


@pytest.mark.asyncio
async def test_find_past_fix_limit_over_http(ds):
    one = await get_json(ds, "/index/find_past_fix.json", error="ENOENT", limit="1", _shape="array")
    assert [r["tool_use_id"] for r in one] == ["u1"]
    every = await get_json(ds, "/index/find_past_fix.json", error="ENOENT", _shape="array")
    assert [r["tool_use_id"] for r in every] == ["u1", "t1"]


@pytest.mark.asyncio
async def test_signatures_link_to_find_past_fix(ds):
    page = (await ds.client.get("/index/recurring_errors", params={"project": ""})).text
    example = signatures.key_line(ENOENT)
    url = "/index/find_past_fix?" + urlencode({"error": example})
    assert f'<a href="{html.escape(url)}">{html.escape(signatures.signature(ENOENT))}</a>' in page
    table = (await ds.client.get("/index/tool_results", params={"tool_use_id": "t4"})).text
    signature = signatures.signature("EISDIR: illegal operation on a directory, read")
    url = "/index/find_past_fix?" + urlencode({"error": signature})
    assert f'<a href="{html.escape(url)}">{html.escape(signature)}</a>' in table
    found = await get_json(ds, "/index/find_past_fix.json", error=signature, _shape="array")
    assert [(r["tool_use_id"], r["matched"]) for r in found] == [("t4", "signature")]


# -- HTML: the find_past_fix page and links ------------------------------------------


@pytest.mark.asyncio
async def test_find_past_fix_page(ds):
    page = (await ds.client.get("/index/find_past_fix", params={"error": "EISDIR"})).text
    assert "<title>Find past fix - index</title>" in page
    assert 'body class="query db-index query-find_past_fix"' in page
    assert '<link rel="stylesheet" href="/-/pastfix.css">' in page
    # A form for a pasted error, no SQL chrome.
    assert '<textarea id="pf-error" name="error" rows="5"' in page
    assert ">EISDIR</textarea>" in page
    assert '<button type="submit">Find</button>' in page
    for chrome in ("Custom SQL query", "Query parameters", "Run SQL", '<pre id="sql-query">'):
        assert chrome not in page
    assert "1 past failure\n  in 1 session" in page
    [card] = re.findall(r'<article class="pf-card" id="hit-1">.*?</article>', page, re.S)
    assert '<a href="/index/-/session/s1?call=t4#call-t4">fix the build</a>' in card
    assert '<span class="pf-project">/home/u/app</span>' in card
    assert '<time datetime="2026-01-05T09:11:00.000Z" title="2026-01-05 09:11 UTC">' in card
    assert '<pre class="pf-command">/home/u/app/src</pre>' in card
    assert (
        '<pre class="pf-keyline"><mark>EISDIR</mark>: illegal operation on a directory, read</pre>'
        in card
    )
    # A folder read as a file, then the file in it: that Read is the remedy, and confirms it.
    assert '<h3 class="pf-fixed">Worked around 2 min later</h3>' in card
    assert (
        '<a href="/index/-/session/s1?call=t5#call-t5"><code class="pf-inline">src/index.js' in card
    )
    assert 'changed: <code class="pf-inline">src → src/index.js</code>' in card
    assert '<p class="pf-confirmed">That Read succeeded.</p>' in card
    assert '<blockquote class="pf-reply">That is a directory; reading the file inside it.' in card
    assert '<button type="button" class="pf-copy" data-copy="claude --resume s1">' in card
    # Empty fields are not shown.
    assert "Files edited" not in card and "pf-badge" not in card


@pytest.mark.asyncio
async def test_a_card_without_a_resume_command_shows_no_copy_button(tmp_path):
    """A session id that is an option of the agent gets no resume command (a security
    test, session 30): its card shows neither a command nor a Copy button, nor `None`."""
    import jsonl

    sid = "--dangerously-skip-permissions"
    at = "2026-01-01T10:00:0{}Z".format
    jsonl.write_jsonl(
        tmp_path / "projects" / "-w" / "notes.jsonl",
        [
            jsonl.tool_use("a1", sid, "t1", "Bash", {"command": "make zzopt"}, at(0)),
            jsonl.result("r1", sid, "t1", "make: *** zzopta Error 1", at(1), True),
        ],
    )
    index = tmp_path / "index.db"
    build_index(index, tmp_path / "projects")
    metadata = yaml.safe_load((ROOT / "metadata.yml").read_text())
    ds = Datasette([str(index)], metadata=metadata, template_dir=str(ROOT / "templates"))
    page = await ds.client.get("/index/find_past_fix", params={"error": "make: *** zzopta Error 1"})
    [card] = re.findall(r'<article class="pf-card" id="hit-1">.*?</article>', page.text, re.S)
    assert "zzopta" in card
    assert "pf-copy" not in card and "pf-resume" not in card and "None" not in card


@pytest.mark.asyncio
async def test_find_past_fix_page_shows_the_fix(ds):
    page = (await ds.client.get("/index/find_past_fix", params={"error": "ENOENT"})).text
    cards = re.findall(r'<article class="pf-card" id="hit-\d">.*?</article>', page, re.S)
    assert len(cards) == 2
    written, changed = cards
    assert '<a href="/index/-/session/s2?call=u1#call-u1">build lib</a>' in written
    assert '<h3 class="pf-fixed">Fixed 4 min later</h3>' in written
    # The remedy first, each step linked to its call: the Write, as a diff...
    assert (
        '<p class="pf-edit-file">Write <a href="/index/-/session/s2?call=u2#call-u2">'
        "<code>dist/index.js</code></a></p>" in written
    )
    assert '<pre class="pf-diff"><span class="pf-add">+ x</span></pre>' in written
    # ... then the unchanged retry that confirmed it.
    assert (
        'Then <span class="pf-tool">Bash</span> <a href="/index/-/session/s2?call=u3#call-u3">'
        '<code class="pf-inline">npm run build</code></a> succeeded.' in written
    )
    assert written.index('class="pf-remedy"') < written.index('class="pf-confirmed"')
    # A changed retry is itself a step, with what changed.
    assert '<code class="pf-inline">mkdir -p dist &amp;&amp; npm run build</code>' in changed
    assert 'changed: <code class="pf-inline">first mkdir -p dist</code>' in changed
    assert '<p class="pf-confirmed">That Bash succeeded.</p>' in changed


@pytest.mark.asyncio
async def test_find_past_fix_page_says_the_signature_only_of_another_text(ds):
    # Pasted as recorded, "Same error as yours: <signature>" repeated the key line.
    error = "EISDIR: illegal operation on a directory, read"
    page = (await ds.client.get("/index/find_past_fix", params={"error": error})).text
    assert "pf-card" in page and "Same error as yours" not in page
    # the same file: the same text
    same = "Error: ENOENT: no such file or directory, open '/home/u/app/dist/index.js'"
    page = (await ds.client.get("/index/find_past_fix", params={"error": same})).text
    assert "pf-card" in page and "Same error as yours" not in page
    # another file, or the same name in another folder (another file, as the hook says:
    # queries.another_path): the signature says why it matched, and that it is about another
    # file
    for other in ("/srv/x/a.js", "/srv/x/dist/index.js"):
        error = f"Error: ENOENT: no such file or directory, open '{other}'"
        page = (await ds.client.get("/index/find_past_fix", params={"error": error})).text
        assert (
            "Same error as yours, about another file: <code>Error: ENOENT: no such file or"
            " directory, open &lt;path&gt;/index.js" in page
        )
        assert "Not seen about this file" in page


@pytest.mark.asyncio
async def test_find_past_fix_page_says_an_exit_status_alone_says_little(ds):
    """`Exit code 1` pasted alone names no error: the failures that ended so are shown, with a
    notice that they may be of any error; an error with its lines gets none."""
    bare = (await ds.client.get("/index/find_past_fix", params={"error": "Exit code 1"})).text
    assert "pf-card" in bare
    notice = " ".join(bare.split('<div class="pf-notice pf-unseen">')[1].split("</p>")[0].split())
    assert notice == (
        "<p><strong>This says little.</strong> &#39;Exit code 1&#39; names"
        " no error, only how a command ended: the failures below ended so too, whatever went"
        " wrong in them. Paste the lines of the error above it to find that error."
    )
    words = (await ds.client.get("/index/find_past_fix", params={"error": "a"})).text
    assert "pf-card" in words and "names no error: only common words" in words
    error = "EISDIR: illegal operation on a directory, read"
    page = (await ds.client.get("/index/find_past_fix", params={"error": error})).text
    assert "pf-card" in page and "This says little" not in page


@pytest.mark.asyncio
async def test_find_past_fix_page_finds_a_paste_from_claude_codes_terminal(ds):
    """A failed call copied from Claude Code's terminal, `⎿  Error: Exit code 1` above its
    error: the page (and its JSON) said "Not seen before" while `pastfix find` found its
    failures by the error under the status (nu46 finding 1): one key line for both."""
    enoent = signatures.key_line(ENOENT)
    paste = f"⏺ Bash(npm run build)\n  ⎿  Error: Exit code 1\n     {enoent}"
    page = (await ds.client.get("/index/find_past_fix", params={"error": paste})).text
    assert "Not seen before" not in page and "pf-unseen" not in page
    assert "2 past failures\n  in 2 sessions" in page
    found = await get_json(ds, "/index/find_past_fix.json", error=paste, _shape="array")
    assert [(r["tool_use_id"], r["matched"]) for r in found] == [
        ("u1", "signature"),
        ("t1", "signature"),
    ]


@pytest.mark.asyncio
async def test_find_past_fix_page_names_a_second_error_of_the_paste(ds):
    """Two errors pasted, each seen before: the cards are the key line's, and the page names
    the other line, as `pastfix find` and MCP do (queries.by_which_line, nu46 finding 7)."""
    enoent = signatures.key_line(ENOENT)
    paste = f"EISDIR: illegal operation on a directory, read\n{enoent}"
    page = (await ds.client.get("/index/find_past_fix", params={"error": paste})).text
    notice = " ".join(page.split('<div class="pf-notice pf-unseen">')[1].split("</p>")[0].split())
    assert html.unescape(notice) == (
        "<p>The failures below are of its key line, 'EISDIR: illegal operation on a"
        " directory, read'; another error line of it was seen before too, \"Error: ENOENT: no"
        " such file or directory, open '/home/u/app/dist/index.js'\": paste that line alone to"
        " find its failures."
    )
    assert set(re.findall(r'<a href="/index/-/session/(\w+)\?call=', page)) == {"s1"}
    # a paste found by another of its lines: the cards are that line's, and the page says so
    log = f"[2026-04-01 10:22:03] ERROR: step 'build' failed in /home/me/zzzproj\n{enoent}"
    page = (await ds.client.get("/index/find_past_fix", params={"error": log})).text
    assert "was not seen before; another error line of it was" in " ".join(page.split())
    assert "<strong>Not seen before.</strong>" not in page
    assert set(re.findall(r'<a href="/index/-/session/(\w+)\?call=', page)) == {"s1", "s2"}


@pytest.mark.asyncio
async def test_find_pages_say_what_a_paste_in_another_language_was_read_as(status_index):
    """`bash: python: Kommando nicht gefunden.` finds the English `command not found` failure:
    the find page of the index and that over every index say which English message it was
    read as, as `pastfix find` and MCP do (queries.english_notice, session 39)."""
    ds = Datasette([str(status_index)])
    said = "<p>Read as its English message: 'bash: python: command not found'.</p>"
    for path in ("/index/find_past_fix", "/-/pastfix/find"):
        for error, notice in (
            ("bash: python: Kommando nicht gefunden.", True),
            ("bash: python: command not found", False),
        ):
            page = (await ds.client.get(path, params={"error": error})).text
            assert "/-/session/status127?call=" in page
            assert (said in html.unescape(page)) is notice, (path, error)


@pytest.mark.asyncio
async def test_find_past_fix_page_of_an_exit_status_alone_shows_the_failures_that_ended_so(
    status_index,
):
    """`Exit code 1` pasted alone: the cards of the failures that ended with it, not of
    `Exit code 127` or `Exit code 2` for the `1` in their output (corpus.STATUS_FAILURES)."""
    ds = Datasette([str(status_index)])
    page = (await ds.client.get("/index/find_past_fix", params={"error": "Exit code 1"})).text
    assert "This says little" in page
    assert page.count('<article class="pf-card"') == 1
    assert set(re.findall(r'<a href="/index/-/session/(\w+)\?call=', page)) == {"status1"}


@pytest.mark.asyncio
async def test_find_past_fix_page_not_seen_before(ds):
    weak = (await ds.client.get("/index/find_past_fix", params={"error": "EISDIR zzz"})).text
    notice = " ".join(weak.split('<div class="pf-notice pf-unseen">')[1].split("</p>")[0].split())
    assert notice == (
        "<p><strong>Not seen before.</strong> No past failure has this error's signature or"
        " every word of it. The failure below only shares <strong>EISDIR</strong> with it:"
        " a partial match, a different error, maybe a related one."
    )
    assert '<article class="pf-card pf-weak" id="hit-1">' in weak
    assert '<span class="pf-badge pf-badge-weak">some words</span>' in weak
    assert "pf-count" not in weak
    # another error's fix, under a heading of its own, grey and without the tick of a fix
    # of yours (nu44 finding 5: the same green "Fixed" as a real match)
    head = '<h2 class="pf-partial-head">Different errors that share words</h2>'
    assert weak.index("pf-unseen") < weak.index(head) < weak.index('id="hit-1"')
    assert 'class="pf-fixed"' not in weak
    assert '<h3 class="pf-unfixed">That error: ' in weak
    seen = (await ds.client.get("/index/find_past_fix", params={"error": "EISDIR"})).text
    assert 'class="pf-fixed"' in seen and head not in seen
    none = (await ds.client.get("/index/find_past_fix", params={"error": "zzz\nyyy"})).text
    assert "<strong>Not seen before.</strong>" in none
    assert "It may be the first time" in none
    assert '<a href="/index/search_tool_output?pattern=zzz&amp;project=">' in none
    assert '<a href="/index/search_messages?q=zzz">' in none
    assert "pf-card" not in none
    empty = (await ds.client.get("/index/find_past_fix")).text
    assert "No past failure" not in empty and "0 results" not in empty
    assert "past failure" not in empty.split("</form>")[1]


@pytest.mark.asyncio
async def test_find_page_of_an_index_no_build_has_finished_says_so(tmp_path):
    """While the first build runs the index is its schema only, to a reader: the page said
    "Not seen before" of every error, as `pastfix find` and the MCP tool did."""
    from pastfix import db as pdb

    path = tmp_path / "index.db"
    pdb.connect(path).close()  # the schema, as the first build leaves it until it ends
    metadata = yaml.safe_load((ROOT / "metadata.yml").read_text())
    page = await Datasette([str(path)], metadata=metadata).client.get(
        "/index/find_past_fix", params={"error": "EISDIR: illegal operation on a directory"}
    )
    assert page.status_code == 200
    assert "<strong>Nothing indexed yet.</strong>" in page.text
    assert "Not seen before" not in page.text
    (tmp_path / "empty").mkdir()
    build_index(path, tmp_path / "empty")  # finished, and found nothing: not seen
    page = await Datasette([str(path)], metadata=metadata).client.get(
        "/index/find_past_fix", params={"error": "EISDIR: illegal operation on a directory"}
    )
    assert "<strong>Not seen before.</strong>" in page.text
    assert "Nothing indexed yet" not in page.text


@pytest.mark.asyncio
async def test_snippets_are_escaped(ds):
    page = (await ds.client.get("/index/find_past_fix", params={"error": "alert"})).text
    assert (
        '<pre class="pf-keyline">&lt;script&gt;<mark>alert</mark>(1)&lt;/script&gt;'
        " &lt;mark&gt;not a match&lt;/mark&gt;</pre>" in page
    )
    assert "<script>alert" not in page


@pytest.mark.asyncio
async def test_session_links_everywhere(ds):
    anyname = (await ds.client.get("/anyname/find_past_fix", params={"error": "EISDIR"})).text
    assert '<a href="/anyname/-/session/s1?call=t4#call-t4">fix the build</a>' in anyname
    messages = (await ds.client.get("/index/messages?session_id=s2&_sort=id&_size=1")).text
    # session_id is a foreign key: Datasette labels it with the title, we link it to the page.
    assert (
        '<a href="/index/-/session/s2?msg=s2-main-1#msg-s2-main-1">build lib</a>&nbsp;<em>s2</em>'
        in messages
    )
    results = (await ds.client.get("/index/tool_results?tool_use_id=u1")).text
    assert '<a href="/index/-/session/s2?call=u1#call-u1">build lib</a>&nbsp;<em>s2</em>' in results
    sessions = (await ds.client.get("/index/sessions?session_id=s2")).text
    assert (
        '<td class="col-title type-str"><a href="/index/-/session/s2">build lib</a></td>'
        in sessions
    )
    row = (await ds.client.get("/index/sessions/s2")).text
    assert '<a href="/index/-/session/s2">s2</a>' in row
    search = (await ds.client.get("/index/search_messages", params={"q": "missing"})).text
    assert '<a href="/index/-/session/s2?msg=s2-main-4#msg-s2-main-4">s2</a>' in search
    assert "Creating the <mark>missing</mark> dist/index.js." in search
    errors = (await ds.client.get("/index/session_errors", params={"session_id": "s1"})).text
    assert '<a href="/index/-/session/s1?call=t6#call-t6">s1</a>' in errors


@pytest.mark.asyncio
async def test_css(ds):
    response = await ds.client.get("/-/pastfix.css")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/css; charset=utf-8"
    assert ".pf-card {" in response.text


# -- the session page ------------------------------------------------------------------


@pytest.mark.asyncio
async def test_session_page_html(ds):
    response = await ds.client.get("/index/-/session/s1")
    assert response.status_code == 200
    page = response.text
    assert '<h1 class="pf-session-title">fix the build</h1>' in page
    assert '<div class="pf-call pf-failed" id="call-t1">' in page
    assert '<div class="pf-result pf-error" id="result-t1">' in page
    # the Edit of build.js: a step of what fixed t1
    assert '<div class="pf-call pf-remedy-step" id="call-t2">' in page
    assert '<span class="pf-badge pf-badge-compact">conversation compacted</span>' in page
    assert '<span class="pf-badge pf-badge-compact">compaction summary</span>' in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert '<a href="/index/-/session/s1?call=t4#call-t4">' in page  # the failures list
    # which says what each failure said, not its `Exit code 1`
    start = page.index('<details class="pf-failures"')
    failures = page[start : page.index("</details>", start)]
    assert "Error: ENOENT: no such file or directory" in failures
    assert "Exit code 1" not in failures
    assert "<code>claude --resume s1</code>" in page
    assert 'href="/index/session_errors?session_id=s1">3 failed</a>' in page
    assert 'href="/index/-/session/s1.json?page=1">JSON</a>' in page
    assert page.index('id="call-t1"') < page.index('id="call-t2"') < page.index('id="call-t6"')
    # An edit shows its diff; what fixed a failure is marked on both sides.
    start = page.index('id="call-t2"')
    edit = page[start : page.index('<div class="pf-msg ', start)]
    assert '<span class="pf-badge pf-badge-remedy"' in edit
    assert '<span class="pf-del">- a</span><span class="pf-add">+ b</span>' in edit
    start = page.index('id="call-t1"')
    failed = page[start : page.index('<div class="pf-msg ', start)]
    assert (
        'Fixed: the remedy (<a href="/index/-/session/s1?call=t2#call-t2">step 1</a>,'
        ' <a href="/index/-/session/s1?call=t3#call-t3">step 2</a>); step 2 succeeded at it.'
    ) in " ".join(failed.split())


@pytest.mark.asyncio
async def test_session_page_says_what_a_rejection_said_and_came_to(tmp_path):
    """A rejection's line in the list of failures was cut at "To tell you how to proceed,
    the user said:", before the user's words; and nothing near its call said it needed no
    fix: its note read "Declined in this session" (an approved plan's, "Approved ...", under
    its long input, while its head said `failed`: a new user's try, nu46 finding 6). The
    list shows the words and each failure's outcome, the call's head and note the find
    card's words."""
    import jsonl

    sid = "66666666-6666-4666-8666-666666666666"
    at = "2026-01-01T10:00:0{}Z".format
    said = (
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg."
        " if it was a file edit, the new_string was NOT written to the file). To tell you how"
        " to proceed, the user said:\nuse port 8080 instead, the other one is taken"
    )
    jsonl.write_jsonl(
        tmp_path / "projects" / "-w" / f"{sid}.jsonl",
        [
            jsonl.tool_use("a1", sid, "t1", "Bash", {"command": "npm run dev"}, at(0)),
            jsonl.result("r1", sid, "t1", said, at(1), True),
        ],
    )
    index = tmp_path / "index.db"
    build_index(index, tmp_path / "projects")
    page = (await Datasette([str(index)]).client.get(f"/index/-/session/{sid}")).text
    start = page.index('<details class="pf-failures"')
    failures = " ".join(page[start : page.index("</details>", start)].split())
    assert (
        ": the user rejected it, saying: use port 8080 instead, the other one is taken"
        ' <span class="pf-muted">(Nothing to fix: the user said no)</span></li>'
    ) in failures
    call = " ".join(page[page.index('id="call-t1"') :].split())  # the session's last call
    assert (
        '<span class="pf-badge pf-badge-error">failed</span>'
        ' <span class="pf-muted">Nothing to fix: the user said no</span>'
    ) in call
    assert (
        "Nothing to fix: the user said no. The user rejected that call, so it never ran (or"
        " stopped or denied a look), and nothing soon after made it again.</p>"
    ) in call


@pytest.mark.asyncio
async def test_session_page_shows_a_timestamp_that_is_no_time_as_unknown_and_last(tmp_path):
    """`yesterday`, `2026-13-45T99:99:99Z` and `9999-12-31...` stood on the session page as
    written, as the session's span, the failures' and the messages' times, and sorted by
    their text (`2026-13-45` among the real times): the cards, the hook and the find page
    say they are unknown (queries.known_time), and the page now too, after the real ones."""
    import jsonl

    sid = "77777777-7777-4777-8777-777777777777"
    stamps = ["9999-12-31T00:00:00Z", "2026-01-01T10:00:00Z", "yesterday"]
    stamps += ["2026-13-45T99:99:99Z", "2026-01-01T09:00:00+05:00"]  # 04:00 UTC
    lines = []
    for n, stamp in enumerate(stamps):
        command = {"command": f"step{n}"}
        lines.append(jsonl.tool_use(f"a{n}", sid, f"t{n}", "Bash", command, stamp))
        lines.append(jsonl.result(f"r{n}", sid, f"t{n}", f"Exit code 1\nfail{n}", stamp, True))
    jsonl.write_jsonl(tmp_path / "projects" / "-w" / f"{sid}.jsonl", lines)
    index = tmp_path / "index.db"
    build_index(index, tmp_path / "projects")
    page = (await Datasette([str(index)]).client.get(f"/index/-/session/{sid}")).text
    unknown = {
        stamp: f'<span class="pf-muted" title="{stamp}">unknown time</span>' for stamp in stamps
    }
    start = page.index('<details class="pf-failures"')
    failures = page[start : page.index("</details>", start)]
    # the known ones in time order, then the rest as the transcript wrote them
    assert [int(n) for n in re.findall(r"fail(\d)", failures)] == [4, 1, 0, 2, 3]
    for n in (0, 2, 3):
        assert f'#call-t{n}">{unknown[stamps[n]]} Bash</a>' in failures
    assert '#call-t1">2026-01-01T10:00:00Z Bash</a>' in failures
    heads = re.findall(r'<a class="pf-anchor" href="#msg-(\w+)">(.*?)</a>', page)
    assert [uuid for uuid, _ in heads] == ["a4", "a1", "a0", "a2", "a3"]  # results: no text
    assert dict(heads)["a2"] == unknown["yesterday"]
    assert dict(heads)["a3"] == unknown["2026-13-45T99:99:99Z"]
    # no raw text stands as a time outside a title
    text = re.sub(r'title="[^"]*"', "", page)
    assert not any(stamp in text for stamp in ("yesterday", "2026-13-45", "9999-12-31"))


@pytest.mark.asyncio
async def test_session_page_marks_sidechains(ds):
    page = (await ds.client.get("/anyname/-/session/s3")).text
    assert 'class="pf-msg pf-assistant pf-kind-tool_use pf-sidechain" id="msg-s3-a1-2"' in page
    assert '<span class="pf-badge">sidechain a1</span>' in page
    assert '<div class="pf-call pf-failed" id="call-w1">' in page


@pytest.mark.asyncio
async def test_session_page_json(ds, conn):
    data = await get_json(ds, "/index/-/session/s1.json")
    expected = session_page(conn, "s1")
    assert data == json.loads(json.dumps({**expected, "links": {}}))
    assert data["messages"][2]["tool_calls"][0]["result"]["content"] == ENOENT


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "session_id", ["nope", "s1 ", "'", '"', "%", "..", "s1.csv", "a/b", "\x00"]
)
async def test_session_page_unknown(ds, session_id):
    response = await ds.client.get(f"/index/-/session/{quote(session_id, safe='')}")
    if response.status_code == 302:  # Datasette moves %-escapes to its ~ encoding
        response = await ds.client.get(response.headers["location"])
    assert response.status_code == 404


@pytest.mark.asyncio
async def test_session_page_of_the_first_characters_the_hook_names_it_by(tmp_path):
    """The hook and `pastfix find` name a session by its first 8 characters: that page is
    the whole id's (a redirect keeping the format and arguments); fewer characters, or
    characters two sessions share, name none."""
    from jsonl import prompt, write_jsonl

    ids = ["4d5611e5-0000-4000-8000-000000000001", "9abc0001-0000-4000-8000-000000000002"]
    ids.append("9abc0001-0000-4000-8000-000000000003")
    for sid in ids:
        write_jsonl(tmp_path / "p" / "x" / f"{sid}.jsonl", [prompt(f"u-{sid}", sid, "hi", "2026")])
    build_index(tmp_path / "index.db", tmp_path / "p")
    ds = Datasette([str(tmp_path / "index.db")])
    response = await ds.client.get("/index/-/session/4d5611e5?page=1")
    assert response.status_code == 302
    assert response.headers["location"] == f"/index/-/session/{ids[0]}?page=1"
    response = await ds.client.get("/index/-/session/4d5611e5.json")
    assert response.headers["location"] == f"/index/-/session/{ids[0]}.json"
    for prefix in ("4d5611e", "9abc0001"):
        assert (await ds.client.get(f"/index/-/session/{prefix}")).status_code == 404


@pytest.mark.asyncio
async def test_session_page_args_are_forgiving(ds):
    for args in ("?page=abc", "?page=-1", "?page=99", "?call=%27", "?msg=", "?call=t4&page=9"):
        response = await ds.client.get(f"/index/-/session/s1{args}")
        assert response.status_code == 200, args


# -- datasette-search-all ---------------------------------------------------------------


@pytest.mark.asyncio
async def test_search_all_covers_messages_and_failed_results(ds):
    # /-/search (the menu's "Search all tables") is pastfix's page over every index.
    page = (await ds.client.get("/-/search", params={"q": "ENOENT"})).text
    assert "Search everything" in page and "var searchable_tables" not in page
    assert 'href="/index/-/session/s1?call=t1#call-t1"' in page
    assert 'href="/anyname/-/session/s1?call=t1#call-t1"' in page
    # Datasette's own table search still finds them: failed results only (t1, u1, not t5).
    data = await get_json(
        ds,
        "/index/tool_results.json",
        _search="ENOENT",
        _shape="objects",
        _labels="on",
        _extra="count",
        _size="5",
    )
    # The page's script reads filtered_table_rows_count (0.65), else count (1.0).
    assert data.get("filtered_table_rows_count", data.get("count")) == 2
    assert sorted(r["tool_use_id"] for r in data["rows"]) == ["t1", "u1"]
    messages = await get_json(
        ds, "/anyname/messages.json", _search="missing", _shape="objects", _extra="count"
    )
    assert sorted(r["uuid"] for r in messages["rows"]) == ["s1-main-5", "s2-main-4"]


# -- fuzzing and live serving (issue 10) ---------------------------------------------

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


@hypothesis.settings(max_examples=25, deadline=None)
@hypothesis.given(text=st.text(max_size=60))
def test_any_text_in_every_canned_query_answers(databases, text):
    """Arbitrary strings into every parameter of every canned query: never a 4xx or 5xx."""
    import asyncio

    async def ask():
        ds = Datasette(databases)
        for name, params in QUERIES.items():
            for fmt in ("", ".json"):
                args = {param: text for param in params}
                response = await ds.client.get(f"/index/{name}{fmt}", params=args)
                assert response.status_code == 200, (name, fmt, text, response.text[:300])
                if fmt:
                    assert response.json()["ok"] is True
        for arg in ("call", "msg", "page"):
            response = await ds.client.get("/index/-/session/s1", params={arg: text})
            assert response.status_code == 200, (arg, text, response.text[:300])

    asyncio.run(ask())


def _serve(db_path, log):
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [sys.executable, "-m", "datasette", "serve", str(db_path)]
    command += ["-h", "127.0.0.1", "-p", str(port)]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(f"{base}/-/versions.json", timeout=1):
                return process, base
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"datasette did not start: see {log.name}") from None
            time.sleep(0.1)


@pytest.mark.slow
def test_datasette_keeps_answering_while_builds_run(tmp_path):
    """A live `datasette serve` answers every request during fresh, incremental and forced
    builds, and shows the new rows afterwards without a restart."""
    import threading
    import urllib.error
    import urllib.request

    from jsonl import failing_session, write_jsonl

    projects = tmp_path / "projects"
    empty = tmp_path / "empty"
    empty.mkdir()
    db_path = tmp_path / "index.db"
    build_index(db_path, empty)  # an index with the schema and no rows yet
    sessions = [f"{i:08d}-0000-4000-8000-000000000000" for i in range(12)]
    for sid in sessions:
        write_jsonl(
            projects / "-home-dev-app" / f"{sid}.jsonl",
            failing_session(sid, 40, "ENOENT missing " + "z" * 3000, "Create it"),
        )
    log = open(tmp_path / "datasette.log", "wb")
    process, base = _serve(db_path, log)
    paths = [
        "/index/find_past_fix.json?error=ENOENT&_shape=array",
        "/index/tool_results?_size=20",
        f"/index/-/session/{sessions[0]}",
        f"/index/-/session/{sessions[0]}.json",
    ]
    failures: list[str] = []
    done = threading.Event()
    count = [0]
    # When each answered request was sent and answered, and when each build ran.
    answered: list[tuple[float, float]] = []
    builds: list[tuple[float, float]] = []

    def build(**options):
        started = time.monotonic()
        mode = build_index(db_path, projects, **options).mode
        builds.append((started, time.monotonic()))
        return mode

    def hammer():
        while not done.is_set() and count[0] < 5000:
            path = paths[count[0] % len(paths)]
            count[0] += 1
            sent = time.monotonic()
            try:
                with urllib.request.urlopen(base + path, timeout=30) as response:
                    response.read()
                answered.append((sent, time.monotonic()))
            except urllib.error.HTTPError as e:
                if not (e.code == 404 and "/-/session/" in path):  # before the fresh build
                    failures.append(f"{path}: {e.code} {e.read()[:300]!r}")
            except OSError as e:
                failures.append(f"{path}: {e}")

    threads = [threading.Thread(target=hammer) for _ in range(2)]
    try:
        for thread in threads:
            thread.start()
        assert build() == "fresh"
        for sid in sessions[:3]:
            write_jsonl(
                projects / "-home-dev-app" / f"{sid}.jsonl",
                failing_session(sid, 2, "EHOSTUNREACH live", "Retry", start=50),
                "a",
            )
        assert build() == "incremental"
        assert build(force=True) == "forced"
        late_lines = failing_session("late", 1, "ECONNRESET late", "Retry")[1:3]
        for line in late_lines:  # new ids, in an old session
            line["sessionId"] = sessions[5]
        write_jsonl(projects / "-home-dev-app" / f"{sessions[5]}.jsonl", late_lines, "a")
        assert build() == "incremental"
    finally:
        done.set()
        for thread in threads:
            thread.join(timeout=60)
        try:
            with urllib.request.urlopen(
                f"{base}/index/find_past_fix.json?error=ECONNRESET&_shape=array", timeout=30
            ) as response:
                late = json.loads(response.read())
        finally:
            process.terminate()
            process.wait(timeout=10)
            log.close()
    assert failures == []
    # Every build had requests answered across it, however slow the machine: the
    # server was in use while each one wrote.
    for started, ended in builds:
        assert any(sent < ended and back > started for sent, back in answered), (started, ended)
    assert {row["session_id"] for row in late} == {sessions[5]}


@pytest.mark.asyncio
async def test_tool_output_searches_mark_the_searched_text(ds):
    params = {"pattern": "enoent", "project": ""}
    page = (await ds.client.get("/index/search_tool_output", params=params)).text
    assert 'querySelectorAll("td.col-excerpt")' in page
    assert '<td class="col-excerpt">' in page
    others = (await ds.client.get("/index/recent_failures", params={"project": ""})).text
    assert "td.col-excerpt" not in others
    not_ours = (await ds.client.get("/other")).text
    assert "td.col-excerpt" not in not_ours


@pytest.mark.asyncio
async def test_an_index_from_an_older_pastfix_gets_its_queries_once_rebuilt(databases, tmp_path):
    old = tmp_path / "old.db"
    shutil.copy(databases[0], old)
    conn = sqlite3.connect(old)
    [migration] = conn.execute(
        "select * from _sqlite_migrations where name = ?", [LATEST_MIGRATION]
    ).fetchall()
    conn.execute("delete from _sqlite_migrations where name = ?", [LATEST_MIGRATION])
    conn.commit()
    ds = Datasette([str(old)])
    # Its queries would fail on columns it lacks: none is offered until it is rebuilt.
    assert (await get_json(ds, "/old.json"))["queries"] == []
    assert (await ds.client.get("/old/find_past_fix?error=x")).status_code == 404
    assert "One row per session of any agent" not in (await ds.client.get("/old/sessions")).text
    # Its session page says why there is none, as the find page does: not "not a pastfix index".
    session = await ds.client.get("/old/-/session/s1")
    assert session.status_code == 404
    assert "old was built by an older pastfix: run `pastfix build` on it" in session.text
    assert "not a pastfix index" not in session.text
    # Brought up to date while served (as `pastfix build` would): the next request finds it.
    conn.execute(
        f"insert into _sqlite_migrations values ({', '.join('?' * len(migration))})", migration
    )
    conn.commit()
    conn.close()
    assert (await ds.client.get("/old/find_past_fix?error=x")).status_code == 200
    assert list(await offered_queries(ds, "old")) != []
    assert "One row per session of any agent" in (await ds.client.get("/old/sessions")).text


@pytest.mark.asyncio
async def test_timestamps_read_as_a_date_and_a_time(ds):
    page = (await ds.client.get("/index/recent_failures", params={"project": "u/lib"})).text
    assert (
        '<td class="col-failed_at"><time datetime="2026-01-06T18:23:00.000Z"'
        ' title="2026-01-06T18:23:00.000Z"><span class="pf-nowrap">2026-01-06</span>'
        ' <span class="pf-nowrap">18:23:00</span></time></td>' in page
    )
    other = (await ds.client.get("/other/notes")).text
    assert "pf-nowrap" not in other


@pytest.mark.parametrize(
    ("line", "version", "fails"),
    [("0.65", "1.1.4", False), ("1.0", "1.1.4", True), ("1.0", "1.1.5a0", False)],
)
def test_a_search_all_too_old_for_datasette_1_stops_startup(monkeypatch, line, version, fails):
    from datasette.utils import StartupError

    from pastfix.plugin import views

    # Stand-ins with the method that tells the lines apart (indexes.is_datasette_1).
    class Datasette065:
        def ensure_permissions(self): ...

    class Datasette1:
        async def add_query(self): ...

    datasette = Datasette065() if line == "0.65" else Datasette1()
    monkeypatch.setattr(views.importlib.metadata, "version", lambda name: version)
    if not fails:
        views.check_search_all(datasette)
        return
    with pytest.raises(StartupError, match=r"datasette-search-all>=1\.1\.5a0"):
        views.check_search_all(datasette)


@pytest.mark.parametrize(
    ("base_url", "path", "database"),
    [
        ("/", "/anyname/sessions.json", "anyname"),
        ("/", "/anyname.json", "anyname"),
        ("/", "/anyname/-/session/s1", "anyname"),
        ("/", "/-/search", None),
        ("/", "/nope/sessions", None),
        ("/", "/", None),
        ("/prefix/", "/prefix/index/find_past_fix", "index"),
        ("/prefix/", "/prefix/-/pastfix.css", None),
    ],
)
def test_the_database_a_request_names(databases, base_url, path, database):
    ds = Datasette(databases, settings={"base_url": base_url})
    assert indexes.database_in_path(ds, path) == database


# -- text that looks like HTML -------------------------------------------------


@pytest.mark.asyncio
async def test_a_literal_mark_in_the_text_is_shown_not_rendered(tmp_path):
    """Tool output and messages holding `<mark>` show it as text; only matches are marked."""
    from jsonl import prompt, result, say, tool_use, write_jsonl

    ts = "2026-02-01T10:00:00Z"
    output = "Exit code 1\nparse error near <mark>stale</mark> & <b>bold</b> quux"
    write_jsonl(
        tmp_path / "projects" / "-home-dev-app" / "m1.jsonl",
        [
            prompt("m1-p", "m1", "the parser says <mark>stale</mark> frobnicate", ts),
            tool_use("m1-u", "m1", "toolu_m1", "Bash", {"command": "make parse"}, ts),
            result("m1-r", "m1", "toolu_m1", output, ts, True),
            say("m1-s", "m1", "fixed frobnicate", ts),
        ],
    )
    db = tmp_path / "marks.db"
    build_index(db, tmp_path / "projects")
    ds = Datasette([str(db)])
    page = (await ds.client.get("/marks/find_past_fix", params={"error": "quux"})).text
    for text in (page, (await ds.client.get("/marks/search_messages?q=frobnicate")).text):
        assert "<mark>stale</mark>" not in text and "&lt;mark&gt;stale&lt;/mark&gt;" in text
        assert "<b>bold</b>" not in text
    assert "<mark>quux</mark>" in page
    messages = (await ds.client.get("/marks/search_messages?q=frobnicate")).text
    assert "<mark>frobnicate</mark>" in messages
    rows = (await ds.client.get("/marks/find_past_fix.json?error=quux&_shape=array")).json()
    assert "<mark>stale</mark>" in rows[0]["error_snippet"]  # JSON: plain text, as it was
    assert "&lt;mark&gt;stale" in rows[0]["error_snippet_html"]


def test_the_datasette_line_is_told_apart():
    import datasette

    from pastfix.plugin import indexes

    assert indexes.is_datasette_1(Datasette([])) == datasette.__version__.startswith("1.")


@pytest.mark.asyncio
async def test_a_pattern_longer_than_sqlites_like_is_answered(ds):
    """It was an HTTP 400, "LIKE or GLOB pattern too complex"."""
    for query in ("search_tool_output", "session_tool_output"):
        response = await ds.client.get(
            f"/index/{query}.json",
            params={"pattern": "x" * 60_000, "session_id": "s1", "project": "", "_shape": "array"},
        )
        assert (response.status_code, response.json()) == (200, [])


@pytest.mark.asyncio
async def test_a_pasted_path_shows_the_files_history(ds):
    page = (await ds.client.get("/index/find_past_fix", params={"error": "src/index.js"})).text
    [history] = re.findall(r'<section class="pf-history">.*?</section>', page, re.S)
    assert "<h2>History of <code>src/index.js</code></h2>" in history
    assert '<a href="/index/-/session/s1">fix the build</a>' in history
    assert 'href="/index/file_history?path=src%2Findex.js"' in history
    # its history is the answer: a file's name alone makes no partial match (its failures
    # are in the history: `failed`, `last_error`)
    assert "pf-card" not in page
    # an error that names no file has no history
    page = (await ds.client.get("/index/find_past_fix", params={"error": "EISDIR"})).text
    assert "pf-history" not in page


def test_the_same_fix_in_several_sessions_is_one_card():
    """Three worktrees of a project pushed with --set-upstream: one card, naming the others."""

    def card(session, branch, signature="fatal: no upstream", fixed="2026-01-01", tool="Bash"):
        project = f"/home/u/worktrees/{branch}"
        target = f"git push --set-upstream origin {branch} 2>&1"
        return {
            "session_id": session,
            "project": project,
            "signature": signature,
            "outcome": "fixed",
            "fixed_at": fixed,
            "remedy_steps": [{"tool": tool, "path": None, "target_head": target}],
        }

    cards = [
        card("s1", "feat-a"),
        card("s2", "feat-b"),
        card("s3", "feat-c"),
        card("s4", "feat-d", signature="other error"),
        card("s5", "feat-e", fixed=None),
        card("s6", "feat-f", tool="Edit"),
    ]
    shown = views.group_same_fixes(cards)
    assert [c["session_id"] for c in shown] == ["s1", "s4", "s5", "s6"]
    assert [c["session_id"] for c in shown[0]["same_fix"]] == ["s2", "s3"]
    assert all(c["same_fix"] == [] for c in shown[1:])
    assert "same_fix" not in cards[0]  # the rows themselves are left as they were
    # A different command is a different fix, and an unfixed failure is never folded.
    other = card("s7", "feat-g")
    other["remedy_steps"][0]["target_head"] = "git push --force origin feat-g"
    assert len(views.group_same_fixes([cards[0], other])) == 2
    assert len(views.group_same_fixes([cards[4], card("s8", "x", fixed=None)])) == 2


@pytest.mark.asyncio
async def test_the_find_page_says_a_match_is_about_another_file(tmp_path):
    """`cd: frontend` finds the `cd: backend` that was fixed: the card says that the
    error is the same about another file, where "Same error as yours" misled."""
    from corpus import APP, Session

    (
        Session("cd", APP, 0)
        .call("d1", "Bash", command="cd backend && npm test")
        .result("d1", "Exit code 1\n(eval):cd:1: no such file or directory: backend", True)
        .call("d2", "Bash", command="npm test")
        .result("d2", "ok")
        .write(tmp_path / "projects" / "-home-u-app" / "cd.jsonl")
    )
    build_index(tmp_path / "index.db", tmp_path / "projects")
    metadata = yaml.safe_load((ROOT / "metadata.yml").read_text())
    ds = Datasette(
        [str(tmp_path / "index.db")], metadata=metadata, template_dir=str(ROOT / "templates")
    )
    for error in (
        "(eval):cd:1: no such file or directory: frontend",
        "(eval):cd:7: no such file or directory: backend",
    ):
        page = (await ds.client.get("/index/find_past_fix", params={"error": error})).text
        assert "claude --resume cd" in page, error
        # said as the notice above it says it: another folder, not another file (nu45)
        assert ("Same error as yours, about another folder" in page) is ("frontend" in error)
        assert "another file" not in page
        # the signature after it, which is not the error line the card shows
        said = "about another folder: <code>cd: no such file or directory: backend</code>"
        assert (said in page) is ("frontend" in error)
        # cd's path is a folder: not seen about this one, said as what it is (nu42 finding 11)
        said = (
            "<strong>Not seen about this folder.</strong> 1 past failure had the same error"
            " about another folder; its fix was for that folder."
        )
        assert (said in page) is ("frontend" in error)
        assert "this file" not in page

    # a signature that is the error line itself is not said twice (a new user's try)
    (
        Session("cat", APP, 0)
        .call("c1", "Bash", command="cat nonexistent.txt")
        .result("c1", "Exit code 1\ncat: nonexistent.txt: No such file or directory", True)
        .write(tmp_path / "projects" / "-home-u-app" / "cat.jsonl")
    )
    build_index(tmp_path / "index.db", tmp_path / "projects")
    error = "cat: config/settings.json: No such file or directory"
    page = (await ds.client.get("/index/find_past_fix", params={"error": error})).text
    assert "claude --resume cat" in page
    assert "Same error as yours, about another file</p>" in page
    assert "<strong>Not seen about this file.</strong>" in page


@pytest.mark.asyncio
async def test_the_find_page_says_a_match_is_about_other_names(tmp_path):
    """`Couldn't find a script named "lint:fix"` finds the `"lint"` of another project, fixed
    by adding that script: the page said "Same error as yours"; it is not seen before, and
    the card says it is about other names (a new user's made-up errors, session 35). (A fix
    that names no script carries over: queries.fix_names_other.)"""
    from corpus import APP, Session

    (
        Session("yarn", APP, 0)
        .call("y1", "Bash", command="yarn lint")
        .result("y1", 'Exit code 1\nUsage Error: Couldn\'t find a script named "lint".', True)
        .call(
            "y2",
            "Edit",
            file_path=f"{APP}/package.json",
            old_string='"scripts": {',
            new_string='"scripts": {\n    "lint": "eslint .",',
        )
        .result("y2", f"The file {APP}/package.json has been updated.")
        .call("y3", "Bash", command="yarn lint")
        .result("y3", "Done in 2.1s")
        .write(tmp_path / "projects" / "-home-u-app" / "yarn.jsonl")
    )
    build_index(tmp_path / "index.db", tmp_path / "projects")
    metadata = yaml.safe_load((ROOT / "metadata.yml").read_text())
    ds = Datasette(
        [str(tmp_path / "index.db")], metadata=metadata, template_dir=str(ROOT / "templates")
    )
    error = 'Usage Error: Couldn\'t find a script named "lint:fix".'
    page = (await ds.client.get("/index/find_past_fix", params={"error": error})).text
    assert "claude --resume yarn" in page and "Same error as yours" not in page
    assert "<strong>Not seen before.</strong> Past failures have this error" in page
    assert "Same error, other names than yours: <code>Usage Error:" in page
    error = 'Usage Error: Couldn\'t find a script named "lint".'
    page = (await ds.client.get("/index/find_past_fix", params={"error": error})).text
    assert "claude --resume yarn" in page and "Not seen before" not in page


@pytest.mark.asyncio
async def test_the_find_page_lists_what_was_done_next_when_nothing_fixed_it(tmp_path):
    """A card of a failure nothing was seen to fix lists the steps done next, each a link
    to its call, and the files edited right after that no step names."""
    from corpus import APP, Session

    (
        Session("nx", APP, 0)
        .call("n1", "Read", file_path=f"{APP}/book.xlsx")
        .result("n1", "This tool cannot read binary files.", True)
        .call("n2", "Bash", command="ls -la")
        .result("n2", "book.xlsx")
        .call("n3", "Bash", command="python3 dump_v2.py book.xlsx")
        .result("n3", "rows: 3")
        .call("n4", "Write", file_path=f"{APP}/notes.md", content="3 rows")
        .result("n4", "File created")
        .write(tmp_path / "projects" / "-home-u-app" / "nx.jsonl")
    )
    build_index(tmp_path / "index.db", tmp_path / "projects")
    ds = Datasette([str(tmp_path / "index.db")])
    error = "This tool cannot read binary files."
    page = (await ds.client.get("/index/find_past_fix", params={"error": error})).text
    assert "Not fixed in this session" in page
    done = page[page.index("Done next</p>") :]
    assert '<a href="/index/-/session/nx?call=n3#call-n3"><code class="pf-inline">Bash python3' in (
        done
    )
    assert done.index("python3 dump_v2.py") < done.index("edit notes.md")
    assert "ls -la" not in done
    assert "edited right after" not in page  # notes.md is a step


@pytest.mark.asyncio
async def test_find_page_counts_failures_not_cards(tmp_path):
    """Each card is one session's failures of one error: the page said "1 past failure"
    above a card of 4 (a new user's try, session 27); it counts the failures."""
    from jsonl import result, tool_use, write_jsonl

    for sid, n in (("aaaa0001", 4), ("bbbb0002", 1)):
        lines = []
        for i in range(n):
            ts = f"2026-01-01T10:0{i}:00Z"
            tid = f"toolu_{sid}_{i}"
            lines += [
                tool_use(f"{sid}-u{i}", sid, tid, "Bash", {"command": "make"}, ts),
                result(f"{sid}-r{i}", sid, tid, "Exit code 1\nEPIPE gone", ts, True),
            ]
        write_jsonl(tmp_path / "p" / "x" / f"{sid}.jsonl", lines)
    build_index(tmp_path / "index.db", tmp_path / "p")
    ds = Datasette([str(tmp_path / "index.db")])
    page = (await ds.client.get("/index/find_past_fix", params={"error": "EPIPE gone"})).text
    assert page.count('<article class="pf-card"') == 2
    assert "5 past failures\n  in 2 sessions" in page


@pytest.mark.asyncio
async def test_a_session_pages_failure_list_says_where_it_cut(tmp_path):
    """A long command cut at 120 characters ran into its `:` (`...session_hook_controller.e:
    ┃ [D] ...`, read as a file's name: a new user's try, session 27): an ellipsis says so."""
    from jsonl import result, tool_use, write_jsonl

    command = "mix credo --strict " + " ".join(f"lib/app/module_{n}.ex" for n in range(12))
    sid = "c0ffee01"
    write_jsonl(
        tmp_path / "p" / "x" / f"{sid}.jsonl",
        [
            tool_use("u1", sid, "t1", "Bash", {"command": command}, "2026-01-01T10:00:00Z"),
            result("r1", sid, "t1", "Exit code 1\nerror: it failed", "2026-01-01T10:00:01Z", True),
        ],
    )
    build_index(tmp_path / "index.db", tmp_path / "p")
    page = (
        await Datasette([str(tmp_path / "index.db")]).client.get(f"/index/-/session/{sid}")
    ).text
    start = page.index('<details class="pf-failures"')
    failures = page[start : page.index("</details>", start)]
    assert f"<code>{command[:119]}…</code>: error: it failed" in failures


@pytest.mark.asyncio
async def test_search_messages_says_when_a_raw_expression_cannot_be_parsed(ds):
    """`raw: ENOENT OR` gave "0 results", as if no message held the words (a new user's
    try, session 27): the page says FTS5 could not parse it, as `pastfix find` does."""
    bad = (await ds.client.get("/index/search_messages", params={"q": "raw: ENOENT OR"})).text
    assert "raw: FTS5 cannot parse the expression" in bad
    good = (await ds.client.get("/index/search_messages", params={"q": "raw: ENOENT"})).text
    assert "FTS5 cannot parse" not in good


@pytest.mark.asyncio
async def test_a_fix_without_steps_says_nothing_changed_only_of_the_call_as_it_was(tmp_path):
    """A card without remedy steps said "The same call ... succeeded again, with nothing
    changed in between" when the retry differed (`| jq .` taken out after `jq: command not
    found`: 13 of 22 such cards of a new user's try, session 29): it says so only of the
    failed call run again as it was (find_past_fix's fix_as_was), else what was run."""
    from jsonl import result, tool_use, write_jsonl

    error = "Exit code 127\n/bin/bash: line 1: jq: command not found"
    runs = {"aaaa0001": "docker inspect web | jq .", "bbbb0002": "docker inspect web"}
    for sid, failed in runs.items():
        at = "2026-01-01T10:00:0{}Z".format
        lines = [
            tool_use(f"{sid}-u1", sid, f"{sid}-t1", "Bash", {"command": failed}, at(0)),
            result(f"{sid}-r1", sid, f"{sid}-t1", error, at(1), True),
            tool_use(
                f"{sid}-u2", sid, f"{sid}-t2", "Bash", {"command": "docker inspect web"}, at(5)
            ),
            result(f"{sid}-r2", sid, f"{sid}-t2", "[{}]", at(6), False),
        ]
        write_jsonl(tmp_path / "p" / "x" / f"{sid}.jsonl", lines)
    build_index(tmp_path / "index.db", tmp_path / "p")
    ds = Datasette([str(tmp_path / "index.db")])
    params = {"error": "jq: command not found", "_shape": "objects"}
    rows = (await ds.client.get("/index/find_past_fix.json", params=params)).json()["rows"]
    assert {row["session_id"]: row["fix_as_was"] for row in rows} == {
        "aaaa0001": 0,
        "bbbb0002": 1,
    }
    page = (await ds.client.get("/index/find_past_fix", params=params)).text
    cards = re.findall(r'<article class="pf-card".*?</article>', page, re.S)
    [changed] = [card for card in cards if "aaaa0001" in card]
    [as_was] = [card for card in cards if "bbbb0002" in card]
    assert "nothing changed" not in changed
    assert '<code class="pf-inline">docker inspect web</code></a>, it succeeded.' in changed
    assert "succeeded again, with nothing changed in between." in as_was


def test_a_paste_stays_out_of_the_access_log(tmp_path):
    """The find pages take the pasted error in their address (GET): `datasette serve`'s
    access log names each request, and keeps the paste's length, not the paste."""
    import urllib.parse
    import urllib.request

    from jsonl import failing_session, write_jsonl

    projects = tmp_path / "projects"
    sid = "00000001-0000-4000-8000-000000000000"
    write_jsonl(
        projects / "-home-dev-app" / f"{sid}.jsonl", failing_session(sid, 4, "ENOENT x", "ok")
    )
    db_path = tmp_path / "index.db"
    build_index(db_path, projects)
    secret = "hunter2-" + "Zq8" * 8
    paste = f"psql: error: password authentication failed PGPASSWORD={secret}"
    log_path = tmp_path / "datasette.log"
    with open(log_path, "wb") as log:
        process, base = _serve(db_path, log)
        try:
            for path in ("/index/find_past_fix", "/-/pastfix/find", "/-/pastfix/search"):
                key = "q" if path.endswith("search") else "error"
                query = urllib.parse.urlencode({key: paste, "limit": "5"})
                with urllib.request.urlopen(f"{base}{path}?{query}", timeout=10) as response:
                    assert response.status == 200
        finally:
            process.terminate()
            process.wait(10)
    logged = log_path.read_text()
    assert "GET /index/find_past_fix?error=[paste:" in logged
    assert "GET /-/pastfix/search?q=[paste:" in logged and "&limit=5" in logged
    assert secret not in logged and urllib.parse.quote(secret) not in logged
    assert "hunter2" not in logged
