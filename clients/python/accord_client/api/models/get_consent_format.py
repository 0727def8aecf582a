from typing import Literal

GetConsentFormat = Literal['jsonld']

GET_CONSENT_FORMAT_VALUES: set[GetConsentFormat] = { 'jsonld',  }

def check_get_consent_format(value: str) -> GetConsentFormat:
    if value in GET_CONSENT_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_CONSENT_FORMAT_VALUES!r}")
