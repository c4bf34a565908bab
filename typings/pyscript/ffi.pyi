from collections.abc import Callable
from typing import Any

def create_proxy(function: Callable[..., Any]) -> Any: ...
