from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="ConsentErasure")



@_attrs_define
class ConsentErasure:
    """ The record of one erasure, kept without the subject in clear.

        Attributes:
            id (str): Time-ordered id of the record.
            subject_hash (str): What the subject became in the events: its keyed hash.
            app_id (str): The application whose token asked.
            client_id (str): The OAuth client that asked.
            erased_at (datetime.datetime):
            events (int): Events whose personal data this erasure replaced (0 when nothing was left).
            states (int): Current states moved to the erased subject.
            issuer (str | Unset): Present when the erasure was narrowed to one issuer.
     """

    id: str
    subject_hash: str
    app_id: str
    client_id: str
    erased_at: datetime.datetime
    events: int
    states: int
    issuer: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        subject_hash = self.subject_hash

        app_id = self.app_id

        client_id = self.client_id

        erased_at = self.erased_at.isoformat()

        events = self.events

        states = self.states

        issuer = self.issuer


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "subjectHash": subject_hash,
            "appId": app_id,
            "clientId": client_id,
            "erasedAt": erased_at,
            "events": events,
            "states": states,
        })
        if issuer is not UNSET:
            field_dict["issuer"] = issuer

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        subject_hash = d.pop("subjectHash")

        app_id = d.pop("appId")

        client_id = d.pop("clientId")

        erased_at = datetime.datetime.fromisoformat(d.pop("erasedAt"))




        events = d.pop("events")

        states = d.pop("states")

        issuer = d.pop("issuer", UNSET)

        consent_erasure = cls(
            id=id,
            subject_hash=subject_hash,
            app_id=app_id,
            client_id=client_id,
            erased_at=erased_at,
            events=events,
            states=states,
            issuer=issuer,
        )


        consent_erasure.additional_properties = d
        return consent_erasure

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
