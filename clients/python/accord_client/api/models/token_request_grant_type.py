from typing import Literal

TokenRequestGrantType = Literal['client_credentials', 'refresh_token']

TOKEN_REQUEST_GRANT_TYPE_VALUES: set[TokenRequestGrantType] = { 'client_credentials', 'refresh_token',  }

def check_token_request_grant_type(value: str) -> TokenRequestGrantType:
    if value in TOKEN_REQUEST_GRANT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TOKEN_REQUEST_GRANT_TYPE_VALUES!r}")
