"""Reading untrusted deck text safely: the positioned YAML tree, typed readers that report
problems at a line and column, file limits, and the arithmetic evaluator for calculations."""
