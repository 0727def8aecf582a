from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ConsentInclusionProof")



@_attrs_define
class ConsentInclusionProof:
    """ 
        Attributes:
            leaf_index (int):
            tree_size (int):
            leaf_hash (str): SHA-256, standard padded base64.
            audit_path (list[str]): Sibling hashes from the leaf up (RFC 9162 §2.1.3.1 order).
     """

    leaf_index: int
    tree_size: int
    leaf_hash: str
    audit_path: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        leaf_index = self.leaf_index

        tree_size = self.tree_size

        leaf_hash = self.leaf_hash

        audit_path = self.audit_path




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "leafIndex": leaf_index,
            "treeSize": tree_size,
            "leafHash": leaf_hash,
            "auditPath": audit_path,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        leaf_index = d.pop("leafIndex")

        tree_size = d.pop("treeSize")

        leaf_hash = d.pop("leafHash")

        audit_path = cast(list[str], d.pop("auditPath"))


        consent_inclusion_proof = cls(
            leaf_index=leaf_index,
            tree_size=tree_size,
            leaf_hash=leaf_hash,
            audit_path=audit_path,
        )


        consent_inclusion_proof.additional_properties = d
        return consent_inclusion_proof

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
