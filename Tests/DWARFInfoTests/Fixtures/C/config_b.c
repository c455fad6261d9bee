/* The other `struct config`, with another layout. */
struct config { long a; char b; } other_config;
