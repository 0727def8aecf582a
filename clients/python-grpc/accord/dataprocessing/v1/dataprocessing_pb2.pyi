import datetime

from accord.common.v1 import common_pb2 as _common_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Group(_message.Message):
    __slots__ = ("id", "name", "description", "purpose", "app_id", "created_at", "updated_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    description: str
    purpose: str
    app_id: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., purpose: _Optional[str] = ..., app_id: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GroupFields(_message.Message):
    __slots__ = ("name", "description", "purpose")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    purpose: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., purpose: _Optional[str] = ...) -> None: ...

class CreateGroupRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "fields")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    fields: GroupFields
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., fields: _Optional[_Union[GroupFields, _Mapping]] = ...) -> None: ...

class GetGroupRequest(_message.Message):
    __slots__ = ("account_id", "id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    id: str
    def __init__(self, account_id: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class ListGroupsRequest(_message.Message):
    __slots__ = ("account_id", "page")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    page: _common_pb2.PageRequest
    def __init__(self, account_id: _Optional[str] = ..., page: _Optional[_Union[_common_pb2.PageRequest, _Mapping]] = ...) -> None: ...

class ListGroupsResponse(_message.Message):
    __slots__ = ("groups", "next_cursor")
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    groups: _containers.RepeatedCompositeFieldContainer[Group]
    next_cursor: str
    def __init__(self, groups: _Optional[_Iterable[_Union[Group, _Mapping]]] = ..., next_cursor: _Optional[str] = ...) -> None: ...

class UpdateGroupRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "id", "fields", "update_mask")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    id: str
    fields: GroupFields
    update_mask: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., id: _Optional[str] = ..., fields: _Optional[_Union[GroupFields, _Mapping]] = ..., update_mask: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteGroupRequest(_message.Message):
    __slots__ = ("account_id", "id", "app_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    id: str
    app_id: str
    def __init__(self, account_id: _Optional[str] = ..., id: _Optional[str] = ..., app_id: _Optional[str] = ...) -> None: ...

class DeleteGroupResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Text(_message.Message):
    __slots__ = ("id", "value", "language", "type", "created_at", "updated_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    value: str
    language: str
    type: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., value: _Optional[str] = ..., language: _Optional[str] = ..., type: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class TextFields(_message.Message):
    __slots__ = ("value", "language", "type")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    value: str
    language: str
    type: str
    def __init__(self, value: _Optional[str] = ..., language: _Optional[str] = ..., type: _Optional[str] = ...) -> None: ...

class SpecFields(_message.Message):
    __slots__ = ("data", "purpose", "action", "sensitive", "consent_target", "location", "duration", "legal_basis", "external_href", "consent_validity_days", "regimes", "consent_mode")
    DATA_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SENSITIVE_FIELD_NUMBER: _ClassVar[int]
    CONSENT_TARGET_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    DURATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_BASIS_FIELD_NUMBER: _ClassVar[int]
    EXTERNAL_HREF_FIELD_NUMBER: _ClassVar[int]
    CONSENT_VALIDITY_DAYS_FIELD_NUMBER: _ClassVar[int]
    REGIMES_FIELD_NUMBER: _ClassVar[int]
    CONSENT_MODE_FIELD_NUMBER: _ClassVar[int]
    data: str
    purpose: str
    action: str
    sensitive: bool
    consent_target: bool
    location: str
    duration: int
    legal_basis: str
    external_href: str
    consent_validity_days: int
    regimes: RegimeMap
    consent_mode: ConsentModeTypes
    def __init__(self, data: _Optional[str] = ..., purpose: _Optional[str] = ..., action: _Optional[str] = ..., sensitive: _Optional[bool] = ..., consent_target: _Optional[bool] = ..., location: _Optional[str] = ..., duration: _Optional[int] = ..., legal_basis: _Optional[str] = ..., external_href: _Optional[str] = ..., consent_validity_days: _Optional[int] = ..., regimes: _Optional[_Union[RegimeMap, _Mapping]] = ..., consent_mode: _Optional[_Union[ConsentModeTypes, _Mapping]] = ...) -> None: ...

class ConsentModeTypes(_message.Message):
    __slots__ = ("types",)
    TYPES_FIELD_NUMBER: _ClassVar[int]
    types: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, types: _Optional[_Iterable[str]] = ...) -> None: ...

class RegimeMap(_message.Message):
    __slots__ = ("by_jurisdiction",)
    class ByJurisdictionEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Regime
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Regime, _Mapping]] = ...) -> None: ...
    BY_JURISDICTION_FIELD_NUMBER: _ClassVar[int]
    by_jurisdiction: _containers.MessageMap[str, Regime]
    def __init__(self, by_jurisdiction: _Optional[_Mapping[str, Regime]] = ...) -> None: ...

class Regime(_message.Message):
    __slots__ = ("model", "gpc")
    MODEL_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    model: str
    gpc: str
    def __init__(self, model: _Optional[str] = ..., gpc: _Optional[str] = ...) -> None: ...

class AppliedRegime(_message.Message):
    __slots__ = ("key", "model", "gpc")
    KEY_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    key: str
    model: str
    gpc: str
    def __init__(self, key: _Optional[str] = ..., model: _Optional[str] = ..., gpc: _Optional[str] = ...) -> None: ...

class Spec(_message.Message):
    __slots__ = ("id", "group_id", "data", "purpose", "action", "sensitive", "consent_target", "location", "duration", "legal_basis", "external_href", "texts", "version", "target", "app_id", "created_at", "updated_at", "archived", "deleted_at", "consent_validity_days", "reconsent_since", "regimes", "consent_mode")
    class RegimesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Regime
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Regime, _Mapping]] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SENSITIVE_FIELD_NUMBER: _ClassVar[int]
    CONSENT_TARGET_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    DURATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_BASIS_FIELD_NUMBER: _ClassVar[int]
    EXTERNAL_HREF_FIELD_NUMBER: _ClassVar[int]
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    DELETED_AT_FIELD_NUMBER: _ClassVar[int]
    CONSENT_VALIDITY_DAYS_FIELD_NUMBER: _ClassVar[int]
    RECONSENT_SINCE_FIELD_NUMBER: _ClassVar[int]
    REGIMES_FIELD_NUMBER: _ClassVar[int]
    CONSENT_MODE_FIELD_NUMBER: _ClassVar[int]
    id: str
    group_id: str
    data: str
    purpose: str
    action: str
    sensitive: bool
    consent_target: bool
    location: str
    duration: int
    legal_basis: str
    external_href: str
    texts: _containers.RepeatedCompositeFieldContainer[Text]
    version: int
    target: str
    app_id: str
    created_at: _timestamp_pb2.Timestamp
    updated_at: _timestamp_pb2.Timestamp
    archived: bool
    deleted_at: _timestamp_pb2.Timestamp
    consent_validity_days: int
    reconsent_since: int
    regimes: _containers.MessageMap[str, Regime]
    consent_mode: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., group_id: _Optional[str] = ..., data: _Optional[str] = ..., purpose: _Optional[str] = ..., action: _Optional[str] = ..., sensitive: _Optional[bool] = ..., consent_target: _Optional[bool] = ..., location: _Optional[str] = ..., duration: _Optional[int] = ..., legal_basis: _Optional[str] = ..., external_href: _Optional[str] = ..., texts: _Optional[_Iterable[_Union[Text, _Mapping]]] = ..., version: _Optional[int] = ..., target: _Optional[str] = ..., app_id: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., archived: _Optional[bool] = ..., deleted_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., consent_validity_days: _Optional[int] = ..., reconsent_since: _Optional[int] = ..., regimes: _Optional[_Mapping[str, Regime]] = ..., consent_mode: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateSpecRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "group_id", "fields", "texts")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    group_id: str
    fields: SpecFields
    texts: _containers.RepeatedCompositeFieldContainer[TextFields]
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., group_id: _Optional[str] = ..., fields: _Optional[_Union[SpecFields, _Mapping]] = ..., texts: _Optional[_Iterable[_Union[TextFields, _Mapping]]] = ...) -> None: ...

class GetSpecRequest(_message.Message):
    __slots__ = ("account_id", "id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    id: str
    def __init__(self, account_id: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class ListSpecsRequest(_message.Message):
    __slots__ = ("account_id", "group_id", "page")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    group_id: str
    page: _common_pb2.PageRequest
    def __init__(self, account_id: _Optional[str] = ..., group_id: _Optional[str] = ..., page: _Optional[_Union[_common_pb2.PageRequest, _Mapping]] = ...) -> None: ...

class ListSpecsResponse(_message.Message):
    __slots__ = ("specs", "next_cursor")
    SPECS_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    specs: _containers.RepeatedCompositeFieldContainer[Spec]
    next_cursor: str
    def __init__(self, specs: _Optional[_Iterable[_Union[Spec, _Mapping]]] = ..., next_cursor: _Optional[str] = ...) -> None: ...

class UpdateSpecRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "id", "fields", "update_mask", "expected_version", "requires_reconsent")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUIRES_RECONSENT_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    id: str
    fields: SpecFields
    update_mask: _containers.RepeatedScalarFieldContainer[str]
    expected_version: int
    requires_reconsent: bool
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., id: _Optional[str] = ..., fields: _Optional[_Union[SpecFields, _Mapping]] = ..., update_mask: _Optional[_Iterable[str]] = ..., expected_version: _Optional[int] = ..., requires_reconsent: _Optional[bool] = ...) -> None: ...

class DeleteSpecRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    id: str
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class DeleteSpecResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SpecVersion(_message.Message):
    __slots__ = ("spec_id", "version", "created_at", "app_id", "spec", "current")
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    spec_id: str
    version: int
    created_at: _timestamp_pb2.Timestamp
    app_id: str
    spec: Spec
    current: bool
    def __init__(self, spec_id: _Optional[str] = ..., version: _Optional[int] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., app_id: _Optional[str] = ..., spec: _Optional[_Union[Spec, _Mapping]] = ..., current: _Optional[bool] = ...) -> None: ...

class ListSpecVersionsRequest(_message.Message):
    __slots__ = ("account_id", "spec_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    spec_id: str
    def __init__(self, account_id: _Optional[str] = ..., spec_id: _Optional[str] = ...) -> None: ...

class ListSpecVersionsResponse(_message.Message):
    __slots__ = ("versions",)
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    versions: _containers.RepeatedCompositeFieldContainer[SpecVersion]
    def __init__(self, versions: _Optional[_Iterable[_Union[SpecVersion, _Mapping]]] = ...) -> None: ...

class GetSpecVersionRequest(_message.Message):
    __slots__ = ("account_id", "spec_id", "version")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    spec_id: str
    version: int
    def __init__(self, account_id: _Optional[str] = ..., spec_id: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class CreateTextRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "spec_id", "fields")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    spec_id: str
    fields: TextFields
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., spec_id: _Optional[str] = ..., fields: _Optional[_Union[TextFields, _Mapping]] = ...) -> None: ...

class ListTextsRequest(_message.Message):
    __slots__ = ("account_id", "spec_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    spec_id: str
    def __init__(self, account_id: _Optional[str] = ..., spec_id: _Optional[str] = ...) -> None: ...

class ListTextsResponse(_message.Message):
    __slots__ = ("texts",)
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    texts: _containers.RepeatedCompositeFieldContainer[Text]
    def __init__(self, texts: _Optional[_Iterable[_Union[Text, _Mapping]]] = ...) -> None: ...

class GetTextRequest(_message.Message):
    __slots__ = ("account_id", "spec_id", "text_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    spec_id: str
    text_id: str
    def __init__(self, account_id: _Optional[str] = ..., spec_id: _Optional[str] = ..., text_id: _Optional[str] = ...) -> None: ...

class UpdateTextRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "spec_id", "text_id", "fields", "update_mask")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_ID_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    spec_id: str
    text_id: str
    fields: TextFields
    update_mask: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., spec_id: _Optional[str] = ..., text_id: _Optional[str] = ..., fields: _Optional[_Union[TextFields, _Mapping]] = ..., update_mask: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteTextRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "spec_id", "text_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    spec_id: str
    text_id: str
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., spec_id: _Optional[str] = ..., text_id: _Optional[str] = ...) -> None: ...

class DeleteTextResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetSpecForConsentRequest(_message.Message):
    __slots__ = ("account_id", "spec_id", "version", "at")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    spec_id: str
    version: int
    at: _timestamp_pb2.Timestamp
    def __init__(self, account_id: _Optional[str] = ..., spec_id: _Optional[str] = ..., version: _Optional[int] = ..., at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SpecForConsent(_message.Message):
    __slots__ = ("id", "group_id", "data", "purpose", "action", "sensitive", "consent_target", "location", "duration", "legal_basis", "external_href", "texts", "group_name", "group_purpose", "archived", "version", "target", "consent_validity_days", "reconsent_since", "regimes")
    class RegimesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Regime
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Regime, _Mapping]] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SENSITIVE_FIELD_NUMBER: _ClassVar[int]
    CONSENT_TARGET_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    DURATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_BASIS_FIELD_NUMBER: _ClassVar[int]
    EXTERNAL_HREF_FIELD_NUMBER: _ClassVar[int]
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    GROUP_NAME_FIELD_NUMBER: _ClassVar[int]
    GROUP_PURPOSE_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    CONSENT_VALIDITY_DAYS_FIELD_NUMBER: _ClassVar[int]
    RECONSENT_SINCE_FIELD_NUMBER: _ClassVar[int]
    REGIMES_FIELD_NUMBER: _ClassVar[int]
    id: str
    group_id: str
    data: str
    purpose: str
    action: str
    sensitive: bool
    consent_target: bool
    location: str
    duration: int
    legal_basis: str
    external_href: str
    texts: _containers.RepeatedCompositeFieldContainer[Text]
    group_name: str
    group_purpose: str
    archived: bool
    version: int
    target: str
    consent_validity_days: int
    reconsent_since: int
    regimes: _containers.MessageMap[str, Regime]
    def __init__(self, id: _Optional[str] = ..., group_id: _Optional[str] = ..., data: _Optional[str] = ..., purpose: _Optional[str] = ..., action: _Optional[str] = ..., sensitive: _Optional[bool] = ..., consent_target: _Optional[bool] = ..., location: _Optional[str] = ..., duration: _Optional[int] = ..., legal_basis: _Optional[str] = ..., external_href: _Optional[str] = ..., texts: _Optional[_Iterable[_Union[Text, _Mapping]]] = ..., group_name: _Optional[str] = ..., group_purpose: _Optional[str] = ..., archived: _Optional[bool] = ..., version: _Optional[int] = ..., target: _Optional[str] = ..., consent_validity_days: _Optional[int] = ..., reconsent_since: _Optional[int] = ..., regimes: _Optional[_Mapping[str, Regime]] = ...) -> None: ...

class ResolveTargetRequest(_message.Message):
    __slots__ = ("account_id", "target")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    target: str
    def __init__(self, account_id: _Optional[str] = ..., target: _Optional[str] = ...) -> None: ...

class ResolveTargetResponse(_message.Message):
    __slots__ = ("is_spec_target", "spec_id", "spec")
    IS_SPEC_TARGET_FIELD_NUMBER: _ClassVar[int]
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    is_spec_target: bool
    spec_id: str
    spec: SpecForConsent
    def __init__(self, is_spec_target: _Optional[bool] = ..., spec_id: _Optional[str] = ..., spec: _Optional[_Union[SpecForConsent, _Mapping]] = ...) -> None: ...

class GetGroupPolicyRequest(_message.Message):
    __slots__ = ("account_id", "group_id", "language", "text_type")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    TEXT_TYPE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    group_id: str
    language: str
    text_type: str
    def __init__(self, account_id: _Optional[str] = ..., group_id: _Optional[str] = ..., language: _Optional[str] = ..., text_type: _Optional[str] = ...) -> None: ...

class GroupPolicy(_message.Message):
    __slots__ = ("html", "language")
    HTML_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    html: str
    language: str
    def __init__(self, html: _Optional[str] = ..., language: _Optional[str] = ...) -> None: ...

class GetConsentRequestRequest(_message.Message):
    __slots__ = ("account_id", "group_id", "language", "text_type", "jurisdiction", "gpc")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    TEXT_TYPE_FIELD_NUMBER: _ClassVar[int]
    JURISDICTION_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    group_id: str
    language: str
    text_type: str
    jurisdiction: str
    gpc: bool
    def __init__(self, account_id: _Optional[str] = ..., group_id: _Optional[str] = ..., language: _Optional[str] = ..., text_type: _Optional[str] = ..., jurisdiction: _Optional[str] = ..., gpc: _Optional[bool] = ...) -> None: ...

class ConsentRequestItem(_message.Message):
    __slots__ = ("spec_id", "target", "text", "data", "purpose", "action", "sensitive", "location", "duration", "legal_basis", "external_href", "version", "regime", "preselected", "gpc_applied", "regimes", "consent_mode")
    class RegimesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Regime
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Regime, _Mapping]] = ...) -> None: ...
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SENSITIVE_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    DURATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_BASIS_FIELD_NUMBER: _ClassVar[int]
    EXTERNAL_HREF_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    REGIME_FIELD_NUMBER: _ClassVar[int]
    PRESELECTED_FIELD_NUMBER: _ClassVar[int]
    GPC_APPLIED_FIELD_NUMBER: _ClassVar[int]
    REGIMES_FIELD_NUMBER: _ClassVar[int]
    CONSENT_MODE_FIELD_NUMBER: _ClassVar[int]
    spec_id: str
    target: str
    text: Text
    data: str
    purpose: str
    action: str
    sensitive: bool
    location: str
    duration: int
    legal_basis: str
    external_href: str
    version: int
    regime: AppliedRegime
    preselected: bool
    gpc_applied: bool
    regimes: _containers.MessageMap[str, Regime]
    consent_mode: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, spec_id: _Optional[str] = ..., target: _Optional[str] = ..., text: _Optional[_Union[Text, _Mapping]] = ..., data: _Optional[str] = ..., purpose: _Optional[str] = ..., action: _Optional[str] = ..., sensitive: _Optional[bool] = ..., location: _Optional[str] = ..., duration: _Optional[int] = ..., legal_basis: _Optional[str] = ..., external_href: _Optional[str] = ..., version: _Optional[int] = ..., regime: _Optional[_Union[AppliedRegime, _Mapping]] = ..., preselected: _Optional[bool] = ..., gpc_applied: _Optional[bool] = ..., regimes: _Optional[_Mapping[str, Regime]] = ..., consent_mode: _Optional[_Iterable[str]] = ...) -> None: ...

class ConsentRequest(_message.Message):
    __slots__ = ("group_id", "title", "caption", "language", "items", "jurisdiction", "gpc")
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    CAPTION_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    JURISDICTION_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    group_id: str
    title: str
    caption: str
    language: str
    items: _containers.RepeatedCompositeFieldContainer[ConsentRequestItem]
    jurisdiction: str
    gpc: bool
    def __init__(self, group_id: _Optional[str] = ..., title: _Optional[str] = ..., caption: _Optional[str] = ..., language: _Optional[str] = ..., items: _Optional[_Iterable[_Union[ConsentRequestItem, _Mapping]]] = ..., jurisdiction: _Optional[str] = ..., gpc: _Optional[bool] = ...) -> None: ...

class GetDashboardRequest(_message.Message):
    __slots__ = ("account_id", "group_id", "subject", "issuer", "language", "text_type", "jurisdiction", "gpc")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    TEXT_TYPE_FIELD_NUMBER: _ClassVar[int]
    JURISDICTION_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    group_id: str
    subject: str
    issuer: str
    language: str
    text_type: str
    jurisdiction: str
    gpc: bool
    def __init__(self, account_id: _Optional[str] = ..., group_id: _Optional[str] = ..., subject: _Optional[str] = ..., issuer: _Optional[str] = ..., language: _Optional[str] = ..., text_type: _Optional[str] = ..., jurisdiction: _Optional[str] = ..., gpc: _Optional[bool] = ...) -> None: ...

class ScopeState(_message.Message):
    __slots__ = ("scope", "state", "event_id", "created_at", "target_version", "renewal_required", "gpc")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    TARGET_VERSION_FIELD_NUMBER: _ClassVar[int]
    RENEWAL_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    scope: str
    state: str
    event_id: str
    created_at: _timestamp_pb2.Timestamp
    target_version: int
    renewal_required: bool
    gpc: bool
    def __init__(self, scope: _Optional[str] = ..., state: _Optional[str] = ..., event_id: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., target_version: _Optional[int] = ..., renewal_required: _Optional[bool] = ..., gpc: _Optional[bool] = ...) -> None: ...

class DashboardItem(_message.Message):
    __slots__ = ("item", "state", "scopes")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    item: ConsentRequestItem
    state: str
    scopes: _containers.RepeatedCompositeFieldContainer[ScopeState]
    def __init__(self, item: _Optional[_Union[ConsentRequestItem, _Mapping]] = ..., state: _Optional[str] = ..., scopes: _Optional[_Iterable[_Union[ScopeState, _Mapping]]] = ...) -> None: ...

class Dashboard(_message.Message):
    __slots__ = ("group_id", "title", "caption", "language", "subject", "issuer", "items", "jurisdiction", "gpc")
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    CAPTION_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    JURISDICTION_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    group_id: str
    title: str
    caption: str
    language: str
    subject: str
    issuer: str
    items: _containers.RepeatedCompositeFieldContainer[DashboardItem]
    jurisdiction: str
    gpc: bool
    def __init__(self, group_id: _Optional[str] = ..., title: _Optional[str] = ..., caption: _Optional[str] = ..., language: _Optional[str] = ..., subject: _Optional[str] = ..., issuer: _Optional[str] = ..., items: _Optional[_Iterable[_Union[DashboardItem, _Mapping]]] = ..., jurisdiction: _Optional[str] = ..., gpc: _Optional[bool] = ...) -> None: ...

class ListPendingRenewalsRequest(_message.Message):
    __slots__ = ("limit",)
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    limit: int
    def __init__(self, limit: _Optional[int] = ...) -> None: ...

class PendingRenewal(_message.Message):
    __slots__ = ("account_id", "spec_id", "version", "target")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    spec_id: str
    version: int
    target: str
    def __init__(self, account_id: _Optional[str] = ..., spec_id: _Optional[str] = ..., version: _Optional[int] = ..., target: _Optional[str] = ...) -> None: ...

class ListPendingRenewalsResponse(_message.Message):
    __slots__ = ("renewals",)
    RENEWALS_FIELD_NUMBER: _ClassVar[int]
    renewals: _containers.RepeatedCompositeFieldContainer[PendingRenewal]
    def __init__(self, renewals: _Optional[_Iterable[_Union[PendingRenewal, _Mapping]]] = ...) -> None: ...

class AckRenewalRequest(_message.Message):
    __slots__ = ("spec_id", "version")
    SPEC_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    spec_id: str
    version: int
    def __init__(self, spec_id: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class AckRenewalResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
