from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ConsentEraseRequest")



@_attrs_define
class ConsentEraseRequest:
    """ 
        Attributes:
            subject (str): The subject to erase, exactly as written in its events. Not an `erased:` value (those are what
                erasure writes).
            issuer (str | Unset): Only the events of this issuer. Empty or absent: every issuer.
     """

    subject: str
    issuer: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        subject = self.subject

        issuer = self.issuer


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "subject": subject,
        })
        if issuer is not UNSET:
            field_dict["issuer"] = issuer

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        subject = d.pop("subject")

        issuer = d.pop("issuer", UNSET)

        consent_erase_request = cls(
            subject=subject,
            issuer=issuer,
        )

        return consent_erase_request

