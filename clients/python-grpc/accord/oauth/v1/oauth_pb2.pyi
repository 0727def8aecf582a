import datetime

from accord.common.v1 import common_pb2 as _common_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class IssueTokenRequest(_message.Message):
    __slots__ = ("grant_type", "client_id", "client_secret", "scope", "refresh_token", "basic_auth")
    GRANT_TYPE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    BASIC_AUTH_FIELD_NUMBER: _ClassVar[int]
    grant_type: str
    client_id: str
    client_secret: str
    scope: str
    refresh_token: str
    basic_auth: bool
    def __init__(self, grant_type: _Optional[str] = ..., client_id: _Optional[str] = ..., client_secret: _Optional[str] = ..., scope: _Optional[str] = ..., refresh_token: _Optional[str] = ..., basic_auth: _Optional[bool] = ...) -> None: ...

class TokenResponse(_message.Message):
    __slots__ = ("access_token", "expires_in", "scope", "refresh_token", "token_type")
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    expires_in: int
    scope: str
    refresh_token: str
    token_type: str
    def __init__(self, access_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., scope: _Optional[str] = ..., refresh_token: _Optional[str] = ..., token_type: _Optional[str] = ...) -> None: ...

class OAuthError(_message.Message):
    __slots__ = ("error", "error_description")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ERROR_DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    error: str
    error_description: str
    def __init__(self, error: _Optional[str] = ..., error_description: _Optional[str] = ...) -> None: ...

class IssueTokenResponse(_message.Message):
    __slots__ = ("token", "error")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    token: TokenResponse
    error: OAuthError
    def __init__(self, token: _Optional[_Union[TokenResponse, _Mapping]] = ..., error: _Optional[_Union[OAuthError, _Mapping]] = ...) -> None: ...

class GetJwksRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetJwksResponse(_message.Message):
    __slots__ = ("jwks",)
    JWKS_FIELD_NUMBER: _ClassVar[int]
    jwks: _common_pb2.JwkSet
    def __init__(self, jwks: _Optional[_Union[_common_pb2.JwkSet, _Mapping]] = ...) -> None: ...

class ValidateApiKeyRequest(_message.Message):
    __slots__ = ("api_key",)
    API_KEY_FIELD_NUMBER: _ClassVar[int]
    api_key: str
    def __init__(self, api_key: _Optional[str] = ...) -> None: ...

class ValidateApiKeyResponse(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class BootstrapRequest(_message.Message):
    __slots__ = ("account_name", "app_name", "scopes")
    ACCOUNT_NAME_FIELD_NUMBER: _ClassVar[int]
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    account_name: str
    app_name: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, account_name: _Optional[str] = ..., app_name: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ...) -> None: ...

class BootstrapResponse(_message.Message):
    __slots__ = ("account_id", "api_key", "app_id", "client_id", "client_secret", "scopes", "account_created")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    API_KEY_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_CREATED_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    api_key: str
    app_id: str
    client_id: str
    client_secret: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    account_created: bool
    def __init__(self, account_id: _Optional[str] = ..., api_key: _Optional[str] = ..., app_id: _Optional[str] = ..., client_id: _Optional[str] = ..., client_secret: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., account_created: _Optional[bool] = ...) -> None: ...

class Account(_message.Message):
    __slots__ = ("id", "name", "created_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Application(_message.Message):
    __slots__ = ("id", "account_id", "name", "client_id", "scopes", "created_at", "allowed_origins")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    id: str
    account_id: str
    name: str
    client_id: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    created_at: _timestamp_pb2.Timestamp
    allowed_origins: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., account_id: _Optional[str] = ..., name: _Optional[str] = ..., client_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., allowed_origins: _Optional[_Iterable[str]] = ...) -> None: ...

class ListAccountsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListAccountsResponse(_message.Message):
    __slots__ = ("accounts",)
    ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    accounts: _containers.RepeatedCompositeFieldContainer[Account]
    def __init__(self, accounts: _Optional[_Iterable[_Union[Account, _Mapping]]] = ...) -> None: ...

class ListApplicationsRequest(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class ListApplicationsResponse(_message.Message):
    __slots__ = ("applications",)
    APPLICATIONS_FIELD_NUMBER: _ClassVar[int]
    applications: _containers.RepeatedCompositeFieldContainer[Application]
    def __init__(self, applications: _Optional[_Iterable[_Union[Application, _Mapping]]] = ...) -> None: ...

class RotateClientSecretRequest(_message.Message):
    __slots__ = ("client_id",)
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    def __init__(self, client_id: _Optional[str] = ...) -> None: ...

class RotateClientSecretResponse(_message.Message):
    __slots__ = ("client_id", "client_secret")
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    client_secret: str
    def __init__(self, client_id: _Optional[str] = ..., client_secret: _Optional[str] = ...) -> None: ...

class RotateApiKeyRequest(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class RotateApiKeyResponse(_message.Message):
    __slots__ = ("account_id", "api_key")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    API_KEY_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    api_key: str
    def __init__(self, account_id: _Optional[str] = ..., api_key: _Optional[str] = ...) -> None: ...

class SetAllowedOriginsRequest(_message.Message):
    __slots__ = ("app_id", "origins")
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    ORIGINS_FIELD_NUMBER: _ClassVar[int]
    app_id: str
    origins: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, app_id: _Optional[str] = ..., origins: _Optional[_Iterable[str]] = ...) -> None: ...

class CheckOriginRequest(_message.Message):
    __slots__ = ("origin", "app_id")
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    origin: str
    app_id: str
    def __init__(self, origin: _Optional[str] = ..., app_id: _Optional[str] = ...) -> None: ...

class CheckOriginResponse(_message.Message):
    __slots__ = ("allowed",)
    ALLOWED_FIELD_NUMBER: _ClassVar[int]
    allowed: bool
    def __init__(self, allowed: _Optional[bool] = ...) -> None: ...

class CreateConsentSessionRequest(_message.Message):
    __slots__ = ("account_id", "app_id", "subject", "issuer", "group_id", "targets", "ttl_seconds")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    TTL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    app_id: str
    subject: str
    issuer: str
    group_id: str
    targets: _containers.RepeatedScalarFieldContainer[str]
    ttl_seconds: int
    def __init__(self, account_id: _Optional[str] = ..., app_id: _Optional[str] = ..., subject: _Optional[str] = ..., issuer: _Optional[str] = ..., group_id: _Optional[str] = ..., targets: _Optional[_Iterable[str]] = ..., ttl_seconds: _Optional[int] = ...) -> None: ...

class CreateConsentSessionResponse(_message.Message):
    __slots__ = ("session_token", "expires_at")
    SESSION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    session_token: str
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, session_token: _Optional[str] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
