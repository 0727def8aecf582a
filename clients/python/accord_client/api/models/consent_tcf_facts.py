from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ConsentTcfFacts")



@_attrs_define
class ConsentTcfFacts:
    """ Facts decoded from `tcString` when the event was stored (IAB @iabtechlabtcf/core).

        Attributes:
            version (int): TC string format version (2 for TCF 2.0 to 2.3).
            policy_version (int): TCF policy version (4: TCF 2.2, 5: TCF 2.3).
            cmp_id (int): The consent management platform that made the string.
            cmp_version (int):
            purposes (list[int]): Purposes consented to (ids, ascending).
            legitimate_interests (list[int]): Purposes whose legitimate interest was not objected to (ids, ascending).
            special_features (list[int]): Special features opted in to (ids, ascending).
     """

    version: int
    policy_version: int
    cmp_id: int
    cmp_version: int
    purposes: list[int]
    legitimate_interests: list[int]
    special_features: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        version = self.version

        policy_version = self.policy_version

        cmp_id = self.cmp_id

        cmp_version = self.cmp_version

        purposes = self.purposes



        legitimate_interests = self.legitimate_interests



        special_features = self.special_features




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "version": version,
            "policyVersion": policy_version,
            "cmpId": cmp_id,
            "cmpVersion": cmp_version,
            "purposes": purposes,
            "legitimateInterests": legitimate_interests,
            "specialFeatures": special_features,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        policy_version = d.pop("policyVersion")

        cmp_id = d.pop("cmpId")

        cmp_version = d.pop("cmpVersion")

        purposes = cast(list[int], d.pop("purposes"))


        legitimate_interests = cast(list[int], d.pop("legitimateInterests"))


        special_features = cast(list[int], d.pop("specialFeatures"))


        consent_tcf_facts = cls(
            version=version,
            policy_version=policy_version,
            cmp_id=cmp_id,
            cmp_version=cmp_version,
            purposes=purposes,
            legitimate_interests=legitimate_interests,
            special_features=special_features,
        )


        consent_tcf_facts.additional_properties = d
        return consent_tcf_facts

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
