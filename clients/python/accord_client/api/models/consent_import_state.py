from typing import Literal

ConsentImportState = Literal['done', 'failed', 'running']

CONSENT_IMPORT_STATE_VALUES: set[ConsentImportState] = { 'done', 'failed', 'running',  }

def check_consent_import_state(value: str) -> ConsentImportState:
    if value in CONSENT_IMPORT_STATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CONSENT_IMPORT_STATE_VALUES!r}")
