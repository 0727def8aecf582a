from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.consent_gpp_facts import ConsentGppFacts
  from ..models.consent_tcf_facts import ConsentTcfFacts





T = TypeVar("T", bound="ConsentEvent")



@_attrs_define
class ConsentEvent:
    """ An immutable consent event.

        Attributes:
            id (str): 32 lowercase hex characters, time-ordered: ids sort like createdAt, ties in the same millisecond
                deterministically.
            subject (str):
            issuer (str):
            target (str):
            scope (str):
            action (bool | None):
            token (str): Short random token for humans; not unique.
            created_at (datetime.datetime): ISO 8601 UTC with milliseconds.
            app_id (str): The application that wrote the event.
            source (str | Unset): Present when sent.
            delegate (str | Unset): Present when sent.
            target_version (int | Unset): The specification version consented to; present when the target names a
                specification.
            expires_at (datetime.datetime | Unset): When the consent lapses; present when set.
            expired (bool | Unset): Current states only (search with current=true): present and true when `expiresAt` has
                passed. The state is then no longer a consent.
            erased_at (datetime.datetime | Unset): Present when the subject was erased: `subject` (and `source`, `delegate`)
                are keyed hashes (`erased:…`) since. Not part of the log leaf.
            renewal_required (bool | Unset): Current states only (search with current=true): present and true when the
                target names a specification that changed materially after the version consented to (`targetVersion` is older
                than the specification’s `reconsentSince`): ask the subject again. Computed when read (the specification is
                remembered up to ACCORD_CONSENT_SPEC_CACHE_MS, 1 s).
            gpc (bool | Unset): Present when sent (or set by `Sec-GPC: 1`): whether a Global Privacy Control signal was
                present.
            tc_string (str | Unset): Present when sent: the IAB TCF TC string.
            tcf (ConsentTcfFacts | Unset): Facts decoded from `tcString` when the event was stored (IAB
                @iabtechlabtcf/core).
            addtl_consent (str | Unset): Present when sent: Google’s Additional Consent string, as sent.
            gpp_string (str | Unset): Present when sent: the IAB GPP string.
            gpp (ConsentGppFacts | Unset): Facts decoded from `gppString` when the event was stored (IAB @iabgpp/cmpapi).
            jurisdiction (str | Unset): Present when sent: ISO 3166-1 alpha-2 or ISO 3166-2 code, upper case.
            imported_at (datetime.datetime | Unset): Imported events only (POST /consent/v0/imports): when the event came
                into this registry. `createdAt` stays the original time the subject acted, which orders the event (the newest
                `createdAt` is the current state).
     """

    id: str
    subject: str
    issuer: str
    target: str
    scope: str
    action: bool | None
    token: str
    created_at: datetime.datetime
    app_id: str
    source: str | Unset = UNSET
    delegate: str | Unset = UNSET
    target_version: int | Unset = UNSET
    expires_at: datetime.datetime | Unset = UNSET
    expired: bool | Unset = UNSET
    erased_at: datetime.datetime | Unset = UNSET
    renewal_required: bool | Unset = UNSET
    gpc: bool | Unset = UNSET
    tc_string: str | Unset = UNSET
    tcf: ConsentTcfFacts | Unset = UNSET
    addtl_consent: str | Unset = UNSET
    gpp_string: str | Unset = UNSET
    gpp: ConsentGppFacts | Unset = UNSET
    jurisdiction: str | Unset = UNSET
    imported_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.consent_gpp_facts import ConsentGppFacts # noqa: PLC0415
        from ..models.consent_tcf_facts import ConsentTcfFacts # noqa: PLC0415
        id = self.id

        subject = self.subject

        issuer = self.issuer

        target = self.target

        scope = self.scope

        action: bool | None
        action = self.action

        token = self.token

        created_at = self.created_at.isoformat()

        app_id = self.app_id

        source = self.source

        delegate = self.delegate

        target_version = self.target_version

        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        expired = self.expired

        erased_at: str | Unset = UNSET
        if not isinstance(self.erased_at, Unset):
            erased_at = self.erased_at.isoformat()

        renewal_required = self.renewal_required

        gpc = self.gpc

        tc_string = self.tc_string

        tcf: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tcf, Unset):
            tcf = self.tcf.to_dict()

        addtl_consent = self.addtl_consent

        gpp_string = self.gpp_string

        gpp: dict[str, Any] | Unset = UNSET
        if not isinstance(self.gpp, Unset):
            gpp = self.gpp.to_dict()

        jurisdiction = self.jurisdiction

        imported_at: str | Unset = UNSET
        if not isinstance(self.imported_at, Unset):
            imported_at = self.imported_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "subject": subject,
            "issuer": issuer,
            "target": target,
            "scope": scope,
            "action": action,
            "token": token,
            "createdAt": created_at,
            "appId": app_id,
        })
        if source is not UNSET:
            field_dict["source"] = source
        if delegate is not UNSET:
            field_dict["delegate"] = delegate
        if target_version is not UNSET:
            field_dict["targetVersion"] = target_version
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if expired is not UNSET:
            field_dict["expired"] = expired
        if erased_at is not UNSET:
            field_dict["erasedAt"] = erased_at
        if renewal_required is not UNSET:
            field_dict["renewalRequired"] = renewal_required
        if gpc is not UNSET:
            field_dict["gpc"] = gpc
        if tc_string is not UNSET:
            field_dict["tcString"] = tc_string
        if tcf is not UNSET:
            field_dict["tcf"] = tcf
        if addtl_consent is not UNSET:
            field_dict["addtlConsent"] = addtl_consent
        if gpp_string is not UNSET:
            field_dict["gppString"] = gpp_string
        if gpp is not UNSET:
            field_dict["gpp"] = gpp
        if jurisdiction is not UNSET:
            field_dict["jurisdiction"] = jurisdiction
        if imported_at is not UNSET:
            field_dict["importedAt"] = imported_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.consent_gpp_facts import ConsentGppFacts # noqa: PLC0415
        from ..models.consent_tcf_facts import ConsentTcfFacts # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        subject = d.pop("subject")

        issuer = d.pop("issuer")

        target = d.pop("target")

        scope = d.pop("scope")

        def _parse_action(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        action = _parse_action(d.pop("action"))


        token = d.pop("token")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        app_id = d.pop("appId")

        source = d.pop("source", UNSET)

        delegate = d.pop("delegate", UNSET)

        target_version = d.pop("targetVersion", UNSET)

        _expires_at = d.pop("expiresAt", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at,  Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)




        expired = d.pop("expired", UNSET)

        _erased_at = d.pop("erasedAt", UNSET)
        erased_at: datetime.datetime | Unset
        if isinstance(_erased_at,  Unset):
            erased_at = UNSET
        else:
            erased_at = datetime.datetime.fromisoformat(_erased_at)




        renewal_required = d.pop("renewalRequired", UNSET)

        gpc = d.pop("gpc", UNSET)

        tc_string = d.pop("tcString", UNSET)

        _tcf = d.pop("tcf", UNSET)
        tcf: ConsentTcfFacts | Unset
        if isinstance(_tcf,  Unset):
            tcf = UNSET
        else:
            tcf = ConsentTcfFacts.from_dict(_tcf)




        addtl_consent = d.pop("addtlConsent", UNSET)

        gpp_string = d.pop("gppString", UNSET)

        _gpp = d.pop("gpp", UNSET)
        gpp: ConsentGppFacts | Unset
        if isinstance(_gpp,  Unset):
            gpp = UNSET
        else:
            gpp = ConsentGppFacts.from_dict(_gpp)




        jurisdiction = d.pop("jurisdiction", UNSET)

        _imported_at = d.pop("importedAt", UNSET)
        imported_at: datetime.datetime | Unset
        if isinstance(_imported_at,  Unset):
            imported_at = UNSET
        else:
            imported_at = datetime.datetime.fromisoformat(_imported_at)




        consent_event = cls(
            id=id,
            subject=subject,
            issuer=issuer,
            target=target,
            scope=scope,
            action=action,
            token=token,
            created_at=created_at,
            app_id=app_id,
            source=source,
            delegate=delegate,
            target_version=target_version,
            expires_at=expires_at,
            expired=expired,
            erased_at=erased_at,
            renewal_required=renewal_required,
            gpc=gpc,
            tc_string=tc_string,
            tcf=tcf,
            addtl_consent=addtl_consent,
            gpp_string=gpp_string,
            gpp=gpp,
            jurisdiction=jurisdiction,
            imported_at=imported_at,
        )


        consent_event.additional_properties = d
        return consent_event

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
