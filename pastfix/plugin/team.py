"""find_past_fix, search_messages and recurring_errors over every index a Datasette serves.

`datasette serve alice.db bob.db` (a team's indexes, or one person's archives) gets
/-/pastfix/find, /-/pastfix/search and /-/pastfix/recurring (and their .json): the same
canned query run on each pastfix database, and the rows merged, each naming its database.
Each query runs through Datasette's own database object (`Database.execute`), not the
canned-query view: so the pages do not depend on how a Datasette version offers canned
queries. A database without pastfix's schema is left out silently; one built by an older
pastfix, or one that fails (locked, too slow), is named in a notice.
"""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from html import escape as escape_html
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from datasette.database import QueryInterrupted
from datasette.utils.asgi import Request, Response

from pastfix import queries
from pastfix.plugin import indexes, views

if TYPE_CHECKING:
    from datasette.app import Datasette

ROUTE = r"^/-/pastfix/(?P<page>find|search|recurring)(\.(?P<format>json))?$"
# Search everything: messages, failures and tool output of every index. Datasette's menu and
# datasette-search-all's home page form lead to /-/search, which indexes.check_requests
# hands to this page when an index is served.
ALL_ROUTE = r"^/-/pastfix/all(\.(?P<format>json))?$"
ALL_PATH = "-/pastfix/all"
# Hits of each kind shown on that page; each section links to its full canned query.
ALL_SHOWN = 20
# Each page: the canned query it runs on every index, and its title.
PAGES = {
    "find": ("find_past_fix", "Find past fix"),
    "search": ("search_messages", "Search messages"),
    "recurring": ("recurring_errors", "Recurring errors"),
}
# The nav of every page over every index: PAGES, then search everything.
NAV = {**{key: label for key, (_, label) in PAGES.items()}, "all": "Search everything"}
# search_messages returns the 100 best messages of an index; the merge keeps as many.
SEARCH_LIMIT = 100


async def page(datasette: Datasette, request: Request) -> Response:
    """One of the pages over every index, HTML or JSON (.json)."""
    await views.ensure_can_view(datasette, request)
    name = request.url_vars["page"]
    query, title = PAGES[name]
    params = {p: _arg(request, p) for p in queries.CANNED_QUERIES[query]["params"]}
    names, skipped = await served_indexes(datasette, request.actor)
    per_index = await _run_everywhere(datasette, names, query, params, skipped)
    said = None
    if name == "find":
        per_index, said = await _by_which_line(datasette, per_index, params)
    rows = MERGES[name](datasette, per_index, params)
    data = {
        "ok": True,
        "query": query,
        "params": params,
        "databases": names,
        "skipped": skipped,
        "rows": rows,
        # which line of the paste the rows are of (_by_which_line), as the find page says
        **({"notice": said} if name == "find" else {}),
    }
    if request.url_vars.get("format") == "json":
        return Response.json(data)
    context = {
        "name": name,
        "title": title,
        "data": data,
        "pages": _nav(datasette),
        "database_urls": {db: datasette.urls.database(db) for db in names},
        "action": _url(datasette, name),
        "json_url": _url(datasette, name, ".json", **params),
        "highlight": views.highlight,
        "find_url": lambda error: _url(datasette, "find", error=error),
        **(
            {
                **_find_context(datasette, rows, params),
                "key_line_notice": said,
                "english_notice": _english_notice(rows, params),
            }
            if name == "find"
            else {"search_url": _url(datasette, "search")}
        ),
    }
    html = await datasette.render_template("pastfix_team.html", context, request=request)
    return Response.html(html)


def _nav(datasette: Datasette) -> dict[str, tuple[str, str]]:
    return {key: (_url(datasette, key), label) for key, label in NAV.items()}


async def search_all(datasette: Datasette, request: Request) -> Response:
    """Search everything: the messages, failures and tool output of every index that hold
    the words, each hit with its snippet and a link to its session at the hit."""
    await views.ensure_can_view(datasette, request)
    q = _arg(request, "q")
    names, skipped = await served_indexes(datasette, request.actor)
    sections: dict[str, list[dict[str, Any]]] = {"failures": [], "messages": [], "outputs": []}
    if q.strip():
        found = await asyncio.gather(
            _run_everywhere(datasette, names, "find_past_fix", {"error": q, "limit": ""}, skipped),
            _run_everywhere(datasette, names, "search_messages", {"q": q}, skipped),
            _run_everywhere(
                datasette, names, "search_tool_output", {"pattern": q, "project": ""}, skipped
            ),
            _run_everywhere(
                datasette, names, "", {"q": q}, skipped, sql=queries.SEARCH_FAILURES_SQL
            ),
        )
        sections = {
            "failures": _all_failures(datasette, found[0], found[3], q),
            "messages": _merge_search(datasette, found[1], {"q": q}),
            "outputs": _all_outputs(datasette, found[2], q),
        }
        # an index that failed is named once, not once per query
        skipped = list({skip["database"]: skip for skip in skipped}.values())
    data = {"ok": True, "params": {"q": q}, "databases": names, "skipped": skipped, **sections}
    if request.url_vars.get("format") == "json":
        return Response.json(data)
    context = {
        "name": "all",
        "title": "Search everything",
        "data": data,
        "shown": ALL_SHOWN,
        "few": queries.SEARCH_FEW,
        "pages": _nav(datasette),
        "database_urls": {db: datasette.urls.database(db) for db in names},
        "action": datasette.urls.path("-/search"),
        "json_url": datasette.urls.path(ALL_PATH + ".json") + "?" + urlencode({"q": q}),
        "highlight": views.highlight,
        "more_urls": _more_urls(datasette, names, q),
    }
    html = await datasette.render_template("pastfix_team.html", context, request=request)
    return Response.html(html)


def _all_failures(
    datasette: Datasette,
    per_index: dict[str, list[dict[str, Any]]],
    by_words: dict[str, list[dict[str, Any]]],
    q: str,
) -> list[dict[str, Any]]:
    """find_past_fix's failures holding the words (its partial matches left out), then those
    of SEARCH_FAILURES_SQL it did not give (a session and signature once): it reads the
    words as an error, which a search seldom is. Those holding only some of the words come
    only when fewer than SEARCH_FEW failures hold every word, over every index, as
    search_messages' do; each row links to the find page for its own error."""
    rows = [
        row
        for row in _merge_find(datasette, _decoded(per_index), {"error": q, "limit": ""})
        if row["matched"] != "some words"
    ]
    shown = {(row["database"], row["session_id"], row["signature"]) for row in rows}
    more = []
    for name, found in by_words.items():
        for position, row in enumerate(found):
            if (name, row["session_id"], row["signature"]) not in shown:
                url = views.session_url(datasette, name, row["session_id"], row["tool_use_id"])
                more.append((position, {"database": name, **row, "session_url": url}))
    # each index's best first, then its second best, ... (bm25 is not compared across them)
    more.sort(key=lambda pair: (pair[1]["matched"] == queries.SOME_WORDS, pair[0]))
    rows += [row for _, row in more]
    if sum(row["matched"] != queries.SOME_WORDS for row in rows) >= queries.SEARCH_FEW:
        rows = [row for row in rows if row["matched"] != queries.SOME_WORDS]
    return [
        {**row, "find_url": _url(datasette, "find", error=row["signature"] or q)} for row in rows
    ]


def _all_outputs(
    datasette: Datasette, per_index: dict[str, list[dict[str, Any]]], q: str
) -> list[dict[str, Any]]:
    """Tool output that holds the text and did not fail (failures are find_past_fix's), newest
    first, the text marked in each excerpt."""
    rows = []
    for name, found in per_index.items():
        for row in found:
            if row["is_error"]:
                continue
            url = views.session_url(datasette, name, row["session_id"], row["tool_use_id"])
            excerpt = queries.excerpt_lead(row["excerpt"] or "", q)
            snippet = queries.mark_words(
                excerpt, q, "<mark>", "</mark>", escape_html, substrings=True
            )
            rows.append({"database": name, **row, "session_url": url, "snippet": snippet})
    rows.sort(key=lambda row: row["timestamp"] or "", reverse=True)
    return rows[: queries.SEARCH_TOOL_OUTPUT_LIMIT]


def _more_urls(datasette: Datasette, names: list[str], q: str) -> dict[str, list[tuple[str, str]]]:
    """Where each section goes on, past its first ALL_SHOWN hits: the pages over every index,
    and each index's search of tool output."""
    return {
        "failures": [("Find past fix", _url(datasette, "find", error=q))],
        "messages": [("Search messages", _url(datasette, "search", q=q))],
        "outputs": [
            (
                f"search_tool_output in {name}",
                datasette.urls.query(name, "search_tool_output")
                + "?"
                + urlencode({"pattern": q, "project": ""}),
            )
            for name in names
        ],
    }


def _arg(request: Request, name: str) -> str:
    # A NUL is never meant, and SQLite's LIKE stops at it.
    return request.args.get(name, "").replace("\x00", " ")


def _url(datasette: Datasette, name: str, suffix: str = "", **params: str) -> str:
    query = "?" + urlencode(params) if params else ""
    return datasette.urls.path(f"-/pastfix/{name}{suffix}") + query


async def served_indexes(
    datasette: Datasette, actor: Any
) -> tuple[list[str], list[dict[str, str]]]:
    """The pastfix databases the actor may see, and those left out with the reason."""
    names: list[str] = []
    skipped: list[dict[str, str]] = []
    for name, db in list(datasette.databases.items()):
        if not await views.may_view(datasette, actor, name):
            continue
        try:
            if await indexes.is_index(datasette, name):
                names.append(name)
            elif queries.is_index(await db.table_names()):
                skipped.append({"database": name, "reason": indexes.OLDER_INDEX})
        except (sqlite3.DatabaseError, QueryInterrupted) as e:
            skipped.append({"database": name, "reason": _reason(e)})
    return names, skipped


def _reason(error: Exception) -> str:
    if isinstance(error, QueryInterrupted):
        return "the query took longer than the time limit (sql_time_limit_ms)"
    return f"could not be read: {error}"


async def _run_everywhere(
    datasette: Datasette,
    names: list[str],
    query: str,
    params: dict[str, str],
    skipped: list[dict[str, str]],
    sql: str | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """The rows of canned query `query` (or of `sql`) in each index; an index whose query
    fails joins `skipped`."""
    outcomes = await asyncio.gather(
        *(
            views.run_query(datasette, name, query, params)
            if sql is None
            else views.run_sql(datasette, name, sql, params)
            for name in names
        ),
        return_exceptions=True,
    )
    found = {}
    for name, outcome in zip(names, outcomes, strict=True):
        if isinstance(outcome, sqlite3.DatabaseError | QueryInterrupted):
            skipped.append({"database": name, "reason": _reason(outcome)})
        elif isinstance(outcome, BaseException):
            raise outcome
        else:
            found[name] = outcome
    return found


# -- merging ------------------------------------------------------------------------


def _decoded(per_index: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """Each index's find_past_fix rows, their JSON columns decoded, as _merge_find takes them."""
    return {name: queries.decode_json_columns(found) for name, found in per_index.items()}


async def _by_which_line(
    datasette: Datasette, per_index: dict[str, list[dict[str, Any]]], params: dict[str, str]
) -> tuple[dict[str, list[dict[str, Any]]], str | None]:
    """Each index's find_past_fix rows (decoded), and which line of the paste they are of, by
    queries.by_which_line, as the find page of one index, `pastfix find` and MCP say it.

    Seen before by its key line in some index: the rows of every index as they are, and a
    second error line seen before in any index that none of the merged rows holds is named.
    Else the rows of another error line of it seen before, in the first index that has one,
    and in every index whose first such line is the same (the same notice); an index that
    found no such line, or another one, gives none: the cards are of one line."""
    per_index = _decoded(per_index)
    error = params["error"]
    if not error.strip() or not per_index:
        return per_index, None
    limit = queries.find_limit(params["limit"])
    merged = _merge_find(datasette, per_index, params)
    seen = queries.seen_before(merged)

    def which(name: str) -> Any:
        given = merged if seen else per_index[name]
        return datasette.get_database(name).execute_fn(
            lambda conn: queries.by_which_line(conn, error, given, limit)
        )

    outcomes = await asyncio.gather(*map(which, per_index), return_exceptions=True)
    found: dict[str, tuple[list[dict[str, Any]], str]] = {}
    for name, outcome in zip(per_index, outcomes, strict=True):
        if isinstance(outcome, sqlite3.DatabaseError | QueryInterrupted):
            continue  # (its rows were read: the notice of the others is said)
        if isinstance(outcome, BaseException):
            raise outcome
        if outcome[1]:
            found[name] = outcome
    if not found:
        return per_index, None
    said = next(iter(found.values()))[1]
    if seen:
        return per_index, said
    return {name: rows for name, (rows, line) in found.items() if line == said}, said


def _merge_find(
    datasette: Datasette, per_index: dict[str, list[dict[str, Any]]], params: dict[str, str]
) -> list[dict[str, Any]]:
    """Every index's rows (_decoded) merged by queries.merge_find_rows, cut to `limit`."""
    lists = []
    for name, found in per_index.items():
        find_url = datasette.urls.query(name, "find_past_fix") + "?" + urlencode(params)
        lists.append([{"database": name, "find_url": find_url, **row} for row in found])
    return queries.merge_find_rows(lists)[: queries.find_limit(params["limit"])]


def _merge_search(
    datasette: Datasette, per_index: dict[str, list[dict[str, Any]]], params: dict[str, str]
) -> list[dict[str, Any]]:
    """The best message of each index, then the second best, ...; newest first among equals.

    bm25 ranks messages within an index but depends on that index's size: it is not
    compared across indexes.
    """
    rows = []
    for name, found in per_index.items():
        for position, row in enumerate(found):
            url = views.session_url(datasette, name, row["session_id"], msg=row["uuid"])
            rows.append((position, {"database": name, **row, "session_url": url}))
    rows.sort(key=lambda pair: pair[1]["timestamp"] or "", reverse=True)
    rows.sort(key=lambda pair: pair[0])
    return [row for _, row in rows[:SEARCH_LIMIT]]


def _merge_recurring(
    datasette: Datasette, per_index: dict[str, list[dict[str, Any]]], params: dict[str, str]
) -> list[dict[str, Any]]:
    """One row per signature over every index, the counts added up, in recurring_errors' order.

    `databases` gives each index's share. `projects` adds up each index's count: two
    people's copies of a project count twice.
    """
    merged: dict[str, dict[str, Any]] = {}
    for name, found in per_index.items():
        for row in found:
            share = {
                "database": name,
                "failures": row["failures"],
                "sessions": row["sessions"],
                "kind": row["kind"],
                "find_url": datasette.urls.query(name, "find_past_fix")
                + "?"
                + urlencode({"error": row["example"] or row["signature"]}),
            }
            into = merged.get(row["signature"])
            if into is None:
                merged[row["signature"]] = {**row, "databases": [share]}
                continue
            into["databases"].append(share)
            for count in ("failures", "sessions", "projects"):
                into[count] += row[count]
            into["first_seen"] = min(into["first_seen"], row["first_seen"])
            if row["last_seen"] > into["last_seen"]:
                into["last_seen"], into["example"] = row["last_seen"], row["example"]
            agents = {*(into["agents"] or "").split(", "), *(row["agents"] or "").split(", ")}
            into["agents"] = ", ".join(sorted(a for a in agents if a))
    for row in merged.values():
        row["kind"] = _kind(row["databases"])
    rows = sorted(merged.values(), key=lambda row: row["last_seen"] or "", reverse=True)
    rows.sort(key=lambda row: (row["kind"] != "error", -row["failures"], -row["sessions"]))
    return rows[: queries.RECURRING_LIMIT]


def _kind(shares: list[dict[str, Any]]) -> str:
    """A signature's kind over several indexes: that of most of its failures."""
    failures: dict[str, int] = {}
    for share in shares:
        failures[share["kind"]] = failures.get(share["kind"], 0) + share["failures"]
    if 2 * failures.get("error", 0) >= sum(failures.values()):
        return "error"
    return max((n, kind) for kind, n in failures.items() if kind != "error")[1]


MERGES = {"find": _merge_find, "search": _merge_search, "recurring": _merge_recurring}


def _find_context(
    datasette: Datasette, rows: list[dict[str, Any]], params: dict[str, str]
) -> dict[str, Any]:
    now = datetime.now(UTC)
    # the rows carry database and find_url, which the cards show
    error = params["error"]
    cards = [views.find_card(row, now, row["database"], datasette, error) for row in rows]
    return {
        "cards": views.group_same_fixes(cards),
        "failures": views.failure_count(cards),
        **views.not_seen(cards, error),
        "sessions": len({(c["database"], c["session_id"]) for c in cards}),
        "search_url": _url(datasette, "search", q=_first_line(params["error"])),
    }


def _english_notice(rows: list[dict[str, Any]], params: dict[str, str]) -> str | None:
    """What the find page says of a paste read as its English message (queries.english_notice)."""
    return queries.english_notice(params["error"], rows) if params["error"].strip() else None


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")
