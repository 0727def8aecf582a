from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.consent_event import ConsentEvent
  from ..models.subject_link import SubjectLink





T = TypeVar("T", bound="ConsentSubjectExport")



@_attrs_define
class ConsentSubjectExport:
    """ One subject’s export (GDPR art. 15 access request).

        Attributes:
            subject (str):
            events (list[ConsentEvent]): The subject’s events across targets (within the filters), oldest first.
            current (list[ConsentEvent]): The subject’s current states for each (issuer, target, scope) those events name,
                newest first, exactly as search with current=true answers them (its newest event, with `expired` and
                `renewalRequired`), whatever the filters.
            links (list[SubjectLink] | Unset): Linked identities: every link event that names the subject, as identity or as
                subject (any issuer), newest first. Absent when there is none.
     """

    subject: str
    events: list[ConsentEvent]
    current: list[ConsentEvent]
    links: list[SubjectLink] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.consent_event import ConsentEvent # noqa: PLC0415
        from ..models.subject_link import SubjectLink # noqa: PLC0415
        subject = self.subject

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)



        current = []
        for current_item_data in self.current:
            current_item = current_item_data.to_dict()
            current.append(current_item)



        links: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.links, Unset):
            links = []
            for links_item_data in self.links:
                links_item = links_item_data.to_dict()
                links.append(links_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "subject": subject,
            "events": events,
            "current": current,
        })
        if links is not UNSET:
            field_dict["links"] = links

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.consent_event import ConsentEvent # noqa: PLC0415
        from ..models.subject_link import SubjectLink # noqa: PLC0415
        d = dict(src_dict)
        subject = d.pop("subject")

        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            events_item = ConsentEvent.from_dict(events_item_data)



            events.append(events_item)


        current = []
        _current = d.pop("current")
        for current_item_data in (_current):
            current_item = ConsentEvent.from_dict(current_item_data)



            current.append(current_item)


        _links = d.pop("links", UNSET)
        links: list[SubjectLink] | Unset = UNSET
        if _links is not UNSET:
            links = []
            for links_item_data in _links:
                links_item = SubjectLink.from_dict(links_item_data)



                links.append(links_item)


        consent_subject_export = cls(
            subject=subject,
            events=events,
            current=current,
            links=links,
        )


        consent_subject_export.additional_properties = d
        return consent_subject_export

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
