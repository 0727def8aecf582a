from typing import Literal

ConsentFormRequestGpc = Literal['', 'false', 'true']

CONSENT_FORM_REQUEST_GPC_VALUES: set[ConsentFormRequestGpc] = { '', 'false', 'true',  }

def check_consent_form_request_gpc(value: str) -> ConsentFormRequestGpc:
    if value in CONSENT_FORM_REQUEST_GPC_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CONSENT_FORM_REQUEST_GPC_VALUES!r}")
