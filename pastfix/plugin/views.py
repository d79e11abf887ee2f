"""What the hooks in pastfix.plugin delegate to: the session page, cell links, schema checks."""

from __future__ import annotations

import copy
import importlib.metadata
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote, urlencode

import markupsafe
from datasette.utils import StartupError, tilde_decode, tilde_encode
from datasette.utils.asgi import NotFound, Request, Response

from pastfix import agents, cards, fixes, queries
from pastfix.plugin.indexes import (
    is_datasette_1,
    is_index,
    not_index_reason,
    serves_an_index,
)

if TYPE_CHECKING:  # datasette.app imports the plugins, so not at run time
    from datasette.app import Datasette

SESSION_ROUTE = r"^/(?P<database>[^/]+)/-/session/(?P<session_id>[^/]+?)(\.(?P<format>json))?$"
CSS_ROUTE = r"^/-/pastfix\.css$"
CSS_PATH = "-/pastfix.css"
CSS = (Path(__file__).parent / "static" / "pastfix.css").read_text()
HIGHLIGHT_JS = (Path(__file__).parent / "static" / "highlight.js").read_text()
NOISE_JS = (Path(__file__).parent / "static" / "noise.js").read_text()
COLUMNS_JS = (Path(__file__).parent / "static" / "columns.js").read_text()
# The canned query whose noise text box becomes a checkbox (NOISE_JS).
NOISE_QUERY = "recurring_errors"
# The canned queries whose excerpt column gets the searched text marked (HIGHLIGHT_JS).
HIGHLIGHTED_QUERIES = frozenset({"search_tool_output", "session_tool_output"})

# Columns whose value render_cell turns into a link to the session page.
SESSION_COLUMNS = frozenset({"session_id"})
# Columns holding HTML: escaped text with <mark> highlights (queries.snippet_html).
SNIPPET_COLUMNS = frozenset({"snippet"})
# Timestamp columns, shown as a date and a time that wrap between them, never inside.
TIME_COLUMNS = frozenset(
    {"timestamp", "failed_at", "first_seen", "last_seen", "first_touched", "last_touched"}
)
CELL_COLUMNS = (
    SESSION_COLUMNS | SNIPPET_COLUMNS | TIME_COLUMNS | {"resume", "next_ok_target", "signature"}
)


def check_search_all(datasette: Datasette) -> None:
    """Stop with a way out when datasette-search-all is too old for Datasette 1.0.

    search-all before 1.1.5a0 calls ensure_permissions(), which 1.0 removed: every HTML
    page would answer 500.
    """
    if not is_datasette_1(datasette):  # 0.65: every release works
        return
    try:
        version = importlib.metadata.version("datasette-search-all")
    except importlib.metadata.PackageNotFoundError:
        return
    if tuple(int(n) for n in re.findall(r"\d+", version)[:3]) < (1, 1, 5):
        raise StartupError(
            f"datasette-search-all {version} does not work with Datasette 1.0: "
            "pip install 'datasette-search-all>=1.1.5a0' (or 'pastfix[datasette1]')"
        )


async def canned_queries(datasette: Datasette, database: str) -> dict[str, Any] | None:
    if not await is_index(datasette, database):
        return None
    # Datasette writes into the dicts it gets: hand out copies.
    return copy.deepcopy(queries.CANNED_QUERIES)


async def menu_links(datasette: Datasette) -> list[dict[str, str]]:
    """The pages over every index, in Datasette's menu on every page, while an index is served."""
    if not await serves_an_index(datasette):
        return []
    return [
        {"href": datasette.urls.path("-/pastfix/find"), "label": "Find past fix"},
        {"href": datasette.urls.path("-/pastfix/recurring"), "label": "Recurring errors"},
    ]


async def css_urls(datasette: Datasette, database: str | None) -> list[str]:
    """The stylesheet, on the pages of a pastfix database."""
    if database and await is_index(datasette, database):
        return [datasette.urls.path(CSS_PATH)]
    return []


def database_url(datasette: Datasette, database: str) -> str:
    """Where `database` is served; internal databases (_memory) have no route of their own."""
    try:
        return datasette.urls.database(database)
    except KeyError:
        return datasette.urls.path(quote(database, safe=""))


def session_url(
    datasette: Datasette,
    database: str,
    session_id: str,
    call: str | None = None,
    suffix: str = "",
    **args: str,
) -> str:
    """The session page (suffix ".json" for its JSON), at a tool call or message when given."""
    return queries.session_path(datasette.urls.database(database), session_id, call, suffix, **args)


def highlight(snippet: str) -> markupsafe.Markup:
    """A snippet column's HTML, whatever the SQL put in it: no tag but <mark> survives.

    Everything is escaped again; then the <mark> tags come back, and then the
    text's own entities (`&lt;mark&gt;` for a literal one stays text). An entity
    can only ever show a character, never make a tag.
    """
    escaped = str(markupsafe.escape(snippet))
    escaped = escaped.replace("&lt;mark&gt;", "<mark>").replace("&lt;/mark&gt;", "</mark>")
    return markupsafe.Markup(escaped.replace("&amp;", "&"))


def readable_time(timestamp: str) -> markupsafe.Markup | None:
    """`2026-03-04T05:21:14.928Z` as `2026-03-04 05:21:14`, the ISO text as its title."""
    if len(timestamp) < 19 or timestamp[10] != "T":
        return None
    return markupsafe.Markup(
        '<time datetime="{0}" title="{0}"><span class="pf-nowrap">{1}</span>'
        ' <span class="pf-nowrap">{2}</span></time>'
    ).format(timestamp, timestamp[:10], timestamp[11:19])


# What the session page shows for a timestamp that is no time (queries.known_time); a
# card's sentence says it as cards.UNKNOWN_TIME.
UNKNOWN_TIME = "unknown time"


def session_time(timestamp: str | None) -> markupsafe.Markup:
    """A timestamp on the session page: as written when it is a time (queries.known_time),
    else UNKNOWN_TIME with the text written as its title.

    The page showed `yesterday` or `2026-13-45T99:99:99Z` as a time, where the cards, the
    hook and the find page say it is unknown.
    """
    if queries.known_time(timestamp) is not None:
        return markupsafe.Markup("{}").format(timestamp)
    if not timestamp:
        return markupsafe.Markup('<span class="pf-muted">{}</span>').format(UNKNOWN_TIME)
    return markupsafe.Markup('<span class="pf-muted" title="{}">{}</span>').format(
        timestamp, UNKNOWN_TIME
    )


def _row_get(row: Any, key: str) -> Any:
    try:
        return row[key]
    except (KeyError, IndexError, TypeError):
        return None


def render_cell(
    row: Any, value: Any, column: str, table: str | None, database: str, datasette: Datasette
) -> Any:
    label, show_id = value, False
    if table == "sessions" and column == "title":
        # The sessions table links each session_id to its row: the title links to the page.
        column, value = "session_id", _row_get(row, "session_id")
    elif column in SESSION_COLUMNS and isinstance(value, dict):
        # A foreign key Datasette has expanded: {"value": the id, "label": the session's title}.
        value, label = value.get("value"), value.get("label") or value.get("value")
        show_id = label != value
    if column not in CELL_COLUMNS or not isinstance(value, str) or not value:
        return None

    async def inner() -> markupsafe.Markup | None:
        if not await is_index(datasette, database):
            return None
        if column in SNIPPET_COLUMNS:
            return highlight(value)
        if column in TIME_COLUMNS:
            return readable_time(value)
        if column == "resume":
            return markupsafe.Markup("<code>{}</code>").format(value)
        if column == "signature":
            # Pasting a signature finds every failure that has it; an example finds them too,
            # and its words are highlighted.
            error = _row_get(row, "example") or value
            url = (
                datasette.urls.query(database, "find_past_fix") + "?" + urlencode({"error": error})
            )
            return markupsafe.Markup('<a href="{}">{}</a>').format(url, value)
        if column == "next_ok_target":
            session_id, call = _row_get(row, "session_id"), _row_get(row, "next_ok_tool_use_id")
            if not (isinstance(session_id, str) and call):
                return None
            url = session_url(datasette, database, session_id, call=call)
        else:
            call = _row_get(row, "tool_use_id")
            msg = None if call else _row_get(row, "uuid")
            url = session_url(
                datasette, database, value, call=call, **({"msg": msg} if msg else {})
            )
        link = markupsafe.Markup('<a href="{}">{}</a>').format(url, label)
        return link + markupsafe.Markup("&nbsp;<em>{}</em>").format(value) if show_id else link

    return inner


def _page_links(datasette: Datasette, database: str, data: dict[str, Any]) -> dict[str, str]:
    session_id = data["session"]["session_id"]
    links = {}
    if data["page"] > 1:
        links["previous"] = session_url(datasette, database, session_id, page=str(data["page"] - 1))
    if data["page"] < data["pages"]:
        links["next"] = session_url(datasette, database, session_id, page=str(data["page"] + 1))
    return links


async def session_page(datasette: Datasette, request: Request) -> Response:
    """A session's conversation in order, with anchors: HTML, or JSON with .json."""
    try:
        db = datasette.get_database(route=tilde_decode(request.url_vars["database"]))
    except KeyError:
        raise NotFound("Database not found") from None
    if not await is_index(datasette, db.name):
        raise NotFound(await not_index_reason(datasette, db.name))
    await ensure_can_view(datasette, request, db.name)
    session_id = unquote(request.url_vars["session_id"])
    fmt = request.url_vars.get("format")
    page = request.args.get("page", "")
    data = await db.execute_fn(
        lambda conn: queries.session_page(
            conn,
            session_id,
            page=int(page) if page.isascii() and page.isdigit() else None,
            call=request.args.get("call"),
            message=request.args.get("msg"),
        )
    )
    if data is None:
        # The first characters the hook and `pastfix find` name a session by are that
        # session: its page is the whole id's.
        whole = await db.execute_fn(lambda conn: queries.session_of_prefix(conn, session_id))
        if whole is None:
            raise NotFound(f"No session {session_id} in {db.name}")
        url = session_url(datasette, db.name, whole, suffix=f".{fmt}" if fmt else "")
        return Response.redirect(url + (f"?{request.query_string}" if request.query_string else ""))
    data["links"] = _page_links(datasette, db.name, data)
    if fmt == "json":
        return Response.json(data)
    context = {
        "database": db.name,
        "data": data,
        "session": data["session"],
        "agent_label": data["agent_label"],
        "row_url": datasette.urls.row(db.name, "sessions", tilde_encode(session_id)),
        "json_url": session_url(
            datasette, db.name, session_id, suffix=".json", page=str(data["page"])
        ),
        "errors_url": datasette.urls.query(db.name, "session_errors")
        + "?"
        + urlencode({"session_id": session_id}),
        "output_url": datasette.urls.query(db.name, "session_tool_output"),
        "call_url": lambda call: session_url(datasette, db.name, session_id, call=call),
        "diff_of": session_diff,
        "at": session_time,
        # what each failure came to, in the words of its find card (cards.not_fixed_words)
        "not_fixed": lambda outcome: cards.not_fixed_words({"outcome": outcome}),
        "outcome_heading": cards.outcome_heading,
        "nothing_to_fix": cards.NOTHING_TO_FIX,
        "claims_fix": fixes.CLAIMS_FIX,
        "diff_open": SESSION_DIFF_OPEN,
    }
    html = await datasette.render_template("pastfix_session.html", context, request=request)
    return Response.html(html)


async def ensure_can_view(
    datasette: Datasette, request: Request, database: str | None = None
) -> None:
    """Forbidden unless the actor may view the instance (and `database`), on either line."""
    if not is_datasette_1(datasette):
        permissions: list[Any] = ["view-instance"]
        if database is not None:
            permissions.insert(0, ("view-database", database))
        await datasette.ensure_permissions(request.actor, permissions)
        return
    await datasette.ensure_permission(action="view-instance", actor=request.actor)
    if database is not None:
        await datasette.ensure_permission(
            action="view-database", resource=_database_resource(database), actor=request.actor
        )


async def may_view(datasette: Datasette, actor: Any, database: str) -> bool:
    """Whether the actor may view `database`, on either line."""
    if not is_datasette_1(datasette):
        return bool(
            await datasette.permission_allowed(actor, "view-database", database, default=True)
        )
    resource = _database_resource(database)
    return bool(await datasette.allowed(action="view-database", resource=resource, actor=actor))


def _database_resource(database: str) -> Any:
    from datasette.resources import DatabaseResource  # Datasette 1.0 only

    return DatabaseResource(database=database)


async def css(request: Request) -> Response:
    return Response(
        CSS,
        content_type="text/css; charset=utf-8",
        headers={"cache-control": "max-age=3600"},
    )


# -- the find_past_fix page ------------------------------------------------------------

FIND_QUERY = "find_past_fix"
# Lines of a command shown before "more"; lines of each side of an edit's diff.
COMMAND_LINES = 3
DIFF_LINES = 12
# Sessions of a pasted path's history shown on the find page (the rest: its query page).
FILE_HISTORY_ROWS = 5
# Lines of an edit's diff on the session page; a longer one is cut, with its size said.
SESSION_DIFF_LINES = 80
# An edit's diff of more lines than this is folded on the session page.
SESSION_DIFF_OPEN = 16


async def template_vars(
    template: str, database: str | None, request: Request | None, datasette: Datasette
) -> dict[str, Any]:
    """`pastfix_find` on the find_past_fix page of an index: query.html draws cards with it;
    `pastfix_notice` on search_messages', when its `raw:` expression is not what FTS5 can
    parse (it said "0 results", as if nothing held the words: a new user's try)."""
    if template != "query.html" or not database or request is None:
        return {}
    if request.url_vars.get("table") == "search_messages":
        said = queries.raw_problem(request.args.get("q", ""))
        return {"pastfix_notice": said} if said and await is_index(datasette, database) else {}
    if request.url_vars.get("table") != FIND_QUERY or not await is_index(datasette, database):
        return {}

    async def pastfix_find(rows: list[Any] | None) -> dict[str, Any]:
        if rows is None:  # Datasette 1.0 gives the template its rendered cells only
            params = {
                p: request.args.get(p, "") for p in queries.CANNED_QUERIES[FIND_QUERY]["params"]
            }
            rows = await run_query(datasette, database, FIND_QUERY, params)
        error = request.args.get("error", "")
        said = None
        if error.strip():
            # which line of the paste the cards are of, as `pastfix find` and MCP say
            # (queries.by_which_line: another error line's, or a second error's)
            found = [dict(row) for row in rows]
            rows, said = await datasette.get_database(database).execute_fn(
                lambda conn: queries.by_which_line(conn, error, found, _limit(request))
            )
        page = find_page(rows, request, database, datasette)
        page["key_line_notice"] = said
        # (a paste in another language read as its English message: queries.english_notice)
        page["english_notice"] = queries.english_notice(error, rows) if error.strip() else None
        page["file_history"] = await file_history(datasette, database, page["error"])
        if page["error"] and not page["seen_before"]:
            # not "Not seen before" of an index no build has finished (the first running)
            built = await datasette.get_database(database).execute(queries.BUILT_SQL)
            page["unbuilt"] = not built.rows
        return page

    return {"pastfix_find": pastfix_find}


def _limit(request: Request) -> int:
    """The find page's `limit`, as find_past_fix reads it (its default when not a number)."""
    given = request.args.get("limit", "").strip()
    # (not str.isdigit(): `²` is a digit to it, and no number to int())
    number = int(given) if given.isascii() and given.isdigit() else 0
    return min(number, queries.FIND_MAX) if number else queries.FIND_LIMIT


async def file_history(datasette: Datasette, database: str, error: str) -> dict[str, Any] | None:
    """The history of the file the pasted text is or ends in (queries.pasted_path), when the
    index has one: the sessions that touched it, for the find page to show beside failures."""
    path = queries.pasted_path(error)
    if path is None:
        return None
    rows = await run_query(datasette, database, "file_history", {"path": path})
    if not rows:
        return None
    now = datetime.now(UTC)
    query_url = datasette.urls.query(database, "file_history")
    return {
        "path": path,
        "count": len(rows),
        "url": f"{query_url}?" + urlencode({"path": path}),
        "rows": [
            {
                **row,
                "when": _when(row["last_touched"], now),
                "url": session_url(datasette, database, row["session_id"]),
                "title": queries.one_line(row["title"] or row["session_id"], 120),
                "last_error": queries.one_line(row["last_error"], 200),
            }
            for row in rows[:FILE_HISTORY_ROWS]
        ],
    }


async def run_query(
    datasette: Datasette, database: str, query: str, params: dict[str, str]
) -> list[dict[str, Any]]:
    """The rows of canned query `query` on `database`, through Datasette's own connection;
    parameters not given are empty, as queries.run() has them."""
    values = {p: params.get(p, "") for p in queries.CANNED_QUERIES[query]["params"]}
    return await run_sql(datasette, database, queries.CANNED_QUERIES[query]["sql"], values)


async def run_sql(
    datasette: Datasette, database: str, sql: str, params: dict[str, str]
) -> list[dict[str, Any]]:
    """The rows of `sql` on `database`, through Datasette's own connection."""
    results = await datasette.get_database(database).execute(sql, params)
    return [dict(zip(results.columns, row, strict=True)) for row in results.rows]


async def body_script(
    template: str, database: str | None, request: Request | None, datasette: Datasette
) -> str:
    """The script that marks the searched text, on the tool output searches of an index, and
    the one that makes recurring_errors' noise a checkbox, and the one that folds a table's
    column descriptions."""
    if template == "table.html" and database:
        return COLUMNS_JS if await is_index(datasette, database) else ""
    if template != "query.html" or not database or request is None:
        return ""
    query = request.url_vars.get("table")
    if query not in HIGHLIGHTED_QUERIES and query != NOISE_QUERY:
        return ""
    if not await is_index(datasette, database):
        return ""
    return NOISE_JS if query == NOISE_QUERY else HIGHLIGHT_JS


def find_page(
    rows: list[Any], request: Request, database: str, datasette: Datasette
) -> dict[str, Any]:
    """What the find_past_fix page shows: the pasted error, its cards, and where else to look."""
    error = request.args.get("error", "")
    first_line = next((line.strip() for line in error.splitlines() if line.strip()), "")
    query_url = datasette.urls.database(database)
    now = datetime.now(UTC)
    cards = [find_card(dict(row), now, database, datasette, error) for row in rows]
    return {
        "error": error,
        "limit": request.args.get("limit", ""),
        "action": f"{query_url}/{FIND_QUERY}",
        "cards": group_same_fixes(cards),
        "failures": failure_count(cards),
        **not_seen(cards, error),
        "sessions": len({c["session_id"] for c in cards}),
        "elsewhere": {
            "search_tool_output": f"{query_url}/search_tool_output?"
            + urlencode({"pattern": first_line[:200], "project": ""}),
            "search_messages": f"{query_url}/search_messages?" + urlencode({"q": first_line}),
        },
    }


def failure_count(cards: list[dict[str, Any]]) -> int:
    """The past failures the cards are of: each card is one session's, of one signature,
    and says how many times it failed so there (`occurrences`); the page said the cards'
    number, "1 past failure" above a card of 4 (a new user's try, session 27)."""
    return sum(card.get("occurrences") or 1 for card in cards)


def not_seen(cards: list[dict[str, Any]], error: str) -> dict[str, Any]:
    """What the find pages say of the error: seen before or not, the names the partial
    matches share with it (queries.seen_before), and what to say when it names no error at
    all (queries.says_little: only how a command ended, or only common words; or it reads as
    a person's prose, queries.reads_as_prose)."""
    names = {w for card in cards for w in _json_list(card["shared_words"])}
    return {
        "seen_before": queries.seen_before(cards),
        "shared": sorted(names, key=str.lower),
        # not seen, but its error signature about other names was (queries.other_names)
        "other_names": any(card.get("other_names") for card in cards),
        # ... all about other files that were not there or a shell could not run or write
        # (queries.its_file_is_the_error)
        "other_files": queries.about_other_files(cards),
        "other_files_head": queries.not_seen_about(error),
        "other_files_notice": queries.other_files_notice(cards, error),
        "says_little": (
            queries.says_little_notice(error) if cards and queries.says_little(error) else None
        ),
        # seen, but only about other files, the error not about which (an EISDIR's path)
        "seen_elsewhere": queries.seen_about_other_files(cards, error),
        # a question or a sentence, not looked for by its words (queries.reads_as_prose),
        # or a program's output that reports no error (queries.no_error_notice)
        "prose": queries.no_error_notice(error),
    }


def group_same_fixes(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards, those of an error fixed the same way as an earlier card's folded into
    that card's `same_fix` (cards.group_same_fixes). The rows' JSON is unchanged."""
    return [
        {**card, "same_fix": others} for card, others in cards.group_same_fixes(found, _fix_key)
    ]


def _fix_key(card: dict[str, Any]) -> tuple[Any, ...] | None:
    steps = [
        (step["tool"], step["path"], step["target_head"], step.get("change"))
        for step in card["remedy_steps"]
    ]
    return cards.same_fix_key(
        card["signature"], card["outcome"], card["fixed_at"], card["project"], steps
    )


def find_card(
    row: dict[str, Any], now: datetime, database: str, datasette: Datasette, error: str = ""
) -> dict[str, Any]:
    """What a find_past_fix card (pastfix_find_parts.html) shows of a row of `database`
    found for the pasted `error`."""
    project = row["project"]
    target = row["target"] or ""
    lines = target.splitlines() or [""]
    # what was done next, when nothing fixed it, with its JSON read
    plain = {
        **row,
        "next_calls": _json_list(row.get("next_calls")),
        "files_edited_after": _json_list(row["files_edited_after"]),
    }
    remedy = [
        {
            **step,
            "target_head": queries.one_line(cards.in_project(step["target"], project), 300),
            "path": cards.in_project(step["path"], project) if step["path"] else None,
            "url": session_url(datasette, database, row["session_id"], step["tool_use_id"]),
            "diffs": [_edit_diff(edit) for edit in step["edits"]],
        }
        for step in cards.remedy_steps(
            {
                **row,
                "remedy": _json_list(row.get("remedy")),
                "fix_edits": _json_list(row["fix_edits"]),
            }
        )
    ]
    return {
        **row,
        "agent_badge": agents.badge(row.get("agent")),
        "remedy_steps": remedy,
        "not_fixed": cards.not_fixed_words(row),
        "left_unsolved": cards.left_unsolved(row),
        "error_cut": (row.get("error_length") or 0) > len(row.get("error") or ""),
        "title": row["session_title"] or row["session_id"],
        "asked": cards.asked(row),
        "resume_note": cards.resume_note(row),
        "when": _when(row["failed_at"], now),
        "fixed_after": _gap(row["failed_at"], row["fixed_at"]),
        "command_head": "\n".join(lines[:COMMAND_LINES]),
        "command_more": "\n".join(lines[COMMAND_LINES:]),
        "snippet": markupsafe.Markup(row["error_snippet_html"] or ""),
        "signature_shown": cards.signature_shown(row),
        "how_matched": cards.how_matched(row, error),
        "other_file_kind": cards.other_file_kind(row, error),
        "fix_words": cards.fix_words(row),
        "succeeded": cards.succeeded(row),
        "calls": [
            {**call, "target": cards.in_project(call["target"], project), "times": times}
            for call, times in cards.fold_calls(_json_list(row["fix_calls"]))
        ],
        "call_count": len(_json_list(row["fix_calls"])),
        # worked around by no call of the session (cards.outside_the_session)
        "outside": cards.outside_the_session({**row, "remedy": _json_list(row.get("remedy"))}),
        "outside_words": cards.OUTSIDE_THE_SESSION,
        "outside_went": cards.outside_went(row),
        # the failed call run again as it was, nothing between: "with nothing changed"
        "as_was": cards.same_call_again(
            {
                **row,
                "remedy": _json_list(row.get("remedy")),
                "fix_calls": _json_list(row["fix_calls"]),
            }
        ),
        "fix_target_differs": cards.where_it_differs(
            cards.in_project(row["fix_target"], project),
            cards.in_project(row.get("target"), project),
            200,
        ),
        "files": cards.files_edited(plain),
        "next_steps": [
            {
                "text": queries.one_line(step["text"], 300),
                "url": session_url(datasette, database, row["session_id"], step["tool_use_id"]),
            }
            for step in cards.next_steps(plain)
        ],
        "noise": row["kind"] if row["kind"] not in (None, "error") else None,
        "next_ok_target": cards.in_project(row["next_ok_target"], project),
        "fix_target": cards.in_project(row["fix_target"], project),
        "fix_target_head": queries.one_line(cards.in_project(row["fix_target"], project), 200),
        "fix_url": session_url(datasette, database, row["session_id"], row["fix_tool_use_id"]),
        "next_ok_url": session_url(
            datasette, database, row["session_id"], row["next_ok_tool_use_id"]
        ),
    }


def _edit_diff(edit: dict[str, Any]) -> list[tuple[str, str]]:
    """The lines a fix_edits entry changed, as the card's diff shows them."""
    if edit["tool"] == "apply_patch":
        return cards.patch_lines(edit["new"])[:DIFF_LINES]
    return cards.edit_diff(edit, DIFF_LINES)


def _json_list(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    try:
        found = json.loads(value) if value else []
    except ValueError:
        return []
    return found if isinstance(found, list) else []


def session_diff(edit: dict[str, str]) -> list[tuple[str, str]]:
    """An edit on the session page (queries.edit_parts): its diff, SESSION_DIFF_LINES at most."""
    if "patch" in edit:
        return cards.patch_lines(edit["patch"])[:SESSION_DIFF_LINES]
    return cards.diff_lines(edit["old"], edit["new"], SESSION_DIFF_LINES)


def _when(timestamp: str | None, now: datetime) -> dict[str, str]:
    """An ISO timestamp as a date a person reads, and how long ago it was."""
    at = queries.known_time(timestamp)
    if at is None:
        return {"absolute": cards.UNKNOWN_TIME, "relative": ""}
    return {
        "absolute": at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "relative": _duration(now - at) + " ago" if now >= at else "",
        "iso": timestamp or "",
    }


def _gap(start: str | None, end: str | None) -> str:
    """How long after `start` `end` came, in words ("2 min later")."""
    a, b = queries.known_time(start), queries.known_time(end)
    if a is None or b is None or b < a:
        return ""
    return _duration(b - a) + " later"


def _duration(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    for unit, size in (
        ("year", 365 * 86400),
        ("month", 30 * 86400),
        ("day", 86400),
        ("hour", 3600),
        ("min", 60),
    ):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if n > 1 and unit != 'min' else ''}"
    return f"{seconds} s"
