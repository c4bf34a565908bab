# Type stubs of PyScript's module for mypy (the page's side of the browser: JavaScript proxies).
from typing import Any

window: Any
document: Any

async def fetch(url: str, **options: Any) -> Any: ...
