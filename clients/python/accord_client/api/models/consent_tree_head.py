from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="ConsentTreeHead")



@_attrs_define
class ConsentTreeHead:
    """ 
        Attributes:
            tree_size (int): Leaves (events) in the tree.
            root_hash (str): SHA-256, standard padded base64.
            timestamp (datetime.datetime):
            signature (str): Compact JWS over {treeSize, rootHash, timestamp, account} (RFC 8785 JSON).
     """

    tree_size: int
    root_hash: str
    timestamp: datetime.datetime
    signature: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        tree_size = self.tree_size

        root_hash = self.root_hash

        timestamp = self.timestamp.isoformat()

        signature = self.signature


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "treeSize": tree_size,
            "rootHash": root_hash,
            "timestamp": timestamp,
            "signature": signature,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tree_size = d.pop("treeSize")

        root_hash = d.pop("rootHash")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))




        signature = d.pop("signature")

        consent_tree_head = cls(
            tree_size=tree_size,
            root_hash=root_hash,
            timestamp=timestamp,
            signature=signature,
        )


        consent_tree_head.additional_properties = d
        return consent_tree_head

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
