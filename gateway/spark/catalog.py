"""What the metastore (Spark's external catalog) holds beyond the public Catalog API."""
from __future__ import annotations

from pyspark.errors import AnalysisException

from gateway.spark.backend import Capability, jsession, supports

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


def session_table_schema(spark, parts: list[str]):
    """The schema the session catalog records for a table or view (``[name]`` or ``[database, name]``), read
    from its metadata without resolving the relation: no file listing, no schema inference. Measured at
    10,000 tables (2 cores): about 25 ms a table, where ``spark.table(name).schema`` took 65-400 ms (it builds
    the relation, and for a Hive parquet table lists its files). None when this cannot answer (Spark Connect,
    another current catalog, a name of three parts): the caller then asks ``spark.table``. Raises Spark's
    AnalysisException when there is no such table."""
    import json

    from pyspark.sql.types import StructType

    if not supports(spark, Capability.SESSION_STATE) or not 1 <= len(parts) <= 2:
        return None
    state = jsession(spark, Capability.SESSION_STATE, "a table's schema from the session catalog").sessionState()
    if state.catalogManager().currentCatalog().name() != "spark_catalog":
        return None  # a bare name resolves in another catalog: only Spark's resolution knows it
    jvm = spark.sparkContext._jvm
    database = jvm.scala.Some(parts[0]) if len(parts) == 2 else jvm.scala.Option.empty()
    identifier = jvm.org.apache.spark.sql.catalyst.TableIdentifier(parts[-1], database)
    metadata = state.catalog().getTempViewOrPermanentTableMetadata(identifier)
    return StructType.fromJson(json.loads(metadata.schema().json()))
