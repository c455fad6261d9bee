// The DWARFInfo module; see docs/architecture.md.
