from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="SubjectLinkRequest")



@_attrs_define
class SubjectLinkRequest:
    """ A link event: for one issuer, `identity` belongs to `subject` from now on (null: to no one). The newest link of an
    identity wins; an identity that has identities of its own, or a subject linked elsewhere as an identity, is refused
    (409): links never chain.

        Attributes:
            issuer (str): The issuer of the consent events the link joins (links hold per issuer).
            identity (str): The identity being linked: a device or cookie id the web components used. Stored exactly as
                sent.
            subject (None | str): The known subject the identity belongs to (e.g. the signed-in user id); null unlinks the
                identity.
     """

    issuer: str
    identity: str
    subject: None | str





    def to_dict(self) -> dict[str, Any]:
        issuer = self.issuer

        identity = self.identity

        subject: None | str
        subject = self.subject


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "issuer": issuer,
            "identity": identity,
            "subject": subject,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        issuer = d.pop("issuer")

        identity = d.pop("identity")

        def _parse_subject(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subject = _parse_subject(d.pop("subject"))


        subject_link_request = cls(
            issuer=issuer,
            identity=identity,
            subject=subject,
        )

        return subject_link_request

