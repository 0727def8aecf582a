import datetime

from accord.common.v1 import common_pb2 as _common_pb2
from accord.consent.v1 import links_pb2 as _links_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DecideRequest(_message.Message):
    __slots__ = ("account_id", "at", "items")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    at: _timestamp_pb2.Timestamp
    items: _containers.RepeatedCompositeFieldContainer[DecisionItem]
    def __init__(self, account_id: _Optional[str] = ..., at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., items: _Optional[_Iterable[_Union[DecisionItem, _Mapping]]] = ...) -> None: ...

class DecisionItem(_message.Message):
    __slots__ = ("subject", "issuer", "target", "scope", "jurisdiction", "gpc", "vendor", "purpose", "atp_vendor")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    JURISDICTION_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    VENDOR_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    ATP_VENDOR_FIELD_NUMBER: _ClassVar[int]
    subject: str
    issuer: str
    target: str
    scope: str
    jurisdiction: str
    gpc: bool
    vendor: int
    purpose: int
    atp_vendor: int
    def __init__(self, subject: _Optional[str] = ..., issuer: _Optional[str] = ..., target: _Optional[str] = ..., scope: _Optional[str] = ..., jurisdiction: _Optional[str] = ..., gpc: _Optional[bool] = ..., vendor: _Optional[int] = ..., purpose: _Optional[int] = ..., atp_vendor: _Optional[int] = ...) -> None: ...

class DecideResponse(_message.Message):
    __slots__ = ("at", "decisions")
    AT_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    at: _timestamp_pb2.Timestamp
    decisions: _containers.RepeatedCompositeFieldContainer[Decision]
    def __init__(self, at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., decisions: _Optional[_Iterable[_Union[Decision, _Mapping]]] = ...) -> None: ...

class AppliedRegime(_message.Message):
    __slots__ = ("key", "model", "gpc")
    KEY_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    key: str
    model: str
    gpc: str
    def __init__(self, key: _Optional[str] = ..., model: _Optional[str] = ..., gpc: _Optional[str] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("subject", "issuer", "target", "scope", "allowed", "basis", "event_id", "target_version", "expires_at", "regime", "vendor", "purpose", "gvl_version", "atp_vendor", "identity")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_FIELD_NUMBER: _ClassVar[int]
    BASIS_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_VERSION_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    REGIME_FIELD_NUMBER: _ClassVar[int]
    VENDOR_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    GVL_VERSION_FIELD_NUMBER: _ClassVar[int]
    ATP_VENDOR_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    subject: str
    issuer: str
    target: str
    scope: str
    allowed: bool
    basis: str
    event_id: str
    target_version: int
    expires_at: _timestamp_pb2.Timestamp
    regime: AppliedRegime
    vendor: int
    purpose: int
    gvl_version: int
    atp_vendor: int
    identity: str
    def __init__(self, subject: _Optional[str] = ..., issuer: _Optional[str] = ..., target: _Optional[str] = ..., scope: _Optional[str] = ..., allowed: _Optional[bool] = ..., basis: _Optional[str] = ..., event_id: _Optional[str] = ..., target_version: _Optional[int] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., regime: _Optional[_Union[AppliedRegime, _Mapping]] = ..., vendor: _Optional[int] = ..., purpose: _Optional[int] = ..., gvl_version: _Optional[int] = ..., atp_vendor: _Optional[int] = ..., identity: _Optional[str] = ...) -> None: ...

class EraseSubjectRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "client_id", "subject", "issuer")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    client_id: str
    subject: str
    issuer: str
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., client_id: _Optional[str] = ..., subject: _Optional[str] = ..., issuer: _Optional[str] = ...) -> None: ...

class Erasure(_message.Message):
    __slots__ = ("id", "subject_hash", "issuer", "app_id", "client_id", "erased_at", "events", "states")
    ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_HASH_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    ERASED_AT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    id: str
    subject_hash: str
    issuer: str
    app_id: str
    client_id: str
    erased_at: _timestamp_pb2.Timestamp
    events: int
    states: int
    def __init__(self, id: _Optional[str] = ..., subject_hash: _Optional[str] = ..., issuer: _Optional[str] = ..., app_id: _Optional[str] = ..., client_id: _Optional[str] = ..., erased_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., events: _Optional[int] = ..., states: _Optional[int] = ...) -> None: ...

class ListErasuresRequest(_message.Message):
    __slots__ = ("account_id", "page")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    page: _common_pb2.PageRequest
    def __init__(self, account_id: _Optional[str] = ..., page: _Optional[_Union[_common_pb2.PageRequest, _Mapping]] = ...) -> None: ...

class ListErasuresResponse(_message.Message):
    __slots__ = ("erasures", "next_cursor")
    ERASURES_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    erasures: _containers.RepeatedCompositeFieldContainer[Erasure]
    next_cursor: str
    def __init__(self, erasures: _Optional[_Iterable[_Union[Erasure, _Mapping]]] = ..., next_cursor: _Optional[str] = ...) -> None: ...

class GetTreeHeadRequest(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class TreeHead(_message.Message):
    __slots__ = ("tree_size", "root_hash", "timestamp", "signature")
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    ROOT_HASH_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    tree_size: int
    root_hash: str
    timestamp: str
    signature: str
    def __init__(self, tree_size: _Optional[int] = ..., root_hash: _Optional[str] = ..., timestamp: _Optional[str] = ..., signature: _Optional[str] = ...) -> None: ...

class GetInclusionProofRequest(_message.Message):
    __slots__ = ("account_id", "id", "tree_size")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    id: str
    tree_size: int
    def __init__(self, account_id: _Optional[str] = ..., id: _Optional[str] = ..., tree_size: _Optional[int] = ...) -> None: ...

class InclusionProof(_message.Message):
    __slots__ = ("leaf_index", "tree_size", "leaf_hash", "audit_path")
    LEAF_INDEX_FIELD_NUMBER: _ClassVar[int]
    TREE_SIZE_FIELD_NUMBER: _ClassVar[int]
    LEAF_HASH_FIELD_NUMBER: _ClassVar[int]
    AUDIT_PATH_FIELD_NUMBER: _ClassVar[int]
    leaf_index: int
    tree_size: int
    leaf_hash: str
    audit_path: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, leaf_index: _Optional[int] = ..., tree_size: _Optional[int] = ..., leaf_hash: _Optional[str] = ..., audit_path: _Optional[_Iterable[str]] = ...) -> None: ...

class GetConsistencyProofRequest(_message.Message):
    __slots__ = ("account_id", "first", "second")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    first: int
    second: int
    def __init__(self, account_id: _Optional[str] = ..., first: _Optional[int] = ..., second: _Optional[int] = ...) -> None: ...

class ConsistencyProof(_message.Message):
    __slots__ = ("first", "second", "proof")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    first: int
    second: int
    proof: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, first: _Optional[int] = ..., second: _Optional[int] = ..., proof: _Optional[_Iterable[str]] = ...) -> None: ...

class ConsentInput(_message.Message):
    __slots__ = ("subject", "issuer", "target", "source", "scope", "delegate", "action", "target_version", "expires_at", "gpc", "tc_string", "gpp_string", "jurisdiction", "addtl_consent")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    DELEGATE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    TARGET_VERSION_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    TC_STRING_FIELD_NUMBER: _ClassVar[int]
    GPP_STRING_FIELD_NUMBER: _ClassVar[int]
    JURISDICTION_FIELD_NUMBER: _ClassVar[int]
    ADDTL_CONSENT_FIELD_NUMBER: _ClassVar[int]
    subject: str
    issuer: str
    target: str
    source: str
    scope: str
    delegate: str
    action: bool
    target_version: int
    expires_at: _timestamp_pb2.Timestamp
    gpc: bool
    tc_string: str
    gpp_string: str
    jurisdiction: str
    addtl_consent: str
    def __init__(self, subject: _Optional[str] = ..., issuer: _Optional[str] = ..., target: _Optional[str] = ..., source: _Optional[str] = ..., scope: _Optional[str] = ..., delegate: _Optional[str] = ..., action: _Optional[bool] = ..., target_version: _Optional[int] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., gpc: _Optional[bool] = ..., tc_string: _Optional[str] = ..., gpp_string: _Optional[str] = ..., jurisdiction: _Optional[str] = ..., addtl_consent: _Optional[str] = ...) -> None: ...

class TcfFacts(_message.Message):
    __slots__ = ("version", "policy_version", "cmp_id", "cmp_version", "purposes", "legitimate_interests", "special_features")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    POLICY_VERSION_FIELD_NUMBER: _ClassVar[int]
    CMP_ID_FIELD_NUMBER: _ClassVar[int]
    CMP_VERSION_FIELD_NUMBER: _ClassVar[int]
    PURPOSES_FIELD_NUMBER: _ClassVar[int]
    LEGITIMATE_INTERESTS_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_FEATURES_FIELD_NUMBER: _ClassVar[int]
    version: int
    policy_version: int
    cmp_id: int
    cmp_version: int
    purposes: _containers.RepeatedScalarFieldContainer[int]
    legitimate_interests: _containers.RepeatedScalarFieldContainer[int]
    special_features: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, version: _Optional[int] = ..., policy_version: _Optional[int] = ..., cmp_id: _Optional[int] = ..., cmp_version: _Optional[int] = ..., purposes: _Optional[_Iterable[int]] = ..., legitimate_interests: _Optional[_Iterable[int]] = ..., special_features: _Optional[_Iterable[int]] = ...) -> None: ...

class GppFacts(_message.Message):
    __slots__ = ("sections", "sale_opt_out", "sharing_opt_out", "targeted_advertising_opt_out")
    SECTIONS_FIELD_NUMBER: _ClassVar[int]
    SALE_OPT_OUT_FIELD_NUMBER: _ClassVar[int]
    SHARING_OPT_OUT_FIELD_NUMBER: _ClassVar[int]
    TARGETED_ADVERTISING_OPT_OUT_FIELD_NUMBER: _ClassVar[int]
    sections: _containers.RepeatedScalarFieldContainer[str]
    sale_opt_out: bool
    sharing_opt_out: bool
    targeted_advertising_opt_out: bool
    def __init__(self, sections: _Optional[_Iterable[str]] = ..., sale_opt_out: _Optional[bool] = ..., sharing_opt_out: _Optional[bool] = ..., targeted_advertising_opt_out: _Optional[bool] = ...) -> None: ...

class ConsentEvent(_message.Message):
    __slots__ = ("id", "subject", "issuer", "target", "source", "scope", "delegate", "action", "token", "created_at", "app_id", "target_version", "expires_at", "expired", "erased_at", "renewal_required", "gpc", "tc_string", "tcf", "gpp_string", "gpp", "jurisdiction", "addtl_consent", "imported_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    DELEGATE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_VERSION_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRED_FIELD_NUMBER: _ClassVar[int]
    ERASED_AT_FIELD_NUMBER: _ClassVar[int]
    RENEWAL_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    TC_STRING_FIELD_NUMBER: _ClassVar[int]
    TCF_FIELD_NUMBER: _ClassVar[int]
    GPP_STRING_FIELD_NUMBER: _ClassVar[int]
    GPP_FIELD_NUMBER: _ClassVar[int]
    JURISDICTION_FIELD_NUMBER: _ClassVar[int]
    ADDTL_CONSENT_FIELD_NUMBER: _ClassVar[int]
    IMPORTED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    subject: str
    issuer: str
    target: str
    source: str
    scope: str
    delegate: str
    action: bool
    token: str
    created_at: _timestamp_pb2.Timestamp
    app_id: str
    target_version: int
    expires_at: _timestamp_pb2.Timestamp
    expired: bool
    erased_at: _timestamp_pb2.Timestamp
    renewal_required: bool
    gpc: bool
    tc_string: str
    tcf: TcfFacts
    gpp_string: str
    gpp: GppFacts
    jurisdiction: str
    addtl_consent: str
    imported_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., subject: _Optional[str] = ..., issuer: _Optional[str] = ..., target: _Optional[str] = ..., source: _Optional[str] = ..., scope: _Optional[str] = ..., delegate: _Optional[str] = ..., action: _Optional[bool] = ..., token: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., app_id: _Optional[str] = ..., target_version: _Optional[int] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expired: _Optional[bool] = ..., erased_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., renewal_required: _Optional[bool] = ..., gpc: _Optional[bool] = ..., tc_string: _Optional[str] = ..., tcf: _Optional[_Union[TcfFacts, _Mapping]] = ..., gpp_string: _Optional[str] = ..., gpp: _Optional[_Union[GppFacts, _Mapping]] = ..., jurisdiction: _Optional[str] = ..., addtl_consent: _Optional[str] = ..., imported_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateConsentsRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "events")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    events: _containers.RepeatedCompositeFieldContainer[ConsentInput]
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., events: _Optional[_Iterable[_Union[ConsentInput, _Mapping]]] = ...) -> None: ...

class CreateConsentsResponse(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[ConsentEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[ConsentEvent, _Mapping]]] = ...) -> None: ...

class GetConsentRequest(_message.Message):
    __slots__ = ("account_id", "id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    id: str
    def __init__(self, account_id: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class GetConsentRecordRequest(_message.Message):
    __slots__ = ("account_id", "id", "receipt")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    id: str
    receipt: bool
    def __init__(self, account_id: _Optional[str] = ..., id: _Optional[str] = ..., receipt: _Optional[bool] = ...) -> None: ...

class ConsentRecord(_message.Message):
    __slots__ = ("jsonld",)
    JSONLD_FIELD_NUMBER: _ClassVar[int]
    jsonld: str
    def __init__(self, jsonld: _Optional[str] = ...) -> None: ...

class GetConsentsByTokenRequest(_message.Message):
    __slots__ = ("account_id", "token")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    token: str
    def __init__(self, account_id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class GetConsentsByTokenResponse(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[ConsentEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[ConsentEvent, _Mapping]]] = ...) -> None: ...

class SearchConsentsBatchRequest(_message.Message):
    __slots__ = ("searches",)
    SEARCHES_FIELD_NUMBER: _ClassVar[int]
    searches: _containers.RepeatedCompositeFieldContainer[SearchConsentsRequest]
    def __init__(self, searches: _Optional[_Iterable[_Union[SearchConsentsRequest, _Mapping]]] = ...) -> None: ...

class SearchConsentsBatchResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[SearchConsentsResult]
    def __init__(self, results: _Optional[_Iterable[_Union[SearchConsentsResult, _Mapping]]] = ...) -> None: ...

class SearchConsentsResult(_message.Message):
    __slots__ = ("response", "failure")
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    response: SearchConsentsResponse
    failure: SearchFailure
    def __init__(self, response: _Optional[_Union[SearchConsentsResponse, _Mapping]] = ..., failure: _Optional[_Union[SearchFailure, _Mapping]] = ...) -> None: ...

class SearchFailure(_message.Message):
    __slots__ = ("code", "message", "fields")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    fields: _containers.RepeatedCompositeFieldContainer[SearchFieldError]
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ..., fields: _Optional[_Iterable[_Union[SearchFieldError, _Mapping]]] = ...) -> None: ...

class SearchFieldError(_message.Message):
    __slots__ = ("field", "message")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    field: str
    message: str
    def __init__(self, field: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class SearchConsentsRequest(_message.Message):
    __slots__ = ("account_id", "subject", "issuer", "target", "source", "scope", "current", "page", "gpc", "jurisdiction", "linked")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    GPC_FIELD_NUMBER: _ClassVar[int]
    JURISDICTION_FIELD_NUMBER: _ClassVar[int]
    LINKED_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    subject: str
    issuer: str
    target: str
    source: str
    scope: str
    current: bool
    page: _common_pb2.PageRequest
    gpc: bool
    jurisdiction: str
    linked: bool
    def __init__(self, account_id: _Optional[str] = ..., subject: _Optional[str] = ..., issuer: _Optional[str] = ..., target: _Optional[str] = ..., source: _Optional[str] = ..., scope: _Optional[str] = ..., current: _Optional[bool] = ..., page: _Optional[_Union[_common_pb2.PageRequest, _Mapping]] = ..., gpc: _Optional[bool] = ..., jurisdiction: _Optional[str] = ..., linked: _Optional[bool] = ...) -> None: ...

class SearchConsentsResponse(_message.Message):
    __slots__ = ("events", "next_cursor")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[ConsentEvent]
    next_cursor: str
    def __init__(self, events: _Optional[_Iterable[_Union[ConsentEvent, _Mapping]]] = ..., next_cursor: _Optional[str] = ...) -> None: ...

class GetReceiptRequest(_message.Message):
    __slots__ = ("account_id", "id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    id: str
    def __init__(self, account_id: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class GetReceiptResponse(_message.Message):
    __slots__ = ("receipt",)
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    receipt: str
    def __init__(self, receipt: _Optional[str] = ...) -> None: ...

class GetStatisticsRequest(_message.Message):
    __slots__ = ("account_id", "app_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ...) -> None: ...

class TargetStatistics(_message.Message):
    __slots__ = ("target", "events", "current_accepted", "current_declined", "current_no_action", "current_expired", "current_renewal_required", "current_gpc_declines")
    TARGET_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    CURRENT_DECLINED_FIELD_NUMBER: _ClassVar[int]
    CURRENT_NO_ACTION_FIELD_NUMBER: _ClassVar[int]
    CURRENT_EXPIRED_FIELD_NUMBER: _ClassVar[int]
    CURRENT_RENEWAL_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    CURRENT_GPC_DECLINES_FIELD_NUMBER: _ClassVar[int]
    target: str
    events: int
    current_accepted: int
    current_declined: int
    current_no_action: int
    current_expired: int
    current_renewal_required: int
    current_gpc_declines: int
    def __init__(self, target: _Optional[str] = ..., events: _Optional[int] = ..., current_accepted: _Optional[int] = ..., current_declined: _Optional[int] = ..., current_no_action: _Optional[int] = ..., current_expired: _Optional[int] = ..., current_renewal_required: _Optional[int] = ..., current_gpc_declines: _Optional[int] = ...) -> None: ...

class JurisdictionStatistics(_message.Message):
    __slots__ = ("jurisdiction", "events")
    JURISDICTION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    jurisdiction: str
    events: int
    def __init__(self, jurisdiction: _Optional[str] = ..., events: _Optional[int] = ...) -> None: ...

class Statistics(_message.Message):
    __slots__ = ("app_id", "total", "accepted", "declined", "no_action", "distinct_subjects", "targets", "latest_event_at", "gpc_declines", "jurisdictions")
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    DECLINED_FIELD_NUMBER: _ClassVar[int]
    NO_ACTION_FIELD_NUMBER: _ClassVar[int]
    DISTINCT_SUBJECTS_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    LATEST_EVENT_AT_FIELD_NUMBER: _ClassVar[int]
    GPC_DECLINES_FIELD_NUMBER: _ClassVar[int]
    JURISDICTIONS_FIELD_NUMBER: _ClassVar[int]
    app_id: str
    total: int
    accepted: int
    declined: int
    no_action: int
    distinct_subjects: int
    targets: _containers.RepeatedCompositeFieldContainer[TargetStatistics]
    latest_event_at: _timestamp_pb2.Timestamp
    gpc_declines: int
    jurisdictions: _containers.RepeatedCompositeFieldContainer[JurisdictionStatistics]
    def __init__(self, app_id: _Optional[str] = ..., total: _Optional[int] = ..., accepted: _Optional[int] = ..., declined: _Optional[int] = ..., no_action: _Optional[int] = ..., distinct_subjects: _Optional[int] = ..., targets: _Optional[_Iterable[_Union[TargetStatistics, _Mapping]]] = ..., latest_event_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., gpc_declines: _Optional[int] = ..., jurisdictions: _Optional[_Iterable[_Union[JurisdictionStatistics, _Mapping]]] = ...) -> None: ...

class GetCurrentStatesRequest(_message.Message):
    __slots__ = ("account_id", "subject", "issuer", "targets")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    subject: str
    issuer: str
    targets: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, account_id: _Optional[str] = ..., subject: _Optional[str] = ..., issuer: _Optional[str] = ..., targets: _Optional[_Iterable[str]] = ...) -> None: ...

class GetCurrentStatesResponse(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[ConsentEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[ConsentEvent, _Mapping]]] = ...) -> None: ...

class ExportConsentsRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "target", "subject", "since", "until", "cursor", "limit", "with_total", "links")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    WITH_TOTAL_FIELD_NUMBER: _ClassVar[int]
    LINKS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    target: str
    subject: str
    since: _timestamp_pb2.Timestamp
    until: _timestamp_pb2.Timestamp
    cursor: str
    limit: int
    with_total: bool
    links: bool
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., target: _Optional[str] = ..., subject: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., cursor: _Optional[str] = ..., limit: _Optional[int] = ..., with_total: _Optional[bool] = ..., links: _Optional[bool] = ...) -> None: ...

class ExportConsentsResponse(_message.Message):
    __slots__ = ("events", "links", "next_cursor", "total", "total_exact")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    LINKS_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    TOTAL_EXACT_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[ConsentEvent]
    links: _containers.RepeatedCompositeFieldContainer[_links_pb2.SubjectLink]
    next_cursor: str
    total: int
    total_exact: bool
    def __init__(self, events: _Optional[_Iterable[_Union[ConsentEvent, _Mapping]]] = ..., links: _Optional[_Iterable[_Union[_links_pb2.SubjectLink, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., total: _Optional[int] = ..., total_exact: _Optional[bool] = ...) -> None: ...

class ExportConsentRecordsRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "target", "subject", "since", "until", "cursor", "limit", "with_total")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    WITH_TOTAL_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    target: str
    subject: str
    since: _timestamp_pb2.Timestamp
    until: _timestamp_pb2.Timestamp
    cursor: str
    limit: int
    with_total: bool
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., target: _Optional[str] = ..., subject: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., cursor: _Optional[str] = ..., limit: _Optional[int] = ..., with_total: _Optional[bool] = ...) -> None: ...

class ExportConsentRecordsResponse(_message.Message):
    __slots__ = ("jsonld", "total", "total_exact")
    JSONLD_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    TOTAL_EXACT_FIELD_NUMBER: _ClassVar[int]
    jsonld: _containers.RepeatedScalarFieldContainer[str]
    total: int
    total_exact: bool
    def __init__(self, jsonld: _Optional[_Iterable[str]] = ..., total: _Optional[int] = ..., total_exact: _Optional[bool] = ...) -> None: ...

class ExportSubjectRequest(_message.Message):
    __slots__ = ("account_id", "subject", "app_id", "target", "since", "until")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    subject: str
    app_id: str
    target: str
    since: _timestamp_pb2.Timestamp
    until: _timestamp_pb2.Timestamp
    def __init__(self, account_id: _Optional[str] = ..., subject: _Optional[str] = ..., app_id: _Optional[str] = ..., target: _Optional[str] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SubjectExport(_message.Message):
    __slots__ = ("events", "current", "links")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    LINKS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[ConsentEvent]
    current: _containers.RepeatedCompositeFieldContainer[ConsentEvent]
    links: _containers.RepeatedCompositeFieldContainer[_links_pb2.SubjectLink]
    def __init__(self, events: _Optional[_Iterable[_Union[ConsentEvent, _Mapping]]] = ..., current: _Optional[_Iterable[_Union[ConsentEvent, _Mapping]]] = ..., links: _Optional[_Iterable[_Union[_links_pb2.SubjectLink, _Mapping]]] = ...) -> None: ...

class GetReceiptKeysRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetReceiptKeysResponse(_message.Message):
    __slots__ = ("jwks",)
    JWKS_FIELD_NUMBER: _ClassVar[int]
    jwks: _common_pb2.JwkSet
    def __init__(self, jwks: _Optional[_Union[_common_pb2.JwkSet, _Mapping]] = ...) -> None: ...
