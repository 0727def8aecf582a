import datetime

from accord.consent.v1 import consent_pb2 as _consent_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ConsentBusEvent(_message.Message):
    __slots__ = ("id", "type", "account_id", "app_id", "occurred_at", "event", "reconsent_since")
    ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    RECONSENT_SINCE_FIELD_NUMBER: _ClassVar[int]
    id: str
    type: str
    account_id: str
    app_id: str
    occurred_at: _timestamp_pb2.Timestamp
    event: _consent_pb2.ConsentEvent
    reconsent_since: int
    def __init__(self, id: _Optional[str] = ..., type: _Optional[str] = ..., account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., event: _Optional[_Union[_consent_pb2.ConsentEvent, _Mapping]] = ..., reconsent_since: _Optional[int] = ...) -> None: ...
