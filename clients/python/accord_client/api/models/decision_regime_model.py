from typing import Literal

DecisionRegimeModel = Literal['notice', 'opt-in', 'opt-out']

DECISION_REGIME_MODEL_VALUES: set[DecisionRegimeModel] = { 'notice', 'opt-in', 'opt-out',  }

def check_decision_regime_model(value: str) -> DecisionRegimeModel:
    if value in DECISION_REGIME_MODEL_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DECISION_REGIME_MODEL_VALUES!r}")
