from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.consent_inclusion_proof import ConsentInclusionProof
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    tree_size: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["treeSize"] = tree_size


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/consent/v0/consents/{id}/proof".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ConsentInclusionProof | Problem | None:
    if response.status_code == 200:
        response_200 = ConsentInclusionProof.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ConsentInclusionProof | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    tree_size: int | Unset = UNSET,

) -> Response[ConsentInclusionProof | Problem]:
    """ Inclusion proof of an event in the account's consent log (RFC 9162 §2.1.3).

     The audit path from the event's leaf to the root of the latest signed tree head, or of the head of
    `treeSize`. The leaf is SHA-256(0x00 ‖ RFC 8785 JSON of the event exactly as POST /consents answered
    it). Verify offline with `npx @accord/verify` (docs/consent-log.md). Every event is sequenced within
    about 2 s of its 201; before that the answer is 409 with `Retry-After`.

    Args:
        id (str):
        tree_size (int | Unset): Prove against the signed head of this size (it must exist and
            contain the event) instead of the latest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentInclusionProof | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
tree_size=tree_size,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    tree_size: int | Unset = UNSET,

) -> ConsentInclusionProof | Problem | None:
    """ Inclusion proof of an event in the account's consent log (RFC 9162 §2.1.3).

     The audit path from the event's leaf to the root of the latest signed tree head, or of the head of
    `treeSize`. The leaf is SHA-256(0x00 ‖ RFC 8785 JSON of the event exactly as POST /consents answered
    it). Verify offline with `npx @accord/verify` (docs/consent-log.md). Every event is sequenced within
    about 2 s of its 201; before that the answer is 409 with `Retry-After`.

    Args:
        id (str):
        tree_size (int | Unset): Prove against the signed head of this size (it must exist and
            contain the event) instead of the latest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentInclusionProof | Problem
     """


    return sync_detailed(
        id=id,
client=client,
tree_size=tree_size,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    tree_size: int | Unset = UNSET,

) -> Response[ConsentInclusionProof | Problem]:
    """ Inclusion proof of an event in the account's consent log (RFC 9162 §2.1.3).

     The audit path from the event's leaf to the root of the latest signed tree head, or of the head of
    `treeSize`. The leaf is SHA-256(0x00 ‖ RFC 8785 JSON of the event exactly as POST /consents answered
    it). Verify offline with `npx @accord/verify` (docs/consent-log.md). Every event is sequenced within
    about 2 s of its 201; before that the answer is 409 with `Retry-After`.

    Args:
        id (str):
        tree_size (int | Unset): Prove against the signed head of this size (it must exist and
            contain the event) instead of the latest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentInclusionProof | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
tree_size=tree_size,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    tree_size: int | Unset = UNSET,

) -> ConsentInclusionProof | Problem | None:
    """ Inclusion proof of an event in the account's consent log (RFC 9162 §2.1.3).

     The audit path from the event's leaf to the root of the latest signed tree head, or of the head of
    `treeSize`. The leaf is SHA-256(0x00 ‖ RFC 8785 JSON of the event exactly as POST /consents answered
    it). Verify offline with `npx @accord/verify` (docs/consent-log.md). Every event is sequenced within
    about 2 s of its 201; before that the answer is 409 with `Retry-After`.

    Args:
        id (str):
        tree_size (int | Unset): Prove against the signed head of this size (it must exist and
            contain the event) instead of the latest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentInclusionProof | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
tree_size=tree_size,

    )).parsed
