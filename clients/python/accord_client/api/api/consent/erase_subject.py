from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.consent_erase_request import ConsentEraseRequest
from ...models.consent_erasure import ConsentErasure
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    *,
    body: ConsentEraseRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/consent/v0/subjects/erase",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ConsentErasure | Problem | None:
    if response.status_code == 200:
        response_200 = ConsentErasure.from_dict(response.json())



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

    if response.status_code == 405:
        response_405 = Problem.from_dict(response.json())



        return response_405

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ConsentErasure | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ConsentEraseRequest,

) -> Response[ConsentErasure | Problem]:
    """ Erase a subject's personal data from every event of the account (GDPR art. 17), keeping the events
    as evidence.

     In every event of the account with this subject (of `issuer` only, when sent), the subject, and the
    `source` and `delegate` when present, are replaced by keyed hashes (`erased:` + base64url HMAC-
    SHA256 under a per-account key derived from the installation secret `ACCORD_ERASURE_KEY`); the
    events keep their id, action, createdAt, issuer, target, scope, token, targetVersion, expiresAt and
    appId, and gain `erasedAt`. Current states move with them; statistics keep their counts. Afterwards
    search, current states, export and GetCurrentStates by the subject find nothing; GET by id and by
    token answer the redacted event; receipts of erased events answer 410; log proofs stay valid
    (docs/consent-log.md). Answers the erasure record, which is kept (GET /consent/v0/subjects/erasures)
    without the subject in clear. Idempotent: erasing again answers `events: 0`. Events of the subject
    written after the erasure are new data (erase again to erase them).

    Args:
        body (ConsentEraseRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentErasure | Problem]
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
    body: ConsentEraseRequest,

) -> ConsentErasure | Problem | None:
    """ Erase a subject's personal data from every event of the account (GDPR art. 17), keeping the events
    as evidence.

     In every event of the account with this subject (of `issuer` only, when sent), the subject, and the
    `source` and `delegate` when present, are replaced by keyed hashes (`erased:` + base64url HMAC-
    SHA256 under a per-account key derived from the installation secret `ACCORD_ERASURE_KEY`); the
    events keep their id, action, createdAt, issuer, target, scope, token, targetVersion, expiresAt and
    appId, and gain `erasedAt`. Current states move with them; statistics keep their counts. Afterwards
    search, current states, export and GetCurrentStates by the subject find nothing; GET by id and by
    token answer the redacted event; receipts of erased events answer 410; log proofs stay valid
    (docs/consent-log.md). Answers the erasure record, which is kept (GET /consent/v0/subjects/erasures)
    without the subject in clear. Idempotent: erasing again answers `events: 0`. Events of the subject
    written after the erasure are new data (erase again to erase them).

    Args:
        body (ConsentEraseRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentErasure | Problem
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ConsentEraseRequest,

) -> Response[ConsentErasure | Problem]:
    """ Erase a subject's personal data from every event of the account (GDPR art. 17), keeping the events
    as evidence.

     In every event of the account with this subject (of `issuer` only, when sent), the subject, and the
    `source` and `delegate` when present, are replaced by keyed hashes (`erased:` + base64url HMAC-
    SHA256 under a per-account key derived from the installation secret `ACCORD_ERASURE_KEY`); the
    events keep their id, action, createdAt, issuer, target, scope, token, targetVersion, expiresAt and
    appId, and gain `erasedAt`. Current states move with them; statistics keep their counts. Afterwards
    search, current states, export and GetCurrentStates by the subject find nothing; GET by id and by
    token answer the redacted event; receipts of erased events answer 410; log proofs stay valid
    (docs/consent-log.md). Answers the erasure record, which is kept (GET /consent/v0/subjects/erasures)
    without the subject in clear. Idempotent: erasing again answers `events: 0`. Events of the subject
    written after the erasure are new data (erase again to erase them).

    Args:
        body (ConsentEraseRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentErasure | Problem]
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
    body: ConsentEraseRequest,

) -> ConsentErasure | Problem | None:
    """ Erase a subject's personal data from every event of the account (GDPR art. 17), keeping the events
    as evidence.

     In every event of the account with this subject (of `issuer` only, when sent), the subject, and the
    `source` and `delegate` when present, are replaced by keyed hashes (`erased:` + base64url HMAC-
    SHA256 under a per-account key derived from the installation secret `ACCORD_ERASURE_KEY`); the
    events keep their id, action, createdAt, issuer, target, scope, token, targetVersion, expiresAt and
    appId, and gain `erasedAt`. Current states move with them; statistics keep their counts. Afterwards
    search, current states, export and GetCurrentStates by the subject find nothing; GET by id and by
    token answer the redacted event; receipts of erased events answer 410; log proofs stay valid
    (docs/consent-log.md). Answers the erasure record, which is kept (GET /consent/v0/subjects/erasures)
    without the subject in clear. Idempotent: erasing again answers `events: 0`. Events of the subject
    written after the erasure are new data (erase again to erase them).

    Args:
        body (ConsentEraseRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentErasure | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
