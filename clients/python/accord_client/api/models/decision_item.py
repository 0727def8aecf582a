from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="DecisionItem")



@_attrs_define
class DecisionItem:
    """ One question: may this be processed for this subject, issuer, target and scope?

        Attributes:
            subject (str): The subject, exactly as in its events.
            issuer (str): The issuer.
            target (str): The target: a URL, or a specification (`{base_url}/dataprocessing/v0/dpspecs/<id>`,
                `urn:accord:dpspec:<id>`), whose legal basis and regimes then apply.
            scope (str | Unset): Section or clause of the target. Absent or empty: `default`.
            jurisdiction (str | Unset): Where the subject is, when its current event does not say (the event's own
                jurisdiction wins): chooses the specification's regime. Absent: `*`.
            gpc (bool | Unset): true: a Global Privacy Control signal is on now (e.g. the request being served carries `Sec-
                GPC: 1`): where the regime honours GPC it declines, unless the current choice was made with the signal on.
            vendor (int | Unset): An IAB TCF vendor (its Global Vendor List id), with `purpose`: the answer comes from the
                TC string of the current event (docs/consent.md, Standards). Needs the operator’s GVL (ACCORD_TCF_GVL); without
                one, 400.
            purpose (int | Unset): A TCF purpose id (1–11), with `vendor`.
            atp_vendor (int | Unset): A Google Ad Tech Provider (its ATP id), not with `vendor` or `purpose`: the answer
                comes from the Additional Consent string (`addtlConsent`) of the current event (docs/consent.md, Standards).
                Needs no GVL.
     """

    subject: str
    issuer: str
    target: str
    scope: str | Unset = UNSET
    jurisdiction: str | Unset = UNSET
    gpc: bool | Unset = UNSET
    vendor: int | Unset = UNSET
    purpose: int | Unset = UNSET
    atp_vendor: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        subject = self.subject

        issuer = self.issuer

        target = self.target

        scope = self.scope

        jurisdiction = self.jurisdiction

        gpc = self.gpc

        vendor = self.vendor

        purpose = self.purpose

        atp_vendor = self.atp_vendor


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "subject": subject,
            "issuer": issuer,
            "target": target,
        })
        if scope is not UNSET:
            field_dict["scope"] = scope
        if jurisdiction is not UNSET:
            field_dict["jurisdiction"] = jurisdiction
        if gpc is not UNSET:
            field_dict["gpc"] = gpc
        if vendor is not UNSET:
            field_dict["vendor"] = vendor
        if purpose is not UNSET:
            field_dict["purpose"] = purpose
        if atp_vendor is not UNSET:
            field_dict["atpVendor"] = atp_vendor

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        subject = d.pop("subject")

        issuer = d.pop("issuer")

        target = d.pop("target")

        scope = d.pop("scope", UNSET)

        jurisdiction = d.pop("jurisdiction", UNSET)

        gpc = d.pop("gpc", UNSET)

        vendor = d.pop("vendor", UNSET)

        purpose = d.pop("purpose", UNSET)

        atp_vendor = d.pop("atpVendor", UNSET)

        decision_item = cls(
            subject=subject,
            issuer=issuer,
            target=target,
            scope=scope,
            jurisdiction=jurisdiction,
            gpc=gpc,
            vendor=vendor,
            purpose=purpose,
            atp_vendor=atp_vendor,
        )

        return decision_item

