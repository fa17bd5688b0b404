"""A module type from outside the gateway, declared as a ``spark_sql_workbench.modules`` entry point.

``LOAD MODULE shout`` gives ``shout(s)`` (upper case plus a suffix) as a SQL UDF; the property
``suffix`` (default "!") shows that a plugin's properties reach it.
"""
from gateway.features.modules import FunctionDefinition, Module, ModuleFactory, PropertySpec


class ShoutModule(Module):
    type = "shout"

    def list_functions(self):
        return ["shout"]

    def _definition(self, name):
        suffix = self.properties.get("suffix", "!").replace("'", "")
        create = f"CREATE TEMPORARY FUNCTION shout(s STRING) RETURNS STRING RETURN concat(upper(s), '{suffix}')"
        return FunctionDefinition(name=name, module=self.name, module_type=self.type, version=self.version,
                                  kind="sql", implementation=f"sql:shout{suffix}",
                                  register=lambda spark: spark.sql(create).collect())


class ShoutModuleFactory(ModuleFactory):
    type = "shout"
    description = "Test plugin: shout(s) = upper(s) || suffix."
    properties = (PropertySpec("suffix", "text appended to the shout", False, "!"),)

    def create_module(self, name, properties, spark):
        return ShoutModule(name, "0.1.0", properties)
