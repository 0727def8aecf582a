""" Contains all the data models used in inputs/outputs """

from .consent_consistency_proof import ConsentConsistencyProof
from .consent_erase_request import ConsentEraseRequest
from .consent_erasure import ConsentErasure
from .consent_event import ConsentEvent
from .consent_export_link_line import ConsentExportLinkLine
from .consent_form_request import ConsentFormRequest
from .consent_form_request_action import ConsentFormRequestAction
from .consent_form_request_gpc import ConsentFormRequestGpc
from .consent_gpp_facts import ConsentGppFacts
from .consent_import import ConsentImport
from .consent_import_error import ConsentImportError
from .consent_import_state import ConsentImportState
from .consent_inclusion_proof import ConsentInclusionProof
from .consent_input import ConsentInput
from .consent_receipt import ConsentReceipt
from .consent_statistics import ConsentStatistics
from .consent_statistics_jurisdictions_item import ConsentStatisticsJurisdictionsItem
from .consent_statistics_targets_item import ConsentStatisticsTargetsItem
from .consent_subject_export import ConsentSubjectExport
from .consent_tcf_facts import ConsentTcfFacts
from .consent_tree_head import ConsentTreeHead
from .decision import Decision
from .decision_answer import DecisionAnswer
from .decision_basis import DecisionBasis
from .decision_evidence import DecisionEvidence
from .decision_item import DecisionItem
from .decision_regime import DecisionRegime
from .decision_regime_gpc import DecisionRegimeGpc
from .decision_regime_model import DecisionRegimeModel
from .decision_request import DecisionRequest
from .dpv_json_ld import DpvJsonLd
from .dpv_json_ld_context import DpvJsonLdContext
from .export_consents_format import ExportConsentsFormat
from .get_consent_format import GetConsentFormat
from .get_consent_receipt_format import GetConsentReceiptFormat
from .o_auth_error import OAuthError
from .o_auth_error_error import OAuthErrorError
from .problem import Problem
from .problem_errors_item import ProblemErrorsItem
from .subject_link import SubjectLink
from .subject_link_request import SubjectLinkRequest
from .token_request import TokenRequest
from .token_request_grant_type import TokenRequestGrantType
from .token_response import TokenResponse

__all__ = (
    "ConsentConsistencyProof",
    "ConsentEraseRequest",
    "ConsentErasure",
    "ConsentEvent",
    "ConsentExportLinkLine",
    "ConsentFormRequest",
    "ConsentFormRequestAction",
    "ConsentFormRequestGpc",
    "ConsentGppFacts",
    "ConsentImport",
    "ConsentImportError",
    "ConsentImportState",
    "ConsentInclusionProof",
    "ConsentInput",
    "ConsentReceipt",
    "ConsentStatistics",
    "ConsentStatisticsJurisdictionsItem",
    "ConsentStatisticsTargetsItem",
    "ConsentSubjectExport",
    "ConsentTcfFacts",
    "ConsentTreeHead",
    "Decision",
    "DecisionAnswer",
    "DecisionBasis",
    "DecisionEvidence",
    "DecisionItem",
    "DecisionRegime",
    "DecisionRegimeGpc",
    "DecisionRegimeModel",
    "DecisionRequest",
    "DpvJsonLd",
    "DpvJsonLdContext",
    "ExportConsentsFormat",
    "GetConsentFormat",
    "GetConsentReceiptFormat",
    "OAuthError",
    "OAuthErrorError",
    "Problem",
    "ProblemErrorsItem",
    "SubjectLink",
    "SubjectLinkRequest",
    "TokenRequest",
    "TokenRequestGrantType",
    "TokenResponse",
)
