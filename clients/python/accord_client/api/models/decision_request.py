from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.decision_item import DecisionItem





T = TypeVar("T", bound="DecisionRequest")



@_attrs_define
class DecisionRequest:
    """ A batch of decisions.

        Attributes:
            items (list[DecisionItem]): 1 to 10000 questions, answered in the same order.
            at (datetime.datetime | Unset): The moment judged: what was true then (the newest event created at or before it;
                expiry judged then). Absent: now. Never in the future (400).
     """

    items: list[DecisionItem]
    at: datetime.datetime | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.decision_item import DecisionItem # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        at: str | Unset = UNSET
        if not isinstance(self.at, Unset):
            at = self.at.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "items": items,
        })
        if at is not UNSET:
            field_dict["at"] = at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decision_item import DecisionItem # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = DecisionItem.from_dict(items_item_data)



            items.append(items_item)


        _at = d.pop("at", UNSET)
        at: datetime.datetime | Unset
        if isinstance(_at,  Unset):
            at = UNSET
        else:
            at = datetime.datetime.fromisoformat(_at)




        decision_request = cls(
            items=items,
            at=at,
        )

        return decision_request

