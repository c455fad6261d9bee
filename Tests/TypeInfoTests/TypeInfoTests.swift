// TypeInfo tests.
