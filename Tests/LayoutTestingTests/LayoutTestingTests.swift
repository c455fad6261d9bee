// Tests for LayoutTesting; see docs/architecture.md.
