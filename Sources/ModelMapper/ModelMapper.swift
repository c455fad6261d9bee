// The ModelMapper module: JSON <-> models through ClassInfo. See docs/modelmapper.md.
