"""Keep the rows Accord allows: a data pipeline's filter."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .session import Session

Row = TypeVar("Row")
Field = str | Callable[[Any], str]

#: Items per decisions request (Accord answers up to 10,000; a batch of 1,000 costs one database
#: lookup and keeps a request within the default 1 MB body limit).
BATCH = 1000


def _getter(field: Field | None, constant: str | None) -> Callable[[Any], str]:
    if constant is not None:
        return lambda _row: constant
    if callable(field):
        return field
    if field is None:
        raise TypeError("name the row's field (or a function of the row), or give a constant")
    return lambda row: row[field]


def filter_allowed(
    rows: Iterable[Row],
    *,
    session: Session,
    subject: Field,
    target: Field | None = None,
    issuer: Field | None = None,
    scope: Field | None = None,
    target_value: str | None = None,
    issuer_value: str | None = None,
    scope_value: str | None = None,
    batch: int = BATCH,
) -> Iterator[Row]:
    """Yields the rows whose processing Accord allows now, in their order, asking in batches.

    ``subject``, ``target``, ``issuer`` and ``scope`` name a row's field (``row[field]``) or are
    functions of the row; ``*_value`` gives a constant instead (one target for the whole
    pipeline, typically). ``scope`` absent: ``default``. Rows are read lazily: at most ``batch``
    of them are held at once, so a generator of millions streams through.
    """
    if not 1 <= batch <= 10_000:
        raise ValueError("batch must be from 1 to 10,000")
    get_subject = _getter(subject, None)
    get_target = _getter(target, target_value)
    get_issuer = _getter(issuer, issuer_value)
    get_scope = _getter(scope, scope_value) if scope is not None or scope_value is not None else None
    pending: list[Row] = []

    def flush() -> Iterator[Row]:
        items = []
        for row in pending:
            item = {"subject": get_subject(row), "issuer": get_issuer(row), "target": get_target(row)}
            if get_scope is not None:
                item["scope"] = get_scope(row)
            items.append(item)
        for row, decision in zip(pending, session.decide(items), strict=True):
            if decision.allowed:
                yield row
        pending.clear()

    for row in rows:
        pending.append(row)
        if len(pending) >= batch:
            yield from flush()
    if pending:
        yield from flush()
