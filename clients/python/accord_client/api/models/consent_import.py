from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.consent_import_state import check_consent_import_state
from ..models.consent_import_state import ConsentImportState
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.consent_import_error import ConsentImportError





T = TypeVar("T", bound="ConsentImport")



@_attrs_define
class ConsentImport:
    """ An import and its progress, stored by the consent service (any gateway replica answers it).

        Attributes:
            id (str):
            state (ConsentImportState):
            read (int): Event lines read (a CSV header row is not counted).
            stored (int): Events stored by this import.
            duplicates (int): Valid lines stored before (same `externalId`, or the same content, in this account): not
                stored again.
            refused (int): Lines refused (see `errors`).
            errors (list[ConsentImportError]): The first 1,000 problems, in line order.
            failure (str | Unset): Why the import failed (`state` failed): the connection closed before the body ended, the
                daily event limit, a bad CSV header row.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
     """

    id: str
    state: ConsentImportState
    read: int
    stored: int
    duplicates: int
    refused: int
    errors: list[ConsentImportError]
    failure: str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.consent_import_error import ConsentImportError # noqa: PLC0415
        id = self.id

        state: str = self.state

        read = self.read

        stored = self.stored

        duplicates = self.duplicates

        refused = self.refused

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)



        failure = self.failure

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "state": state,
            "read": read,
            "stored": stored,
            "duplicates": duplicates,
            "refused": refused,
            "errors": errors,
        })
        if failure is not UNSET:
            field_dict["failure"] = failure
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.consent_import_error import ConsentImportError # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        state = check_consent_import_state(d.pop("state"))




        read = d.pop("read")

        stored = d.pop("stored")

        duplicates = d.pop("duplicates")

        refused = d.pop("refused")

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in (_errors):
            errors_item = ConsentImportError.from_dict(errors_item_data)



            errors.append(errors_item)


        failure = d.pop("failure", UNSET)

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at,  Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)




        _updated_at = d.pop("updatedAt", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at,  Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)




        consent_import = cls(
            id=id,
            state=state,
            read=read,
            stored=stored,
            duplicates=duplicates,
            refused=refused,
            errors=errors,
            failure=failure,
            created_at=created_at,
            updated_at=updated_at,
        )

        return consent_import

