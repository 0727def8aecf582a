from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.decision import Decision
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    subject: str,
    issuer: str,
    target: str,
    scope: str | Unset = UNSET,
    jurisdiction: str | Unset = UNSET,
    gpc: bool | Unset = UNSET,
    vendor: int | Unset = UNSET,
    purpose: int | Unset = UNSET,
    atp_vendor: int | Unset = UNSET,
    at: datetime.datetime | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["subject"] = subject

    params["issuer"] = issuer

    params["target"] = target

    params["scope"] = scope

    params["jurisdiction"] = jurisdiction

    params["gpc"] = gpc

    params["vendor"] = vendor

    params["purpose"] = purpose

    params["atpVendor"] = atp_vendor

    json_at: str | Unset = UNSET
    if not isinstance(at, Unset):
        json_at = at.isoformat()
    params["at"] = json_at


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/consent/v0/decisions",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Decision | Problem | None:
    if response.status_code == 200:
        response_200 = Decision.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Decision | Problem]:
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
    scope: str | Unset = UNSET,
    jurisdiction: str | Unset = UNSET,
    gpc: bool | Unset = UNSET,
    vendor: int | Unset = UNSET,
    purpose: int | Unset = UNSET,
    atp_vendor: int | Unset = UNSET,
    at: datetime.datetime | Unset = UNSET,

) -> Response[Decision | Problem]:
    """ May I process this? One decision (as POST, for one item).

     The query names one item (subject, issuer, target required; scope, jurisdiction, gpc) and optionally
    `at`. Problems name the parameter.

    Args:
        subject (str): The subject, exactly as in its events.
        issuer (str): The issuer.
        target (str): The target: a URL, or a specification
            (`{base_url}/dataprocessing/v0/dpspecs/<id>`, `urn:accord:dpspec:<id>`), whose legal basis
            and regimes then apply.
        scope (str | Unset): Section or clause of the target. Absent or empty: `default`.
        jurisdiction (str | Unset): Where the subject is, when its current event does not say (the
            event's own jurisdiction wins): chooses the specification's regime. Absent: `*`.
        gpc (bool | Unset): true: a Global Privacy Control signal is on now (e.g. the request
            being served carries `Sec-GPC: 1`): where the regime honours GPC it declines, unless the
            current choice was made with the signal on.
        vendor (int | Unset): An IAB TCF vendor (its Global Vendor List id), with `purpose`: the
            answer comes from the TC string of the current event (docs/consent.md, Standards). Needs
            the operator’s GVL (ACCORD_TCF_GVL); without one, 400.
        purpose (int | Unset): A TCF purpose id (1–11), with `vendor`.
        atp_vendor (int | Unset): A Google Ad Tech Provider (its ATP id), not with `vendor` or
            `purpose`: the answer comes from the Additional Consent string (`addtlConsent`) of the
            current event (docs/consent.md, Standards). Needs no GVL.
        at (datetime.datetime | Unset): As in DecisionRequest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Decision | Problem]
     """


    kwargs = _get_kwargs(
        subject=subject,
issuer=issuer,
target=target,
scope=scope,
jurisdiction=jurisdiction,
gpc=gpc,
vendor=vendor,
purpose=purpose,
atp_vendor=atp_vendor,
at=at,

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
    scope: str | Unset = UNSET,
    jurisdiction: str | Unset = UNSET,
    gpc: bool | Unset = UNSET,
    vendor: int | Unset = UNSET,
    purpose: int | Unset = UNSET,
    atp_vendor: int | Unset = UNSET,
    at: datetime.datetime | Unset = UNSET,

) -> Decision | Problem | None:
    """ May I process this? One decision (as POST, for one item).

     The query names one item (subject, issuer, target required; scope, jurisdiction, gpc) and optionally
    `at`. Problems name the parameter.

    Args:
        subject (str): The subject, exactly as in its events.
        issuer (str): The issuer.
        target (str): The target: a URL, or a specification
            (`{base_url}/dataprocessing/v0/dpspecs/<id>`, `urn:accord:dpspec:<id>`), whose legal basis
            and regimes then apply.
        scope (str | Unset): Section or clause of the target. Absent or empty: `default`.
        jurisdiction (str | Unset): Where the subject is, when its current event does not say (the
            event's own jurisdiction wins): chooses the specification's regime. Absent: `*`.
        gpc (bool | Unset): true: a Global Privacy Control signal is on now (e.g. the request
            being served carries `Sec-GPC: 1`): where the regime honours GPC it declines, unless the
            current choice was made with the signal on.
        vendor (int | Unset): An IAB TCF vendor (its Global Vendor List id), with `purpose`: the
            answer comes from the TC string of the current event (docs/consent.md, Standards). Needs
            the operator’s GVL (ACCORD_TCF_GVL); without one, 400.
        purpose (int | Unset): A TCF purpose id (1–11), with `vendor`.
        atp_vendor (int | Unset): A Google Ad Tech Provider (its ATP id), not with `vendor` or
            `purpose`: the answer comes from the Additional Consent string (`addtlConsent`) of the
            current event (docs/consent.md, Standards). Needs no GVL.
        at (datetime.datetime | Unset): As in DecisionRequest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Decision | Problem
     """


    return sync_detailed(
        client=client,
subject=subject,
issuer=issuer,
target=target,
scope=scope,
jurisdiction=jurisdiction,
gpc=gpc,
vendor=vendor,
purpose=purpose,
atp_vendor=atp_vendor,
at=at,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    subject: str,
    issuer: str,
    target: str,
    scope: str | Unset = UNSET,
    jurisdiction: str | Unset = UNSET,
    gpc: bool | Unset = UNSET,
    vendor: int | Unset = UNSET,
    purpose: int | Unset = UNSET,
    atp_vendor: int | Unset = UNSET,
    at: datetime.datetime | Unset = UNSET,

) -> Response[Decision | Problem]:
    """ May I process this? One decision (as POST, for one item).

     The query names one item (subject, issuer, target required; scope, jurisdiction, gpc) and optionally
    `at`. Problems name the parameter.

    Args:
        subject (str): The subject, exactly as in its events.
        issuer (str): The issuer.
        target (str): The target: a URL, or a specification
            (`{base_url}/dataprocessing/v0/dpspecs/<id>`, `urn:accord:dpspec:<id>`), whose legal basis
            and regimes then apply.
        scope (str | Unset): Section or clause of the target. Absent or empty: `default`.
        jurisdiction (str | Unset): Where the subject is, when its current event does not say (the
            event's own jurisdiction wins): chooses the specification's regime. Absent: `*`.
        gpc (bool | Unset): true: a Global Privacy Control signal is on now (e.g. the request
            being served carries `Sec-GPC: 1`): where the regime honours GPC it declines, unless the
            current choice was made with the signal on.
        vendor (int | Unset): An IAB TCF vendor (its Global Vendor List id), with `purpose`: the
            answer comes from the TC string of the current event (docs/consent.md, Standards). Needs
            the operator’s GVL (ACCORD_TCF_GVL); without one, 400.
        purpose (int | Unset): A TCF purpose id (1–11), with `vendor`.
        atp_vendor (int | Unset): A Google Ad Tech Provider (its ATP id), not with `vendor` or
            `purpose`: the answer comes from the Additional Consent string (`addtlConsent`) of the
            current event (docs/consent.md, Standards). Needs no GVL.
        at (datetime.datetime | Unset): As in DecisionRequest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Decision | Problem]
     """


    kwargs = _get_kwargs(
        subject=subject,
issuer=issuer,
target=target,
scope=scope,
jurisdiction=jurisdiction,
gpc=gpc,
vendor=vendor,
purpose=purpose,
atp_vendor=atp_vendor,
at=at,

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
    scope: str | Unset = UNSET,
    jurisdiction: str | Unset = UNSET,
    gpc: bool | Unset = UNSET,
    vendor: int | Unset = UNSET,
    purpose: int | Unset = UNSET,
    atp_vendor: int | Unset = UNSET,
    at: datetime.datetime | Unset = UNSET,

) -> Decision | Problem | None:
    """ May I process this? One decision (as POST, for one item).

     The query names one item (subject, issuer, target required; scope, jurisdiction, gpc) and optionally
    `at`. Problems name the parameter.

    Args:
        subject (str): The subject, exactly as in its events.
        issuer (str): The issuer.
        target (str): The target: a URL, or a specification
            (`{base_url}/dataprocessing/v0/dpspecs/<id>`, `urn:accord:dpspec:<id>`), whose legal basis
            and regimes then apply.
        scope (str | Unset): Section or clause of the target. Absent or empty: `default`.
        jurisdiction (str | Unset): Where the subject is, when its current event does not say (the
            event's own jurisdiction wins): chooses the specification's regime. Absent: `*`.
        gpc (bool | Unset): true: a Global Privacy Control signal is on now (e.g. the request
            being served carries `Sec-GPC: 1`): where the regime honours GPC it declines, unless the
            current choice was made with the signal on.
        vendor (int | Unset): An IAB TCF vendor (its Global Vendor List id), with `purpose`: the
            answer comes from the TC string of the current event (docs/consent.md, Standards). Needs
            the operator’s GVL (ACCORD_TCF_GVL); without one, 400.
        purpose (int | Unset): A TCF purpose id (1–11), with `vendor`.
        atp_vendor (int | Unset): A Google Ad Tech Provider (its ATP id), not with `vendor` or
            `purpose`: the answer comes from the Additional Consent string (`addtlConsent`) of the
            current event (docs/consent.md, Standards). Needs no GVL.
        at (datetime.datetime | Unset): As in DecisionRequest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Decision | Problem
     """


    return (await asyncio_detailed(
        client=client,
subject=subject,
issuer=issuer,
target=target,
scope=scope,
jurisdiction=jurisdiction,
gpc=gpc,
vendor=vendor,
purpose=purpose,
atp_vendor=atp_vendor,
at=at,

    )).parsed
