from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.dpv_json_ld_context import DpvJsonLdContext





T = TypeVar("T", bound="DpvJsonLd")



@_attrs_define
class DpvJsonLd:
    """ A record in W3C DPV JSON-LD (DPV 2.x) per the DPV guide for ISO/IEC TS 27560 consent records and receipts; the
    mapping is in docs/consent.md.

        Attributes:
            context (DpvJsonLdContext): The prefixes of the vocabularies used: dpv, eu-gdpr, pd, loc, dct, rdf, xsd.
            id (str):
            type_ (str): `dpv:ConsentRecord`, `dpv:ConsentReceipt` or `dpv:Process` (a specification).
     """

    context: DpvJsonLdContext
    id: str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.dpv_json_ld_context import DpvJsonLdContext # noqa: PLC0415
        context = self.context.to_dict()

        id = self.id

        type_ = self.type_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "@context": context,
            "@id": id,
            "@type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dpv_json_ld_context import DpvJsonLdContext # noqa: PLC0415
        d = dict(src_dict)
        context = DpvJsonLdContext.from_dict(d.pop("@context"))




        id = d.pop("@id")

        type_ = d.pop("@type")

        dpv_json_ld = cls(
            context=context,
            id=id,
            type_=type_,
        )


        dpv_json_ld.additional_properties = d
        return dpv_json_ld

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
