"""A bearer token and its person in one indexed read, prepared on PostgreSQL.

Every call of a script pays for this read before anything else, and through
the ORM building the query cost several times what the database spends on
it; so the statement is built once per process from the models' own fields
(games/sql/rows.py), and the rows come out as the ORM would give them.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connections, router

from games.sql.prepared import cursor_for
from games.sql.rows import columns

from .models import ApiToken, hash_token_secret


@cache
def _token_read(using: str):
    connection = connections[using]
    quote = connection.ops.quote_name
    user_model = get_user_model()
    token, user = columns(ApiToken, "k", connection), columns(user_model, "u", connection)
    user_column = ApiToken._meta.get_field("user").column
    sql = (
        f"SELECT {', '.join(token.sql + user.sql)}"
        f" FROM {quote(ApiToken._meta.db_table)} {quote('k')}"
        f" INNER JOIN {quote(user_model._meta.db_table)} {quote('u')}"
        f" ON {quote('u')}.{quote(user_model._meta.pk.column)} = {quote('k')}.{quote(user_column)}"
        f" WHERE {quote('k')}.{quote('key_hash')} = %s AND {quote('k')}.{quote('revoked_at')} IS NULL"
    )
    return sql, token, user


def active_token(secret: str) -> ApiToken | None:
    """The unrevoked token with this secret, its `user` read with it; None when there is none.

    As `ApiToken.find_active`: the hash is unique, so there is at most one row."""
    using = router.db_for_read(ApiToken)
    connection = connections[using]
    sql, token_part, user_part = _token_read(using)
    with cursor_for(connection) as cursor:
        cursor.execute(sql, [hash_token_secret(secret)])
        row = cursor.fetchone()
    if row is None:
        return None
    width = len(token_part.names)
    token = token_part.build(using, connection, row[:width])
    token.user = user_part.build(using, connection, row[width:])
    return token
