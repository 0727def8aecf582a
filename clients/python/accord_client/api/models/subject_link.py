from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="SubjectLink")



@_attrs_define
class SubjectLink:
    """ One link event as stored.

        Attributes:
            id (str): Time-ordered id of the link event.
            app_id (str): The application whose token linked.
            issuer (str):
            identity (str):
            subject (None | str): null: this event unlinked the identity.
            created_at (datetime.datetime):
            imported_at (datetime.datetime | Unset): Imported links only (POST /consent/v0/imports): when the link came into
                this registry; `createdAt` is its original time.
            erased_at (datetime.datetime | Unset): When an erasure replaced identity and subject by keyed hashes.
     """

    id: str
    app_id: str
    issuer: str
    identity: str
    subject: None | str
    created_at: datetime.datetime
    imported_at: datetime.datetime | Unset = UNSET
    erased_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        app_id = self.app_id

        issuer = self.issuer

        identity = self.identity

        subject: None | str
        subject = self.subject

        created_at = self.created_at.isoformat()

        imported_at: str | Unset = UNSET
        if not isinstance(self.imported_at, Unset):
            imported_at = self.imported_at.isoformat()

        erased_at: str | Unset = UNSET
        if not isinstance(self.erased_at, Unset):
            erased_at = self.erased_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "appId": app_id,
            "issuer": issuer,
            "identity": identity,
            "subject": subject,
            "createdAt": created_at,
        })
        if imported_at is not UNSET:
            field_dict["importedAt"] = imported_at
        if erased_at is not UNSET:
            field_dict["erasedAt"] = erased_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        app_id = d.pop("appId")

        issuer = d.pop("issuer")

        identity = d.pop("identity")

        def _parse_subject(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subject = _parse_subject(d.pop("subject"))


        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        _imported_at = d.pop("importedAt", UNSET)
        imported_at: datetime.datetime | Unset
        if isinstance(_imported_at,  Unset):
            imported_at = UNSET
        else:
            imported_at = datetime.datetime.fromisoformat(_imported_at)




        _erased_at = d.pop("erasedAt", UNSET)
        erased_at: datetime.datetime | Unset
        if isinstance(_erased_at,  Unset):
            erased_at = UNSET
        else:
            erased_at = datetime.datetime.fromisoformat(_erased_at)




        subject_link = cls(
            id=id,
            app_id=app_id,
            issuer=issuer,
            identity=identity,
            subject=subject,
            created_at=created_at,
            imported_at=imported_at,
            erased_at=erased_at,
        )


        subject_link.additional_properties = d
        return subject_link

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
