// Tests for ModelMapper; see docs/architecture.md.
