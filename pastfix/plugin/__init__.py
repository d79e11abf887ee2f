"""pastfix's Datasette plugin: canned queries, the session page, session links, safe_fts(),
and the pages over every index (/-/pastfix/find, search, recurring).

Registered by the `datasette` entry point `pastfix` (or by plugins/register_pastfix.py in a
checkout). Every feature is offered on each database that has pastfix's schema, and on no other,
on Datasette 0.65 and the 1.0 alphas (see pastfix.plugin.indexes for what differs).
"""

from datasette import hookimpl

from pastfix import queries
from pastfix.plugin import indexes, team, views


@hookimpl
def startup(datasette):
    async def inner():
        views.check_search_all(datasette)
        indexes.hide_pastes_in_access_log()
        await indexes.check_all(datasette)

    return inner


@hookimpl
def asgi_wrapper(datasette):
    return lambda app: indexes.check_requests(datasette, app)


@hookimpl
def get_metadata(datasette, key, database, table):
    # Datasette 0.65 only; 1.0 is told at startup (indexes.adopt).
    return indexes.known_metadata(datasette)


@hookimpl
def prepare_connection(conn, database, datasette):
    queries.register_functions(conn, views.database_url(datasette, database))


@hookimpl
def canned_queries(datasette, database):
    # Datasette 0.65 only; 1.0 stores the queries instead (indexes.adopt).
    async def inner():
        return await views.canned_queries(datasette, database)

    return inner


@hookimpl
def register_routes():
    return [
        (views.SESSION_ROUTE, views.session_page),
        (views.CSS_ROUTE, views.css),
        (team.ROUTE, team.page),
        (team.ALL_ROUTE, team.search_all),
    ]


@hookimpl
def menu_links(datasette, actor, request):
    async def inner():
        return await views.menu_links(datasette)

    return inner


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    return views.render_cell(row, value, column, table, database, datasette)


@hookimpl
def extra_css_urls(datasette, database):
    async def inner():
        return await views.css_urls(datasette, database)

    return inner


@hookimpl
def extra_template_vars(template, database, request, datasette):
    async def inner():
        return await views.template_vars(template, database, request, datasette)

    return inner


@hookimpl
def extra_body_script(template, database, request, datasette):
    async def inner():
        return await views.body_script(template, database, request, datasette)

    return inner
