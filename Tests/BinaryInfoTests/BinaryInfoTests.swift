// Tests for BinaryInfo; see docs/architecture.md.
