from typing import Literal

DecisionRegimeGpc = Literal['ignore', 'opt-out']

DECISION_REGIME_GPC_VALUES: set[DecisionRegimeGpc] = { 'ignore', 'opt-out',  }

def check_decision_regime_gpc(value: str) -> DecisionRegimeGpc:
    if value in DECISION_REGIME_GPC_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DECISION_REGIME_GPC_VALUES!r}")
