from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.consent_tree_head import ConsentTreeHead
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/consent/v0/log/tree-head",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ConsentTreeHead | Problem | None:
    if response.status_code == 200:
        response_200 = ConsentTreeHead.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ConsentTreeHead | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[ConsentTreeHead | Problem]:
    """ The latest signed tree head of the account's consent log.

     `signature` is a compact JWS (protected header `alg` ES256 or RS256, `kid` of a key in /.well-
    known/jwks.json, `typ` `accord-tree-head+jws`) whose payload is the RFC 8785 JSON of `{treeSize,
    rootHash, timestamp, account}` of this head. 404 while no event has been sequenced.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentTreeHead | Problem]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,

) -> ConsentTreeHead | Problem | None:
    """ The latest signed tree head of the account's consent log.

     `signature` is a compact JWS (protected header `alg` ES256 or RS256, `kid` of a key in /.well-
    known/jwks.json, `typ` `accord-tree-head+jws`) whose payload is the RFC 8785 JSON of `{treeSize,
    rootHash, timestamp, account}` of this head. 404 while no event has been sequenced.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentTreeHead | Problem
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[ConsentTreeHead | Problem]:
    """ The latest signed tree head of the account's consent log.

     `signature` is a compact JWS (protected header `alg` ES256 or RS256, `kid` of a key in /.well-
    known/jwks.json, `typ` `accord-tree-head+jws`) whose payload is the RFC 8785 JSON of `{treeSize,
    rootHash, timestamp, account}` of this head. 404 while no event has been sequenced.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentTreeHead | Problem]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,

) -> ConsentTreeHead | Problem | None:
    """ The latest signed tree head of the account's consent log.

     `signature` is a compact JWS (protected header `alg` ES256 or RS256, `kid` of a key in /.well-
    known/jwks.json, `typ` `accord-tree-head+jws`) whose payload is the RFC 8785 JSON of `{treeSize,
    rootHash, timestamp, account}` of this head. 404 while no event has been sequenced.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentTreeHead | Problem
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
