"""Accord's Python client.

``accord_client.api`` is generated from Accord's OpenAPI document by openapi-python-client
(``npm run gen``; never edit it by hand). This package adds what a data pipeline needs on top:
``Session`` (an application's credentials, its token renewed before it expires) and
``filter_allowed`` (keep the rows Accord allows, asking in batches).
"""

from .pipeline import filter_allowed
from .session import AccordError, Session

__all__ = ["AccordError", "Session", "filter_allowed"]
