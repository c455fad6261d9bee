// The BinaryInfo module; see docs/architecture.md.
