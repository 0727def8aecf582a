"""Importing consent history with its original times (``POST /consent/v0/imports``; docs/consent.md,
Import): a file streamed as it is read, never held whole, with progress as it goes."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .session import Session

#: Bytes read from the file at a time.
CHUNK = 256 * 1024


def _chunks(path: str, total: int, progress: Callable[[int, int], None] | None) -> Iterator[bytes]:
    sent = 0
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK):
            yield chunk
            sent += len(chunk)
            if progress is not None:
                progress(sent, total)


def text_progress(sent: int, total: int) -> None:
    """A one-line progress bar on the terminal (stderr)."""
    import sys

    width = 30
    done = int(width * sent / total) if total else width
    sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {sent * 100 // max(total, 1):3d}% {sent}/{total} bytes")
    if sent >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def import_events(
    session: Session,
    path: str,
    *,
    content_type: str | None = None,
    progress: Callable[[int, int], None] | bool | None = None,
) -> dict[str, Any]:
    """Imports a file: NDJSON in the form of Accord's export (``.ndjson``, ``.jsonl``), or CSV with
    its header row (``.csv``), streamed. ``progress``: called with (bytes sent, file size) as the
    upload goes, or ``True`` for a bar on stderr. Returns the import (``{"id", "state", "read",
    "stored", "duplicates", "refused", "errors": [{"line", "field", "detail"}]}``); a failed
    import (the connection dropped) is resumed by importing the same file again: lines already
    stored count as ``duplicates``.
    """
    from .session import AccordError

    kind = content_type or ("text/csv" if path.lower().endswith(".csv") else "application/x-ndjson")
    total = os.path.getsize(path)
    report = text_progress if progress is True else (progress or None)

    def send(client: Any) -> Any:
        return client.get_httpx_client().post(
            "/consent/v0/imports",
            content=_chunks(path, total, report),
            headers={"content-type": kind},
            timeout=None,
        )

    res = session._call(send)
    if res.status_code != 202:
        body = res.json() if res.headers.get("content-type", "").endswith("json") else {}
        raise AccordError(res.status_code, body.get("detail") or res.text, body.get("errors"))
    return res.json()


def get_import(session: Session, import_id: str) -> dict[str, Any]:
    """An import's progress (``GET /consent/v0/imports/{id}``)."""
    from .session import AccordError

    res = session._call(lambda c: c.get_httpx_client().get(f"/consent/v0/imports/{import_id}"))
    if res.status_code != 200:
        raise AccordError(res.status_code, res.text)
    return res.json()
