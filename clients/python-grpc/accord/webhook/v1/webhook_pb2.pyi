import datetime

from accord.common.v1 import common_pb2 as _common_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DeliveryStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DELIVERY_STATUS_UNSPECIFIED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_PENDING: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_SUCCEEDED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_FAILED: _ClassVar[DeliveryStatus]
DELIVERY_STATUS_UNSPECIFIED: DeliveryStatus
DELIVERY_STATUS_PENDING: DeliveryStatus
DELIVERY_STATUS_SUCCEEDED: DeliveryStatus
DELIVERY_STATUS_FAILED: DeliveryStatus

class Webhook(_message.Message):
    __slots__ = ("id", "app_id", "url", "events", "headers", "secret", "previous_secret_expires_at", "disabled", "disabled_reason", "created_at", "updated_at")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    DISABLED_REASON_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: int
    app_id: str
    url: str
    events: _containers.RepeatedScalarFieldContainer[str]
    headers: _containers.ScalarMap[str, str]
    secret: str
    previous_secret_expires_at: _timestamp_pb2.Timestamp
    disabled: bool
    disabled_reason: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[int] = ..., app_id: _Optional[str] = ..., url: _Optional[str] = ..., events: _Optional[_Iterable[str]] = ..., headers: _Optional[_Mapping[str, str]] = ..., secret: _Optional[str] = ..., previous_secret_expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., disabled: _Optional[bool] = ..., disabled_reason: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateWebhookRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "url", "events", "headers")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    url: str
    events: _containers.RepeatedScalarFieldContainer[str]
    headers: _containers.ScalarMap[str, str]
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., url: _Optional[str] = ..., events: _Optional[_Iterable[str]] = ..., headers: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ListWebhooksRequest(_message.Message):
    __slots__ = ("account_id", "app_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ...) -> None: ...

class ListWebhooksResponse(_message.Message):
    __slots__ = ("webhooks",)
    WEBHOOKS_FIELD_NUMBER: _ClassVar[int]
    webhooks: _containers.RepeatedCompositeFieldContainer[Webhook]
    def __init__(self, webhooks: _Optional[_Iterable[_Union[Webhook, _Mapping]]] = ...) -> None: ...

class GetWebhookRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    id: int
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., id: _Optional[int] = ...) -> None: ...

class StringList(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, values: _Optional[_Iterable[str]] = ...) -> None: ...

class HeaderMap(_message.Message):
    __slots__ = ("values",)
    class ValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.ScalarMap[str, str]
    def __init__(self, values: _Optional[_Mapping[str, str]] = ...) -> None: ...

class UpdateWebhookRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "id", "url", "events", "headers", "disabled")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    id: int
    url: str
    events: StringList
    headers: HeaderMap
    disabled: bool
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., id: _Optional[int] = ..., url: _Optional[str] = ..., events: _Optional[_Union[StringList, _Mapping]] = ..., headers: _Optional[_Union[HeaderMap, _Mapping]] = ..., disabled: _Optional[bool] = ...) -> None: ...

class DeleteWebhookRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    id: int
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., id: _Optional[int] = ...) -> None: ...

class DeleteWebhookResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RotateWebhookSecretRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    id: int
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., id: _Optional[int] = ...) -> None: ...

class DeliveryAttempt(_message.Message):
    __slots__ = ("at", "status_code", "latency_ms", "error")
    AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    LATENCY_MS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    at: _timestamp_pb2.Timestamp
    status_code: int
    latency_ms: int
    error: str
    def __init__(self, at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., status_code: _Optional[int] = ..., latency_ms: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class Delivery(_message.Message):
    __slots__ = ("id", "webhook_id", "event_id", "event_type", "status", "attempts", "next_attempt_at", "created_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_ATTEMPT_AT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    webhook_id: int
    event_id: str
    event_type: str
    status: DeliveryStatus
    attempts: _containers.RepeatedCompositeFieldContainer[DeliveryAttempt]
    next_attempt_at: _timestamp_pb2.Timestamp
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., webhook_id: _Optional[int] = ..., event_id: _Optional[str] = ..., event_type: _Optional[str] = ..., status: _Optional[_Union[DeliveryStatus, str]] = ..., attempts: _Optional[_Iterable[_Union[DeliveryAttempt, _Mapping]]] = ..., next_attempt_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListDeliveriesRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "webhook_id", "page")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    webhook_id: int
    page: _common_pb2.PageRequest
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., webhook_id: _Optional[int] = ..., page: _Optional[_Union[_common_pb2.PageRequest, _Mapping]] = ...) -> None: ...

class ListDeliveriesResponse(_message.Message):
    __slots__ = ("deliveries", "next_cursor")
    DELIVERIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    deliveries: _containers.RepeatedCompositeFieldContainer[Delivery]
    next_cursor: str
    def __init__(self, deliveries: _Optional[_Iterable[_Union[Delivery, _Mapping]]] = ..., next_cursor: _Optional[str] = ...) -> None: ...

class RedeliverDeliveryRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "webhook_id", "delivery_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    webhook_id: int
    delivery_id: str
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., webhook_id: _Optional[int] = ..., delivery_id: _Optional[str] = ...) -> None: ...

class SendTestEventRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "webhook_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    webhook_id: int
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., webhook_id: _Optional[int] = ...) -> None: ...
