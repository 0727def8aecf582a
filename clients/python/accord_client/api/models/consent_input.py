from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="ConsentInput")



@_attrs_define
class ConsentInput:
    """ The client fields of a consent event. Unknown fields are refused.

        Attributes:
            subject (str): Claim for the subject principal (URI or string).
            issuer (str): Claim for the issuer principal (URI or string).
            target (str): What is consented to, e.g. a policy URL or `{base_url}/dataprocessing/v0/dpspecs/<spec_id>`.
            source (str | Unset): Claim for the source of the consent. Empty = absent.
            scope (str | Unset): Section or clause of the target. Absent or empty: `default`.
            delegate (str | Unset): Principal acting for the subject. Empty = absent.
            action (bool | None | Unset): true: accepted; false: declined or withdrawn; null or absent: no action taken.
            target_version (int | Unset): Targets naming a specification: the version shown to the subject (from 1 to the
                current version). Absent: the current version. Refused for unknown specifications.
            expires_at (datetime.datetime | Unset): When the consent lapses (must be in the future). Current states show
                `expired: true` afterwards.
            gpc (bool | Unset): Whether a Global Privacy Control signal was present (`Sec-GPC: 1`). With `action` null: the
                signal observed with no explicit choice (a GPC-driven decline where the regime honours GPC; docs/consent.md,
                Signals and regimes). Absent: not known; the request header `Sec-GPC: 1` sets it to true on every event of the
                request that does not say.
            tc_string (str | Unset): An IAB TCF v2 TC string (TCF 2.0–2.3) the subject's choice was made with, decoded when
                stored (`tcf`): one that does not decode, or of another framework version, is refused. At most 10000 characters;
                empty = absent.
            addtl_consent (str | Unset): Google's Additional Consent string (AC, the CMP API's `addtlConsent`), beside the
                TC string: the Google Ad Tech Providers not on the IAB's Global Vendor List. Version 2 `2~<consented
                ids>~dv.<disclosed ids>` or version 1 `1~<consented ids>` (ids dot-separated positive integers, either list may
                be empty); anything else is refused. Kept exactly as sent. At most 10000 characters; empty = absent.
            gpp_string (str | Unset): An IAB Global Privacy Platform string, decoded when stored (`gpp`): one that does not
                decode is refused. At most 10000 characters; empty = absent.
            jurisdiction (str | Unset): Where the subject is, as an ISO 3166-1 alpha-2 (`DE`) or ISO 3166-2 (`US-CA`) code
                from the ISO lists; stored upper case. It chooses the regime of a specification target.
     """

    subject: str
    issuer: str
    target: str
    source: str | Unset = UNSET
    scope: str | Unset = UNSET
    delegate: str | Unset = UNSET
    action: bool | None | Unset = UNSET
    target_version: int | Unset = UNSET
    expires_at: datetime.datetime | Unset = UNSET
    gpc: bool | Unset = UNSET
    tc_string: str | Unset = UNSET
    addtl_consent: str | Unset = UNSET
    gpp_string: str | Unset = UNSET
    jurisdiction: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        subject = self.subject

        issuer = self.issuer

        target = self.target

        source = self.source

        scope = self.scope

        delegate = self.delegate

        action: bool | None | Unset
        if isinstance(self.action, Unset):
            action = UNSET
        else:
            action = self.action

        target_version = self.target_version

        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        gpc = self.gpc

        tc_string = self.tc_string

        addtl_consent = self.addtl_consent

        gpp_string = self.gpp_string

        jurisdiction = self.jurisdiction


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "subject": subject,
            "issuer": issuer,
            "target": target,
        })
        if source is not UNSET:
            field_dict["source"] = source
        if scope is not UNSET:
            field_dict["scope"] = scope
        if delegate is not UNSET:
            field_dict["delegate"] = delegate
        if action is not UNSET:
            field_dict["action"] = action
        if target_version is not UNSET:
            field_dict["targetVersion"] = target_version
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if gpc is not UNSET:
            field_dict["gpc"] = gpc
        if tc_string is not UNSET:
            field_dict["tcString"] = tc_string
        if addtl_consent is not UNSET:
            field_dict["addtlConsent"] = addtl_consent
        if gpp_string is not UNSET:
            field_dict["gppString"] = gpp_string
        if jurisdiction is not UNSET:
            field_dict["jurisdiction"] = jurisdiction

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        subject = d.pop("subject")

        issuer = d.pop("issuer")

        target = d.pop("target")

        source = d.pop("source", UNSET)

        scope = d.pop("scope", UNSET)

        delegate = d.pop("delegate", UNSET)

        def _parse_action(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        action = _parse_action(d.pop("action", UNSET))


        target_version = d.pop("targetVersion", UNSET)

        _expires_at = d.pop("expiresAt", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at,  Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)




        gpc = d.pop("gpc", UNSET)

        tc_string = d.pop("tcString", UNSET)

        addtl_consent = d.pop("addtlConsent", UNSET)

        gpp_string = d.pop("gppString", UNSET)

        jurisdiction = d.pop("jurisdiction", UNSET)

        consent_input = cls(
            subject=subject,
            issuer=issuer,
            target=target,
            source=source,
            scope=scope,
            delegate=delegate,
            action=action,
            target_version=target_version,
            expires_at=expires_at,
            gpc=gpc,
            tc_string=tc_string,
            addtl_consent=addtl_consent,
            gpp_string=gpp_string,
            jurisdiction=jurisdiction,
        )

        return consent_input

