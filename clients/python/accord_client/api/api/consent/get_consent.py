from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.consent_event import ConsentEvent
from ...models.get_consent_format import check_get_consent_format
from ...models.get_consent_format import GetConsentFormat
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    format_: GetConsentFormat | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_

    params["format"] = json_format_


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/consent/v0/consents/{id}".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ConsentEvent | Problem | None:
    if response.status_code == 200:
        response_200 = ConsentEvent.from_dict(response.json())



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

    if response.status_code == 405:
        response_405 = Problem.from_dict(response.json())



        return response_405

    if response.status_code == 406:
        response_406 = Problem.from_dict(response.json())



        return response_406

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ConsentEvent | Problem]:
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
    format_: GetConsentFormat | Unset = UNSET,

) -> Response[ConsentEvent | Problem]:
    """ One consent event by id.

     Events are immutable: PUT, PATCH and DELETE answer 405 with `Allow: GET, HEAD`. An id of another
    account is a 404. With `Accept: application/ld+json` (preferred to application/json) or
    `format=jsonld`: the ISO/IEC TS 27560 record in W3C DPV JSON-LD (DPV 2.x, `@context` first), the
    specification shown included (docs/consent.md, *ISO/IEC TS 27560 in DPV*).

    Args:
        id (str):
        format_ (GetConsentFormat | Unset): `jsonld`: answer in W3C DPV JSON-LD (ISO/IEC TS 27560,
            `application/ld+json`), as `Accept: application/ld+json` asks; see docs/consent.md,
            *ISO/IEC TS 27560 in DPV*.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentEvent | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
format_=format_,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    format_: GetConsentFormat | Unset = UNSET,

) -> ConsentEvent | Problem | None:
    """ One consent event by id.

     Events are immutable: PUT, PATCH and DELETE answer 405 with `Allow: GET, HEAD`. An id of another
    account is a 404. With `Accept: application/ld+json` (preferred to application/json) or
    `format=jsonld`: the ISO/IEC TS 27560 record in W3C DPV JSON-LD (DPV 2.x, `@context` first), the
    specification shown included (docs/consent.md, *ISO/IEC TS 27560 in DPV*).

    Args:
        id (str):
        format_ (GetConsentFormat | Unset): `jsonld`: answer in W3C DPV JSON-LD (ISO/IEC TS 27560,
            `application/ld+json`), as `Accept: application/ld+json` asks; see docs/consent.md,
            *ISO/IEC TS 27560 in DPV*.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentEvent | Problem
     """


    return sync_detailed(
        id=id,
client=client,
format_=format_,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    format_: GetConsentFormat | Unset = UNSET,

) -> Response[ConsentEvent | Problem]:
    """ One consent event by id.

     Events are immutable: PUT, PATCH and DELETE answer 405 with `Allow: GET, HEAD`. An id of another
    account is a 404. With `Accept: application/ld+json` (preferred to application/json) or
    `format=jsonld`: the ISO/IEC TS 27560 record in W3C DPV JSON-LD (DPV 2.x, `@context` first), the
    specification shown included (docs/consent.md, *ISO/IEC TS 27560 in DPV*).

    Args:
        id (str):
        format_ (GetConsentFormat | Unset): `jsonld`: answer in W3C DPV JSON-LD (ISO/IEC TS 27560,
            `application/ld+json`), as `Accept: application/ld+json` asks; see docs/consent.md,
            *ISO/IEC TS 27560 in DPV*.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentEvent | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
format_=format_,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    format_: GetConsentFormat | Unset = UNSET,

) -> ConsentEvent | Problem | None:
    """ One consent event by id.

     Events are immutable: PUT, PATCH and DELETE answer 405 with `Allow: GET, HEAD`. An id of another
    account is a 404. With `Accept: application/ld+json` (preferred to application/json) or
    `format=jsonld`: the ISO/IEC TS 27560 record in W3C DPV JSON-LD (DPV 2.x, `@context` first), the
    specification shown included (docs/consent.md, *ISO/IEC TS 27560 in DPV*).

    Args:
        id (str):
        format_ (GetConsentFormat | Unset): `jsonld`: answer in W3C DPV JSON-LD (ISO/IEC TS 27560,
            `application/ld+json`), as `Accept: application/ld+json` asks; see docs/consent.md,
            *ISO/IEC TS 27560 in DPV*.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentEvent | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
format_=format_,

    )).parsed
