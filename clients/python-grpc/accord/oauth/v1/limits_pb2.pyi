from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AccountLimits(_message.Message):
    __slots__ = ("requests_per_second", "burst", "app_requests_per_second", "app_burst", "max_events_per_request", "max_events_per_day")
    REQUESTS_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    BURST_FIELD_NUMBER: _ClassVar[int]
    APP_REQUESTS_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    APP_BURST_FIELD_NUMBER: _ClassVar[int]
    MAX_EVENTS_PER_REQUEST_FIELD_NUMBER: _ClassVar[int]
    MAX_EVENTS_PER_DAY_FIELD_NUMBER: _ClassVar[int]
    requests_per_second: float
    burst: int
    app_requests_per_second: float
    app_burst: int
    max_events_per_request: int
    max_events_per_day: int
    def __init__(self, requests_per_second: _Optional[float] = ..., burst: _Optional[int] = ..., app_requests_per_second: _Optional[float] = ..., app_burst: _Optional[int] = ..., max_events_per_request: _Optional[int] = ..., max_events_per_day: _Optional[int] = ...) -> None: ...

class SetAccountLimitsRequest(_message.Message):
    __slots__ = ("account_id", "limits", "clear")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    CLEAR_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    limits: AccountLimits
    clear: bool
    def __init__(self, account_id: _Optional[str] = ..., limits: _Optional[_Union[AccountLimits, _Mapping]] = ..., clear: _Optional[bool] = ...) -> None: ...

class GetAccountLimitsRequest(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class AccountLimitsResponse(_message.Message):
    __slots__ = ("account_id", "limits")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    limits: AccountLimits
    def __init__(self, account_id: _Optional[str] = ..., limits: _Optional[_Union[AccountLimits, _Mapping]] = ...) -> None: ...

class ConsumeDailyEventsRequest(_message.Message):
    __slots__ = ("account_id", "count", "max_per_day")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    MAX_PER_DAY_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    count: int
    max_per_day: int
    def __init__(self, account_id: _Optional[str] = ..., count: _Optional[int] = ..., max_per_day: _Optional[int] = ...) -> None: ...

class ConsumeDailyEventsResponse(_message.Message):
    __slots__ = ("allowed", "used", "reset_seconds")
    ALLOWED_FIELD_NUMBER: _ClassVar[int]
    USED_FIELD_NUMBER: _ClassVar[int]
    RESET_SECONDS_FIELD_NUMBER: _ClassVar[int]
    allowed: bool
    used: int
    reset_seconds: int
    def __init__(self, allowed: _Optional[bool] = ..., used: _Optional[int] = ..., reset_seconds: _Optional[int] = ...) -> None: ...
