"""The FTS5 tokenizer of the full-text tables: pastfix build --tokenizer, and CJK text."""

import sqlite3

import pytest
from click.testing import CliRunner
from conftest import build_index
from corpus import HOSTILE as QUERY_HOSTILE
from datasette.app import Datasette
from jsonl import prompt, result, say, tool_use, write_jsonl

from pastfix import build as pbuild
from pastfix import cards, cli, queries
from pastfix import db as pdb

# Prompts and tool errors in Chinese, Japanese and Korean (and mixed with Latin text).
CJK = {
    "zh": ("请修复数据库连接失败的问题", "错误：无法连接到数据库服务器 ECONNREFUSED"),
    "ja": ("テストが失敗したので設定ファイルを確認して", "エラー：設定ファイルが見つかりません"),
    "ko": ("빌드가실패했습니다 의존성을확인해주세요", "오류: 모듈을찾을수없습니다 numpy"),
}


def cjk_projects(root):
    for n, (lang, (text, error)) in enumerate(CJK.items()):
        sid = f"0000000{n}-{lang}00-4000-8000-000000000000"
        ts = f"2026-01-0{n + 1}T10:00:0"
        tid = f"toolu_{lang}"
        write_jsonl(
            root / "-home-dev-app" / f"{sid}.jsonl",
            [
                prompt(f"{lang}-p", sid, text, ts + "0Z"),
                tool_use(f"{lang}-u", sid, tid, "Bash", {"command": "make"}, ts + "1Z"),
                result(f"{lang}-r", sid, tid, error, ts + "2Z", True),
                say(f"{lang}-s", sid, f"{lang} fixed", ts + "3Z"),
            ],
        )
    return root


def fts_sessions(db_path, table, query):
    conn = sqlite3.connect(db_path)
    source = "messages m on m.id" if table == "messages_fts" else "tool_results m on m.id"
    rows = conn.execute(
        f"select distinct m.session_id from {table} f join {source} = f.rowid"
        f" where {table} match ? order by 1",
        [query],
    ).fetchall()
    conn.close()
    return [r[0].split("-")[1][:2] for r in rows]  # the language


def fts_sql(db_path):
    conn = sqlite3.connect(db_path)
    rows = conn.execute(
        "select name, sql from sqlite_master where name in ('messages_fts', 'tool_errors_fts')"
        " order by name"
    ).fetchall()
    conn.close()
    return rows


@pytest.mark.parametrize(
    ("given", "normal"),
    [
        ("unicode61", "unicode61"),
        ("Unicode61  remove_diacritics 2", "unicode61 remove_diacritics 2"),
        ("porter", "porter"),
        ("porter unicode61 remove_diacritics 2", "porter unicode61 remove_diacritics 2"),
        ("porter ascii", "porter ascii"),
        ("ascii", "ascii"),
        ("trigram", "trigram"),
        ("trigram case_sensitive 0", "trigram case_sensitive 0"),
    ],
)
def test_parse_tokenizer(given, normal):
    assert pdb.parse_tokenizer(given) == normal


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "icu",
        "trigram case_sensitive",
        "trigram case_sensitive 2",
        "unicode61 x 1",
        "porter remove_diacritics 2",
        "trigram remove_diacritics 1",
        "unicode61'); drop table x --",
    ],
)
def test_parse_tokenizer_refuses(bad):
    with pytest.raises(ValueError):
        pdb.parse_tokenizer(bad)


def test_switching_tokenizer_rebuilds_fts_from_stored_rows(tmp_path, db_path):
    projects = cjk_projects(tmp_path / "projects")
    first = build_index(db_path, projects)
    assert (first.tokenizer, first.tokenizer_changed) == ("unicode61", False)
    # unicode61 reads a run of CJK characters as one token: a word inside it is not found.
    assert fts_sessions(db_path, "messages_fts", '"数据库"') == []
    assert fts_sessions(db_path, "tool_errors_fts", '"設定ファイル"') == []

    switched = build_index(db_path, projects, tokenizer="trigram")
    assert (switched.tokenizer, switched.tokenizer_changed) == ("trigram", True)
    assert (switched.files_read, switched.mode) == (0, "incremental")
    assert fts_sessions(db_path, "messages_fts", '"数据库"') == ["zh"]
    assert fts_sessions(db_path, "tool_errors_fts", '"設定ファイル"') == ["ja"]
    assert fts_sessions(db_path, "tool_errors_fts", '"모듈을"') == ["ko"]

    # A build without the option keeps the recorded tokenizer.
    kept = build_index(db_path, projects)
    assert (kept.tokenizer, kept.tokenizer_changed, kept.files_read) == ("trigram", False, 0)
    assert fts_sessions(db_path, "messages_fts", '"数据库"') == ["zh"]

    # The same tables and results as a fresh build with that tokenizer.
    fresh = tmp_path / "fresh.db"
    build_index(fresh, projects, tokenizer="trigram")
    assert fts_sql(db_path) == fts_sql(fresh)
    # Datasette (through sqlite-utils) still finds both tables' FTS index.
    index = pdb.open_database(db_path)
    assert (index.table("messages").detect_fts(), index.table("tool_results").detect_fts()) == (
        "messages_fts",
        "tool_errors_fts",
    )
    index.close()
    for table, query in [("messages_fts", '"失敗"'), ("tool_errors_fts", '"ECONNREFUSED"')]:
        assert fts_sessions(db_path, table, query) == fts_sessions(fresh, table, query)

    back = build_index(db_path, projects, tokenizer="unicode61")
    assert (back.tokenizer_changed, back.files_read) == (True, 0)
    assert fts_sessions(db_path, "messages_fts", '"数据库"') == []
    assert fts_sessions(db_path, "messages_fts", "fixed") == ["zh", "ja", "ko"]


def test_tokenizer_with_forced_and_redaction_builds(tmp_path, db_path):
    projects = cjk_projects(tmp_path / "projects")
    build_index(db_path, projects)
    forced = build_index(db_path, projects, tokenizer="trigram", force=True)
    assert (forced.mode, forced.tokenizer_changed) == ("forced", True)
    assert fts_sessions(db_path, "messages_fts", '"数据库"') == ["zh"]
    off = build_index(db_path, projects, tokenizer="porter", redact=False)
    assert (off.mode, off.tokenizer) == ("forced", "porter")
    assert fts_sessions(db_path, "messages_fts", "fix") == ["zh", "ja", "ko"]


@pytest.mark.parametrize("force", [True, False])
def test_a_build_that_fails_after_changing_the_tokenizer_leaves_both_indexes_full(
    tmp_path, db_path, monkeypatch, force
):
    """A forced build left the new full-text tables empty for itself to fill, in a
    transaction of its own: failing then (a full disk, Ctrl-C), it left every message and
    failure unsearchable, for good, since no later build fills them again from the rows."""
    projects = cjk_projects(tmp_path / "projects")
    build_index(db_path, projects)

    def full(*args):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(pbuild.Builder, "run", full)
    with pytest.raises(pdb.BuildError, match="disk is full"):
        build_index(db_path, projects, tokenizer="trigram", force=force)
    monkeypatch.undo()
    assert fts_sessions(db_path, "messages_fts", '"数据库"') == ["zh"]
    assert fts_sessions(db_path, "tool_errors_fts", '"数据库"') == ["zh"]
    build_index(db_path, projects)
    assert fts_sessions(db_path, "messages_fts", "fixed") == ["zh", "ja", "ko"]


def test_cli_tokenizer_option(tmp_path, db_path):
    projects = cjk_projects(tmp_path / "projects")
    runner = CliRunner()
    args = ["build", str(db_path), "--source", str(projects)]
    first = runner.invoke(cli.cli, [*args, "--tokenizer", "trigram case_sensitive 0"])
    assert first.exit_code == 0, first.output
    assert "Tokenizer set to trigram case_sensitive 0: full-text indexes rebuilt" in first.stderr
    before = fts_sql(db_path)
    bad = runner.invoke(cli.cli, [*args, "--tokenizer", "icu"])
    assert bad.exit_code == 2
    assert "Invalid value for '--tokenizer': unknown tokenizer 'icu': choose" in bad.stderr
    assert fts_sql(db_path) == before
    same = runner.invoke(cli.cli, args)
    assert same.exit_code == 0 and "Tokenizer" not in same.stderr


# Words of one to five characters from the prompts and errors of CJK, and who holds them.
PROMPT_WORDS = [
    ("请", "zh"),
    ("数据", "zh"),
    ("数据库", "zh"),
    ("连接失败", "zh"),
    ("设定", None),
    ("ファイル", "ja"),
    ("失敗", "ja"),
    ("テ", "ja"),
    ("빌드", "ko"),
    ("의존성을", "ko"),
    ("连接失败 数据", "zh"),
    ("fixed 数据", None),
    ("数据 库连", "zh"),
    ("请 修", "zh"),
]
ERROR_WORDS = [
    ("错", "zh"),
    ("错误", "zh"),
    ("数据库", "zh"),
    ("服务器 ECONNREFUSED", "zh"),
    ("設定ファ", "ja"),
    ("エラー", "ja"),
    ("오류", "ko"),
    ("모듈을찾을", "ko"),
    ("numpy 오", "ko"),
    ("nump", "ko"),
]


@pytest.fixture
def trigram_db(tmp_path):
    db_path = tmp_path / "index.db"
    build_index(db_path, cjk_projects(tmp_path / "projects"), tokenizer="trigram")
    conn = queries.connect(db_path)
    yield conn
    conn.close()


def sessions_of(rows):
    return sorted({r["session_id"].split("-")[1][:2] for r in rows})


@pytest.mark.parametrize(("word", "lang"), PROMPT_WORDS)
def test_trigram_search_messages_finds_cjk_words(trigram_db, word, lang):
    rows = queries.run(trigram_db, "search_messages", q=word)
    assert sessions_of(rows) == ([lang] if lang else [])
    for row in rows:
        assert "<mark>" in row["snippet"]


@pytest.mark.parametrize(("word", "lang"), ERROR_WORDS)
def test_trigram_find_past_fix_finds_cjk_words(trigram_db, word, lang):
    rows = queries.find_past_fix(trigram_db, word)
    assert sessions_of(rows) == [lang]
    assert rows[0]["matched"] == "all words"
    first = word.split()[0]
    assert f"<mark>{first}</mark>" in rows[0]["error_snippet_html"]


def test_unicode61_misses_words_inside_cjk_runs(tmp_path, db_path):
    build_index(db_path, cjk_projects(tmp_path / "projects"))
    conn = queries.connect(db_path)
    assert queries.run(conn, "search_messages", q="数据库") == []
    assert queries.find_past_fix(conn, "数据库") == []
    # A whole run is one word: found, and marked whole.
    rows = queries.find_past_fix(conn, "错误：无法连接到数据库服务器")
    assert sessions_of(rows) == ["zh"]
    conn.close()


def test_trigram_highlights_substrings_and_short_ascii_words_whole():
    text = "ModuleNotFoundError: no module named 'xy' in 数据库连接"
    assert queries.error_excerpt(text, "NotFound xy 数据", "<b>", "</b>", "trigram") == (
        "Module<b>NotFound</b>Error: no module named &#x27;<b>xy</b>&#x27; in <b>数据</b>库连接"
    )
    # A stop word is never marked, whole or inside another word.
    assert "<b>" not in queries.error_excerpt(text, "in a", "<b>", "</b>", "trigram")
    # unicode61: whole words only, as before.
    assert "<b>" not in queries.error_excerpt(text, "NotFound 数据", "<b>", "</b>")


HOSTILE = QUERY_HOSTILE + [
    " ",
    '"',
    "a",
    "错",
    "- * ^ : ( ) NEAR( AND OR NOT",
    'raw: "unterminated',
    "raw: a OR",
    "raw: NEAR(数据 库, 2)",
    "raw: text:数据库",
    "col:x -y +z",
    "%_\\' ; drop table messages; --",
    "\x00\x01 é ß İ",
    "a" * 5000,
    "数 据 库 错 误 " * 20,
]


@pytest.mark.parametrize(
    "tokenizer", ["unicode61", "unicode61 remove_diacritics 2", "porter", "ascii", "trigram"]
)
def test_hostile_inputs_never_raise(tmp_path, tokenizer):
    db_path = tmp_path / "index.db"
    build_index(db_path, cjk_projects(tmp_path / "projects"), tokenizer=tokenizer)
    conn = queries.connect(db_path)
    for text in HOSTILE:
        queries.find_past_fix(conn, text)
        queries.run(conn, "search_messages", q=text)
        for mode, column in [("all", "content"), ("any", "content"), ("all", "text")]:
            table = "tool_errors_fts" if column == "content" else "messages_fts"
            conn.execute(
                f"select count(*) from {table} where {table} match safe_fts(?, ?, ?)",
                [text, mode, column],
            ).fetchall()
    conn.close()


@pytest.mark.asyncio
async def test_trigram_datasette_pages(tmp_path):
    db_path = tmp_path / "index.db"
    build_index(db_path, cjk_projects(tmp_path / "projects"), tokenizer="trigram")
    ds = Datasette([str(db_path)])
    page = await ds.client.get("/index/find_past_fix", params={"error": "数据"})
    assert page.status_code == 200
    assert "无法连接到<mark>数据</mark>库服务器" in page.text
    rows = (
        await ds.client.get("/index/search_messages.json", params={"q": "失敗", "_shape": "array"})
    ).json()
    assert sessions_of(rows) == ["ja"]
    for text in HOSTILE:
        for query, param in [("find_past_fix", "error"), ("search_messages", "q")]:
            response = await ds.client.get(f"/index/{query}.json", params={param: text})
            assert response.status_code == 200, (query, text)


def test_trigram_pastfix_find(tmp_path, db_path):
    build_index(db_path, cjk_projects(tmp_path / "projects"), tokenizer="trigram")
    found = CliRunner().invoke(cli.cli, ["find", "数据", str(db_path)])
    assert found.exit_code == 0, found.output
    assert "error:  错误：无法连接到数据库服务器 ECONNREFUSED" in found.stdout
    conn = queries.connect(db_path)
    row = queries.find_past_fix(conn, "数据")[0]
    conn.close()
    assert "无法连接到[数据]库服务器" in cards.format_hit(1, row, error="数据", substrings=True)
    assert "[数据]" not in cards.format_hit(1, row, error="数据")
