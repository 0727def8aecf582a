from typing import Literal

OAuthErrorError = Literal['invalid_client', 'invalid_grant', 'invalid_request', 'invalid_scope', 'server_error', 'temporarily_unavailable', 'unauthorized_client', 'unsupported_grant_type']

O_AUTH_ERROR_ERROR_VALUES: set[OAuthErrorError] = { 'invalid_client', 'invalid_grant', 'invalid_request', 'invalid_scope', 'server_error', 'temporarily_unavailable', 'unauthorized_client', 'unsupported_grant_type',  }

def check_o_auth_error_error(value: str) -> OAuthErrorError:
    if value in O_AUTH_ERROR_ERROR_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {O_AUTH_ERROR_ERROR_VALUES!r}")
