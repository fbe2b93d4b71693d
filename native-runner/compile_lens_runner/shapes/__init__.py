"""The report's objects as typed dicts, for the code that builds and reads them: report.schema.json is the one
definition of the report, and test/python/test_report_shapes.py fails when a typed dict here names other keys, or other
required keys, than its part of the schema. A leaf below every layer (measure/ included): types only, no behaviour.
Each `_Name` holds the keys the schema requires, `Name` adds the optional ones. Modules follow the schema's parts,
each importing only those before it: common, answer, compiler, mode, in_situ, region, ranks, report."""
