from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.decision_regime_gpc import check_decision_regime_gpc
from ..models.decision_regime_gpc import DecisionRegimeGpc
from ..models.decision_regime_model import check_decision_regime_model
from ..models.decision_regime_model import DecisionRegimeModel
from typing import cast






T = TypeVar("T", bound="DecisionRegime")



@_attrs_define
class DecisionRegime:
    """ Specification targets that need consent: the regime applied and the key it was found under (`US-CA`, `US`, `*`).

        Attributes:
            key (str):
            model (DecisionRegimeModel):
            gpc (DecisionRegimeGpc):
     """

    key: str
    model: DecisionRegimeModel
    gpc: DecisionRegimeGpc
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        key = self.key

        model: str = self.model

        gpc: str = self.gpc


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "key": key,
            "model": model,
            "gpc": gpc,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        model = check_decision_regime_model(d.pop("model"))




        gpc = check_decision_regime_gpc(d.pop("gpc"))




        decision_regime = cls(
            key=key,
            model=model,
            gpc=gpc,
        )


        decision_regime.additional_properties = d
        return decision_regime

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
