from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.consent_statistics_jurisdictions_item import ConsentStatisticsJurisdictionsItem
  from ..models.consent_statistics_targets_item import ConsentStatisticsTargetsItem





T = TypeVar("T", bound="ConsentStatistics")



@_attrs_define
class ConsentStatistics:
    """ 
        Attributes:
            app_id (str):
            total (int): Events written by the application.
            accepted (int): Of which action true.
            declined (int): Of which action false.
            no_action (int): Of which action null.
            distinct_subjects (int): Distinct subjects in the events of the application.
            gpc_declines (int): Of all events, those that record a Global Privacy Control signal with no explicit choice
                (`gpc: true`, `action: null`): the GPC-driven declines.
            jurisdictions (list[ConsentStatisticsJurisdictionsItem]): Events by the jurisdiction they were recorded in (at
                most the 1000 with the most events, most first); events without one are not counted here.
            latest_event_at (datetime.datetime | None): createdAt of the newest event; null when none.
            targets (list[ConsentStatisticsTargetsItem]): Per target (at most the 1000 with the most events, most first).
     """

    app_id: str
    total: int
    accepted: int
    declined: int
    no_action: int
    distinct_subjects: int
    gpc_declines: int
    jurisdictions: list[ConsentStatisticsJurisdictionsItem]
    latest_event_at: datetime.datetime | None
    targets: list[ConsentStatisticsTargetsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.consent_statistics_jurisdictions_item import ConsentStatisticsJurisdictionsItem # noqa: PLC0415
        from ..models.consent_statistics_targets_item import ConsentStatisticsTargetsItem # noqa: PLC0415
        app_id = self.app_id

        total = self.total

        accepted = self.accepted

        declined = self.declined

        no_action = self.no_action

        distinct_subjects = self.distinct_subjects

        gpc_declines = self.gpc_declines

        jurisdictions = []
        for jurisdictions_item_data in self.jurisdictions:
            jurisdictions_item = jurisdictions_item_data.to_dict()
            jurisdictions.append(jurisdictions_item)



        latest_event_at: None | str
        if isinstance(self.latest_event_at, datetime.datetime):
            latest_event_at = self.latest_event_at.isoformat()
        else:
            latest_event_at = self.latest_event_at

        targets = []
        for targets_item_data in self.targets:
            targets_item = targets_item_data.to_dict()
            targets.append(targets_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "appId": app_id,
            "total": total,
            "accepted": accepted,
            "declined": declined,
            "noAction": no_action,
            "distinctSubjects": distinct_subjects,
            "gpcDeclines": gpc_declines,
            "jurisdictions": jurisdictions,
            "latestEventAt": latest_event_at,
            "targets": targets,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.consent_statistics_jurisdictions_item import ConsentStatisticsJurisdictionsItem # noqa: PLC0415
        from ..models.consent_statistics_targets_item import ConsentStatisticsTargetsItem # noqa: PLC0415
        d = dict(src_dict)
        app_id = d.pop("appId")

        total = d.pop("total")

        accepted = d.pop("accepted")

        declined = d.pop("declined")

        no_action = d.pop("noAction")

        distinct_subjects = d.pop("distinctSubjects")

        gpc_declines = d.pop("gpcDeclines")

        jurisdictions = []
        _jurisdictions = d.pop("jurisdictions")
        for jurisdictions_item_data in (_jurisdictions):
            jurisdictions_item = ConsentStatisticsJurisdictionsItem.from_dict(jurisdictions_item_data)



            jurisdictions.append(jurisdictions_item)


        def _parse_latest_event_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                latest_event_at_type_0 = datetime.datetime.fromisoformat(data)



                return latest_event_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        latest_event_at = _parse_latest_event_at(d.pop("latestEventAt"))


        targets = []
        _targets = d.pop("targets")
        for targets_item_data in (_targets):
            targets_item = ConsentStatisticsTargetsItem.from_dict(targets_item_data)



            targets.append(targets_item)


        consent_statistics = cls(
            app_id=app_id,
            total=total,
            accepted=accepted,
            declined=declined,
            no_action=no_action,
            distinct_subjects=distinct_subjects,
            gpc_declines=gpc_declines,
            jurisdictions=jurisdictions,
            latest_event_at=latest_event_at,
            targets=targets,
        )


        consent_statistics.additional_properties = d
        return consent_statistics

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
