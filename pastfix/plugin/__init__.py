"""pastfix's Datasette plugin: canned queries, the session page, session links, safe_fts(),
and the pages over every index (/-/pastfix/find, search, recurring).

Registered by the `datasette` entry point `pastfix` (or by plugins/register_pastfix.py in a
checkout). Every feature is offered on each database that has pastfix's schema, and on no other.
"""

from datasette import hookimpl

from pastfix import queries
from pastfix.plugin import team, views


@hookimpl
def prepare_connection(conn, database, datasette):
    queries.register_functions(conn, views.database_url(datasette, database))


@hookimpl
def canned_queries(datasette, database):
    async def inner():
        return await views.canned_queries(datasette, database)

    return inner


@hookimpl
def register_routes():
    return [
        (views.SESSION_ROUTE, views.session_page),
        (views.CSS_ROUTE, views.css),
        (team.ROUTE, team.page),
    ]


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
