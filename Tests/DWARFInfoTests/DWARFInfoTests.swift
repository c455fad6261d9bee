// Tests for DWARFInfo; see docs/architecture.md.
