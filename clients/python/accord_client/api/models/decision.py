from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.decision_basis import check_decision_basis
from ..models.decision_basis import DecisionBasis
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.decision_evidence import DecisionEvidence
  from ..models.decision_regime import DecisionRegime





T = TypeVar("T", bound="Decision")



@_attrs_define
class Decision:
    """ One decision.

        Attributes:
            subject (str):
            issuer (str):
            target (str):
            scope (str):
            allowed (bool): Whether the processing may go ahead.
            basis (DecisionBasis): Why: `consent` (a current accept), `declined` (a current decline or withdrawal), `no-
                consent` (no event, or only `action: null`, under opt-in), `expired` (the accept lapsed), `renewal-required`
                (accepted a version older than the specification’s latest material change), `opt-out` (allowed: opt-out regime,
                no decline), `gpc` (refused by an honoured Global Privacy Control signal), `not-required` (a specification whose
                legal basis is not CONSENT, or a `notice` regime) With `vendor` and `purpose`, from the TC string of the current
                event: `tcf-consent` (purpose and vendor consent), `tcf-legitimate-interest` (legitimate interest, not objected
                to), `tcf-refused` (neither, the vendor not disclosed, or not in the GVL for that purpose), `tcf-restricted` (a
                publisher restriction forbids it), `no-tc-string` (the current event carries none). With `atpVendor`, from the
                Additional Consent string of the current event: `ac-consent` (the ATP is consented), `ac-refused` (disclosed to
                the subject without consent; with a version 1 string, not consented), `ac-not-disclosed` (not in the string at
                all), `no-ac-string` (the current event carries none).
            event_id (str | Unset): The state’s newest event as of `at`, when it has one: what the decision rests on.
            identity (str | Unset): Subjects with linked identities (POST /consent/v0/subjects/links): the identity whose
                event decided — the subject itself or one linked to it as of `at`.
            target_version (int | Unset): That event’s specification version, when it has one.
            expires_at (datetime.datetime | Unset): When that event lapses (or lapsed), when it does.
            regime (DecisionRegime | Unset): Specification targets that need consent: the regime applied and the key it was
                found under (`US-CA`, `US`, `*`).
            vendor (int | Unset): Items that asked for a TCF vendor: the vendor asked.
            purpose (int | Unset): Items that asked for a TCF vendor: the purpose asked.
            gvl_version (int | Unset): Items that asked for a TCF vendor: the Global Vendor List version the answer used.
            atp_vendor (int | Unset): Items that asked for a Google ATP: the ATP id asked.
            evidence (DecisionEvidence | Unset): With `eventId`: where the evidence is.
     """

    subject: str
    issuer: str
    target: str
    scope: str
    allowed: bool
    basis: DecisionBasis
    event_id: str | Unset = UNSET
    identity: str | Unset = UNSET
    target_version: int | Unset = UNSET
    expires_at: datetime.datetime | Unset = UNSET
    regime: DecisionRegime | Unset = UNSET
    vendor: int | Unset = UNSET
    purpose: int | Unset = UNSET
    gvl_version: int | Unset = UNSET
    atp_vendor: int | Unset = UNSET
    evidence: DecisionEvidence | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.decision_evidence import DecisionEvidence # noqa: PLC0415
        from ..models.decision_regime import DecisionRegime # noqa: PLC0415
        subject = self.subject

        issuer = self.issuer

        target = self.target

        scope = self.scope

        allowed = self.allowed

        basis: str = self.basis

        event_id = self.event_id

        identity = self.identity

        target_version = self.target_version

        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        regime: dict[str, Any] | Unset = UNSET
        if not isinstance(self.regime, Unset):
            regime = self.regime.to_dict()

        vendor = self.vendor

        purpose = self.purpose

        gvl_version = self.gvl_version

        atp_vendor = self.atp_vendor

        evidence: dict[str, Any] | Unset = UNSET
        if not isinstance(self.evidence, Unset):
            evidence = self.evidence.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "subject": subject,
            "issuer": issuer,
            "target": target,
            "scope": scope,
            "allowed": allowed,
            "basis": basis,
        })
        if event_id is not UNSET:
            field_dict["eventId"] = event_id
        if identity is not UNSET:
            field_dict["identity"] = identity
        if target_version is not UNSET:
            field_dict["targetVersion"] = target_version
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if regime is not UNSET:
            field_dict["regime"] = regime
        if vendor is not UNSET:
            field_dict["vendor"] = vendor
        if purpose is not UNSET:
            field_dict["purpose"] = purpose
        if gvl_version is not UNSET:
            field_dict["gvlVersion"] = gvl_version
        if atp_vendor is not UNSET:
            field_dict["atpVendor"] = atp_vendor
        if evidence is not UNSET:
            field_dict["evidence"] = evidence

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decision_evidence import DecisionEvidence # noqa: PLC0415
        from ..models.decision_regime import DecisionRegime # noqa: PLC0415
        d = dict(src_dict)
        subject = d.pop("subject")

        issuer = d.pop("issuer")

        target = d.pop("target")

        scope = d.pop("scope")

        allowed = d.pop("allowed")

        basis = check_decision_basis(d.pop("basis"))




        event_id = d.pop("eventId", UNSET)

        identity = d.pop("identity", UNSET)

        target_version = d.pop("targetVersion", UNSET)

        _expires_at = d.pop("expiresAt", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at,  Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)




        _regime = d.pop("regime", UNSET)
        regime: DecisionRegime | Unset
        if isinstance(_regime,  Unset):
            regime = UNSET
        else:
            regime = DecisionRegime.from_dict(_regime)




        vendor = d.pop("vendor", UNSET)

        purpose = d.pop("purpose", UNSET)

        gvl_version = d.pop("gvlVersion", UNSET)

        atp_vendor = d.pop("atpVendor", UNSET)

        _evidence = d.pop("evidence", UNSET)
        evidence: DecisionEvidence | Unset
        if isinstance(_evidence,  Unset):
            evidence = UNSET
        else:
            evidence = DecisionEvidence.from_dict(_evidence)




        decision = cls(
            subject=subject,
            issuer=issuer,
            target=target,
            scope=scope,
            allowed=allowed,
            basis=basis,
            event_id=event_id,
            identity=identity,
            target_version=target_version,
            expires_at=expires_at,
            regime=regime,
            vendor=vendor,
            purpose=purpose,
            gvl_version=gvl_version,
            atp_vendor=atp_vendor,
            evidence=evidence,
        )


        decision.additional_properties = d
        return decision

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
