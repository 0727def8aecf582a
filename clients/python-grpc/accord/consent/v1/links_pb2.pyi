import datetime

from accord.common.v1 import common_pb2 as _common_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LinkSubjectRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "issuer", "identity", "subject")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    issuer: str
    identity: str
    subject: str
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., issuer: _Optional[str] = ..., identity: _Optional[str] = ..., subject: _Optional[str] = ...) -> None: ...

class SubjectLink(_message.Message):
    __slots__ = ("id", "app_id", "issuer", "identity", "subject", "created_at", "erased_at", "imported_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ERASED_AT_FIELD_NUMBER: _ClassVar[int]
    IMPORTED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    app_id: str
    issuer: str
    identity: str
    subject: str
    created_at: _timestamp_pb2.Timestamp
    erased_at: _timestamp_pb2.Timestamp
    imported_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., app_id: _Optional[str] = ..., issuer: _Optional[str] = ..., identity: _Optional[str] = ..., subject: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., erased_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., imported_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListSubjectLinksRequest(_message.Message):
    __slots__ = ("account_id", "issuer", "identity", "subject", "history", "page")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    issuer: str
    identity: str
    subject: str
    history: bool
    page: _common_pb2.PageRequest
    def __init__(self, account_id: _Optional[str] = ..., issuer: _Optional[str] = ..., identity: _Optional[str] = ..., subject: _Optional[str] = ..., history: _Optional[bool] = ..., page: _Optional[_Union[_common_pb2.PageRequest, _Mapping]] = ...) -> None: ...

class ListSubjectLinksResponse(_message.Message):
    __slots__ = ("links", "next_cursor")
    LINKS_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    links: _containers.RepeatedCompositeFieldContainer[SubjectLink]
    next_cursor: str
    def __init__(self, links: _Optional[_Iterable[_Union[SubjectLink, _Mapping]]] = ..., next_cursor: _Optional[str] = ...) -> None: ...
