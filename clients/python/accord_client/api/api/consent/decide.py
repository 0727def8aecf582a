from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.decision_answer import DecisionAnswer
from ...models.decision_request import DecisionRequest
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    *,
    body: DecisionRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/consent/v0/decisions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DecisionAnswer | Problem | None:
    if response.status_code == 200:
        response_200 = DecisionAnswer.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())



        return response_415

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if response.status_code == 504:
        response_504 = Problem.from_dict(response.json())



        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DecisionAnswer | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: DecisionRequest,

) -> Response[DecisionAnswer | Problem]:
    """ May I process this? A batch of decisions, with the evidence they rest on.

     For each item (1 to 10000, answered in order): `allowed` and its `basis`, from the newest event of
    the item's (subject, issuer, target, scope) created at or before `at` (default now; a past moment
    answers what was true then; a future one is a 400), judged by the one rule of docs/consent.md
    (*Decisions*): expiry at `at`, renewal after a material change of the target's specification, the
    specification's legal basis (the specification as it was at `at`: the version current then) and its
    regime for the event's jurisdiction (else the item's `jurisdiction`, else `*`), and Global Privacy
    Control where the regime honours it. A decision resting on an event names it (`eventId`) with its
    evidence: the signed receipt and the inclusion proof in the consent log. Another account’s events
    never count. An item may instead ask for an IAB TCF `vendor` and `purpose` (from the TC string of
    the current event), or for a Google Ad Tech Provider (`atpVendor`, from its Additional Consent
    string): docs/consent.md, Standards. Every problem is a 400 naming the item and field
    (`/items/17/subject`). A batch costs a bounded number of database commands whatever its size; the
    request body must also fit ACCORD_BODY_LIMIT (1 MB by default).

    Args:
        body (DecisionRequest): A batch of decisions.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DecisionAnswer | Problem]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: DecisionRequest,

) -> DecisionAnswer | Problem | None:
    """ May I process this? A batch of decisions, with the evidence they rest on.

     For each item (1 to 10000, answered in order): `allowed` and its `basis`, from the newest event of
    the item's (subject, issuer, target, scope) created at or before `at` (default now; a past moment
    answers what was true then; a future one is a 400), judged by the one rule of docs/consent.md
    (*Decisions*): expiry at `at`, renewal after a material change of the target's specification, the
    specification's legal basis (the specification as it was at `at`: the version current then) and its
    regime for the event's jurisdiction (else the item's `jurisdiction`, else `*`), and Global Privacy
    Control where the regime honours it. A decision resting on an event names it (`eventId`) with its
    evidence: the signed receipt and the inclusion proof in the consent log. Another account’s events
    never count. An item may instead ask for an IAB TCF `vendor` and `purpose` (from the TC string of
    the current event), or for a Google Ad Tech Provider (`atpVendor`, from its Additional Consent
    string): docs/consent.md, Standards. Every problem is a 400 naming the item and field
    (`/items/17/subject`). A batch costs a bounded number of database commands whatever its size; the
    request body must also fit ACCORD_BODY_LIMIT (1 MB by default).

    Args:
        body (DecisionRequest): A batch of decisions.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DecisionAnswer | Problem
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: DecisionRequest,

) -> Response[DecisionAnswer | Problem]:
    """ May I process this? A batch of decisions, with the evidence they rest on.

     For each item (1 to 10000, answered in order): `allowed` and its `basis`, from the newest event of
    the item's (subject, issuer, target, scope) created at or before `at` (default now; a past moment
    answers what was true then; a future one is a 400), judged by the one rule of docs/consent.md
    (*Decisions*): expiry at `at`, renewal after a material change of the target's specification, the
    specification's legal basis (the specification as it was at `at`: the version current then) and its
    regime for the event's jurisdiction (else the item's `jurisdiction`, else `*`), and Global Privacy
    Control where the regime honours it. A decision resting on an event names it (`eventId`) with its
    evidence: the signed receipt and the inclusion proof in the consent log. Another account’s events
    never count. An item may instead ask for an IAB TCF `vendor` and `purpose` (from the TC string of
    the current event), or for a Google Ad Tech Provider (`atpVendor`, from its Additional Consent
    string): docs/consent.md, Standards. Every problem is a 400 naming the item and field
    (`/items/17/subject`). A batch costs a bounded number of database commands whatever its size; the
    request body must also fit ACCORD_BODY_LIMIT (1 MB by default).

    Args:
        body (DecisionRequest): A batch of decisions.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DecisionAnswer | Problem]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: DecisionRequest,

) -> DecisionAnswer | Problem | None:
    """ May I process this? A batch of decisions, with the evidence they rest on.

     For each item (1 to 10000, answered in order): `allowed` and its `basis`, from the newest event of
    the item's (subject, issuer, target, scope) created at or before `at` (default now; a past moment
    answers what was true then; a future one is a 400), judged by the one rule of docs/consent.md
    (*Decisions*): expiry at `at`, renewal after a material change of the target's specification, the
    specification's legal basis (the specification as it was at `at`: the version current then) and its
    regime for the event's jurisdiction (else the item's `jurisdiction`, else `*`), and Global Privacy
    Control where the regime honours it. A decision resting on an event names it (`eventId`) with its
    evidence: the signed receipt and the inclusion proof in the consent log. Another account’s events
    never count. An item may instead ask for an IAB TCF `vendor` and `purpose` (from the TC string of
    the current event), or for a Google Ad Tech Provider (`atpVendor`, from its Additional Consent
    string): docs/consent.md, Standards. Every problem is a 400 naming the item and field
    (`/items/17/subject`). A batch costs a bounded number of database commands whatever its size; the
    request body must also fit ACCORD_BODY_LIMIT (1 MB by default).

    Args:
        body (DecisionRequest): A batch of decisions.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DecisionAnswer | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
