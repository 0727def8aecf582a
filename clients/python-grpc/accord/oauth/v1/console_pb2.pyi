import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ConsoleMember(_message.Message):
    __slots__ = ("id", "account_id", "name", "role", "subject", "created_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    account_id: str
    name: str
    role: str
    subject: str
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., account_id: _Optional[str] = ..., name: _Optional[str] = ..., role: _Optional[str] = ..., subject: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateConsoleLinkRequest(_message.Message):
    __slots__ = ("account_name", "member_name", "role", "ttl_seconds")
    ACCOUNT_NAME_FIELD_NUMBER: _ClassVar[int]
    MEMBER_NAME_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    TTL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    account_name: str
    member_name: str
    role: str
    ttl_seconds: int
    def __init__(self, account_name: _Optional[str] = ..., member_name: _Optional[str] = ..., role: _Optional[str] = ..., ttl_seconds: _Optional[int] = ...) -> None: ...

class CreateConsoleLinkResponse(_message.Message):
    __slots__ = ("token", "expires_at", "account_id", "member")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    MEMBER_FIELD_NUMBER: _ClassVar[int]
    token: str
    expires_at: _timestamp_pb2.Timestamp
    account_id: str
    member: ConsoleMember
    def __init__(self, token: _Optional[str] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., account_id: _Optional[str] = ..., member: _Optional[_Union[ConsoleMember, _Mapping]] = ...) -> None: ...

class SessionLimits(_message.Message):
    __slots__ = ("idle_timeout_seconds", "absolute_timeout_seconds")
    IDLE_TIMEOUT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ABSOLUTE_TIMEOUT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    idle_timeout_seconds: int
    absolute_timeout_seconds: int
    def __init__(self, idle_timeout_seconds: _Optional[int] = ..., absolute_timeout_seconds: _Optional[int] = ...) -> None: ...

class RedeemConsoleLinkRequest(_message.Message):
    __slots__ = ("token", "limits", "user_agent")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    USER_AGENT_FIELD_NUMBER: _ClassVar[int]
    token: str
    limits: SessionLimits
    user_agent: str
    def __init__(self, token: _Optional[str] = ..., limits: _Optional[_Union[SessionLimits, _Mapping]] = ..., user_agent: _Optional[str] = ...) -> None: ...

class SignInMemberRequest(_message.Message):
    __slots__ = ("subject", "claimed_accounts", "claimed_role", "display_name", "limits", "user_agent")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_ROLE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    USER_AGENT_FIELD_NUMBER: _ClassVar[int]
    subject: str
    claimed_accounts: _containers.RepeatedScalarFieldContainer[str]
    claimed_role: str
    display_name: str
    limits: SessionLimits
    user_agent: str
    def __init__(self, subject: _Optional[str] = ..., claimed_accounts: _Optional[_Iterable[str]] = ..., claimed_role: _Optional[str] = ..., display_name: _Optional[str] = ..., limits: _Optional[_Union[SessionLimits, _Mapping]] = ..., user_agent: _Optional[str] = ...) -> None: ...

class ConsoleSession(_message.Message):
    __slots__ = ("id", "account_id", "account_name", "member", "csrf_token", "created_at", "expires_at", "idle_expires_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_NAME_FIELD_NUMBER: _ClassVar[int]
    MEMBER_FIELD_NUMBER: _ClassVar[int]
    CSRF_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    IDLE_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    account_id: str
    account_name: str
    member: ConsoleMember
    csrf_token: str
    created_at: _timestamp_pb2.Timestamp
    expires_at: _timestamp_pb2.Timestamp
    idle_expires_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., account_id: _Optional[str] = ..., account_name: _Optional[str] = ..., member: _Optional[_Union[ConsoleMember, _Mapping]] = ..., csrf_token: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., idle_expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ConsoleSessionGrant(_message.Message):
    __slots__ = ("session_token", "session")
    SESSION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    session_token: str
    session: ConsoleSession
    def __init__(self, session_token: _Optional[str] = ..., session: _Optional[_Union[ConsoleSession, _Mapping]] = ...) -> None: ...

class GetConsoleSessionRequest(_message.Message):
    __slots__ = ("session_token",)
    SESSION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    session_token: str
    def __init__(self, session_token: _Optional[str] = ...) -> None: ...

class RevokeConsoleSessionRequest(_message.Message):
    __slots__ = ("session_token",)
    SESSION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    session_token: str
    def __init__(self, session_token: _Optional[str] = ...) -> None: ...

class RevokeConsoleSessionResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RevokeMemberSessionsRequest(_message.Message):
    __slots__ = ("account_id", "member_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    MEMBER_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    member_id: str
    def __init__(self, account_id: _Optional[str] = ..., member_id: _Optional[str] = ...) -> None: ...

class RevokeMemberSessionsResponse(_message.Message):
    __slots__ = ("revoked",)
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    revoked: int
    def __init__(self, revoked: _Optional[int] = ...) -> None: ...

class ListMembersRequest(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class ListMembersResponse(_message.Message):
    __slots__ = ("members",)
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    members: _containers.RepeatedCompositeFieldContainer[ConsoleMember]
    def __init__(self, members: _Optional[_Iterable[_Union[ConsoleMember, _Mapping]]] = ...) -> None: ...

class InviteMemberRequest(_message.Message):
    __slots__ = ("account_id", "member_name", "role", "ttl_seconds")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    MEMBER_NAME_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    TTL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    member_name: str
    role: str
    ttl_seconds: int
    def __init__(self, account_id: _Optional[str] = ..., member_name: _Optional[str] = ..., role: _Optional[str] = ..., ttl_seconds: _Optional[int] = ...) -> None: ...

class UpdateMemberRoleRequest(_message.Message):
    __slots__ = ("account_id", "member_id", "role")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    MEMBER_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    member_id: str
    role: str
    def __init__(self, account_id: _Optional[str] = ..., member_id: _Optional[str] = ..., role: _Optional[str] = ...) -> None: ...

class RemoveMemberRequest(_message.Message):
    __slots__ = ("account_id", "member_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    MEMBER_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    member_id: str
    def __init__(self, account_id: _Optional[str] = ..., member_id: _Optional[str] = ...) -> None: ...

class RemoveMemberResponse(_message.Message):
    __slots__ = ("revoked_sessions",)
    REVOKED_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    revoked_sessions: int
    def __init__(self, revoked_sessions: _Optional[int] = ...) -> None: ...

class ConsoleApplication(_message.Message):
    __slots__ = ("id", "account_id", "name", "client_id", "scopes", "created_at", "disabled_at", "secret_rotated_at", "previous_secret_expires_at", "allowed_origins")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_AT_FIELD_NUMBER: _ClassVar[int]
    SECRET_ROTATED_AT_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    id: str
    account_id: str
    name: str
    client_id: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    created_at: _timestamp_pb2.Timestamp
    disabled_at: _timestamp_pb2.Timestamp
    secret_rotated_at: _timestamp_pb2.Timestamp
    previous_secret_expires_at: _timestamp_pb2.Timestamp
    allowed_origins: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., account_id: _Optional[str] = ..., name: _Optional[str] = ..., client_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., disabled_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., secret_rotated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., previous_secret_expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., allowed_origins: _Optional[_Iterable[str]] = ...) -> None: ...

class ListAccountApplicationsRequest(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class ListAccountApplicationsResponse(_message.Message):
    __slots__ = ("applications",)
    APPLICATIONS_FIELD_NUMBER: _ClassVar[int]
    applications: _containers.RepeatedCompositeFieldContainer[ConsoleApplication]
    def __init__(self, applications: _Optional[_Iterable[_Union[ConsoleApplication, _Mapping]]] = ...) -> None: ...

class CreateAccountApplicationRequest(_message.Message):
    __slots__ = ("account_id", "name", "scopes")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    name: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, account_id: _Optional[str] = ..., name: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateAccountApplicationResponse(_message.Message):
    __slots__ = ("application", "client_secret")
    APPLICATION_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    application: ConsoleApplication
    client_secret: str
    def __init__(self, application: _Optional[_Union[ConsoleApplication, _Mapping]] = ..., client_secret: _Optional[str] = ...) -> None: ...

class RotateApplicationSecretRequest(_message.Message):
    __slots__ = ("account_id", "application_id", "grace_seconds")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APPLICATION_ID_FIELD_NUMBER: _ClassVar[int]
    GRACE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    application_id: str
    grace_seconds: int
    def __init__(self, account_id: _Optional[str] = ..., application_id: _Optional[str] = ..., grace_seconds: _Optional[int] = ...) -> None: ...

class RotateApplicationSecretResponse(_message.Message):
    __slots__ = ("application", "client_secret")
    APPLICATION_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    application: ConsoleApplication
    client_secret: str
    def __init__(self, application: _Optional[_Union[ConsoleApplication, _Mapping]] = ..., client_secret: _Optional[str] = ...) -> None: ...

class DisableApplicationRequest(_message.Message):
    __slots__ = ("account_id", "application_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APPLICATION_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    application_id: str
    def __init__(self, account_id: _Optional[str] = ..., application_id: _Optional[str] = ...) -> None: ...

class SetApplicationOriginsRequest(_message.Message):
    __slots__ = ("account_id", "application_id", "origins")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APPLICATION_ID_FIELD_NUMBER: _ClassVar[int]
    ORIGINS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    application_id: str
    origins: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, account_id: _Optional[str] = ..., application_id: _Optional[str] = ..., origins: _Optional[_Iterable[str]] = ...) -> None: ...

class IssueApplicationTokenRequest(_message.Message):
    __slots__ = ("account_id", "application_id", "scopes")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APPLICATION_ID_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    application_id: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, account_id: _Optional[str] = ..., application_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ...) -> None: ...

class IssueApplicationTokenResponse(_message.Message):
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

class TokenFamily(_message.Message):
    __slots__ = ("id", "application_id", "client_id", "created_at", "expires_at", "revoked_at", "revoked_reason")
    ID_FIELD_NUMBER: _ClassVar[int]
    APPLICATION_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    REVOKED_AT_FIELD_NUMBER: _ClassVar[int]
    REVOKED_REASON_FIELD_NUMBER: _ClassVar[int]
    id: str
    application_id: str
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    expires_at: _timestamp_pb2.Timestamp
    revoked_at: _timestamp_pb2.Timestamp
    revoked_reason: str
    def __init__(self, id: _Optional[str] = ..., application_id: _Optional[str] = ..., client_id: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., revoked_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., revoked_reason: _Optional[str] = ...) -> None: ...

class ListTokenFamiliesRequest(_message.Message):
    __slots__ = ("account_id", "application_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    APPLICATION_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    application_id: str
    def __init__(self, account_id: _Optional[str] = ..., application_id: _Optional[str] = ...) -> None: ...

class ListTokenFamiliesResponse(_message.Message):
    __slots__ = ("families",)
    FAMILIES_FIELD_NUMBER: _ClassVar[int]
    families: _containers.RepeatedCompositeFieldContainer[TokenFamily]
    def __init__(self, families: _Optional[_Iterable[_Union[TokenFamily, _Mapping]]] = ...) -> None: ...

class RevokeTokenFamilyRequest(_message.Message):
    __slots__ = ("account_id", "family_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    FAMILY_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    family_id: str
    def __init__(self, account_id: _Optional[str] = ..., family_id: _Optional[str] = ...) -> None: ...

class GetApiKeyInfoRequest(_message.Message):
    __slots__ = ("account_id",)
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    def __init__(self, account_id: _Optional[str] = ...) -> None: ...

class ApiKeyInfo(_message.Message):
    __slots__ = ("account_id", "masked", "rotated_at", "previous_expires_at")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    MASKED_FIELD_NUMBER: _ClassVar[int]
    ROTATED_AT_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    masked: str
    rotated_at: _timestamp_pb2.Timestamp
    previous_expires_at: _timestamp_pb2.Timestamp
    def __init__(self, account_id: _Optional[str] = ..., masked: _Optional[str] = ..., rotated_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., previous_expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class RotateAccountApiKeyRequest(_message.Message):
    __slots__ = ("account_id", "grace_seconds")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    GRACE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    grace_seconds: int
    def __init__(self, account_id: _Optional[str] = ..., grace_seconds: _Optional[int] = ...) -> None: ...

class RotateAccountApiKeyResponse(_message.Message):
    __slots__ = ("api_key", "info")
    API_KEY_FIELD_NUMBER: _ClassVar[int]
    INFO_FIELD_NUMBER: _ClassVar[int]
    api_key: str
    info: ApiKeyInfo
    def __init__(self, api_key: _Optional[str] = ..., info: _Optional[_Union[ApiKeyInfo, _Mapping]] = ...) -> None: ...
