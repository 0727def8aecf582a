from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.consent_event import ConsentEvent
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    subject: str,
    issuer: str,
    target: str,
    source: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    current: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    gpc: bool | Unset = UNSET,
    jurisdiction: str | Unset = UNSET,
    linked: bool | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["subject"] = subject

    params["issuer"] = issuer

    params["target"] = target

    params["source"] = source

    params["scope"] = scope

    params["current"] = current

    params["limit"] = limit

    params["cursor"] = cursor

    params["gpc"] = gpc

    params["jurisdiction"] = jurisdiction

    params["linked"] = linked


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/consent/v0/consents/search",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | list[ConsentEvent] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = ConsentEvent.from_dict(response_200_item_data)



            response_200.append(response_200_item)

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | list[ConsentEvent]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    subject: str,
    issuer: str,
    target: str,
    source: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    current: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    gpc: bool | Unset = UNSET,
    jurisdiction: str | Unset = UNSET,
    linked: bool | Unset = UNSET,

) -> Response[Problem | list[ConsentEvent]]:
    """ Events of a subject, issuer and target, newest first; optionally only the current ones.

     Always a JSON array, newest first (by id, which orders like createdAt). subject, issuer and target
    are required (400 naming each missing one). Long results are paged: `limit` (default 100, max 1000)
    and a `Link: <…>; rel="next"` header carrying the cursor of the next page; no header on the last
    page. Unknown query parameters are ignored.

    Args:
        subject (str): Subject to match (percent-encode URLs).
        issuer (str): Issuer to match.
        target (str): Target to match.
        source (str | Unset): Source to match. With current=true: the current event is returned
            only when it has this source.
        scope (str | Unset): Scope to match.
        current (bool | Unset): true: only the current (newest) event of each state. With scope:
            at most one event. Without scope: the newest event of each scope of (subject, issuer,
            target).
        limit (int | Unset): Events per page (default 100, at most 1000).
        cursor (str | Unset): From the `Link: rel="next"` header of the previous page: the id of
            its last event (the search continues with older ones).
        gpc (bool | Unset): Only events recorded with this `gpc` (true: with a GPC signal; false:
            those that say there was none). With current=true: the current event is returned only when
            it matches.
        jurisdiction (str | Unset): Only events recorded in this jurisdiction (exactly this code).
            With current=true: as `gpc`.
        linked (bool | Unset): Linked identities (POST /consent/v0/subjects/links): without
            current, true merges the histories of the subject and of every identity linked to it,
            newest first (each event names its own subject). current=true always resolves across
            links: the newest event of any of them per scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[ConsentEvent]]
     """


    kwargs = _get_kwargs(
        subject=subject,
issuer=issuer,
target=target,
source=source,
scope=scope,
current=current,
limit=limit,
cursor=cursor,
gpc=gpc,
jurisdiction=jurisdiction,
linked=linked,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    subject: str,
    issuer: str,
    target: str,
    source: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    current: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    gpc: bool | Unset = UNSET,
    jurisdiction: str | Unset = UNSET,
    linked: bool | Unset = UNSET,

) -> Problem | list[ConsentEvent] | None:
    """ Events of a subject, issuer and target, newest first; optionally only the current ones.

     Always a JSON array, newest first (by id, which orders like createdAt). subject, issuer and target
    are required (400 naming each missing one). Long results are paged: `limit` (default 100, max 1000)
    and a `Link: <…>; rel="next"` header carrying the cursor of the next page; no header on the last
    page. Unknown query parameters are ignored.

    Args:
        subject (str): Subject to match (percent-encode URLs).
        issuer (str): Issuer to match.
        target (str): Target to match.
        source (str | Unset): Source to match. With current=true: the current event is returned
            only when it has this source.
        scope (str | Unset): Scope to match.
        current (bool | Unset): true: only the current (newest) event of each state. With scope:
            at most one event. Without scope: the newest event of each scope of (subject, issuer,
            target).
        limit (int | Unset): Events per page (default 100, at most 1000).
        cursor (str | Unset): From the `Link: rel="next"` header of the previous page: the id of
            its last event (the search continues with older ones).
        gpc (bool | Unset): Only events recorded with this `gpc` (true: with a GPC signal; false:
            those that say there was none). With current=true: the current event is returned only when
            it matches.
        jurisdiction (str | Unset): Only events recorded in this jurisdiction (exactly this code).
            With current=true: as `gpc`.
        linked (bool | Unset): Linked identities (POST /consent/v0/subjects/links): without
            current, true merges the histories of the subject and of every identity linked to it,
            newest first (each event names its own subject). current=true always resolves across
            links: the newest event of any of them per scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[ConsentEvent]
     """


    return sync_detailed(
        client=client,
subject=subject,
issuer=issuer,
target=target,
source=source,
scope=scope,
current=current,
limit=limit,
cursor=cursor,
gpc=gpc,
jurisdiction=jurisdiction,
linked=linked,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    subject: str,
    issuer: str,
    target: str,
    source: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    current: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    gpc: bool | Unset = UNSET,
    jurisdiction: str | Unset = UNSET,
    linked: bool | Unset = UNSET,

) -> Response[Problem | list[ConsentEvent]]:
    """ Events of a subject, issuer and target, newest first; optionally only the current ones.

     Always a JSON array, newest first (by id, which orders like createdAt). subject, issuer and target
    are required (400 naming each missing one). Long results are paged: `limit` (default 100, max 1000)
    and a `Link: <…>; rel="next"` header carrying the cursor of the next page; no header on the last
    page. Unknown query parameters are ignored.

    Args:
        subject (str): Subject to match (percent-encode URLs).
        issuer (str): Issuer to match.
        target (str): Target to match.
        source (str | Unset): Source to match. With current=true: the current event is returned
            only when it has this source.
        scope (str | Unset): Scope to match.
        current (bool | Unset): true: only the current (newest) event of each state. With scope:
            at most one event. Without scope: the newest event of each scope of (subject, issuer,
            target).
        limit (int | Unset): Events per page (default 100, at most 1000).
        cursor (str | Unset): From the `Link: rel="next"` header of the previous page: the id of
            its last event (the search continues with older ones).
        gpc (bool | Unset): Only events recorded with this `gpc` (true: with a GPC signal; false:
            those that say there was none). With current=true: the current event is returned only when
            it matches.
        jurisdiction (str | Unset): Only events recorded in this jurisdiction (exactly this code).
            With current=true: as `gpc`.
        linked (bool | Unset): Linked identities (POST /consent/v0/subjects/links): without
            current, true merges the histories of the subject and of every identity linked to it,
            newest first (each event names its own subject). current=true always resolves across
            links: the newest event of any of them per scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[ConsentEvent]]
     """


    kwargs = _get_kwargs(
        subject=subject,
issuer=issuer,
target=target,
source=source,
scope=scope,
current=current,
limit=limit,
cursor=cursor,
gpc=gpc,
jurisdiction=jurisdiction,
linked=linked,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    subject: str,
    issuer: str,
    target: str,
    source: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    current: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    gpc: bool | Unset = UNSET,
    jurisdiction: str | Unset = UNSET,
    linked: bool | Unset = UNSET,

) -> Problem | list[ConsentEvent] | None:
    """ Events of a subject, issuer and target, newest first; optionally only the current ones.

     Always a JSON array, newest first (by id, which orders like createdAt). subject, issuer and target
    are required (400 naming each missing one). Long results are paged: `limit` (default 100, max 1000)
    and a `Link: <…>; rel="next"` header carrying the cursor of the next page; no header on the last
    page. Unknown query parameters are ignored.

    Args:
        subject (str): Subject to match (percent-encode URLs).
        issuer (str): Issuer to match.
        target (str): Target to match.
        source (str | Unset): Source to match. With current=true: the current event is returned
            only when it has this source.
        scope (str | Unset): Scope to match.
        current (bool | Unset): true: only the current (newest) event of each state. With scope:
            at most one event. Without scope: the newest event of each scope of (subject, issuer,
            target).
        limit (int | Unset): Events per page (default 100, at most 1000).
        cursor (str | Unset): From the `Link: rel="next"` header of the previous page: the id of
            its last event (the search continues with older ones).
        gpc (bool | Unset): Only events recorded with this `gpc` (true: with a GPC signal; false:
            those that say there was none). With current=true: the current event is returned only when
            it matches.
        jurisdiction (str | Unset): Only events recorded in this jurisdiction (exactly this code).
            With current=true: as `gpc`.
        linked (bool | Unset): Linked identities (POST /consent/v0/subjects/links): without
            current, true merges the histories of the subject and of every identity linked to it,
            newest first (each event names its own subject). current=true always resolves across
            links: the newest event of any of them per scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[ConsentEvent]
     """


    return (await asyncio_detailed(
        client=client,
subject=subject,
issuer=issuer,
target=target,
source=source,
scope=scope,
current=current,
limit=limit,
cursor=cursor,
gpc=gpc,
jurisdiction=jurisdiction,
linked=linked,

    )).parsed
