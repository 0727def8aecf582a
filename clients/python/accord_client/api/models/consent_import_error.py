from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ConsentImportError")



@_attrs_define
class ConsentImportError:
    """ 
        Attributes:
            line (int): The line, counted from 1 (with CSV, line 1 is the header row).
            field (str): The field (NDJSON) or column (CSV) the problem is in; empty for the whole line.
            detail (str):
     """

    line: int
    field: str
    detail: str





    def to_dict(self) -> dict[str, Any]:
        line = self.line

        field = self.field

        detail = self.detail


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "line": line,
            "field": field,
            "detail": detail,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        line = d.pop("line")

        field = d.pop("field")

        detail = d.pop("detail")

        consent_import_error = cls(
            line=line,
            field=field,
            detail=detail,
        )

        return consent_import_error

