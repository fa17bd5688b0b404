"""Print the OpenAPI document; regenerate the checked-in snapshot after an intended API change:

    .venv/bin/python -m gateway.rest.openapi > tests/openapi_snapshot.json
"""
import json
import sys

from gateway.rest.app import openapi_document

if __name__ == "__main__":
    json.dump(openapi_document(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
