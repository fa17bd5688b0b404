"""What the metastore (Spark's external catalog) holds beyond the public Catalog API."""
from __future__ import annotations

from pyspark.errors import AnalysisException

from gateway.spark.backend import Capability, jsession

_MAX_RESOURCES = 1000


def function_resources(spark, database: str, name: str) -> list[dict]:
    """``[{"type": "JAR", "uri": …}]`` stored with a persistent function; [] when the metastore
    does not know the function or its database."""
    catalog = jsession(spark, Capability.SESSION_STATE,
                       "the resources the metastore holds for a function").sharedState().externalCatalog()
    try:
        function = catalog.getFunction(database, name)
    except AnalysisException:  # NoSuchFunctionException / NoSuchDatabaseException
        return []
    resources, found = function.resources().iterator(), []
    while resources.hasNext() and len(found) < _MAX_RESOURCES:
        resource = resources.next()
        found.append({"type": str(resource.resourceType().resourceType()).upper(), "uri": str(resource.uri())})
    return found
