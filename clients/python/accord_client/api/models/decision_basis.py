from typing import Literal

DecisionBasis = Literal['ac-consent', 'ac-not-disclosed', 'ac-refused', 'consent', 'declined', 'expired', 'gpc', 'no-ac-string', 'no-consent', 'no-tc-string', 'not-required', 'opt-out', 'renewal-required', 'tcf-consent', 'tcf-legitimate-interest', 'tcf-refused', 'tcf-restricted']

DECISION_BASIS_VALUES: set[DecisionBasis] = { 'ac-consent', 'ac-not-disclosed', 'ac-refused', 'consent', 'declined', 'expired', 'gpc', 'no-ac-string', 'no-consent', 'no-tc-string', 'not-required', 'opt-out', 'renewal-required', 'tcf-consent', 'tcf-legitimate-interest', 'tcf-refused', 'tcf-restricted',  }

def check_decision_basis(value: str) -> DecisionBasis:
    if value in DECISION_BASIS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DECISION_BASIS_VALUES!r}")
