"""An application's session with Accord: a bearer token from the client_credentials grant,
renewed shortly before it expires and once more when Accord answers 401, and the account's API
key on every request."""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote

import httpx

from .api.api.consent import decide as _decide
from .api.api.consent import link_subject as _link_subject
from .api.client import AuthenticatedClient
from .api.models.decision import Decision
from .api.models.decision_answer import DecisionAnswer
from .api.models.decision_item import DecisionItem
from .api.models.decision_request import DecisionRequest
from .api.models.problem import Problem
from .api.models.subject_link import SubjectLink
from .api.models.subject_link_request import SubjectLinkRequest
from .api.types import UNSET


class AccordError(Exception):
    """Accord refused a request: ``status``, and the problem's ``errors`` (``[{"field", "message"}]``) when it named fields."""

    def __init__(self, status: int, detail: str, errors: list[dict[str, str]] | None = None) -> None:
        super().__init__(f"HTTP {status}: {detail}")
        self.status = status
        self.detail = detail
        self.errors = errors or []


class Session:
    """Credentials of one application of an account (``npm run -s admin -- bootstrap`` prints them).

    ``leeway``: seconds before its expiry at which a token is renewed. ``clock``: monotonic
    seconds (tests pass their own).
    """

    def __init__(
        self,
        base_url: str,
        client_id: str,
        client_secret: str,
        api_key: str,
        *,
        scope: str = "consent",
        leeway: float = 30.0,
        timeout: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._credentials = {"grant_type": "client_credentials", "client_id": client_id, "client_secret": client_secret, "scope": scope}
        self._api_key = api_key
        self._leeway = leeway
        self._timeout = timeout
        self._clock = clock
        self._lock = threading.Lock()
        self._client: AuthenticatedClient | None = None
        self._expires = 0.0
        self.tokens_issued = 0

    def refresh(self) -> None:
        """Asks for a new token now."""
        res = httpx.post(f"{self.base_url}/oauth/v0/token", json=self._credentials, timeout=self._timeout)
        if res.status_code != 200:
            raise AccordError(res.status_code, res.text)
        body = res.json()
        with self._lock:
            if self._client is not None:
                self._client.get_httpx_client().close()
            self._client = AuthenticatedClient(
                base_url=self.base_url,
                token=body["access_token"],
                headers={"x-api-key": self._api_key},
                timeout=httpx.Timeout(self._timeout),
                raise_on_unexpected_status=True,
            )
            self._expires = self._clock() + float(body["expires_in"])
            self.tokens_issued += 1

    def client(self) -> AuthenticatedClient:
        """The generated API's client with a token valid for at least ``leeway`` seconds more."""
        if self._client is None or self._clock() >= self._expires - self._leeway:
            self.refresh()
        assert self._client is not None
        return self._client

    def _call(self, send: Callable[[AuthenticatedClient], Any]) -> Any:
        res = send(self.client())
        if res.status_code == 401:
            # revoked, or a clock that disagrees: one new token, one more try
            self.refresh()
            res = send(self.client())
        return res

    def decide(self, items: Sequence[dict[str, Any] | DecisionItem], at: datetime.datetime | None = None) -> list[Decision]:
        """Decisions for these items (``{"subject", "issuer", "target", "scope"?, "jurisdiction"?, "gpc"?}``), in order; at most 10,000."""
        body = DecisionRequest(
            items=[i if isinstance(i, DecisionItem) else DecisionItem.from_dict(i) for i in items],
            at=at if at is not None else UNSET,
        )
        res = self._call(lambda c: _decide.sync_detailed(client=c, body=body))
        if isinstance(res.parsed, DecisionAnswer):
            return list(res.parsed.decisions)
        if isinstance(res.parsed, Problem):
            errors = [{"field": e.field, "message": e.message} for e in (res.parsed.errors or [])] if res.parsed.errors else []
            raise AccordError(int(res.status_code), res.parsed.detail or res.parsed.title, errors)
        raise AccordError(int(res.status_code), res.content.decode("utf-8", "replace"))

    def import_events(self, path: str, *, content_type: str | None = None, progress: Callable[[int, int], None] | bool | None = None) -> dict[str, Any]:
        """Imports consent history from a file with its original times (see ``accord_client.imports.import_events``)."""
        from .imports import import_events

        return import_events(self, path, content_type=content_type, progress=progress)

    def link_identity(self, issuer: str, identity: str, subject: str | None) -> SubjectLink:
        """After sign-in: links ``identity`` (the device or cookie id the anonymous consent session was
        minted for) to ``subject`` for ``issuer``; ``None`` unlinks it (docs/consent.md, Linked identities).
        Current states and decisions of either then resolve across both. 409 when the link would chain."""
        body = SubjectLinkRequest(issuer=issuer, identity=identity, subject=subject)
        res = self._call(lambda c: _link_subject.sync_detailed(client=c, body=body))
        if isinstance(res.parsed, SubjectLink):
            return res.parsed
        if isinstance(res.parsed, Problem):
            errors = [{"field": e.field, "message": e.message} for e in (res.parsed.errors or [])] if res.parsed.errors else []
            raise AccordError(int(res.status_code), res.parsed.detail or res.parsed.title, errors)
        raise AccordError(int(res.status_code), res.content.decode("utf-8", "replace"))

    def consent_record(self, event_id: str, *, receipt: bool = False) -> dict[str, Any]:
        """The event's ISO/IEC TS 27560 record in W3C DPV JSON-LD, or with ``receipt`` its receipt as a
        ``dpv:ConsentReceipt`` (docs/consent.md, Standards): a JSON-LD document, ``@context`` first.
        The generated ``get_consent`` reads answers as JSON events, so JSON-LD is asked here.
        A 406 (what DPV cannot say) raises AccordError naming the fields."""
        path = f"/consent/v0/consents/{quote(event_id, safe='')}" + ("/receipt" if receipt else "")
        res = self._call(lambda c: c.get_httpx_client().get(path, params={"format": "jsonld"}))
        if res.status_code == 200:
            doc: dict[str, Any] = res.json()
            return doc
        try:
            problem = res.json()
        except ValueError:
            raise AccordError(int(res.status_code), res.text) from None
        errors = [{"field": e.get("field", ""), "message": e.get("message", "")} for e in problem.get("errors") or []]
        raise AccordError(int(res.status_code), problem.get("detail") or problem.get("title") or res.text, errors)
