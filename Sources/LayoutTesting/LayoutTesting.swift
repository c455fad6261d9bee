// The LayoutTesting module; see docs/architecture.md.
