from typing import Literal

ConsentFormRequestAction = Literal['', 'false', 'null', 'true']

CONSENT_FORM_REQUEST_ACTION_VALUES: set[ConsentFormRequestAction] = { '', 'false', 'null', 'true',  }

def check_consent_form_request_action(value: str) -> ConsentFormRequestAction:
    if value in CONSENT_FORM_REQUEST_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CONSENT_FORM_REQUEST_ACTION_VALUES!r}")
