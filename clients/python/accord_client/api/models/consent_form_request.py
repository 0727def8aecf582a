from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.consent_form_request_action import check_consent_form_request_action
from ..models.consent_form_request_action import ConsentFormRequestAction
from ..models.consent_form_request_gpc import check_consent_form_request_gpc
from ..models.consent_form_request_gpc import ConsentFormRequestGpc
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="ConsentFormRequest")



@_attrs_define
class ConsentFormRequest:
    """ One event as form fields; every value is a string.

        Attributes:
            subject (str): As in ConsentInput.
            issuer (str): As in ConsentInput.
            target (str): As in ConsentInput.
            source (str | Unset): As in ConsentInput.
            scope (str | Unset): As in ConsentInput.
            delegate (str | Unset): As in ConsentInput.
            action (ConsentFormRequestAction | Unset): Empty or `null`: no action taken.
            target_version (str | Unset): As in ConsentInput, in decimal digits; empty: absent.
            expires_at (datetime.datetime | str | Unset): As in ConsentInput; empty: absent.
            gpc (ConsentFormRequestGpc | Unset): As in ConsentInput; empty: absent.
            tc_string (str | Unset): As in ConsentInput; empty: absent.
            addtl_consent (str | Unset): As in ConsentInput; empty: absent.
            gpp_string (str | Unset): As in ConsentInput; empty: absent.
            jurisdiction (str | Unset): As in ConsentInput; empty: absent.
     """

    subject: str
    issuer: str
    target: str
    source: str | Unset = UNSET
    scope: str | Unset = UNSET
    delegate: str | Unset = UNSET
    action: ConsentFormRequestAction | Unset = UNSET
    target_version: str | Unset = UNSET
    expires_at: datetime.datetime | str | Unset = UNSET
    gpc: ConsentFormRequestGpc | Unset = UNSET
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

        action: str | Unset = UNSET
        if not isinstance(self.action, Unset):
            action = self.action


        target_version = self.target_version

        expires_at: str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        gpc: str | Unset = UNSET
        if not isinstance(self.gpc, Unset):
            gpc = self.gpc


        tc_string = self.tc_string

        addtl_consent = self.addtl_consent

        gpp_string = self.gpp_string

        jurisdiction: str | Unset
        if isinstance(self.jurisdiction, Unset):
            jurisdiction = UNSET
        else:
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

        _action = d.pop("action", UNSET)
        action: ConsentFormRequestAction | Unset
        if isinstance(_action,  Unset):
            action = UNSET
        else:
            action = check_consent_form_request_action(_action)




        target_version = d.pop("targetVersion", UNSET)

        def _parse_expires_at(data: object) -> datetime.datetime | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | str | Unset, data)

        expires_at = _parse_expires_at(d.pop("expiresAt", UNSET))


        _gpc = d.pop("gpc", UNSET)
        gpc: ConsentFormRequestGpc | Unset
        if isinstance(_gpc,  Unset):
            gpc = UNSET
        else:
            gpc = check_consent_form_request_gpc(_gpc)




        tc_string = d.pop("tcString", UNSET)

        addtl_consent = d.pop("addtlConsent", UNSET)

        gpp_string = d.pop("gppString", UNSET)

        def _parse_jurisdiction(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        jurisdiction = _parse_jurisdiction(d.pop("jurisdiction", UNSET))


        consent_form_request = cls(
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

        return consent_form_request

