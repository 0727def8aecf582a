from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.o_auth_error import OAuthError
from ...models.problem import Problem
from ...models.token_request import TokenRequest
from ...models.token_response import TokenResponse
from typing import cast



def _get_kwargs(
    *,
    body:    TokenRequest  |     TokenRequest  | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth/v0/token",
    }

    if isinstance(body, TokenRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, TokenRequest):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OAuthError | Problem | TokenResponse | None:
    if response.status_code == 200:
        response_200 = TokenResponse.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = OAuthError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = OAuthError.from_dict(response.json())



        return response_401

    if response.status_code == 413:
        response_413 = OAuthError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = OAuthError.from_dict(response.json())



        return response_415

    if response.status_code == 429:
        response_429 = OAuthError.from_dict(response.json())



        return response_429

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if response.status_code == 503:
        response_503 = OAuthError.from_dict(response.json())



        return response_503

    if response.status_code == 504:
        response_504 = Problem.from_dict(response.json())



        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OAuthError | Problem | TokenResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body:    TokenRequest  |     TokenRequest  | Unset = UNSET,

) -> Response[OAuthError | Problem | TokenResponse]:
    """ Issue an access token (client_credentials) or exchange a refresh token (refresh_token).

     Client credentials in `Authorization: Basic base64(client_id:client_secret)` or in the body (not
    both). Bodies as JSON or application/x-www-form-urlencoded. `expires_in` is in seconds. Refresh
    tokens are rotated on every use: the answer carries a new refresh token and the old one is spent;
    presenting a spent refresh token again revokes its whole family (`invalid_grant`). Every answer has
    `Cache-Control: no-store`. Errors use the RFC 6749 §5.2 form, not problem+json.

    Args:
        body (TokenRequest):
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OAuthError | Problem | TokenResponse]
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
    body:    TokenRequest  |     TokenRequest  | Unset = UNSET,

) -> OAuthError | Problem | TokenResponse | None:
    """ Issue an access token (client_credentials) or exchange a refresh token (refresh_token).

     Client credentials in `Authorization: Basic base64(client_id:client_secret)` or in the body (not
    both). Bodies as JSON or application/x-www-form-urlencoded. `expires_in` is in seconds. Refresh
    tokens are rotated on every use: the answer carries a new refresh token and the old one is spent;
    presenting a spent refresh token again revokes its whole family (`invalid_grant`). Every answer has
    `Cache-Control: no-store`. Errors use the RFC 6749 §5.2 form, not problem+json.

    Args:
        body (TokenRequest):
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OAuthError | Problem | TokenResponse
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body:    TokenRequest  |     TokenRequest  | Unset = UNSET,

) -> Response[OAuthError | Problem | TokenResponse]:
    """ Issue an access token (client_credentials) or exchange a refresh token (refresh_token).

     Client credentials in `Authorization: Basic base64(client_id:client_secret)` or in the body (not
    both). Bodies as JSON or application/x-www-form-urlencoded. `expires_in` is in seconds. Refresh
    tokens are rotated on every use: the answer carries a new refresh token and the old one is spent;
    presenting a spent refresh token again revokes its whole family (`invalid_grant`). Every answer has
    `Cache-Control: no-store`. Errors use the RFC 6749 §5.2 form, not problem+json.

    Args:
        body (TokenRequest):
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OAuthError | Problem | TokenResponse]
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
    body:    TokenRequest  |     TokenRequest  | Unset = UNSET,

) -> OAuthError | Problem | TokenResponse | None:
    """ Issue an access token (client_credentials) or exchange a refresh token (refresh_token).

     Client credentials in `Authorization: Basic base64(client_id:client_secret)` or in the body (not
    both). Bodies as JSON or application/x-www-form-urlencoded. `expires_in` is in seconds. Refresh
    tokens are rotated on every use: the answer carries a new refresh token and the old one is spent;
    presenting a spent refresh token again revokes its whole family (`invalid_grant`). Every answer has
    `Cache-Control: no-store`. Errors use the RFC 6749 §5.2 form, not problem+json.

    Args:
        body (TokenRequest):
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OAuthError | Problem | TokenResponse
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
