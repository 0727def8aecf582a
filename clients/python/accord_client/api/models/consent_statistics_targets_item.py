from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ConsentStatisticsTargetsItem")



@_attrs_define
class ConsentStatisticsTargetsItem:
    """ 
        Attributes:
            target (str):
            events (int): Events of the application for this target.
            current_accepted (int): Consent states of this target whose current event, written by this application, is
                action true.
            current_declined (int): Same, action false.
            current_no_action (int): Same, action null.
            current_expired (int): Current states of this target, written by this application, whose `expiresAt` has passed
                (counted here and not under their action).
            current_renewal_required (int): Current states of this target (a specification), written by this application,
                consented to a version older than its latest material change (`renewalRequired`; also counted under their action
                or `currentExpired`). 0 for other targets.
            current_gpc_declines (int): Current states of this target, written by this application, whose current event is a
                GPC signal with no explicit choice (also counted under `currentNoAction` or `currentExpired`).
     """

    target: str
    events: int
    current_accepted: int
    current_declined: int
    current_no_action: int
    current_expired: int
    current_renewal_required: int
    current_gpc_declines: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        target = self.target

        events = self.events

        current_accepted = self.current_accepted

        current_declined = self.current_declined

        current_no_action = self.current_no_action

        current_expired = self.current_expired

        current_renewal_required = self.current_renewal_required

        current_gpc_declines = self.current_gpc_declines


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "target": target,
            "events": events,
            "currentAccepted": current_accepted,
            "currentDeclined": current_declined,
            "currentNoAction": current_no_action,
            "currentExpired": current_expired,
            "currentRenewalRequired": current_renewal_required,
            "currentGpcDeclines": current_gpc_declines,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        target = d.pop("target")

        events = d.pop("events")

        current_accepted = d.pop("currentAccepted")

        current_declined = d.pop("currentDeclined")

        current_no_action = d.pop("currentNoAction")

        current_expired = d.pop("currentExpired")

        current_renewal_required = d.pop("currentRenewalRequired")

        current_gpc_declines = d.pop("currentGpcDeclines")

        consent_statistics_targets_item = cls(
            target=target,
            events=events,
            current_accepted=current_accepted,
            current_declined=current_declined,
            current_no_action=current_no_action,
            current_expired=current_expired,
            current_renewal_required=current_renewal_required,
            current_gpc_declines=current_gpc_declines,
        )


        consent_statistics_targets_item.additional_properties = d
        return consent_statistics_targets_item

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
