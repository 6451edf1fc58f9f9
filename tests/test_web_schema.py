"""The OpenAPI schema, tested against the app by schemathesis: requests made
from the schema (valid and invalid) never give a server error, and every
answer has a status, content type and body the schema documents."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import negative_data_rejection, positive_data_acceptance

from rackety.frontends.web.app import create_app

# the store in a folder of its own; the lexicon cache is the session's (conftest)
_folder = tempfile.mkdtemp(prefix="rackety-schema-")
atexit.register(shutil.rmtree, _folder, ignore_errors=True)
app = create_app(Path(_folder) / "app.sqlite", warm=False)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_follows_its_schema(case: schemathesis.Case) -> None:
    # Not checked: that schema-valid data is accepted (a CGP or a move can be
    # well-formed JSON and still wrong: those get a documented 400), and that
    # unknown query parameters are refused (they are ignored).
    case.call_and_validate(excluded_checks=[positive_data_acceptance, negative_data_rejection])
