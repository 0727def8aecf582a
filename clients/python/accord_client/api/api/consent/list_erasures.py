from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.consent_erasure import ConsentErasure
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/consent/v0/subjects/erasures",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | list[ConsentErasure] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = ConsentErasure.from_dict(response_200_item_data)



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | list[ConsentErasure]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Response[Problem | list[ConsentErasure]]:
    """ The erasure records of the account, newest first.

     One record per POST /consent/v0/subjects/erase of any application of the account: who asked (appId,
    clientId), when, the keyed hash the subject became, and how many events and current states changed.
    Never the subject in clear. Paged like search: `limit` and a `Link: <…>; rel="next"` header.

    Args:
        limit (int | Unset): Records per page (default 100, at most 1000).
        cursor (str | Unset): From the `Link: rel="next"` header of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[ConsentErasure]]
     """


    kwargs = _get_kwargs(
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
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Problem | list[ConsentErasure] | None:
    """ The erasure records of the account, newest first.

     One record per POST /consent/v0/subjects/erase of any application of the account: who asked (appId,
    clientId), when, the keyed hash the subject became, and how many events and current states changed.
    Never the subject in clear. Paged like search: `limit` and a `Link: <…>; rel="next"` header.

    Args:
        limit (int | Unset): Records per page (default 100, at most 1000).
        cursor (str | Unset): From the `Link: rel="next"` header of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[ConsentErasure]
     """


    return sync_detailed(
        client=client,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Response[Problem | list[ConsentErasure]]:
    """ The erasure records of the account, newest first.

     One record per POST /consent/v0/subjects/erase of any application of the account: who asked (appId,
    clientId), when, the keyed hash the subject became, and how many events and current states changed.
    Never the subject in clear. Paged like search: `limit` and a `Link: <…>; rel="next"` header.

    Args:
        limit (int | Unset): Records per page (default 100, at most 1000).
        cursor (str | Unset): From the `Link: rel="next"` header of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[ConsentErasure]]
     """


    kwargs = _get_kwargs(
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
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,

) -> Problem | list[ConsentErasure] | None:
    """ The erasure records of the account, newest first.

     One record per POST /consent/v0/subjects/erase of any application of the account: who asked (appId,
    clientId), when, the keyed hash the subject became, and how many events and current states changed.
    Never the subject in clear. Paged like search: `limit` and a `Link: <…>; rel="next"` header.

    Args:
        limit (int | Unset): Records per page (default 100, at most 1000).
        cursor (str | Unset): From the `Link: rel="next"` header of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[ConsentErasure]
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
cursor=cursor,

    )).parsed
