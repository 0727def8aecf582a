from accord.consent.v1 import consent_pb2 as _consent_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GetDailyActivityRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "from_day", "to_day")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_DAY_FIELD_NUMBER: _ClassVar[int]
    TO_DAY_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    from_day: str
    to_day: str
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., from_day: _Optional[str] = ..., to_day: _Optional[str] = ...) -> None: ...

class DailyActivity(_message.Message):
    __slots__ = ("day", "accepted", "declined", "no_action")
    DAY_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    DECLINED_FIELD_NUMBER: _ClassVar[int]
    NO_ACTION_FIELD_NUMBER: _ClassVar[int]
    day: str
    accepted: int
    declined: int
    no_action: int
    def __init__(self, day: _Optional[str] = ..., accepted: _Optional[int] = ..., declined: _Optional[int] = ..., no_action: _Optional[int] = ...) -> None: ...

class GetDailyActivityResponse(_message.Message):
    __slots__ = ("days", "truncated")
    DAYS_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    days: _containers.RepeatedCompositeFieldContainer[DailyActivity]
    truncated: bool
    def __init__(self, days: _Optional[_Iterable[_Union[DailyActivity, _Mapping]]] = ..., truncated: _Optional[bool] = ...) -> None: ...

class GetActivityReportRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "from_day", "to_day")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_DAY_FIELD_NUMBER: _ClassVar[int]
    TO_DAY_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    from_day: str
    to_day: str
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., from_day: _Optional[str] = ..., to_day: _Optional[str] = ...) -> None: ...

class ActivityReport(_message.Message):
    __slots__ = ("from_day", "to_day", "days", "truncated", "statistics", "top_targets")
    FROM_DAY_FIELD_NUMBER: _ClassVar[int]
    TO_DAY_FIELD_NUMBER: _ClassVar[int]
    DAYS_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    STATISTICS_FIELD_NUMBER: _ClassVar[int]
    TOP_TARGETS_FIELD_NUMBER: _ClassVar[int]
    from_day: str
    to_day: str
    days: _containers.RepeatedCompositeFieldContainer[DailyActivity]
    truncated: bool
    statistics: _consent_pb2.Statistics
    top_targets: _containers.RepeatedCompositeFieldContainer[_consent_pb2.TargetStatistics]
    def __init__(self, from_day: _Optional[str] = ..., to_day: _Optional[str] = ..., days: _Optional[_Iterable[_Union[DailyActivity, _Mapping]]] = ..., truncated: _Optional[bool] = ..., statistics: _Optional[_Union[_consent_pb2.Statistics, _Mapping]] = ..., top_targets: _Optional[_Iterable[_Union[_consent_pb2.TargetStatistics, _Mapping]]] = ...) -> None: ...
