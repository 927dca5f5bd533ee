"""A model's rows read by hand-built SQL, built as the ORM builds them: the columns of
one model under a table alias, each value passed through that field's converters, so
a row read here is exactly the object a queryset would give."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Columns:
    """One model's concrete columns as read under a table alias."""

    model: type
    alias: str
    names: tuple[str, ...]  # attnames, in the order Model.from_db takes them
    sql: tuple[str, ...]  # "alias"."column"
    converters: tuple[tuple, ...]  # per column: (converters, expression)

    def convert(self, connection, values) -> list:
        converted = []
        for value, (functions, expression) in zip(values, self.converters, strict=True):
            for convert in functions:
                value = convert(value, expression, connection)
            converted.append(value)
        return converted

    def build(self, using: str, connection, values):
        return self.model.from_db(using, self.names, self.convert(connection, values))


def columns(model, alias: str, connection, fields=None) -> Columns:
    quote = connection.ops.quote_name
    fields = fields if fields is not None else model._meta.concrete_fields
    converters = []
    for field in fields:
        expression = field.get_col(alias)
        converters.append(
            (tuple(connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)),
             expression)
        )
    return Columns(
        model,
        alias,
        tuple(field.attname for field in fields),
        tuple(f"{quote(alias)}.{quote(field.column)}" for field in fields),
        tuple(converters),
    )
