from typing import Literal

GetConsentReceiptFormat = Literal['jsonld']

GET_CONSENT_RECEIPT_FORMAT_VALUES: set[GetConsentReceiptFormat] = { 'jsonld',  }

def check_get_consent_receipt_format(value: str) -> GetConsentReceiptFormat:
    if value in GET_CONSENT_RECEIPT_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_CONSENT_RECEIPT_FORMAT_VALUES!r}")
