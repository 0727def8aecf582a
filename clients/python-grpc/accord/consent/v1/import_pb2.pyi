import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StartImportRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "format")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    format: str
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., format: _Optional[str] = ...) -> None: ...

class ImportLine(_message.Message):
    __slots__ = ("number", "text")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    number: int
    text: str
    def __init__(self, number: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class ImportLinesRequest(_message.Message):
    __slots__ = ("account_id", "id", "lines")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    id: str
    lines: _containers.RepeatedCompositeFieldContainer[ImportLine]
    def __init__(self, account_id: _Optional[str] = ..., id: _Optional[str] = ..., lines: _Optional[_Iterable[_Union[ImportLine, _Mapping]]] = ...) -> None: ...

class FinishImportRequest(_message.Message):
    __slots__ = ("account_id", "id", "failure")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    id: str
    failure: str
    def __init__(self, account_id: _Optional[str] = ..., id: _Optional[str] = ..., failure: _Optional[str] = ...) -> None: ...

class GetImportRequest(_message.Message):
    __slots__ = ("account_id", "id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    id: str
    def __init__(self, account_id: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class ImportError(_message.Message):
    __slots__ = ("line", "field", "detail")
    LINE_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    line: int
    field: str
    detail: str
    def __init__(self, line: _Optional[int] = ..., field: _Optional[str] = ..., detail: _Optional[str] = ...) -> None: ...

class ImportJob(_message.Message):
    __slots__ = ("id", "state", "read", "stored", "duplicates", "refused", "errors", "app_id", "format", "created_at", "updated_at", "failure", "batch_stored")
    ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    READ_FIELD_NUMBER: _ClassVar[int]
    STORED_FIELD_NUMBER: _ClassVar[int]
    DUPLICATES_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    BATCH_STORED_FIELD_NUMBER: _ClassVar[int]
    id: str
    state: str
    read: int
    stored: int
    duplicates: int
    refused: int
    errors: _containers.RepeatedCompositeFieldContainer[ImportError]
    app_id: str
    format: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    failure: str
    batch_stored: int
    def __init__(self, id: _Optional[str] = ..., state: _Optional[str] = ..., read: _Optional[int] = ..., stored: _Optional[int] = ..., duplicates: _Optional[int] = ..., refused: _Optional[int] = ..., errors: _Optional[_Iterable[_Union[ImportError, _Mapping]]] = ..., app_id: _Optional[str] = ..., format: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., failure: _Optional[str] = ..., batch_stored: _Optional[int] = ...) -> None: ...
