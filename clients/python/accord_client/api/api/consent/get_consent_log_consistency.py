from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.consent_consistency_proof import ConsentConsistencyProof
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    *,
    first: int,
    second: int,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["first"] = first

    params["second"] = second


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/consent/v0/log/consistency",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ConsentConsistencyProof | Problem | None:
    if response.status_code == 200:
        response_200 = ConsentConsistencyProof.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ConsentConsistencyProof | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    first: int,
    second: int,

) -> Response[ConsentConsistencyProof | Problem]:
    """ Consistency proof between two sizes of the consent log (RFC 9162 §2.1.4).

     Shows that the tree of `first` leaves is a prefix of the tree of `second` leaves: two signed heads
    whose proof fails are evidence of a fork. Empty when first = second.

    Args:
        first (int): Size of the older tree (a head you hold).
        second (int): Size of the newer tree, at most the latest head.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentConsistencyProof | Problem]
     """


    kwargs = _get_kwargs(
        first=first,
second=second,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    first: int,
    second: int,

) -> ConsentConsistencyProof | Problem | None:
    """ Consistency proof between two sizes of the consent log (RFC 9162 §2.1.4).

     Shows that the tree of `first` leaves is a prefix of the tree of `second` leaves: two signed heads
    whose proof fails are evidence of a fork. Empty when first = second.

    Args:
        first (int): Size of the older tree (a head you hold).
        second (int): Size of the newer tree, at most the latest head.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentConsistencyProof | Problem
     """


    return sync_detailed(
        client=client,
first=first,
second=second,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    first: int,
    second: int,

) -> Response[ConsentConsistencyProof | Problem]:
    """ Consistency proof between two sizes of the consent log (RFC 9162 §2.1.4).

     Shows that the tree of `first` leaves is a prefix of the tree of `second` leaves: two signed heads
    whose proof fails are evidence of a fork. Empty when first = second.

    Args:
        first (int): Size of the older tree (a head you hold).
        second (int): Size of the newer tree, at most the latest head.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentConsistencyProof | Problem]
     """


    kwargs = _get_kwargs(
        first=first,
second=second,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    first: int,
    second: int,

) -> ConsentConsistencyProof | Problem | None:
    """ Consistency proof between two sizes of the consent log (RFC 9162 §2.1.4).

     Shows that the tree of `first` leaves is a prefix of the tree of `second` leaves: two signed heads
    whose proof fails are evidence of a fork. Empty when first = second.

    Args:
        first (int): Size of the older tree (a head you hold).
        second (int): Size of the newer tree, at most the latest head.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentConsistencyProof | Problem
     """


    return (await asyncio_detailed(
        client=client,
first=first,
second=second,

    )).parsed
