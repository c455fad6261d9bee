// libdwarf from Debian's libdwarf-dev (the 20210528 API). It ships no pkg-config file,
// so the header path and the library name are spelled out here. Only DWARFInfo imports this module.
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
