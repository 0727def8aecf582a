from typing import Literal

ExportConsentsFormat = Literal['jsonld']

EXPORT_CONSENTS_FORMAT_VALUES: set[ExportConsentsFormat] = { 'jsonld',  }

def check_export_consents_format(value: str) -> ExportConsentsFormat:
    if value in EXPORT_CONSENTS_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXPORT_CONSENTS_FORMAT_VALUES!r}")
