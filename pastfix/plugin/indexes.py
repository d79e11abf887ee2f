"""Which served databases are pastfix indexes, and what each Datasette line is told of them.

Datasette 0.65 asks plugins through hooks: canned_queries() for the queries, get_metadata()
for descriptions, facets, sort order, search and hidden tables. The 1.0 alphas call neither:
queries and descriptions live in Datasette's internal database (add_query(),
set_*_metadata()) and table settings in its config. There a database is *adopted* the first
time it is found to be an index: is_index() runs for every database at startup, and again,
through the asgi_wrapper hook, for the database each request names, so a database that
`pastfix build` makes an index (or brings up to date) while it is served gains them too.
"""

from __future__ import annotations

import copy
import logging
import re
import weakref
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import markupsafe
import yaml
from datasette.utils import tilde_decode

from pastfix import LATEST_MIGRATION, queries

if TYPE_CHECKING:  # datasette.app imports the plugins, so not at run time
    from datasette.app import Datasette

# Descriptions and table settings of every pastfix database, whatever its name.
METADATA: dict[str, Any] = yaml.safe_load((Path(__file__).parent / "metadata.yml").read_text())
# The table settings Datasette 1.0 reads from its config, not from metadata.
TABLE_CONFIG_KEYS = frozenset(
    {"hidden", "sort", "sort_desc", "size", "label_column", "facets", "fts_table", "fts_pk"}
)

# Databases known to have pastfix's schema, per Datasette instance.
_known: weakref.WeakKeyDictionary[Datasette, dict[str, bool]] = weakref.WeakKeyDictionary()

Asgi = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


# Why a database with pastfix's tables is not served as an index (is_index says no).
OLDER_INDEX = "built by an older pastfix: run `pastfix build` on it to bring it up to date"


async def not_index_reason(datasette: Datasette, database: str) -> str:
    """Why `database` is no index to serve, for a page that needs one: an index an older
    pastfix built is said as such, not as a database of someone else's."""
    db = datasette.get_database(database)
    if queries.is_index(await db.table_names()):
        return f"{database} was {OLDER_INDEX}"
    return f"{database} is not a pastfix index"


async def is_index(datasette: Datasette, database: str) -> bool:
    """Whether `database` has the schema of this pastfix.

    A yes is remembered per Datasette instance (an index stays one), and the database is
    adopted then; a no is checked again, so a database that `pastfix build` fills or brings
    up to date while it is served gains the queries. An index built by an older pastfix gets
    none of them until then: its queries would fail on the columns it lacks.
    """
    known = _known.setdefault(datasette, {})
    if not known.get(database):
        try:
            db = datasette.get_database(database)
        except KeyError:
            return False
        current = queries.is_index(await db.table_names()) and bool(
            (await db.execute(queries.SCHEMA_CURRENT_SQL, [LATEST_MIGRATION])).rows
        )
        if current and is_datasette_1(datasette):
            await adopt(datasette, database)
        known[database] = current
    return known[database]


def is_datasette_1(datasette: Datasette) -> bool:
    """A 1.0 alpha, where canned queries are stored (add_query()), not asked of hooks, and
    permissions are checked with allowed() and ensure_permission(); else 0.65."""
    return hasattr(datasette, "add_query")


async def check_all(datasette: Datasette) -> None:
    for database in list(datasette.databases):
        await is_index(datasette, database)


# A query parameter that carries a paste: the error of the find pages and find_past_fix,
# the words of a search (`/-/search?q=`, `search_messages?q=`), which users paste errors into.
_PASTE_PARAMETER = re.compile(r"(?<=[?&])(error|q)=[^&#]*")


class HidePastes(logging.Filter):
    """Leaves each paste out of the access log's line of its request.

    The find pages take the pasted error in their address, by GET, so that a result can be
    linked and bookmarked; uvicorn's access log (`datasette serve` logs each request on
    stderr) would then keep it as it was pasted, secrets and all, where the index keeps it
    redacted. The line keeps the parameter and the paste's length: `?error=[paste:312
    chars]`.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        # uvicorn's line: (client, method, path with its query, HTTP version, status)
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            path = _PASTE_PARAMETER.sub(_hidden, args[2])
            if path != args[2]:
                record.args = (*args[:2], path, *args[3:])
        return True


def _hidden(m: re.Match[str]) -> str:
    return f"{m[1]}=[paste:{len(m[0]) - len(m[1]) - 1} chars]"


def hide_pastes_in_access_log() -> None:
    """Adds HidePastes to uvicorn's access log, once (uvicorn has set its loggers up by the
    time Datasette's startup hooks run)."""
    log = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, HidePastes) for f in log.filters):
        log.addFilter(HidePastes())


# datasette-search-all's page (the menu's "Search all tables"), and pastfix's page that
# answers there while an index is served: search-all shows raw rows of each table, with no
# link to a session or find_past_fix (pastfix.plugin.team.search_all).
SEARCH_ALL_PATH = "/-/search"
PASTFIX_SEARCH_PATH = "/-/pastfix/all"


def check_requests(datasette: Datasette, app: Asgi) -> Asgi:
    """`app`, checking first whether the database a request names is an index, and handing
    /-/search to pastfix's search page when an index is served.

    The path is rewritten before Datasette routes it, rather than registering a route of
    the same address: which of two plugins' routes wins depends on the order the plugins
    were loaded in. Datasette still routes the request, so the actor and permissions are
    its own.
    """

    async def checked(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            path = _in_base(datasette, scope["path"])
            database = database_in_path(datasette, scope["path"])
            if database is not None:
                await is_index(datasette, database)
            elif path == SEARCH_ALL_PATH and await serves_an_index(datasette):
                ours = scope["path"][: len(scope["path"]) - len(path)] + PASTFIX_SEARCH_PATH
                scope = {**scope, "path": ours, "raw_path": ours.encode()}
        await app(scope, receive, send)

    return checked


async def serves_an_index(datasette: Datasette) -> bool:
    """Whether any database served is a pastfix index."""
    for name in list(datasette.databases):
        if await is_index(datasette, name):
            return True
    return False


def _in_base(datasette: Datasette, path: str) -> str:
    """`path` under the base_url setting, as `/...`."""
    base_url = datasette.setting("base_url") or "/"
    if base_url != "/" and path.startswith(base_url):
        return "/" + path[len(base_url) :]
    return path


def database_in_path(datasette: Datasette, path: str) -> str | None:
    """The served database a path such as /<db>/<table>.json is under, if any."""
    path = _in_base(datasette, path)
    # Datasette tilde-encodes dots in database names, so a dot starts the format.
    route = path.lstrip("/").split("/", 1)[0].split(".", 1)[0]
    if not route or route == "-":
        return None
    try:
        return datasette.get_database(route=tilde_decode(route)).name
    except KeyError:
        return None


def known_metadata(datasette: Datasette) -> dict[str, Any]:
    """Datasette 0.65's get_metadata: METADATA for each database known to be an index."""
    known = _known.get(datasette, {})
    # Datasette merges into the dicts it gets: hand out copies.
    databases = {name: copy.deepcopy(METADATA) for name in datasette.databases if known.get(name)}
    # A metadata file (-m) takes precedence over what plugins give (Datasette's own rule).
    return {**(home_metadata(datasette) if databases else {}), "databases": databases}


def home_metadata(datasette: Datasette) -> dict[str, str]:
    """The home page's title and lede while an index is served, unless a metadata file gives
    them: without one, Datasette's home page says only "Datasette" and leads nowhere."""
    links = markupsafe.Markup(
        'Start with <a href="{}">Find past fix</a> (paste an error), <a href="{}">Recurring'
        ' errors</a> or <a href="{}">search everything</a>: each looks in every index served.'
    ).format(
        datasette.urls.path("-/pastfix/find"),
        datasette.urls.path("-/pastfix/recurring"),
        datasette.urls.path("-/search"),
    )
    return {
        "title": "pastfix",
        "description_html": "Your coding agents' history, indexed: how did I fix this"
        " error last time? " + links,
    }


async def adopt(datasette: Datasette, database: str) -> None:
    """Datasette 1.0: store the queries, descriptions and table settings of an index."""
    for name, query in queries.CANNED_QUERIES.items():
        await datasette.add_query(
            database,
            name,
            query["sql"],
            title=query["title"],
            description=query["description"],
            hide_sql=query.get("hide_sql", False),
            parameters=query["params"],
            is_trusted=True,
        )
    await _describe(datasette, database)
    _configure_tables(datasette, database)
    await datasette.get_internal_database().execute_write_many(
        "insert into metadata_instance (key, value) values (?, ?) on conflict do nothing",
        list(home_metadata(datasette).items()),
    )


async def _describe(datasette: Datasette, database: str) -> None:
    """Descriptions of the database, its tables and columns; a metadata file's win.

    The same rows set_*_metadata() writes, but in three statements instead of one
    round trip per column (about 0.2 s an index), and only where none is set yet.
    """
    internal = datasette.get_internal_database()
    tables = METADATA["tables"].items()
    await internal.execute_write_many(
        "insert into metadata_databases (database_name, key, value) values (?, ?, ?)"
        " on conflict do nothing",
        [(database, "description", METADATA["description"])],
    )
    await internal.execute_write_many(
        "insert into metadata_resources (database_name, resource_name, key, value)"
        " values (?, ?, ?, ?) on conflict do nothing",
        [(database, t, "description", s["description"]) for t, s in tables if "description" in s],
    )
    await internal.execute_write_many(
        "insert into metadata_columns (database_name, resource_name, column_name, key, value)"
        " values (?, ?, ?, ?, ?) on conflict do nothing",
        [
            (database, table, column, "description", text)
            for table, settings in tables
            for column, text in settings.get("columns", {}).items()
        ],
    )


def _configure_tables(datasette: Datasette, database: str) -> None:
    """Facets, sort order, search and hidden tables; a config file's settings win."""
    config = datasette.config.setdefault("databases", {}).setdefault(database, {})
    tables = config.setdefault("tables", {})
    for table, settings in METADATA["tables"].items():
        ours = {k: copy.deepcopy(v) for k, v in settings.items() if k in TABLE_CONFIG_KEYS}
        if ours:
            tables[table] = {**ours, **tables.get(table, {})}
