from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.subject_link import SubjectLink
from ...models.subject_link_request import SubjectLinkRequest
from typing import cast



def _get_kwargs(
    *,
    body: SubjectLinkRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/consent/v0/subjects/links",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SubjectLink | None:
    if response.status_code == 201:
        response_201 = SubjectLink.from_dict(response.json())



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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SubjectLink]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SubjectLinkRequest,

) -> Response[Problem | SubjectLink]:
    """ Link an identity (a device or cookie id) to a subject, move it to another, or unlink it (subject
    null).

     Stores an immutable link event: for this issuer, `identity` belongs to `subject` from now on. The
    newest link of an identity wins; moving a device is a new link, unlinking is a link with `subject:
    null`; nothing is rewritten. Each link is a leaf of the consent log (GET
    /consent/v0/consents/{linkId}/proof), is delivered to `subject.linked` webhooks and is listed in the
    subject’s JSON export. Current states (search `current=true`, GetCurrentStates, the dashboards) and
    decisions then resolve across the subject and its identities: per (issuer, target, scope) the newest
    event of any of them decides, and a decision names it (`identity`); a decision at a past `at` uses
    the links as they were then. Links never chain: an identity that has identities linked to it, or a
    subject that is itself linked as an identity, is refused with 409 naming `identity` or `subject`; a
    subject has at most 100 identities. Only an application's token may link (a consent session is
    refused with 403): a browser could otherwise attach its device to someone else's consents. The web
    components expose their device id (`deviceId`) so that the application’s backend links it after
    sign-in (docs/sdk.md).

    Args:
        body (SubjectLinkRequest): A link event: for one issuer, `identity` belongs to `subject`
            from now on (null: to no one). The newest link of an identity wins; an identity that has
            identities of its own, or a subject linked elsewhere as an identity, is refused (409):
            links never chain.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SubjectLink]
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
    body: SubjectLinkRequest,

) -> Problem | SubjectLink | None:
    """ Link an identity (a device or cookie id) to a subject, move it to another, or unlink it (subject
    null).

     Stores an immutable link event: for this issuer, `identity` belongs to `subject` from now on. The
    newest link of an identity wins; moving a device is a new link, unlinking is a link with `subject:
    null`; nothing is rewritten. Each link is a leaf of the consent log (GET
    /consent/v0/consents/{linkId}/proof), is delivered to `subject.linked` webhooks and is listed in the
    subject’s JSON export. Current states (search `current=true`, GetCurrentStates, the dashboards) and
    decisions then resolve across the subject and its identities: per (issuer, target, scope) the newest
    event of any of them decides, and a decision names it (`identity`); a decision at a past `at` uses
    the links as they were then. Links never chain: an identity that has identities linked to it, or a
    subject that is itself linked as an identity, is refused with 409 naming `identity` or `subject`; a
    subject has at most 100 identities. Only an application's token may link (a consent session is
    refused with 403): a browser could otherwise attach its device to someone else's consents. The web
    components expose their device id (`deviceId`) so that the application’s backend links it after
    sign-in (docs/sdk.md).

    Args:
        body (SubjectLinkRequest): A link event: for one issuer, `identity` belongs to `subject`
            from now on (null: to no one). The newest link of an identity wins; an identity that has
            identities of its own, or a subject linked elsewhere as an identity, is refused (409):
            links never chain.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SubjectLink
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SubjectLinkRequest,

) -> Response[Problem | SubjectLink]:
    """ Link an identity (a device or cookie id) to a subject, move it to another, or unlink it (subject
    null).

     Stores an immutable link event: for this issuer, `identity` belongs to `subject` from now on. The
    newest link of an identity wins; moving a device is a new link, unlinking is a link with `subject:
    null`; nothing is rewritten. Each link is a leaf of the consent log (GET
    /consent/v0/consents/{linkId}/proof), is delivered to `subject.linked` webhooks and is listed in the
    subject’s JSON export. Current states (search `current=true`, GetCurrentStates, the dashboards) and
    decisions then resolve across the subject and its identities: per (issuer, target, scope) the newest
    event of any of them decides, and a decision names it (`identity`); a decision at a past `at` uses
    the links as they were then. Links never chain: an identity that has identities linked to it, or a
    subject that is itself linked as an identity, is refused with 409 naming `identity` or `subject`; a
    subject has at most 100 identities. Only an application's token may link (a consent session is
    refused with 403): a browser could otherwise attach its device to someone else's consents. The web
    components expose their device id (`deviceId`) so that the application’s backend links it after
    sign-in (docs/sdk.md).

    Args:
        body (SubjectLinkRequest): A link event: for one issuer, `identity` belongs to `subject`
            from now on (null: to no one). The newest link of an identity wins; an identity that has
            identities of its own, or a subject linked elsewhere as an identity, is refused (409):
            links never chain.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SubjectLink]
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
    body: SubjectLinkRequest,

) -> Problem | SubjectLink | None:
    """ Link an identity (a device or cookie id) to a subject, move it to another, or unlink it (subject
    null).

     Stores an immutable link event: for this issuer, `identity` belongs to `subject` from now on. The
    newest link of an identity wins; moving a device is a new link, unlinking is a link with `subject:
    null`; nothing is rewritten. Each link is a leaf of the consent log (GET
    /consent/v0/consents/{linkId}/proof), is delivered to `subject.linked` webhooks and is listed in the
    subject’s JSON export. Current states (search `current=true`, GetCurrentStates, the dashboards) and
    decisions then resolve across the subject and its identities: per (issuer, target, scope) the newest
    event of any of them decides, and a decision names it (`identity`); a decision at a past `at` uses
    the links as they were then. Links never chain: an identity that has identities linked to it, or a
    subject that is itself linked as an identity, is refused with 409 naming `identity` or `subject`; a
    subject has at most 100 identities. Only an application's token may link (a consent session is
    refused with 403): a browser could otherwise attach its device to someone else's consents. The web
    components expose their device id (`deviceId`) so that the application’s backend links it after
    sign-in (docs/sdk.md).

    Args:
        body (SubjectLinkRequest): A link event: for one issuer, `identity` belongs to `subject`
            from now on (null: to no one). The newest link of an identity wins; an identity that has
            identities of its own, or a subject linked elsewhere as an identity, is refused (409):
            links never chain.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SubjectLink
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
