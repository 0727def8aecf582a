from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.consent_event import ConsentEvent
from ...models.consent_form_request import ConsentFormRequest
from ...models.consent_input import ConsentInput
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body:    ConsentInput | list[ConsentInput]  |     ConsentFormRequest  | Unset = UNSET,
    sec_gpc: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(sec_gpc, Unset):
        headers["Sec-GPC"] = sec_gpc



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/consent/v0/consents",
    }

    if isinstance(body, ConsentInput | list[ConsentInput]):
        
        if isinstance(body, ConsentInput):
            _kwargs["json"] = body.to_dict()
        else:
            _kwargs["json"] = []
            for componentsschemas_consent_create_request_type_1_item_data in body:
                componentsschemas_consent_create_request_type_1_item = componentsschemas_consent_create_request_type_1_item_data.to_dict()
                _kwargs["json"].append(componentsschemas_consent_create_request_type_1_item)




        headers["Content-Type"] = "application/json"
    if isinstance(body, ConsentFormRequest):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ConsentEvent | list[ConsentEvent] | Problem | None:
    if response.status_code == 201:
        def _parse_response_201(data: object) -> ConsentEvent | list[ConsentEvent]:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_0 = ConsentEvent.from_dict(data)



                return response_201_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            response_201_type_1 = []
            _response_201_type_1 = data
            for response_201_type_1_item_data in (_response_201_type_1):
                response_201_type_1_item = ConsentEvent.from_dict(response_201_type_1_item_data)



                response_201_type_1.append(response_201_type_1_item)

            return response_201_type_1

        response_201 = _parse_response_201(response.json())

        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ConsentEvent | list[ConsentEvent] | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body:    ConsentInput | list[ConsentInput]  |     ConsentFormRequest  | Unset = UNSET,
    sec_gpc: str | Unset = UNSET,

) -> Response[ConsentEvent | list[ConsentEvent] | Problem]:
    """ Record one consent event, or an array of them (all or nothing).

     Accepts one event object, a JSON array of 1 to 1000 event objects, or form fields
    (application/x-www-form-urlencoded, one event; `action` is `true`, `false`, `null`, or absent =
    null; any other value is a 400). Required: subject, issuer, target. Optional: source, scope (default
    `default`), delegate, action (absent = null: no action taken), targetVersion and expiresAt. When the
    target names a data processing specification (`{base_url}/dataprocessing/v0/dpspecs/<id>` or
    `urn:accord:dpspec:<id>`), the event records the version the subject was shown: `targetVersion` when
    sent (400 naming `targetVersion` when the specification has no such version yet, or is unknown),
    else the current version. `expiresAt` (in the future, else 400) makes the consent lapse then.
    Unknown fields are refused (400, naming the field); the service assigns id, token and createdAt and
    refuses them when sent. An array is validated whole before anything is stored; the answer is the
    stored events in request order (ids increase in that order). More than 1000 events: 413. One object
    answers the stored event with a Location header. A 201 means stored. Current state and statistics
    include the events when the answer leaves, unless applying them would outlast the request deadline;
    then they follow right after. The `consent` events are published to NATS from a durable outbox,
    right after the answer. Signals (docs/consent.md, Signals and regimes): `gpc`, `tcString` (IAB TCF
    v2), `gppString` (IAB GPP) and `jurisdiction` (ISO 3166-1 alpha-2 or ISO 3166-2) are kept with the
    event, the strings with what they say (`tcf`, `gpp`); a string that does not decode, a TCF v1
    string, one over 10,000 characters or an unknown jurisdiction is a 400 naming the field
    (`/tcString`, `/0/gppString`). `addtlConsent` (Google's Additional Consent string, `2~<consented ATP
    ids>~dv.<disclosed ATP ids>` or version 1 `1~<consented ATP ids>`) is kept exactly as sent beside
    the TC string; any other form is a 400 naming `/addtlConsent`. `Sec-GPC: 1` sets `gpc: true` on
    every event of the request that does not say. An event with `gpc: true` and no action records the
    signal with no explicit choice (a GPC-driven decline where the regime honours GPC).

    Args:
        sec_gpc (str | Unset):
        body (ConsentInput | list[ConsentInput]):
        body (ConsentFormRequest): One event as form fields; every value is a string.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentEvent | list[ConsentEvent] | Problem]
     """


    kwargs = _get_kwargs(
        body=body,
sec_gpc=sec_gpc,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body:    ConsentInput | list[ConsentInput]  |     ConsentFormRequest  | Unset = UNSET,
    sec_gpc: str | Unset = UNSET,

) -> ConsentEvent | list[ConsentEvent] | Problem | None:
    """ Record one consent event, or an array of them (all or nothing).

     Accepts one event object, a JSON array of 1 to 1000 event objects, or form fields
    (application/x-www-form-urlencoded, one event; `action` is `true`, `false`, `null`, or absent =
    null; any other value is a 400). Required: subject, issuer, target. Optional: source, scope (default
    `default`), delegate, action (absent = null: no action taken), targetVersion and expiresAt. When the
    target names a data processing specification (`{base_url}/dataprocessing/v0/dpspecs/<id>` or
    `urn:accord:dpspec:<id>`), the event records the version the subject was shown: `targetVersion` when
    sent (400 naming `targetVersion` when the specification has no such version yet, or is unknown),
    else the current version. `expiresAt` (in the future, else 400) makes the consent lapse then.
    Unknown fields are refused (400, naming the field); the service assigns id, token and createdAt and
    refuses them when sent. An array is validated whole before anything is stored; the answer is the
    stored events in request order (ids increase in that order). More than 1000 events: 413. One object
    answers the stored event with a Location header. A 201 means stored. Current state and statistics
    include the events when the answer leaves, unless applying them would outlast the request deadline;
    then they follow right after. The `consent` events are published to NATS from a durable outbox,
    right after the answer. Signals (docs/consent.md, Signals and regimes): `gpc`, `tcString` (IAB TCF
    v2), `gppString` (IAB GPP) and `jurisdiction` (ISO 3166-1 alpha-2 or ISO 3166-2) are kept with the
    event, the strings with what they say (`tcf`, `gpp`); a string that does not decode, a TCF v1
    string, one over 10,000 characters or an unknown jurisdiction is a 400 naming the field
    (`/tcString`, `/0/gppString`). `addtlConsent` (Google's Additional Consent string, `2~<consented ATP
    ids>~dv.<disclosed ATP ids>` or version 1 `1~<consented ATP ids>`) is kept exactly as sent beside
    the TC string; any other form is a 400 naming `/addtlConsent`. `Sec-GPC: 1` sets `gpc: true` on
    every event of the request that does not say. An event with `gpc: true` and no action records the
    signal with no explicit choice (a GPC-driven decline where the regime honours GPC).

    Args:
        sec_gpc (str | Unset):
        body (ConsentInput | list[ConsentInput]):
        body (ConsentFormRequest): One event as form fields; every value is a string.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentEvent | list[ConsentEvent] | Problem
     """


    return sync_detailed(
        client=client,
body=body,
sec_gpc=sec_gpc,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body:    ConsentInput | list[ConsentInput]  |     ConsentFormRequest  | Unset = UNSET,
    sec_gpc: str | Unset = UNSET,

) -> Response[ConsentEvent | list[ConsentEvent] | Problem]:
    """ Record one consent event, or an array of them (all or nothing).

     Accepts one event object, a JSON array of 1 to 1000 event objects, or form fields
    (application/x-www-form-urlencoded, one event; `action` is `true`, `false`, `null`, or absent =
    null; any other value is a 400). Required: subject, issuer, target. Optional: source, scope (default
    `default`), delegate, action (absent = null: no action taken), targetVersion and expiresAt. When the
    target names a data processing specification (`{base_url}/dataprocessing/v0/dpspecs/<id>` or
    `urn:accord:dpspec:<id>`), the event records the version the subject was shown: `targetVersion` when
    sent (400 naming `targetVersion` when the specification has no such version yet, or is unknown),
    else the current version. `expiresAt` (in the future, else 400) makes the consent lapse then.
    Unknown fields are refused (400, naming the field); the service assigns id, token and createdAt and
    refuses them when sent. An array is validated whole before anything is stored; the answer is the
    stored events in request order (ids increase in that order). More than 1000 events: 413. One object
    answers the stored event with a Location header. A 201 means stored. Current state and statistics
    include the events when the answer leaves, unless applying them would outlast the request deadline;
    then they follow right after. The `consent` events are published to NATS from a durable outbox,
    right after the answer. Signals (docs/consent.md, Signals and regimes): `gpc`, `tcString` (IAB TCF
    v2), `gppString` (IAB GPP) and `jurisdiction` (ISO 3166-1 alpha-2 or ISO 3166-2) are kept with the
    event, the strings with what they say (`tcf`, `gpp`); a string that does not decode, a TCF v1
    string, one over 10,000 characters or an unknown jurisdiction is a 400 naming the field
    (`/tcString`, `/0/gppString`). `addtlConsent` (Google's Additional Consent string, `2~<consented ATP
    ids>~dv.<disclosed ATP ids>` or version 1 `1~<consented ATP ids>`) is kept exactly as sent beside
    the TC string; any other form is a 400 naming `/addtlConsent`. `Sec-GPC: 1` sets `gpc: true` on
    every event of the request that does not say. An event with `gpc: true` and no action records the
    signal with no explicit choice (a GPC-driven decline where the regime honours GPC).

    Args:
        sec_gpc (str | Unset):
        body (ConsentInput | list[ConsentInput]):
        body (ConsentFormRequest): One event as form fields; every value is a string.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentEvent | list[ConsentEvent] | Problem]
     """


    kwargs = _get_kwargs(
        body=body,
sec_gpc=sec_gpc,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body:    ConsentInput | list[ConsentInput]  |     ConsentFormRequest  | Unset = UNSET,
    sec_gpc: str | Unset = UNSET,

) -> ConsentEvent | list[ConsentEvent] | Problem | None:
    """ Record one consent event, or an array of them (all or nothing).

     Accepts one event object, a JSON array of 1 to 1000 event objects, or form fields
    (application/x-www-form-urlencoded, one event; `action` is `true`, `false`, `null`, or absent =
    null; any other value is a 400). Required: subject, issuer, target. Optional: source, scope (default
    `default`), delegate, action (absent = null: no action taken), targetVersion and expiresAt. When the
    target names a data processing specification (`{base_url}/dataprocessing/v0/dpspecs/<id>` or
    `urn:accord:dpspec:<id>`), the event records the version the subject was shown: `targetVersion` when
    sent (400 naming `targetVersion` when the specification has no such version yet, or is unknown),
    else the current version. `expiresAt` (in the future, else 400) makes the consent lapse then.
    Unknown fields are refused (400, naming the field); the service assigns id, token and createdAt and
    refuses them when sent. An array is validated whole before anything is stored; the answer is the
    stored events in request order (ids increase in that order). More than 1000 events: 413. One object
    answers the stored event with a Location header. A 201 means stored. Current state and statistics
    include the events when the answer leaves, unless applying them would outlast the request deadline;
    then they follow right after. The `consent` events are published to NATS from a durable outbox,
    right after the answer. Signals (docs/consent.md, Signals and regimes): `gpc`, `tcString` (IAB TCF
    v2), `gppString` (IAB GPP) and `jurisdiction` (ISO 3166-1 alpha-2 or ISO 3166-2) are kept with the
    event, the strings with what they say (`tcf`, `gpp`); a string that does not decode, a TCF v1
    string, one over 10,000 characters or an unknown jurisdiction is a 400 naming the field
    (`/tcString`, `/0/gppString`). `addtlConsent` (Google's Additional Consent string, `2~<consented ATP
    ids>~dv.<disclosed ATP ids>` or version 1 `1~<consented ATP ids>`) is kept exactly as sent beside
    the TC string; any other form is a 400 naming `/addtlConsent`. `Sec-GPC: 1` sets `gpc: true` on
    every event of the request that does not say. An event with `gpc: true` and no action records the
    signal with no explicit choice (a GPC-driven decline where the regime honours GPC).

    Args:
        sec_gpc (str | Unset):
        body (ConsentInput | list[ConsentInput]):
        body (ConsentFormRequest): One event as form fields; every value is a string.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentEvent | list[ConsentEvent] | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,
sec_gpc=sec_gpc,

    )).parsed
