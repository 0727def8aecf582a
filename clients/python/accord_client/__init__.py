"""Accord's Python client.

``accord_client.api`` is generated from Accord's OpenAPI document by openapi-python-client
(``npm run gen``; never edit it by hand). This package adds what a data pipeline needs on top:
``Session`` (an application's credentials, its token renewed before it expires) and
``filter_allowed`` (keep the rows Accord allows, asking in batches) and ``import_events``
(a file of consent history, streamed, with its original times).
"""

from .pipeline import filter_allowed
from .imports import get_import, import_events
from .session import AccordError, Session

__all__ = ["AccordError", "Session", "filter_allowed", "get_import", "import_events"]
