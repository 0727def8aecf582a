from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.subject_link import SubjectLink
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    issuer: str,
    identity: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    history: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["issuer"] = issuer

    params["identity"] = identity

    params["subject"] = subject

    params["history"] = history

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/consent/v0/subjects/links",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | list[SubjectLink] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = SubjectLink.from_dict(response_200_item_data)



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | list[SubjectLink]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    issuer: str,
    identity: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    history: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Response[Problem | list[SubjectLink]]:
    """ An identity's current link, or the identities currently linked to a subject; every link event with
    history=true.

     Exactly one of `identity` and `subject`, with `issuer`. Without `history`: the current links (an
    identity’s newest link, even an unlinking one; the identities whose newest link names the subject).
    With `history=true`: every link event naming it, newest first, paged with `limit` and `Link:
    rel="next"`.

    Args:
        issuer (str): The issuer of the links.
        identity (str | Unset): An identity: its current link (or its history).
        subject (str | Unset): A subject: the identities currently linked to it (or every link
            event naming it).
        history (bool | Unset): true: every link event, newest first, paged (`limit`, `Link:
            rel="next"`); default: the current links only.
        limit (int | Unset): Links per page (default 100, at most 1000).
        cursor (str | Unset): With history: from the `Link: rel="next"` header of the previous
            page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[SubjectLink]]
     """


    kwargs = _get_kwargs(
        issuer=issuer,
identity=identity,
subject=subject,
history=history,
limit=limit,
cursor=cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    issuer: str,
    identity: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    history: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Problem | list[SubjectLink] | None:
    """ An identity's current link, or the identities currently linked to a subject; every link event with
    history=true.

     Exactly one of `identity` and `subject`, with `issuer`. Without `history`: the current links (an
    identity’s newest link, even an unlinking one; the identities whose newest link names the subject).
    With `history=true`: every link event naming it, newest first, paged with `limit` and `Link:
    rel="next"`.

    Args:
        issuer (str): The issuer of the links.
        identity (str | Unset): An identity: its current link (or its history).
        subject (str | Unset): A subject: the identities currently linked to it (or every link
            event naming it).
        history (bool | Unset): true: every link event, newest first, paged (`limit`, `Link:
            rel="next"`); default: the current links only.
        limit (int | Unset): Links per page (default 100, at most 1000).
        cursor (str | Unset): With history: from the `Link: rel="next"` header of the previous
            page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[SubjectLink]
     """


    return sync_detailed(
        client=client,
issuer=issuer,
identity=identity,
subject=subject,
history=history,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    issuer: str,
    identity: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    history: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Response[Problem | list[SubjectLink]]:
    """ An identity's current link, or the identities currently linked to a subject; every link event with
    history=true.

     Exactly one of `identity` and `subject`, with `issuer`. Without `history`: the current links (an
    identity’s newest link, even an unlinking one; the identities whose newest link names the subject).
    With `history=true`: every link event naming it, newest first, paged with `limit` and `Link:
    rel="next"`.

    Args:
        issuer (str): The issuer of the links.
        identity (str | Unset): An identity: its current link (or its history).
        subject (str | Unset): A subject: the identities currently linked to it (or every link
            event naming it).
        history (bool | Unset): true: every link event, newest first, paged (`limit`, `Link:
            rel="next"`); default: the current links only.
        limit (int | Unset): Links per page (default 100, at most 1000).
        cursor (str | Unset): With history: from the `Link: rel="next"` header of the previous
            page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[SubjectLink]]
     """


    kwargs = _get_kwargs(
        issuer=issuer,
identity=identity,
subject=subject,
history=history,
limit=limit,
cursor=cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    issuer: str,
    identity: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    history: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Problem | list[SubjectLink] | None:
    """ An identity's current link, or the identities currently linked to a subject; every link event with
    history=true.

     Exactly one of `identity` and `subject`, with `issuer`. Without `history`: the current links (an
    identity’s newest link, even an unlinking one; the identities whose newest link names the subject).
    With `history=true`: every link event naming it, newest first, paged with `limit` and `Link:
    rel="next"`.

    Args:
        issuer (str): The issuer of the links.
        identity (str | Unset): An identity: its current link (or its history).
        subject (str | Unset): A subject: the identities currently linked to it (or every link
            event naming it).
        history (bool | Unset): true: every link event, newest first, paged (`limit`, `Link:
            rel="next"`); default: the current links only.
        limit (int | Unset): Links per page (default 100, at most 1000).
        cursor (str | Unset): With history: from the `Link: rel="next"` header of the previous
            page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[SubjectLink]
     """


    return (await asyncio_detailed(
        client=client,
issuer=issuer,
identity=identity,
subject=subject,
history=history,
limit=limit,
cursor=cursor,

    )).parsed
