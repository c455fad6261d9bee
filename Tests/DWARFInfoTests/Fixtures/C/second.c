#include "layouts.h"
/* A second unit describing the same types: the reader lists each once. It also declares a
 * `struct config` unlike the one in config_b.c, and the reader lists both. */
struct padded second_padded;
struct outer second_outer;
struct config { int a; } second_config;
struct only_declared;
struct only_declared *second_pointer;
