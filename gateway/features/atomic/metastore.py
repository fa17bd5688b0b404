"""The session catalog (Hive metastore or in-memory) as the staging code needs it, in plain SQL."""
from __future__ import annotations

from typing import Optional

from gateway.features.atomic.parse import quote
from gateway.spark.freshness import refresh_cached_data

SESSION_CATALOG = "spark_catalog"


class SessionCatalog:
    def __init__(self, spark) -> None:
        self.spark = spark

    @staticmethod
    def ident(db: str, name: str) -> str:
        return quote(SESSION_CATALOG, db, name)

    def table_type(self, db: str, name: str) -> Optional[str]:
        """MANAGED, EXTERNAL or VIEW; None when there is no such table."""
        if not self.exists(db, name):
            return None
        rows = self.spark.sql(f"DESCRIBE TABLE EXTENDED {self.ident(db, name)}").collect()
        for row in rows:
            if row[0] == "Type":
                return str(row[1]).strip().upper()
        return "MANAGED"

    def exists(self, db: str, name: str) -> bool:
        return bool(self.spark.catalog.tableExists(self.ident(db, name)))

    def location(self, db: str, name: str) -> str:
        for row in self.spark.sql(f"DESCRIBE TABLE EXTENDED {self.ident(db, name)}").collect():
            if row[0] == "Location":
                return str(row[1]).strip()
        raise ValueError(f"table {db}.{name} has no location (is it a view?)")

    def database_location(self, db: str) -> str:
        for row in self.spark.sql(f"DESCRIBE DATABASE EXTENDED {quote(SESSION_CATALOG, db)}").collect():
            if str(row[0]).strip().lower() == "location":
                return str(row[1]).strip().rstrip("/")
        raise ValueError(f"database {db} has no location")

    def partition_columns(self, db: str, name: str) -> list[str]:
        return [c.name for c in self.spark.catalog.listColumns(self.ident(db, name)) if c.isPartition]

    def rename(self, db: str, old: str, new: str) -> None:
        """Rename within a database; for a managed table the metastore moves its directory too."""
        self.spark.sql(f"ALTER TABLE {self.ident(db, old)} RENAME TO {quote(db, new)}")

    def drop(self, db: str, name: str) -> None:
        self.spark.sql(f"DROP TABLE IF EXISTS {self.ident(db, name)} PURGE")

    def create_like(self, db: str, name: str, source: str) -> None:
        self.spark.sql(f"CREATE TABLE {self.ident(db, name)} LIKE {self.ident(db, source)}")

    def sync_partitions(self, db: str, name: str) -> None:
        """Make the metastore's partitions match the directories (adds new ones, drops gone ones)."""
        self.spark.sql(f"MSCK REPAIR TABLE {self.ident(db, name)} SYNC PARTITIONS")

    def refresh(self, db: str, name: str) -> None:
        self.spark.sql(f"REFRESH TABLE {self.ident(db, name)}")
        # CACHE TABLE data over the swapped directory would still read the old files (issue 27 item 5).
        refresh_cached_data(self.spark, self.location(db, name))
