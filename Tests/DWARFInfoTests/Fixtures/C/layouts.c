#include "layouts.h"
/* One object of each type, so that the compiler describes every type in DWARF. */
struct padded fixture_padded;
union number fixture_number;
struct flags fixture_flags;
enum color fixture_color;
point_t fixture_point;
struct outer fixture_outer;
struct packed fixture_packed;
struct aligned fixture_aligned;
struct header fixture_header;
