from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ConsentGppFacts")



@_attrs_define
class ConsentGppFacts:
    """ Facts decoded from `gppString` when the event was stored (IAB @iabgpp/cmpapi).

        Attributes:
            sections (list[str]): The sections present, by their GPP API prefix (`tcfeuv2`, `uspv1`, `usnat`, `usca`, …), in
                the order of the string.
            sale_opt_out (bool | Unset): US sections: true when any opts out of the sale of personal data, false when they
                say the subject did not; absent when none applies.
            sharing_opt_out (bool | Unset): Same, for sharing (cross-context behavioural advertising).
            targeted_advertising_opt_out (bool | Unset): Same, for targeted advertising.
     """

    sections: list[str]
    sale_opt_out: bool | Unset = UNSET
    sharing_opt_out: bool | Unset = UNSET
    targeted_advertising_opt_out: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        sections = self.sections



        sale_opt_out = self.sale_opt_out

        sharing_opt_out = self.sharing_opt_out

        targeted_advertising_opt_out = self.targeted_advertising_opt_out


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "sections": sections,
        })
        if sale_opt_out is not UNSET:
            field_dict["saleOptOut"] = sale_opt_out
        if sharing_opt_out is not UNSET:
            field_dict["sharingOptOut"] = sharing_opt_out
        if targeted_advertising_opt_out is not UNSET:
            field_dict["targetedAdvertisingOptOut"] = targeted_advertising_opt_out

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sections = cast(list[str], d.pop("sections"))


        sale_opt_out = d.pop("saleOptOut", UNSET)

        sharing_opt_out = d.pop("sharingOptOut", UNSET)

        targeted_advertising_opt_out = d.pop("targetedAdvertisingOptOut", UNSET)

        consent_gpp_facts = cls(
            sections=sections,
            sale_opt_out=sale_opt_out,
            sharing_opt_out=sharing_opt_out,
            targeted_advertising_opt_out=targeted_advertising_opt_out,
        )


        consent_gpp_facts.additional_properties = d
        return consent_gpp_facts

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
