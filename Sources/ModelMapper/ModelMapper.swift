// The ModelMapper module; see docs/architecture.md.
